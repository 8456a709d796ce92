package jsondoc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
)

// Profile is the JSON / JSON Lines profile.
var Profile = evidence.Profile{
	Name:    name,
	Version: version,
	Argv:    matchArgv,
	Content: matchContent,
	Parse:   parse,
}

const (
	name    = "json"
	version = 2
)

// matchArgv claims jq-family filters that print JSON (not raw strings) and
// cat/head/tail of .json, .jsonl and .ndjson files.
func matchArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch argv[0] {
	case "jq", "gojq", "jaq":
		for _, a := range argv[1:] {
			if a == "--" {
				break
			}
			switch {
			case a == "--raw-output" || a == "--join-output" || a == "--raw-output0":
				return false
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "rj"):
				return false
			}
		}
		return true
	case "cat", "head", "tail", "zcat", "gzcat":
		files := 0
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if !jsonFile(a) {
				return false
			}
			files++
		}
		return files > 0
	}
	return false
}

func jsonFile(name string) bool {
	name = strings.TrimSuffix(name, ".gz")
	switch path.Ext(name) {
	case ".json", ".jsonl", ".ndjson", ".geojson":
		return true
	}
	return false
}

// pickStream returns the stream that holds the JSON: stdout, or stderr when
// stdout is blank (structured loggers write there).
func pickStream(src *evidence.Source) (evidence.Stream, bool) {
	out := src.Stream(evidence.Stdout)
	if !blank(out.Head()) || out.More() {
		return out, true
	}
	errs := src.Stream(evidence.Stderr)
	if !blank(errs.Head()) {
		return errs, true
	}
	return out, false
}

func blank(b []byte) bool { return len(bytes.TrimSpace(stripEscapes(b))) == 0 }

// matchContent judges from the head of the stream: it must start with an
// object or array and hold mostly valid JSON as far as the head goes.
func matchContent(src *evidence.Source) bool {
	st, ok := pickStream(src)
	if !ok {
		return false
	}
	head := st.Head()
	t := bytes.TrimLeft(stripEscapes(head[:min(len(head), 4096)]), " \t\r\n")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	cut := st.More()
	if cut {
		// Judge complete lines only.
		if i := bytes.LastIndexByte(head, '\n'); i > 0 {
			head = head[:i+1]
		}
	}
	rr := newRecReader(bytes.NewReader(head))
	for {
		ok, err := rr.next(0, nil, nil)
		if err != nil {
			// A document longer than the head is cut inside its first value.
			var se *syntaxError
			return cut && errors.As(err, &se) && se.eof
		}
		if !ok {
			break
		}
	}
	if rr.n == 0 && cut && rr.invalid == 1 {
		// One long line cut by the head: JSON so far.
		var se *syntaxError
		return errors.As(rr.lastBad, &se) && se.eof
	}
	return rr.n > 0 && rr.invalid*4 <= rr.valid
}

// elemSink sees the elements of a top-level array as records.
type elemSink struct {
	tab *table
	ri  recInfo
}

func (e *elemSink) element(s *scanner, idx int, o *outline, n *onode) error {
	if err := s.ws(); err != nil {
		return err
	}
	from := s.line
	s.startCapture(previewCap, nil)
	size, err := s.record(1, o, n, &e.ri)
	s.stopCapture()
	if err != nil {
		return err
	}
	if n != nil {
		o.seen(n, e.ri.typ, size, from, s.line)
	}
	e.tab.add(idx+1, from, s.line, "/"+strconv.Itoa(idx), &e.ri, s.capBuf)
	return nil
}

func parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	g := &evidence.Graph{Profile: name, Version: version, Tool: "json"}
	if argv := cmdline.Normalize(src.Argv); matchArgv(argv) && strings.HasSuffix(argv[0], "jq") {
		g.Tool = argv[0]
	}
	st, ok := pickStream(src)
	if !ok {
		// Nothing printed: no records, which is a fact, not a failure to parse.
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "json", Name: "records",
			Counts: map[string]int{"records": 0}, Text: "no output"})
		addStderr(g, src, "")
		return g, nil
	}

	// Pass 1: count records and shapes.
	rc, err := st.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", st.Name, err)
	}
	rr := newRecReader(rc)
	tab := newTable()
	for {
		ok, err := rr.next(previewCap, nil, nil)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("parse json %s: %w", st.Name, err)
		}
		if !ok {
			break
		}
		tab.add(rr.n, rr.from, rr.to, "", &rr.ri, rr.s.capBuf)
		if rr.n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				rc.Close()
				return nil, err
			}
		}
	}
	rc.Close()
	if rr.n == 0 {
		return nil, fmt.Errorf("parse json %s: no JSON value", st.Name)
	}
	if rr.invalid > rr.valid {
		return nil, fmt.Errorf("parse json %s: %d of %d lines are not JSON", st.Name, rr.invalid, rr.invalid+rr.valid)
	}

	if rr.n == 1 {
		if err := parseDocument(ctx, g, st); err != nil {
			return nil, err
		}
	} else {
		streamItems(g, st, tab, rr)
	}
	if rr.invalid > 0 {
		g.Lose("partial-parse", "%d of %d lines hold no valid JSON (first at line %s)",
			rr.invalid, rr.invalid+rr.valid, joinInts(rr.badLines))
	}
	if tab.other != nil {
		g.Lose("item-cap", "%d distinct record shapes counted; %d records of further shapes counted together",
			maxShapes, tab.other.count)
	}
	addStderr(g, src, st.Name)
	return g, nil
}

// streamItems builds the items of a stream of records.
func streamItems(g *evidence.Graph, st evidence.Stream, tab *table, rr *recReader) {
	stream := st.Name
	for _, sh := range tab.shapes {
		first := sh.refs[0]
		g.Add(evidence.Item{Kind: evidence.KindShape, Tool: "json", Name: sh.sig, Count: sh.count,
			FirstLine: first.from, Text: first.preview,
			Attrs: map[string]string{"first_record": strconv.Itoa(first.num)},
			Span:  evidence.Span{Stream: stream, From: first.from, To: first.to}})
	}
	if sh := tab.other; sh != nil {
		first := sh.refs[0]
		g.Add(evidence.Item{Kind: evidence.KindShape, Tool: "json", Name: sh.sig, Count: sh.count,
			FirstLine: first.from, Text: first.preview,
			Attrs: map[string]string{"first_record": strconv.Itoa(first.num), "overflow": "true"},
			Span:  evidence.Span{Stream: stream, From: first.from, To: first.to}})
	}
	minority := recordItems(g, stream, tab)
	counts := map[string]int{
		"records":          rr.n,
		"shapes":           len(tab.shapes),
		"invalid_lines":    rr.invalid,
		"minority_records": minority,
		"error_records":    tab.errCount,
	}
	if n := fieldItems(g, stream, &tab.fields, tab.total); n > 0 {
		counts["minority_values"] = n
	}
	g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "json", Name: "records",
		Counts: counts,
		Text:   fmt.Sprintf("%d records, %d shapes", rr.n, len(tab.shapes)),
		Span:   evidence.Span{Stream: stream, From: 1, To: max(st.Lines(), 1)}})
}

// recordItems adds the minority records and the error-looking records in
// record order and returns how many records have a minority shape.
func recordItems(g *evidence.Graph, stream string, tab *table) int {
	top := tab.dominant()
	type out struct {
		r       ref
		why     string
		shape   string
		anomaly bool
	}
	var outs []out
	minority := 0
	for _, sh := range tab.shapes {
		if !tab.minority(sh, top) {
			continue
		}
		minority += sh.count
		for _, r := range sh.refs {
			outs = append(outs, out{r: r, why: "minority-shape", shape: sh.sig})
		}
		if sh.count > len(sh.refs) {
			g.Lose("item-cap", "shape %s: %d of %d minority records listed", evidence.Clip(sh.sig, 120), len(sh.refs), sh.count)
		}
	}
	for _, r := range tab.errs {
		outs = append(outs, out{r: r, why: "error-record", anomaly: true})
	}
	if tab.errCount > len(tab.errs) {
		g.Lose("item-cap", "%d of %d error-looking records listed", len(tab.errs), tab.errCount)
	}
	// Record order, minority before anomaly for the same record.
	sortOuts := func(a, b out) int {
		if a.r.num != b.r.num {
			return a.r.num - b.r.num
		}
		if a.anomaly != b.anomaly {
			if a.anomaly {
				return 1
			}
			return -1
		}
		return 0
	}
	for i := 1; i < len(outs); i++ { // insertion sort keeps it stable
		for j := i; j > 0 && sortOuts(outs[j], outs[j-1]) < 0; j-- {
			outs[j], outs[j-1] = outs[j-1], outs[j]
		}
	}
	for _, o := range outs {
		attrs := map[string]string{"record": strconv.Itoa(o.r.num)}
		name := "record " + strconv.Itoa(o.r.num)
		if o.r.ptr != "" {
			attrs = map[string]string{"pointer": o.r.ptr}
			name = o.r.ptr
		}
		span := evidence.Span{Stream: stream, From: o.r.from, To: o.r.to}
		if o.anomaly {
			g.Add(evidence.Item{Kind: evidence.KindAnomaly, Tool: "json", Name: name, Line: o.r.from,
				Text: o.r.preview, Why: o.why, Severity: evidence.SeverityError, Attrs: attrs, Span: span})
			continue
		}
		attrs["shape"] = evidence.Clip(o.shape, 200)
		g.Add(evidence.Item{Kind: evidence.KindRecord, Tool: "json", Name: name, Line: o.r.from,
			Text: o.r.preview, Why: o.why, Attrs: attrs, Span: span})
	}
	return minority
}

// parseDocument reads the single value again, outlining it, and seeing the
// elements of a top-level array as records.
func parseDocument(ctx context.Context, g *evidence.Graph, st evidence.Stream) error {
	rc, err := st.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", st.Name, err)
	}
	defer rc.Close()
	rr := newRecReader(rc)
	o := newOutline()
	sink := &elemSink{tab: newTable()}
	rr.s.elems = sink
	rr.onBad = func() {
		o.reset()
		sink.tab = newTable()
	}
	ok, err := rr.next(previewCap, o, o.root)
	if err != nil || !ok {
		return fmt.Errorf("parse json %s: the document changed between reads", st.Name)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	root := o.root
	o.seen(root, rr.ri.typ, rr.size, rr.from, rr.to)
	root.ptr = ""
	root.walk(func(n *onode) {
		name := n.name
		if name == "" {
			name = "/"
		}
		attrs := map[string]string{"pointer": n.ptr, "type": n.typeText(), "depth": strconv.Itoa(n.depth)}
		text := n.typeText()
		if l := n.lenText(); l != "" {
			attrs["length"] = l
			text += " (" + l + ")"
		}
		g.Add(evidence.Item{Kind: evidence.KindShape, Tool: "json", Name: name, Count: n.count,
			FirstLine: n.from, Text: text, Attrs: attrs,
			Span: evidence.Span{Stream: st.Name, From: n.from, To: n.to}})
	})
	if o.dropped > 0 {
		g.Lose("item-cap", "outline capped at %d paths (%d per level); %d further keys not outlined",
			outlineNodes, outlineKids, o.dropped)
	}
	counts := map[string]int{"records": 1}
	tab := sink.tab
	switch rr.ri.typ {
	case tArray:
		counts["elements"] = rr.size
		counts["minority_records"] = recordItems(g, st.Name, tab)
		if n := fieldItems(g, st.Name, &tab.fields, tab.total); n > 0 {
			counts["minority_values"] = n
		}
		counts["error_records"] = tab.errCount
		counts["shapes"] = len(tab.shapes)
	case tObject:
		counts["keys"] = rr.size
		if rr.ri.errorish {
			prev := preview(rr.s.capBuf)
			g.Add(evidence.Item{Kind: evidence.KindAnomaly, Tool: "json", Name: "/", Line: rr.from,
				Text: prev, Why: "error-record", Severity: evidence.SeverityError,
				Attrs: map[string]string{"pointer": ""},
				Span:  evidence.Span{Stream: st.Name, From: rr.from, To: rr.to}})
			counts["error_records"] = 1
		}
	}
	g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "json", Name: "document", Counts: counts,
		Text: root.typeText() + " document",
		Span: evidence.Span{Stream: st.Name, From: rr.from, To: rr.to}})
	return nil
}

// addStderr names the stream the profile did not parse, so a digest can
// point at it: a region for all of it and, when the command failed, its
// first lines as anomalies.
func addStderr(g *evidence.Graph, src *evidence.Source, parsed string) {
	st := src.Stream(evidence.Stderr)
	if parsed == evidence.Stderr || st.Lines() == 0 || blank(st.Head()) {
		return
	}
	g.Add(evidence.Item{Kind: evidence.KindRegion, Name: "stderr", Why: "unparsed-stream",
		Span: evidence.Span{Stream: evidence.Stderr, From: 1, To: st.Lines()}})
	if src.Exit() == 0 {
		return
	}
	lines := bytes.Split(st.Head(), []byte{'\n'})
	n := 0
	for i, l := range lines {
		if n == 5 || i+1 > st.Lines() {
			break
		}
		l = bytes.TrimSpace(stripEscapes(l))
		if len(l) == 0 || (i == len(lines)-1 && st.More()) {
			continue
		}
		n++
		g.Add(evidence.Item{Kind: evidence.KindAnomaly, Line: i + 1, Text: evidence.Clip(string(l), previewLen),
			Why: "stderr", Severity: evidence.SeverityError,
			Span: evidence.Span{Stream: evidence.Stderr, From: i + 1, To: i + 1}})
	}
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
