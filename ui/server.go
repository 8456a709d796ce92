package ui

import (
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// PageLines is how many lines of output one page shows.
const PageLines = 500

// Run is one row of the run list.
type Run struct {
	Handle  string // run:ID
	Command string
	Exit    int
	Status  string
	Size    string // human size of the output
	Lines   int64  // lines of stdout
	Age     string
}

// Match is a line of a stream matched by a search.
type Match struct {
	Line int64
	Text string
}

// Source supplies what the page shows. Implementations bound every answer.
type Source interface {
	// Runs lists recent runs, newest first.
	Runs(ctx context.Context, n int) ([]Run, error)
	// Digest is a run's digest, byte for byte as ctx show prints it.
	Digest(ctx context.Context, run string) (string, error)
	// Lines returns lines from..to (1-based, inclusive) of a stream handle
	// (run:ID#stdout), each without its newline, and the stream's line count.
	Lines(ctx context.Context, stream string, from, to int64) ([]string, int64, error)
	// Grep returns up to limit lines of a stream matching the RE2 expression.
	Grep(ctx context.Context, stream, expr string, limit int) ([]Match, error)
}

// FailureRE finds the lines the page marks as failures: the words ctx get's
// zoom view looks for, also right after a colour code ("\x1b[31merror").
const FailureRE = `(?i)(\b|\x1b\[[0-9;]*m)(error|fail(ed|ure)?|fatal|panic|exception|traceback)\b`

// Handler serves the page.
func Handler(src Source) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		runs, err := src.Runs(r.Context(), 100)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		render(w, "index", map[string]any{"Runs": runs})
	})
	mux.HandleFunc("GET /run", func(w http.ResponseWriter, r *http.Request) { servePage(w, r, src) })
	mux.HandleFunc("GET /style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte(styleCSS))
	})
	return loopbackOnly(mux)
}

type lineView struct {
	N      int64
	Handle string
	HTML   template.HTML
	Fail   bool
}

func servePage(w http.ResponseWriter, r *http.Request, src Source) {
	q := r.URL.Query()
	run := q.Get("h")
	if !strings.HasPrefix(run, "run:") || strings.ContainsAny(run, "#:") && strings.Count(run, ":") > 1 {
		http.Error(w, "want ?h=run:ID", http.StatusBadRequest)
		return
	}
	stream := q.Get("stream")
	if stream != "stderr" && stream != "merged" {
		stream = "stdout"
	}
	sh := run + "#" + stream
	page, _ := strconv.ParseInt(q.Get("page"), 10, 64)
	page = min(max(page, 1), math.MaxInt64/PageLines) // a huge page overflowed its first line
	link := func(p int64) string {
		v := url.Values{"h": {run}, "stream": {stream}, "page": {strconv.FormatInt(p, 10)}}
		return "/run?" + v.Encode()
	}
	digest, err := src.Digest(r.Context(), run)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	from := (page-1)*PageLines + 1
	lines, total, err := src.Lines(r.Context(), sh, from, from+PageLines-1)
	if err != nil && total > 0 {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	pages := max((total+PageLines-1)/PageLines, 1)
	if page > pages {
		// Past the last page (an old link, a typed number): show the last.
		to := link(pages)
		if e := q.Get("q"); e != "" {
			to += "&" + url.Values{"q": {e}}.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	fails, _ := src.Grep(r.Context(), sh, FailureRE, 200)
	failAt := map[int64]bool{}
	type failLink struct {
		N    int64
		Page int64
		Text string
	}
	var failLinks []failLink
	for _, m := range fails {
		failAt[m.Line] = true
		failLinks = append(failLinks, failLink{m.Line, (m.Line-1)/PageLines + 1, m.Text})
	}
	views := make([]lineView, len(lines))
	for i, l := range lines {
		n := from + int64(i)
		views[i] = lineView{N: n, Handle: fmt.Sprintf("%s:L%d", sh, n), HTML: template.HTML(ANSI(l)), Fail: failAt[n]}
	}
	var matches []failLink
	expr := q.Get("q")
	var searchErr string
	if expr != "" {
		ms, err := src.Grep(r.Context(), sh, expr, 200)
		if err != nil {
			searchErr = err.Error()
		}
		for _, m := range ms {
			matches = append(matches, failLink{m.Line, (m.Line-1)/PageLines + 1, m.Text})
		}
	}
	data := map[string]any{
		"Run": run, "Stream": sh, "StreamName": stream, "Digest": digest, "Lines": views, "Total": total,
		"Page": page, "Pages": pages, "Fails": failLinks, "Query": expr, "Matches": matches, "SearchErr": searchErr,
		"Prev": "", "Next": "", "PageLink": link(page),
	}
	if page > 1 {
		data["Prev"] = link(page - 1)
	}
	if page < pages {
		data["Next"] = link(page + 1)
	}
	render(w, "run", data)
}

func render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'self'")
	if err := pages().ExecuteTemplate(w, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// loopbackOnly refuses requests whose Host header is not a loopback name or
// address, so a web page elsewhere cannot reach the server by rebinding a
// domain name to 127.0.0.1.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		ip := net.ParseIP(host)
		if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "ctx ui answers on loopback only", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Listen opens a loopback listener; addr must name a loopback host.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("address %q is not loopback: ctx ui serves only this machine (use 127.0.0.1:PORT)", addr)
	}
	return net.Listen("tcp", addr)
}

//go:embed page.html
var pageHTML string

//go:embed style.css
var styleCSS string

// pages is parsed on first use: ctx ui is rare, and every other command would
// otherwise pay for the parse at start-up.
var pages = sync.OnceValue(func() *template.Template { return template.Must(template.New("").Parse(pageHTML)) })
