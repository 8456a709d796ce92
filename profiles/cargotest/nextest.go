package cargotest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// nextest reads `cargo nextest run` output:
//
//	    Starting 3 tests across 2 binaries (1 test skipped)
//	        PASS [   0.004s] (1/3) calc tests::adds
//	        FAIL [   0.005s] (2/3) calc tests::adds_wrong
//	  stdout ───
//	    …the test's own output, a whole libtest run…
//	  stderr ───
//	    thread 'tests::adds_wrong' panicked at src/lib.rs:40:9:
//	────────────
//	     Summary [   0.010s] 3 tests run: 2 passed, 1 failed, 1 skipped
//	        FAIL [   0.005s] (2/3) calc tests::adds_wrong
//	error: test run failed
//
// Older releases frame the output as `--- STDOUT: calc tests::adds_wrong ---`.
type nextest struct {
	used      bool // some stream held nextest output
	tests     []*nxTest
	byKey     map[string]*nxTest
	summary   *nxSummary
	runFailed bool

	// per stream
	stream   string
	active   bool
	owner    *nxTest // test whose output section is open
	secOpen  bool
	secTo    int
	lastFail *nxTest
	pr       panicReader
}

type nxTest struct {
	pkg, name string
	stream    string
	line      int
	pass      bool
	skip      bool
	fail      bool
	status    string
	detail    evidence.Span
	pi        panicInfo
}

type nxSummary struct {
	stream string
	line   int
	counts map[string]int
}

func (x *nextest) begin() {
	x.active, x.owner, x.secOpen, x.lastFail = false, nil, false, nil
}

func (x *nextest) end(p *parser) {
	x.closeSection()
	x.stream = ""
}

func (x *nextest) closeSection() {
	if o := x.owner; x.secOpen && o != nil && o.stream == x.stream {
		o.detail = evidence.Span{Stream: x.stream, From: o.line, To: max(o.line, x.secTo, o.detail.To)}
	}
	x.secOpen, x.owner = false, nil
}

// line consumes nextest's lines, and everything inside a test's output
// section (which holds whole libtest runs that must not count).
func (x *nextest) line(p *parser, n int, s string) bool {
	x.stream = p.st.name
	t := strings.TrimLeft(s, " ")
	if strings.HasPrefix(t, "Starting ") && (strings.Contains(t, " tests across ") || strings.Contains(t, " test across ")) {
		x.used, x.active = true, true
		return true
	}
	if status, pkg, name, ok := parseNextestStatus(s); ok {
		x.used, x.active = true, true
		x.closeSection()
		x.status(p, n, status, pkg, name)
		return true
	}
	if !x.active && !strings.HasPrefix(t, "Summary [") && !strings.HasPrefix(t, "--- STD") {
		return false // the common case: not nextest output
	}
	if counts, ok := parseNextestSummary(t); ok {
		x.used, x.active = true, true
		x.closeSection()
		x.summary = &nxSummary{stream: p.st.name, line: n, counts: counts}
		return true
	}
	if !x.active {
		return false
	}
	if rest, ok := strings.CutPrefix(s, "--- STD"); ok && strings.HasSuffix(s, " ---") {
		// --- STDOUT:              calc tests::adds_wrong ---
		x.closeSection()
		if _, id, ok := strings.Cut(strings.TrimSuffix(rest, " ---"), ":"); ok {
			f := strings.Fields(id)
			if len(f) >= 2 {
				x.owner = x.byKey[f[0]+"\x00"+strings.Join(f[1:], " ")]
			}
		}
		x.secOpen, x.secTo, x.pr = true, n, panicReader{}
		return true
	}
	if (t == "stdout ───" || t == "stderr ───" || strings.HasPrefix(t, "stdout ───") || strings.HasPrefix(t, "stderr ───")) && len(t) < 40 {
		owner := x.owner
		if !x.secOpen {
			owner = x.lastFail
		}
		x.closeSection()
		x.owner, x.secOpen, x.secTo = owner, true, n
		return true
	}
	if isRule(t) {
		x.closeSection()
		return true
	}
	if t == "error: test run failed" {
		x.runFailed = true
		return true
	}
	if strings.HasPrefix(t, "Cancelling due to ") || strings.HasPrefix(t, "Cancelling ") && strings.Contains(t, "test") {
		return true
	}
	if x.secOpen {
		if strings.TrimSpace(s) != "" {
			x.secTo = n
		}
		if x.owner != nil {
			x.pr.feed(&x.owner.pi, s)
		}
		return true
	}
	return false
}

func isRule(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if r != '─' {
			return false
		}
	}
	return true
}

func (x *nextest) status(p *parser, n int, status, pkg, name string) {
	var outcome string
	switch {
	case status == "PASS" || status == "LEAK" || status == "FLAKY" || strings.HasPrefix(status, "TRY ") && strings.HasSuffix(status, " PASS"):
		outcome = "pass"
	case status == "SKIP":
		outcome = "skip"
	case status == "FAIL" || status == "LEAK-FAIL" || status == "TIMEOUT" || status == "ABORT" || strings.HasPrefix(status, "SIG"):
		outcome = "fail"
	default:
		return // SLOW, START, TRY n FAIL (a retry follows), RETRY…
	}
	if x.byKey == nil {
		x.byKey = make(map[string]*nxTest)
	}
	key := pkg + "\x00" + name
	t := x.byKey[key]
	if t == nil {
		if !p.admit() {
			return
		}
		t = &nxTest{pkg: pkg, name: name, stream: p.st.name, line: n}
		x.byKey[key] = t
		x.tests = append(x.tests, t)
	}
	switch outcome {
	case "pass":
		t.pass = true
	case "skip":
		t.skip = true
	case "fail":
		if !t.fail {
			t.fail, t.status = true, status
		}
		x.lastFail = t
	}
}

// emit adds nextest's tests and summary; it reports whether the run failed
// and whether its summary arrived.
func (x *nextest) emit(g *evidence.Graph, p *parser) (failed, done bool) {
	for _, t := range x.tests {
		it := evidence.Item{Kind: evidence.KindTest, Package: t.pkg, Name: t.name,
			Span: evidence.Span{Stream: t.stream, From: t.line, To: t.line}}
		switch {
		case t.fail:
			failed = true
			it.Outcome = evidence.OutcomeFail
			pi := t.pi
			switch {
			case t.status == "TIMEOUT":
				pi.class = "timeout"
				if pi.message == "" {
					pi.message = "timed out"
				}
			case strings.HasPrefix(t.status, "SIG") || t.status == "ABORT":
				pi.class = t.status
				if pi.message == "" {
					pi.message = "test process ended by " + t.status
				}
			case t.status == "LEAK-FAIL":
				pi.class = "leak"
			case pi.class == "":
				pi.class = "fail"
			}
			it.Class, it.Message, it.File, it.Line, it.Col = pi.class, pi.message, pi.file, pi.line, pi.col
			if len(pi.attrs) > 0 {
				it.Attrs = pi.attrs
			}
			it.Detail = t.detail
		case t.pass:
			it.Outcome = evidence.OutcomePass
		default:
			it.Outcome = evidence.OutcomeSkip
		}
		g.Add(it)
	}
	if s := x.summary; s != nil {
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "nextest", Counts: s.counts,
			Span: evidence.Span{Stream: s.stream, From: s.line, To: s.line}})
		for k, v := range s.counts {
			if v > 0 && (k == "failed" || k == "timed_out" || k == "leaky_failed" || k == "exec_failed") {
				failed = true
			}
		}
		done = true
	}
	if x.runFailed {
		failed = true
	}
	return failed, done
}

// parseNextestStatus recognises `        FAIL [   0.005s] (2/3) calc tests::x`.
func parseNextestStatus(s string) (status, pkg, name string, ok bool) {
	t := strings.TrimLeft(s, " ")
	i := strings.Index(t, " [")
	if i <= 0 || i > 20 {
		return
	}
	status = strings.TrimSpace(t[:i])
	for j := 0; j < len(status); j++ {
		c := status[j]
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == ' ' || c == '/') {
			return "", "", "", false
		}
	}
	rest := t[i+2:]
	k := strings.IndexByte(rest, ']')
	if k < 0 {
		return "", "", "", false
	}
	rest = strings.TrimLeft(rest[k+1:], " ")
	if strings.HasPrefix(rest, "(") { // (2/3), or a stress-run marker
		k := strings.IndexByte(rest, ')')
		if k < 0 {
			return "", "", "", false
		}
		rest = strings.TrimLeft(rest[k+1:], " ")
	}
	pkg, name, found := strings.Cut(rest, " ")
	name = strings.TrimSpace(name)
	if !found || pkg == "" || name == "" {
		return "", "", "", false
	}
	return status, pkg, name, true
}

// parseNextestSummary recognises `Summary [   0.010s] 3 tests run: 2 passed,
// 1 failed, 1 skipped` (and `3/5 tests run: …`).
func parseNextestSummary(t string) (map[string]int, bool) {
	rest, ok := strings.CutPrefix(t, "Summary [")
	if !ok {
		return nil, false
	}
	k := strings.IndexByte(rest, ']')
	if k < 0 {
		return nil, false
	}
	rest = strings.TrimSpace(rest[k+1:])
	head, tail, ok := strings.Cut(rest, ": ")
	if !ok {
		return nil, false
	}
	num, word, ok := strings.Cut(head, " ")
	if !ok || !strings.HasPrefix(word, "test") || !strings.HasSuffix(word, " run") {
		return nil, false
	}
	counts := make(map[string]int)
	run, total, hasTotal := strings.Cut(num, "/")
	n, err := strconv.Atoi(run)
	if err != nil {
		return nil, false
	}
	counts["run"] = n
	if hasTotal {
		if m, err := strconv.Atoi(total); err == nil {
			counts["total"] = m
		}
	}
	for part := range strings.SplitSeq(tail, ",") {
		part = strings.TrimSpace(part)
		if i := strings.IndexByte(part, '('); i >= 0 { // "2 passed (1 slow)"
			part = strings.TrimSpace(part[:i])
		}
		num, word, ok := strings.Cut(part, " ")
		if !ok {
			continue
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		counts[strings.ReplaceAll(strings.TrimSpace(word), " ", "_")] = v
	}
	return counts, true
}
