package cargotest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// parser holds the facts found so far in all streams; streamState is reset
// for each stream.
type parser struct {
	src      *evidence.Source
	st       streamState
	headers  []*header
	blocks   []*block
	diags    []*diag
	builds   []*build
	reruns   []*rerun
	panics   map[string]panicInfo // stray panics (--nocapture) by thread name
	diagSeen map[string]bool
	nx       nextest

	kept      int // test records and diagnostics kept, against MaxItems
	dropped   int // ... and those beyond it
	tooMany   int // binaries beyond maxBinaries
	buildDiag int // index of the first diagnostic not yet claimed by a build failure
}

type streamState struct {
	name    string
	cur     *block  // open libtest block
	hdr     *header // the last binary header seen in this stream
	sec     section
	secFail bool     // the report section is `failures:` (else `successes:`)
	det     *testRec // test of the open `---- x stdout ----` section (nil: not tracked)
	detOpen bool
	detFrom int
	detTo   int
	pr      panicReader
	pending *testRec // `test x ... ` waiting for its result word
	diag    *diag    // open compiler or cargo message
	rerun   *rerun   // last `error: test failed`, waiting for its cause

	strayThread string // a panic printed outside any failure section
	stray       panicInfo
	strayPR     panicReader
	strayFirst  bool
}

// diag is a compiler diagnostic or cargo message at the top level of a stream.
type diag struct {
	stream  string
	from    int
	to      int
	locLine int
	sev     evidence.Severity
	code    string
	msg     string
	file    string
	line    int
	col     int
	cargo   bool // cargo's own bookkeeping (could not compile, N targets failed): no item
}

// build is `error: could not compile `crate` (target) due to N previous errors`.
type build struct {
	stream    string
	line      int
	crate     string
	target    string
	message   string
	diagsFrom int // p.diags[diagsFrom:diagsTo] are the errors that led to it
	diagsTo   int
}

// rerun is `error: test failed, to rerun pass `--lib“ with its cause.
type rerun struct {
	stream string
	line   int
	to     int
	hint   string
	cause  string // "signal: 6, SIGABRT: process abort signal", "exit status: 101"
}

func newParser(src *evidence.Source) *parser {
	return &parser{src: src, panics: make(map[string]panicInfo), diagSeen: make(map[string]bool)}
}

func (p *parser) begin(stream string) {
	p.st = streamState{name: stream}
	p.nx.begin()
}

// end closes whatever the stream left open. An open block stays without a
// result: the output ended before the binary reported.
func (p *parser) end() {
	p.closeDiag()
	p.closeDetail()
	p.commitStray()
	p.nx.end(p)
	p.st.cur = nil
}

// admit reports whether one more test record or diagnostic may be kept.
func (p *parser) admit() bool {
	if p.kept >= MaxItems {
		p.dropped++
		return false
	}
	p.kept++
	return true
}

func (p *parser) line(n int, b []byte) {
	s := string(b)
	if p.nx.line(p, n, s) {
		return
	}
	st := &p.st
	if st.diag != nil {
		if p.continueDiag(n, s) {
			return
		}
	}
	if st.cur != nil {
		p.inBlock(n, s)
		return
	}
	p.top(n, s)
}

// top handles a line outside any test binary's block.
func (p *parser) top(n int, s string) {
	st := &p.st
	if h, ok := parseHeader(s); ok {
		h.stream, h.line = st.name, n
		if len(p.headers) < maxBinaries {
			p.headers = append(p.headers, h)
			st.hdr = h
		}
		p.commitStray()
		return
	}
	if k, ok := parseRunning(s); ok {
		p.commitStray()
		if len(p.blocks) >= maxBinaries {
			p.tooMany++
			return
		}
		b := &block{stream: st.name, line: n, declared: k, byName: make(map[string]*testRec)}
		if st.hdr != nil {
			b.hdr = st.hdr
			st.hdr.used = true
		}
		p.blocks = append(p.blocks, b)
		st.cur, st.sec, st.pending = b, secTests, nil
		return
	}
	if strings.HasPrefix(s, "all doctests ran in ") {
		for i := len(p.blocks) - 1; i >= 0; i-- {
			if p.blocks[i].stream == st.name {
				p.blocks[i].docEnd = true
				break
			}
		}
		return
	}
	if strings.HasPrefix(s, "error") || strings.HasPrefix(s, "warning") {
		if p.openDiag(n, s) {
			p.commitStray()
			return
		}
	}
	if _, cause, ok := strings.Cut(s, "process didn't exit successfully: "); ok && st.rerun != nil {
		if i := strings.LastIndex(cause, " ("); i >= 0 && strings.HasSuffix(cause, ")") {
			st.rerun.cause = cause[i+2 : len(cause)-1]
		} else {
			st.rerun.cause = strings.TrimSpace(cause)
		}
		st.rerun.to = n
		return
	}
	p.strayLine(s)
}

// strayLine follows panics printed outside a failure section: under
// --nocapture libtest does not capture them, and they land on stderr.
func (p *parser) strayLine(s string) {
	st := &p.st
	if th, _, _, _, _, ok := parsePanicked(s); ok {
		p.commitStray()
		st.strayThread = th
		st.stray = panicInfo{}
		st.strayPR = panicReader{}
		_, seen := p.panics[th]
		st.strayFirst = !seen
		st.strayPR.feed(&st.stray, s)
		return
	}
	if st.strayThread != "" {
		st.strayPR.feed(&st.stray, s)
		if st.strayPR.state == 0 {
			p.commitStray()
		}
	}
}

func (p *parser) commitStray() {
	st := &p.st
	if st.strayThread != "" && st.strayFirst && len(p.panics) < MaxItems {
		p.panics[st.strayThread] = st.stray
	}
	st.strayThread = ""
}

// inBlock handles a line inside a test binary's block.
func (p *parser) inBlock(n int, s string) {
	st := &p.st
	b := st.cur
	if r, ok := parseTestResult(s); ok && r.consistent(b.declared) {
		p.closeDetail()
		r.line = n
		b.result = r
		st.cur, st.sec, st.pending = nil, secTests, nil
		return
	}
	// cargo's own lines in the same stream mean the binary ended without a
	// result: it crashed, or was killed.
	if isCargoLine(s) {
		p.closeDetail()
		st.cur, st.sec, st.pending = nil, secTests, nil
		p.top(n, s)
		return
	}
	switch st.sec {
	case secTests:
		p.testsLine(n, s)
	case secUndecided:
		t := strings.TrimSpace(s)
		switch {
		case t == "":
		case isDetailHeader(s):
			st.sec = secDetails
			p.openDetail(n, s)
		case strings.HasPrefix(s, "    "):
			st.sec = secList
			p.listLine(n, s)
		default:
			st.sec = secTests
			p.testsLine(n, s)
		}
	case secDetails:
		switch {
		case s == "failures:" || s == "successes:":
			p.closeDetail()
			st.sec, st.secFail = secUndecided, s == "failures:"
		case isDetailHeader(s):
			p.closeDetail()
			p.openDetail(n, s)
		default:
			p.detailLine(n, s)
		}
	case secList:
		switch {
		case s == "failures:" || s == "successes:":
			st.sec, st.secFail = secUndecided, s == "failures:"
		case strings.HasPrefix(s, "    ") && strings.TrimSpace(s) != "":
			p.listLine(n, s)
		}
	}
}

// isCargoLine recognises cargo's lines that can only follow a binary's end.
func isCargoLine(s string) bool {
	if strings.HasPrefix(s, "error: test failed, to rerun pass ") || strings.HasPrefix(s, "error: doctest failed, to rerun pass ") {
		return true
	}
	if !strings.HasPrefix(s, "   ") {
		return false
	}
	t := strings.TrimLeft(s, " ")
	if strings.HasPrefix(t, "Running ") || strings.HasPrefix(t, "Doc-tests ") {
		_, ok := parseHeader(s)
		return ok
	}
	return false
}

func isDetailHeader(s string) bool {
	return strings.HasPrefix(s, "---- ") && (strings.HasSuffix(s, " stdout ----") || strings.HasSuffix(s, " stderr ----"))
}

// testsLine reads result lines: `test x ... ok`, quiet `x --- FAILED`,
// `test x has been running for over 60 seconds`, the report headings.
func (p *parser) testsLine(n int, s string) {
	st := &p.st
	b := st.cur
	if s == "failures:" || s == "successes:" {
		st.sec, st.secFail = secUndecided, s == "failures:"
		st.pending = nil
		return
	}
	if name, word, pending, ok := parseResultLine(s); ok {
		t := p.test(b, name)
		if t == nil {
			return
		}
		if pending {
			st.pending = t
			if t.line == 0 {
				t.line = n
			}
			return
		}
		p.mark(t, n, resultWord(word))
		st.pending = nil
		return
	}
	if rest, ok := strings.CutPrefix(s, "test "); ok {
		if name, _, ok := strings.Cut(rest, " has been running for over "); ok && name != "" {
			if t := p.test(b, testName(name)); t != nil {
				t.slow = true
				if t.line == 0 {
					t.line = n
				}
			}
			return
		}
	}
	if name, ok := strings.CutSuffix(s, " --- FAILED"); ok && name != "" && !strings.HasPrefix(name, " ") {
		if t := p.test(b, testName(name)); t != nil {
			p.mark(t, n, "fail")
		}
		return
	}
	if st.pending != nil {
		if w := resultWord(strings.TrimSpace(s)); w != "" {
			p.mark(st.pending, n, w)
			st.pending = nil
			return
		}
	}
	p.strayLine(s)
}

// mark records one outcome claim for a test.
func (p *parser) mark(t *testRec, n int, w string) {
	switch w {
	case "pass":
		t.pass = true
	case "bench":
		t.pass, t.measured = true, true
	case "skip":
		t.skip = true
	case "fail":
		if !t.fail {
			t.fail0 = n
		}
		t.fail = true
	default:
		return
	}
	if t.line == 0 {
		t.line = n
	}
}

// test finds or creates a test record of a block; nil past the item cap.
func (p *parser) test(b *block, name string) *testRec {
	if t, ok := b.byName[name]; ok {
		return t
	}
	if !p.admit() {
		return nil
	}
	t := &testRec{name: name}
	b.byName[name] = t
	b.tests = append(b.tests, t)
	return t
}

func (p *parser) listLine(n int, s string) {
	st := &p.st
	if !st.secFail {
		return
	}
	b := st.cur
	name := testName(strings.TrimSpace(s))
	if !b.hasList {
		b.hasList = true
		b.failList = b.failList[:0]
	}
	if len(b.failList) < MaxItems {
		b.failList = append(b.failList, name)
	}
	if t := p.test(b, name); t != nil && t.line == 0 {
		t.line = n
	}
}

func (p *parser) openDetail(n int, s string) {
	st := &p.st
	name := strings.TrimPrefix(s, "---- ")
	name = strings.TrimSuffix(strings.TrimSuffix(name, " stdout ----"), " stderr ----")
	st.det, st.detOpen, st.detFrom, st.detTo = nil, true, n, n
	st.pr = panicReader{}
	if st.secFail {
		st.det = p.test(st.cur, testName(name))
	}
}

func (p *parser) detailLine(n int, s string) {
	st := &p.st
	if !st.detOpen {
		return
	}
	if strings.TrimSpace(s) != "" {
		st.detTo = n
	}
	if st.det != nil {
		pi := &st.det.pi
		_, _, isDoc := docLocation(st.det.name)
		if isDoc && (pi.class == "" || pi.class == "doctest") {
			if sev, code, msg, ok := parseDiagHeader(s); ok && sev == evidence.SeverityError {
				// a doc-test that does not compile
				pi.class = "build"
				if code != "" {
					pi.set("code", code)
				}
				pi.message = capText(msg)
				return
			}
		}
		if pi.class == "build" && pi.file == "" {
			if loc, ok := strings.CutPrefix(strings.TrimSpace(s), "--> "); ok {
				if f, l, c, ok := evidence.SplitLocation(loc); ok {
					pi.file, pi.line, pi.col = f, l, c
				}
				return
			}
		}
		if strings.HasPrefix(s, "Test executable failed (") && pi.class == "" {
			pi.class = "doctest"
			pi.message = capText(s)
			return
		}
		if pi.class == "doctest" {
			if _, _, _, _, _, ok := parsePanicked(s); ok {
				pi.class = ""
			}
		}
		st.pr.feed(pi, s)
	}
}

func (p *parser) closeDetail() {
	st := &p.st
	if st.detOpen && st.det != nil && st.det.detail.IsZero() {
		st.det.detail = evidence.Span{Stream: st.name, From: st.detFrom, To: st.detTo}
	}
	st.det, st.detOpen = nil, false
}

// parseDiagHeader recognises `error[E0308]: mismatched types` and
// `warning: unused variable: `x“.
func parseDiagHeader(s string) (sev evidence.Severity, code, msg string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(s, "error"):
		sev, rest = evidence.SeverityError, s[len("error"):]
	case strings.HasPrefix(s, "warning"):
		sev, rest = evidence.SeverityWarning, s[len("warning"):]
	default:
		return "", "", "", false
	}
	if strings.HasPrefix(rest, "[") {
		i := strings.IndexByte(rest, ']')
		if i < 0 {
			return "", "", "", false
		}
		code, rest = rest[1:i], rest[i+1:]
		if code == "" || strings.ContainsAny(code, " \t") {
			return "", "", "", false
		}
	}
	msg, ok = strings.CutPrefix(rest, ": ")
	if !ok {
		return "", "", "", false
	}
	return sev, code, strings.TrimSpace(msg), true
}

// openDiag starts a diagnostic or recognises one of cargo's own messages.
func (p *parser) openDiag(n int, s string) bool {
	st := &p.st
	sev, code, msg, ok := parseDiagHeader(s)
	if !ok {
		return false
	}
	d := &diag{stream: st.name, from: n, to: n, sev: sev, code: code, msg: msg}
	switch {
	case strings.HasPrefix(msg, "could not compile `"):
		d.cargo = true
		crate, target := "", ""
		rest := strings.TrimPrefix(msg, "could not compile `")
		if i := strings.IndexByte(rest, '`'); i >= 0 {
			crate, rest = rest[:i], rest[i+1:]
		}
		if rest, ok := strings.CutPrefix(rest, " ("); ok {
			if i := strings.IndexByte(rest, ')'); i >= 0 {
				target = rest[:i]
			}
		}
		if !p.admit() {
			break
		}
		p.builds = append(p.builds, &build{stream: st.name, line: n, crate: crate, target: target,
			message: capText(msg), diagsFrom: p.buildDiag, diagsTo: len(p.diags)})
		p.buildDiag = len(p.diags)
	case strings.HasPrefix(msg, "test failed, to rerun pass ") || strings.HasPrefix(msg, "doctest failed, to rerun pass "):
		d.cargo = true
		_, hint, _ := strings.Cut(msg, " to rerun pass ")
		r := &rerun{stream: st.name, line: n, to: n, hint: strings.Trim(hint, "`'")}
		if p.admit() {
			p.reruns = append(p.reruns, r)
		}
		st.rerun = r
	case sev == evidence.SeverityWarning && (strings.Contains(msg, ") generated ") || strings.HasPrefix(msg, "build failed, waiting")),
		strings.HasSuffix(msg, " targets failed:") || strings.HasSuffix(msg, " target failed:"),
		strings.HasPrefix(msg, "aborting due to "):
		d.cargo = true
	}
	st.diag = d
	return true
}

// continueDiag feeds a line to the open diagnostic; false means the
// diagnostic ended and the line is for the caller to handle.
func (p *parser) continueDiag(n int, s string) bool {
	st := &p.st
	d := st.diag
	if strings.TrimSpace(s) == "" {
		p.closeDiag()
		return true
	}
	if _, _, _, ok := parseDiagHeader(s); ok {
		p.closeDiag()
		return false
	}
	if isCargoStatus(s) {
		p.closeDiag()
		return false
	}
	d.to = n
	if d.locLine == 0 {
		if loc, ok := strings.CutPrefix(strings.TrimSpace(s), "--> "); ok {
			if f, l, c, ok := evidence.SplitLocation(loc); ok {
				d.file, d.line, d.col, d.locLine = f, l, c, n
			}
		}
	}
	return true
}

func (p *parser) closeDiag() {
	st := &p.st
	d := st.diag
	if d == nil {
		return
	}
	st.diag = nil
	if d.cargo {
		return
	}
	// Identical diagnostics (a lib and its test target) are kept once.
	key := string(d.sev) + "\x00" + d.code + "\x00" + d.msg + "\x00" + d.file + "\x00" + strconv.Itoa(d.line) + ":" + strconv.Itoa(d.col)
	if p.diagSeen[key] {
		return
	}
	if p.admit() {
		p.diagSeen[key] = true
		p.diags = append(p.diags, d)
	}
}

// isCargoStatus recognises cargo's right-aligned progress verbs.
func isCargoStatus(s string) bool {
	if !strings.HasPrefix(s, " ") {
		return false
	}
	t := strings.TrimLeft(s, " ")
	verb, _, _ := strings.Cut(t, " ")
	switch verb {
	case "Compiling", "Finished", "Fresh", "Checking", "Building", "Blocking", "Downloading", "Downloaded",
		"Updating", "Locking", "Adding", "Documenting", "Running", "Doc-tests", "Starting", "Summary":
		return true
	}
	return false
}
