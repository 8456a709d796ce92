package jest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// SuiteName names the test item of a file that failed to load or compile.
const SuiteName = "Test suite failed to run"

// rec accumulates what the output says about one test (or one suite that
// failed to run).
type rec struct {
	tool    string // "jest" or "vitest"
	pkg     string
	name    string
	stream  string
	line    int // identity line
	streams uint8
	pass    bool
	fail    bool
	skip    bool
	todo    bool
	suite   bool
	fline   int // first line that said it failed
	fstream string
	detail  evidence.Span
	fi      *failInfo // nil until a failure report is read: most tests pass
}

// info returns the record's failure report, creating it.
func (r *rec) info() *failInfo {
	if r.fi == nil {
		r.fi = &failInfo{}
	}
	return r.fi
}

// failInfo is what a failure block says.
type failInfo struct {
	class   string
	message string
	file    string
	line    int
	col     int
	attrs   map[string]string
	alt     string // a weaker message, used when the block gives none (vitest's `→ …`)
	// fallback location: the first non-project frame
	ffile       string
	fline, fcol int
}

func (fi *failInfo) set(key, val string) {
	if fi.attrs == nil {
		fi.attrs = make(map[string]string)
	}
	if _, ok := fi.attrs[key]; !ok {
		fi.attrs[key] = capText(val)
	}
}

// summ is one of the tools' summary lines.
type summ struct {
	tool   string
	name   string // "Tests", "Test Suites", "Snapshots", "Test Files", "Errors"
	stream string
	line   int
	counts map[string]int
}

// diag is a TypeScript error of a suite, or a vitest unhandled error.
type diag struct {
	tool   string
	stream string
	from   int
	to     int
	file   string
	line   int
	col    int
	code   string
	msg    string
}

// treeFail is a vitest tree line naming a failed test by its title only.
type treeFail struct {
	stream string
	line   int
	file   string
	title  string
	msg    string
}

type parser struct {
	src   *evidence.Source
	st    streamState
	si    uint8 // bit of the current stream
	recs  []*rec
	byKey map[string]map[string]*rec // by file, then name
	// The file of the last lookup and its records (nil: none yet): a run
	// reports a file's tests together, so most lookups stay in one small map.
	lastPkg  string
	lastRecs map[string]*rec
	sums     []*summ
	diags    []*diag
	trees    []*treeFail

	kept, dropped int
	ranAll        map[string]bool // stream → "Ran all test suites" seen
	noTests       bool
	vitestSeen    bool
	jestSeen      bool
	unhandled     int
	fileFailed    map[string]bool // vitest files reported failed in the tree
}

// streamState is reset for each stream.
type streamState struct {
	name string
	// jest
	file   string // current PASS/FAIL file
	inTree bool
	stack  []string // describe titles by depth
	blk    *block   // open `●` block or console section
	// vitest
	vconsole bool   // inside a `stdout | …` block
	vfile    string // current tree file
	vblk     *block // open FAIL block
	vlast    any    // last tree record, for a following `→ message`
	unhandl  bool   // inside the Unhandled Errors section
	udiag    *diag
}

// block is an open failure report.
type block struct {
	r       *rec // nil: console output or an unnamed section
	from    int
	to      int
	first   bool // the next non-empty line is the error line
	cause   bool // jest: a suite's underlying error line may follow
	more    bool // vitest: the error line ends with ":", its subject follows
	console bool
}

func newParser(src *evidence.Source) *parser {
	return &parser{src: src, byKey: make(map[string]map[string]*rec), ranAll: make(map[string]bool), fileFailed: make(map[string]bool)}
}

func (p *parser) begin(stream string) {
	p.st = streamState{name: stream}
	p.si <<= 1
	if p.si == 0 {
		p.si = 1
	}
}

func (p *parser) end() {
	p.closeBlock()
	p.closeVBlock()
	p.closeUDiag()
}

func (p *parser) admit() bool {
	if p.kept >= MaxItems {
		p.dropped++
		return false
	}
	p.kept++
	return true
}

// get finds or creates the record of a test.
func (p *parser) get(tool, pkg, name string, n int) *rec {
	recs := p.recsOf(pkg)
	if r, ok := recs[name]; ok {
		r.streams |= p.si
		return r
	}
	if !p.admit() {
		return nil
	}
	if recs == nil {
		recs = map[string]*rec{}
		p.byKey[pkg] = recs
		p.lastPkg, p.lastRecs = pkg, recs
	}
	r := &rec{tool: tool, pkg: pkg, name: name, stream: p.st.name, line: n, streams: p.si}
	recs[name] = r
	p.recs = append(p.recs, r)
	return r
}

// recsOf returns the records of a file by name, nil when it has none.
func (p *parser) recsOf(pkg string) map[string]*rec {
	if p.lastRecs != nil && pkg == p.lastPkg {
		return p.lastRecs
	}
	recs := p.byKey[pkg]
	if recs != nil {
		p.lastPkg, p.lastRecs = pkg, recs
	}
	return recs
}

func (p *parser) markFail(r *rec, n int) {
	if !r.fail {
		r.fline, r.fstream = n, p.st.name
	}
	r.fail = true
}

// erase drops what a live reporter erased: summaries printed on the k lines
// before line n of this stream.
func (p *parser) erase(n, k int) {
	out := p.sums[:0]
	for _, s := range p.sums {
		if s.stream == p.st.name && s.line >= n-k {
			continue
		}
		out = append(out, s)
	}
	p.sums = out
}

func (p *parser) line(n int, b []byte) {
	s := string(b)
	st := &p.st
	// vitest console blocks run to the next blank line.
	if st.vconsole {
		if strings.TrimSpace(s) == "" {
			st.vconsole = false
		}
		return
	}
	if st.blk != nil {
		if p.blockLine(n, s) {
			return
		}
	}
	if st.vblk != nil {
		if p.vblockLine(n, s) {
			return
		}
	}
	if p.summaryLine(n, s) {
		return
	}
	if p.vitestLine(n, s) {
		return
	}
	p.jestLine(n, s)
}

// summaryLine reads both tools' summaries and closing lines.
func (p *parser) summaryLine(n int, s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	for _, name := range [...]string{"Test Suites:", "Tests:", "Snapshots:"} {
		if rest, ok := strings.CutPrefix(s, name); ok {
			if counts, ok := parseCounts(rest, ", "); ok {
				p.jestSeen = true
				p.addSum("jest", strings.TrimSuffix(name, ":"), n, counts)
				return true
			}
		}
	}
	for _, name := range [...]string{"Test Files ", "Tests ", "Snapshots ", "Errors "} {
		if rest, ok := strings.CutPrefix(t, name); ok && indent(s) <= 8 && !strings.HasPrefix(rest, ":") {
			name = name[:len(name)-1]
			if counts, ok := parseVitestCounts(rest); ok {
				p.vitestSeen = true
				p.addSum("vitest", name, n, counts)
				return true
			}
		}
	}
	switch {
	case strings.HasPrefix(t, "Ran all test suites"):
		p.ranAll[p.st.name] = true
		return true
	case strings.HasPrefix(t, "No tests found, exiting with code"), strings.HasPrefix(t, "No test files found, exiting with code"):
		p.noTests = true
		tool := "jest"
		if strings.HasPrefix(t, "No test files") {
			tool = "vitest"
		}
		if p.admit() {
			p.diags = append(p.diags, &diag{tool: tool, stream: p.st.name, from: n, to: n, code: "no-tests", msg: capText(t)})
		}
		return true
	}
	return false
}

func (p *parser) addSum(tool, name string, n int, counts map[string]int) {
	p.sums = append(p.sums, &summ{tool: tool, name: name, stream: p.st.name, line: n, counts: counts})
	if len(p.sums) > maxSums {
		p.compactSums(n)
	}
}

// maxSums bounds the summary lines kept: watch-mode reruns and live redraws
// print them again and again.
const maxSums = 256

// compactSums keeps the last summary of each kind, and those recent enough to
// be erased by a redraw still to come.
func (p *parser) compactSums(n int) {
	last := make(map[string]int, 8)
	for i, s := range p.sums {
		last[s.tool+"\x00"+s.name] = i
	}
	out := p.sums[:0]
	for i, s := range p.sums {
		if last[s.tool+"\x00"+s.name] == i || s.stream == p.st.name && s.line > n-64 {
			out = append(out, s)
		}
	}
	clear(p.sums[len(out):])
	p.sums = out
}

// parseCounts reads jest's "6 failed, 1 skipped, 6 passed, 14 total" and
// "1 failed, 2 of 5 total".
func parseCounts(rest, sep string) (map[string]int, bool) {
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return nil, false
	}
	counts := make(map[string]int)
	for part := range strings.SplitSeq(rest, sep) {
		num, word, ok := strings.Cut(strings.TrimSpace(part), " ")
		if !ok {
			return nil, false
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, false
		}
		if of, ok := strings.CutPrefix(word, "of "); ok { // "2 of 5 total"
			total, _, _ := strings.Cut(of, " ")
			m, err := strconv.Atoi(total)
			if err != nil {
				return nil, false
			}
			counts["run"] = v
			counts["total"] = m
			continue
		}
		counts[strings.ReplaceAll(strings.TrimSpace(word), " ", "_")] = v
	}
	_, ok := counts["total"]
	return counts, ok
}

// parseVitestCounts reads vitest's "3 failed | 1 passed (4)", "1 error",
// "no tests".
func parseVitestCounts(rest string) (map[string]int, bool) {
	rest = strings.TrimSpace(rest)
	counts := make(map[string]int)
	if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
		v, err := strconv.Atoi(rest[i+2 : len(rest)-1])
		if err != nil {
			return nil, false
		}
		counts["total"] = v
		rest = rest[:i]
	} else if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
		v, err := strconv.Atoi(rest[1 : len(rest)-1])
		if err != nil {
			return nil, false
		}
		counts["total"] = v
		return counts, true
	}
	if rest == "no tests" {
		counts["total"] = 0
		return counts, true
	}
	for part := range strings.SplitSeq(rest, "|") {
		num, word, ok := strings.Cut(strings.TrimSpace(part), " ")
		if !ok {
			return nil, false
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, false
		}
		word = strings.TrimSpace(word)
		switch word { // "1 error" → errors
		case "error":
			word = "errors"
		case "test":
			word = "tests"
		}
		counts[strings.ReplaceAll(word, " ", "_")] = v
	}
	return counts, len(counts) > 0
}

// frame parses a stack frame: "at fn (src/a.test.js:12:5)", "at src/a.js:3:1",
// vitest's "❯ fn src/a.test.ts:5:13" or "❯ src/a.test.ts:5:13".
func frame(t string) (file string, line, col int, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(t, "at "):
		rest = t[3:]
		if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
			rest = rest[i+2 : len(rest)-1]
		}
	case strings.HasPrefix(t, "❯ "):
		rest = t[len("❯ "):]
		if i := strings.LastIndexByte(rest, ' '); i >= 0 {
			rest = rest[i+1:]
		}
	default:
		return "", 0, 0, false
	}
	return evidence.SplitLocation(rest)
}

// projectFile reports whether a frame's file is the project's own:
// relative, not a dependency, not node's internals.
func projectFile(f string) bool {
	return f != "" && !strings.Contains(f, "node_modules") && !strings.HasPrefix(f, "node:") &&
		!strings.HasPrefix(f, "internal/") && !strings.HasPrefix(f, "<") && !strings.HasPrefix(f, "/") &&
		!strings.HasPrefix(f, "file://") && !(len(f) > 2 && f[1] == ':')
}

// location records a frame: the first project frame wins; the first other
// frame outside node_modules is kept as a fallback.
func (fi *failInfo) location(file string, line, col int) {
	if fi.file != "" {
		return
	}
	if projectFile(file) {
		fi.file, fi.line, fi.col = file, line, col
		return
	}
	if fi.ffile == "" && !strings.Contains(file, "node_modules") && !strings.HasPrefix(file, "node:") && !strings.HasPrefix(file, "<") {
		fi.ffile, fi.fline, fi.fcol = file, line, col
	}
}

// errorClass reads "TypeError: x", "AssertionError: expected 1 to be 2",
// "SyntaxError: /abs/a.js: Unexpected token (1:11)".
func errorClass(t string) (string, bool) {
	i := strings.IndexByte(t, ':')
	word := t
	if i >= 0 {
		word = t[:i]
	}
	if j := strings.IndexByte(word, ' '); j >= 0 { // "Error [ERR_X]"
		word = word[:j]
	}
	if word == "" || len(word) > 60 {
		return "", false
	}
	for k := 0; k < len(word); k++ {
		c := word[k]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$' || c == '.') {
			return "", false
		}
	}
	if strings.HasSuffix(word, "Error") || strings.HasSuffix(word, "Exception") || word == "Error" {
		return word, true
	}
	return "", false
}
