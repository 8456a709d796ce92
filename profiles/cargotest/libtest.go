package cargotest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// header is cargo's announcement of the next test binary: `Running
// unittests src/lib.rs (target/debug/deps/calc-1a2b…)` or `Doc-tests calc`.
type header struct {
	stream string
	line   int
	pkg    string // binary name without its hash, or the crate of doc-tests
	target string // "unittests src/lib.rs", "tests/it.rs", "doc-tests"
	doc    bool
	used   bool
}

// block is one test binary's output, from `running N tests` to `test result:`.
type block struct {
	stream   string
	line     int
	declared int
	hdr      *header
	tests    []*testRec
	byName   map[string]*testRec
	failList []string // the names under the last `failures:` heading
	hasList  bool
	result   *result
	// docEnd is set when `all doctests ran in …` follows the block: the end
	// of one crate's doc-test group.
	docEnd bool
}

// result is an accepted `test result:` line.
type result struct {
	line   int
	ok     bool
	counts map[string]int
}

// testRec accumulates what the output says about one test.
type testRec struct {
	name     string
	line     int // the identity line: `test x ... FAILED`, `x --- FAILED` or `---- x stdout ----`
	pass     bool
	skip     bool
	fail     bool
	slow     bool // "has been running for over 60 seconds"
	measured bool
	fail0    int // line of the first failure claim, for the span when pass lines also exist
	detail   evidence.Span
	pi       panicInfo
}

// panicInfo is what a failure block or a stray panic says about a failure.
type panicInfo struct {
	class   string
	message string
	file    string
	line    int
	col     int
	attrs   map[string]string
}

func (pi *panicInfo) set(key, val string) {
	if pi.attrs == nil {
		pi.attrs = make(map[string]string)
	}
	if _, ok := pi.attrs[key]; !ok {
		pi.attrs[key] = capText(val)
	}
}

// section tracks where inside a block's report the parser is.
type section int

const (
	secTests     section = iota // result lines
	secUndecided                // after `failures:`/`successes:`, before the first entry
	secDetails                  // `---- x stdout ----` sections
	secList                     // the indented names list
)

// parseHeader recognises cargo's binary headers.
func parseHeader(s string) (*header, bool) {
	t := strings.TrimLeft(s, " ")
	if rest, ok := strings.CutPrefix(t, "Running "); ok {
		rest = strings.TrimSpace(rest)
		target, bin := rest, rest
		if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
			target, bin = rest[:i], rest[i+2:len(rest)-1]
		} else {
			target = ""
		}
		if !strings.ContainsAny(bin, "/\\") {
			return nil, false
		}
		return &header{pkg: binaryName(bin), target: target}, true
	}
	if rest, ok := strings.CutPrefix(t, "Doc-tests "); ok {
		rest = strings.TrimSpace(rest)
		if rest == "" || strings.ContainsAny(rest, " \t") {
			return nil, false
		}
		return &header{pkg: rest, target: "doc-tests", doc: true}, true
	}
	return nil, false
}

// binaryName reduces target/debug/deps/calc-c6626fb655a8d231 to calc.
func binaryName(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	p = strings.TrimSuffix(p, ".exe")
	if i := strings.LastIndexByte(p, '-'); i >= 0 && isHex(p[i+1:]) && len(p)-i-1 >= 8 {
		p = p[:i]
	}
	return p
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// parseRunning recognises `running 3 tests`.
func parseRunning(s string) (int, bool) {
	rest, ok := strings.CutPrefix(s, "running ")
	if !ok {
		return 0, false
	}
	num, word, ok := strings.Cut(rest, " ")
	if !ok || (word != "tests" && word != "test") {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// parseResultLine recognises `test x ... ok`. It returns the name (with
// libtest's " - should panic" style suffixes removed) and the outcome word;
// pending is set for `test x ... ` whose result word has not arrived yet
// (--nocapture with one thread prints the test's own output in between).
func parseResultLine(s string) (name, word string, pending bool, ok bool) {
	rest, found := strings.CutPrefix(s, "test ")
	if !found {
		return "", "", false, false
	}
	i := strings.Index(rest, " ... ")
	if i < 0 {
		if n, cut := strings.CutSuffix(rest, " ..."); cut && n != "" {
			return testName(n), "", true, true
		}
		return "", "", false, false
	}
	name, word = rest[:i], rest[i+5:]
	if name == "" {
		return "", "", false, false
	}
	if resultWord(word) == "" {
		return testName(name), "", true, true
	}
	return testName(name), word, false, true
}

// resultWord classifies libtest's outcome words.
func resultWord(w string) string {
	switch {
	case w == "ok":
		return "pass"
	case w == "FAILED":
		return "fail"
	case w == "ignored" || strings.HasPrefix(w, "ignored, "):
		return "skip"
	case strings.HasPrefix(w, "bench:"):
		return "bench"
	}
	return ""
}

func testName(s string) string {
	for _, suf := range []string{" - should panic", " - compile fail", " - compile"} {
		if t, ok := strings.CutSuffix(s, suf); ok {
			return t
		}
	}
	return s
}

// parseTestResult parses `test result: FAILED. 1 passed; 2 failed; 0 ignored;
// 0 measured; 0 filtered out; finished in 0.00s`.
func parseTestResult(s string) (*result, bool) {
	rest, ok := strings.CutPrefix(s, "test result: ")
	if !ok {
		return nil, false
	}
	status, rest, ok := strings.Cut(rest, ". ")
	if !ok || (status != "ok" && status != "FAILED") {
		return nil, false
	}
	counts := make(map[string]int, 5)
	for part := range strings.SplitSeq(rest, "; ") {
		num, word, ok := strings.Cut(strings.TrimSpace(part), " ")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue // "finished in 0.00s"
		}
		counts[strings.ReplaceAll(word, " ", "_")] = n
	}
	if _, ok := counts["passed"]; !ok {
		return nil, false
	}
	if _, ok := counts["failed"]; !ok {
		return nil, false
	}
	return &result{ok: status == "ok", counts: counts}, true
}

// consistent reports whether a result's numbers account for the tests the
// block announced; a `test result:` printed by a test under --nocapture
// almost never does.
func (r *result) consistent(declared int) bool {
	sum := r.counts["passed"] + r.counts["failed"] + r.counts["ignored"] + r.counts["measured"]
	if sum != declared {
		return false
	}
	return r.ok == (r.counts["failed"] == 0)
}

// panicReader reads the panic report libtest prints into a failure block (or
// the test writes to stderr under --nocapture): the location line, then the
// message, then assert_eq's left/right.
type panicReader struct {
	state int // 0 idle, 1 want message, 2 after an assertion message, 3 after `panic did not contain`, 4 inside an old multi-line message
}

// feed reads one line into pi. It returns the thread name when the line is a
// panic header, so stray panics can be matched to tests.
func (r *panicReader) feed(pi *panicInfo, s string) (thread string) {
	if r.state == 4 { // a pre-1.73 panic message spanning lines: …', file:line:col
		t := strings.TrimSpace(s)
		if i := strings.LastIndex(t, "', "); i >= 0 {
			if f, l, c, ok := evidence.SplitLocation(t[i+3:]); ok {
				pi.file, pi.line, pi.col = f, l, c
				t = t[:i]
				r.state = 0
			}
		}
		if v, ok := strings.CutPrefix(t, "left:"); ok {
			pi.set("left", strings.Trim(strings.TrimSpace(v), "`,"))
		} else if v, ok := strings.CutPrefix(t, "right:"); ok {
			pi.set("right", strings.Trim(strings.TrimSpace(v), "`,"))
		}
		return ""
	}
	if strings.Contains(s, "' panicked at '") && !strings.Contains(s, "', ") && (pi.class == "") {
		// thread 'x' panicked at 'assertion failed: `(left == right)`   (continues)
		if th, _, found := strings.Cut(strings.TrimSpace(s), "' panicked at '"); found && strings.HasPrefix(th, "thread '") {
			_, msg, _ := strings.Cut(s, "' panicked at '")
			pi.class, pi.message = "panic", capText(msg)
			r.state = 4
			return strings.TrimPrefix(th, "thread '")
		}
	}
	if th, file, line, col, msg, ok := parsePanicked(s); ok {
		if pi.file == "" || pi.class == "" {
			pi.class = "panic"
			pi.file, pi.line, pi.col = file, line, col
			if msg != "" {
				pi.message = capText(msg)
				r.state = 0
				if isAssertion(msg) {
					r.state = 2
				}
			} else {
				r.state = 1
			}
		} else {
			r.state = 0
		}
		return th
	}
	t := strings.TrimSpace(s)
	switch r.state {
	case 1:
		if t == "" {
			return ""
		}
		pi.message = capText(t)
		r.state = 0
		if isAssertion(t) {
			r.state = 2
		}
		return ""
	case 2:
		if v, ok := strings.CutPrefix(t, "left:"); ok {
			pi.set("left", strings.Trim(strings.TrimSpace(v), "`,"))
			return ""
		}
		if v, ok := strings.CutPrefix(t, "right:"); ok {
			pi.set("right", strings.Trim(strings.TrimSpace(v), "`,"))
			r.state = 0
			return ""
		}
		r.state = 0
	case 3:
		if v, ok := strings.CutPrefix(t, "expected substring:"); ok {
			pi.set("expected", strings.TrimSpace(v))
			r.state = 0
			return ""
		}
		if v, ok := strings.CutPrefix(t, "panic message:"); ok {
			pi.set("panic", strings.TrimSpace(v))
			return ""
		}
	}
	switch {
	case strings.HasPrefix(t, "note: test did not panic as expected"):
		pi.class = "should_panic"
		pi.message = "test did not panic as expected"
		if _, loc, ok := strings.Cut(t, " at "); ok {
			if f, l, c, ok := evidence.SplitLocation(loc); ok {
				pi.file, pi.line, pi.col = f, l, c
			}
		}
	case strings.HasPrefix(t, "note: panic did not contain expected string"):
		pi.class = "should_panic"
		pi.message = "panic did not contain expected string"
		r.state = 3
	case strings.HasPrefix(s, "Error: ") && pi.class == "":
		pi.class = "error"
		pi.message = capText(s)
	}
	return ""
}

func isAssertion(msg string) bool {
	return strings.HasPrefix(msg, "assertion `left") || strings.HasPrefix(msg, "assertion failed: `(left")
}

// parsePanicked recognises both panic header forms:
//
//	thread 'tests::x' (1234) panicked at src/lib.rs:40:9:       (1.73+, message on the next line)
//	thread 'tests::x' panicked at 'boom', src/lib.rs:40:9       (before 1.73)
func parsePanicked(s string) (thread, file string, line, col int, msg string, ok bool) {
	t := strings.TrimSpace(s)
	rest, found := strings.CutPrefix(t, "thread '")
	if !found {
		return
	}
	i := strings.Index(rest, "' ")
	if i < 0 {
		return
	}
	thread, rest = rest[:i], rest[i+2:]
	if strings.HasPrefix(rest, "(") { // thread id, volatile
		j := strings.Index(rest, ") ")
		if j < 0 {
			return
		}
		rest = rest[j+2:]
	}
	rest, found = strings.CutPrefix(rest, "panicked at ")
	if !found {
		return
	}
	if strings.HasPrefix(rest, "'") {
		j := strings.LastIndex(rest, "', ")
		if j < 0 {
			return
		}
		msg = rest[1:j]
		file, line, col, ok = evidence.SplitLocation(rest[j+3:])
		return
	}
	loc := strings.TrimSuffix(rest, ":")
	file, line, col, ok = evidence.SplitLocation(loc)
	return
}

// docLocation reads the file and line from a doc-test name:
// "src/lib.rs - add (line 3)".
func docLocation(name string) (string, int, bool) {
	file, rest, ok := strings.Cut(name, " - ")
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndex(rest, "(line ")
	if i < 0 || !strings.HasSuffix(rest, ")") {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+6 : len(rest)-1])
	if err != nil {
		return "", 0, false
	}
	return file, n, true
}
