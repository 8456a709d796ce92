package ui

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// fakeSource is a run of 1,200 lines with a coloured error on line 1,100.
type fakeSource struct{}

func (fakeSource) Runs(context.Context, int) ([]Run, error) {
	return []Run{{Handle: "run:0123456789ab", Command: "make <all>", Exit: 2, Status: "exited", Size: "9 KiB", Lines: 1200, Age: "1m"}}, nil
}
func (fakeSource) Digest(context.Context, string) (string, error) {
	return "$ make\nrun:0123456789ab · exit 2\n", nil
}
func (fakeSource) Lines(_ context.Context, _ string, from, to int64) ([]string, int64, error) {
	var out []string
	for n := from; n <= min(to, 1200); n++ {
		out = append(out, fakeLine(n))
	}
	return out, 1200, nil
}
func (fakeSource) Grep(_ context.Context, _ string, expr string, _ int) ([]Match, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	var ms []Match
	for n := int64(1); n <= 1200; n++ {
		if re.MatchString(fakeLine(n)) {
			ms = append(ms, Match{n, fakeLine(n)})
		}
	}
	return ms, nil
}

func fakeLine(n int64) string {
	if n == 1100 {
		return "\x1b[31merror: widget exploded\x1b[0m"
	}
	return fmt.Sprintf("step %d <ok>", n)
}

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestPages(t *testing.T) {
	srv := httptest.NewServer(Handler(fakeSource{}))
	defer srv.Close()

	code, body := get(t, srv, "/")
	if code != 200 || !strings.Contains(body, `href="/run?h=run%3a0123456789ab"`) || !strings.Contains(body, "make &lt;all&gt;") {
		t.Fatalf("index %d:\n%s", code, body)
	}
	// Page 1 of 3: 500 lines, no failure line on it, a link to page 2.
	code, body = get(t, srv, "/run?h=run:0123456789ab")
	if code != 200 || strings.Count(body, `<div class="l`) != PageLines || !strings.Contains(body, "page 1 of 3") {
		t.Fatalf("page 1: %d, %d lines", code, strings.Count(body, `<div class="l`))
	}
	if !strings.Contains(body, `data-handle="run:0123456789ab#stdout:L500"`) || !strings.Contains(body, "step 1 &lt;ok&gt;") {
		t.Error("line numbers are not handles, or text is not escaped")
	}
	if !strings.Contains(body, `page=3#L1100">L1100</a>`) {
		t.Error("the failure list does not link to the page of line 1100")
	}
	// Page 3 holds the failure, coloured and marked.
	_, body = get(t, srv, "/run?h=run:0123456789ab&page=3")
	if !strings.Contains(body, `<div class="l fail" id="L1100">`) || !strings.Contains(body, `<span class="fg1">error: widget exploded</span>`) {
		t.Errorf("page 3 does not mark or colour the failure")
	}
	if strings.Count(body, `<div class="l`) != 200 || strings.Contains(body, `id="next"`) {
		t.Errorf("the last page")
	}
	// Search.
	_, body = get(t, srv, "/run?h=run:0123456789ab&q=%5Estep+7+")
	if !strings.Contains(body, "1 matching lines") || !strings.Contains(body, `page=1&amp;q=%5estep%207%20#L7">L7</a>`) {
		t.Errorf("search: %s", body[strings.Index(body, "<h2>"):][:200])
	}
	_, body = get(t, srv, "/run?h=run:0123456789ab&q=%28")
	if !strings.Contains(body, `class="err"`) {
		t.Error("a bad expression is not reported")
	}
	// A page past the last (an old link, a typed number, one so large its
	// first line overflowed) shows the last page, with the search kept.
	for _, p := range []string{"4", "9223372036854775807"} {
		code, body = get(t, srv, "/run?h=run:0123456789ab&q=exploded&page="+p)
		if code != 200 || !strings.Contains(body, "page 3 of 3") || !strings.Contains(body, `id="L1100"`) || !strings.Contains(body, "1 matching lines") {
			t.Errorf("page %s: %d %q", p, code, body[:min(len(body), 300)])
		}
	}
	if code, _ := get(t, srv, "/run?h=notarun"); code != http.StatusBadRequest {
		t.Errorf("bad handle: %d", code)
	}
}

func TestLoopbackOnly(t *testing.T) {
	srv := httptest.NewServer(Handler(fakeSource{}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = "attacker.example:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a request for another host got %d", resp.StatusCode)
	}
	if _, err := Listen("0.0.0.0:0"); err == nil {
		t.Error("Listen accepted a non-loopback address")
	}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}
