package pytest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// ErrUnrecognised is returned by Parse when the streams hold nothing pytest
// prints: no session banner, counts line, result line, summary entry or pytest
// error. The registry then falls back to a more general profile.
var ErrUnrecognised = errors.New("no pytest output found")

// Bounds on what a graph holds; beyond them the rest is counted as a loss.
const (
	maxTests     = 100_000  // test identities itemised
	maxBlocks    = 100_000  // failure, error and pass blocks remembered
	maxEntries   = 100_000  // short-summary lines remembered
	maxNameBytes = 16 << 20 // total bytes of node ids kept
	maxKept      = 64 << 20 // total bytes of report titles and summary lines kept
	maxMsg       = 300      // bytes of a stored message
	maxClass     = 120      // bytes of a stored class
)

// pos is a line of one stream: the stream's index in Source.Streams and its
// 1-based line number.
type pos struct{ s, n int }

func (p pos) less(q pos) bool {
	if p.s != q.s {
		return p.s < q.s
	}
	return p.n < q.n
}

// Parse reads a pytest run in two passes over its streams. The first pass finds
// the facts pytest prints last and that everything else must agree with: the
// final counts line, the short test summary that precedes it and the terminal
// width. The second pass walks the sections in order with that
// knowledge, so that text inside captured output (a test printing "FAILED" or a
// whole nested pytest session) is never read as a result.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	v := &surveyor{}
	if err := eachLine(ctx, src, v.line, nil); err != nil {
		return nil, err
	}
	sv := v.result()
	sc := newScanner(sv, src)
	if err := eachLine(ctx, src, sc.line, sc.endStream); err != nil {
		return nil, err
	}
	if !sc.recognised {
		return nil, ErrUnrecognised
	}
	return sc.build(), nil
}

// eachLine calls fn for every line of every stream, in stream order, with
// terminal colour and carriage-return overwrites removed.
func eachLine(ctx context.Context, src *evidence.Source, fn func(p pos, s string), end func(i int)) error {
	for i, st := range src.Streams {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return fmt.Errorf("open %s: %w", st.Name, err)
		}
		err = lines.Scan(ctx, rc, func(n int, b []byte, _ bool) error {
			fn(pos{i, n}, string(lines.Clean(b)))
			return nil
		})
		rc.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", st.Name, err)
		}
		if end != nil {
			end(i)
		}
	}
	return nil
}

// ---- first pass ------------------------------------------------------------

// sumList is one short test summary: its banner and its entries.
type sumList struct {
	at      pos
	entries []entry
	closed  bool // something other than entries followed the entries
}

type finalStats struct {
	at pos
	st stats
}

type surveyor struct {
	final    *finalStats
	finalSum *sumList
	open     *sumList
	after    bool // a structural line came after the last counts line
	width    int
	kept     int // bytes of summary entries kept
}

// surveyResult is what the first pass learnt.
type surveyResult struct {
	final   *finalStats // the last counts line, nil when there is none
	after   bool        // pytest structure follows it: it was not pytest's last word
	summary *sumList    // the short summary belonging to the final counts line
	width   int         // the terminal width pytest drew its banners at; 0 when unknown
}

func (v *surveyor) line(p pos, s string) {
	if s == "" {
		return
	}
	if st, ok := parseStats(s); ok {
		v.final, v.after = &finalStats{at: p, st: st}, false
		v.finalSum = nil
		if v.open != nil && !v.open.closed {
			v.finalSum = v.open
		}
		v.open = nil
		return
	}
	structural := false
	switch s[0] {
	case '=':
		if title, _, ok := banner(s, '='); ok {
			structural = true
			if v.width == 0 {
				v.width = width(s)
			}
			switch title {
			case titleSummary:
				v.open = &sumList{at: p}
			case titleWarnings: // may follow the summary (warnings raised in teardown)
			default:
				v.closeOpen()
			}
		}
	case '_', '-':
		if _, _, ok := banner(s, s[0]); ok {
			structural = true
			v.closeOpen()
		}
	case '!':
		if _, _, ok := banner(s, '!'); ok {
			structural = true
		}
	}
	if !structural {
		if e, ok := parseEntry(s); ok {
			structural = true
			if v.open != nil && !v.open.closed && len(v.open.entries) < maxEntries && v.kept < maxKept {
				e.nodeid, e.msg = strings.Clone(e.nodeid), keep(e.msg)
				v.kept += len(e.nodeid) + len(e.msg)
				v.open.entries = append(v.open.entries, e)
			}
		} else if _, _, _, ok := parseVerbose(s); ok {
			structural = true
			v.closeOpen()
		} else if _, pct, ok := parseProgress(s); ok && pct >= 0 {
			structural = true
			v.closeOpen()
		}
	}
	if structural && v.final != nil {
		v.after = true
	}
}

// expectTests is how many tests the final counts line reports, at most
// maxTests: the size the test set will grow to (0 when unknown). It only
// saves the set's growth; nothing depends on it being right.
func (v *surveyResult) expectTests() int {
	if v.final == nil {
		return 0
	}
	n := 0
	for w, c := range v.final.st.counts {
		if w != "warnings" && c > 0 {
			n += c
		}
	}
	return min(n, maxTests)
}

func (v *surveyor) closeOpen() {
	if v.open != nil {
		v.open.closed = true
	}
}

func (v *surveyor) result() *surveyResult {
	r := &surveyResult{final: v.final, after: v.after, width: v.width}
	switch {
	case v.final != nil && !v.after:
		r.summary = v.finalSum
	case v.open != nil && !v.open.closed:
		r.summary = v.open // -qq prints a summary but no counts line
	}
	return r
}

// parseRootdir reads "rootdir: /x/y, configfile: pytest.ini, testpaths: tests".
func parseRootdir(s string) string {
	r := strings.TrimPrefix(s, "rootdir: ")
	for _, k := range []string{", configfile: ", ", inifile: ", ", testpaths: ", ", plugins: "} {
		if i := strings.Index(r, k); i >= 0 {
			r = r[:i]
		}
	}
	r = strings.TrimRight(r, "/ ")
	if !strings.HasPrefix(r, "/") {
		return "" // only absolute roots are stripped from paths
	}
	return r
}

// ---- second pass -----------------------------------------------------------

type section int

const (
	secPre section = iota // header, progress and result lines, stop banners
	secErrors
	secFailures
	secXFails
	secWarnings
	secXPasses
	secPasses
	secOther // a section this profile does not read: durations, plugins
	secSummary
)

// sectionOf maps a banner title to its section; the numeric order is the order
// pytest prints them in, which lets a banner inside captured output be told
// from the real next section.
func sectionOf(title string) section {
	switch title {
	case titleErrors:
		return secErrors
	case titleFailures:
		return secFailures
	case titleXFails:
		return secXFails
	case titleWarnings:
		return secWarnings
	case titleXPasses:
		return secXPasses
	case titlePasses:
		return secPasses
	case titleSummary:
		return secSummary
	}
	return secOther
}

func (s section) hasBlocks() bool {
	return s == secErrors || s == secFailures || s == secXFails || s == secXPasses || s == secPasses
}

// block is one "____ title ____" report inside ERRORS, FAILURES or PASSES.
type block struct {
	sec        section
	conftest   bool // a conftest that failed to import (its head is "conftest")
	head       string
	at         pos
	last       int // last non-blank line
	captured   bool
	nested     bool // its captured output holds pytest banners: a nested session
	tr         trace
	importPath string // "ImportError while importing test module '…'"
}

func (b *block) add(p pos, s string) {
	if s != "" {
		b.last = p.n
	}
	if b.captured {
		return
	}
	if s != "" && s[0] == '-' {
		if _, _, ok := banner(s, '-'); ok {
			b.captured = true // "---- Captured stdout call ----" and friends
			return
		}
	}
	if b.importPath == "" && strings.HasPrefix(s, "ImportError while importing test module '") {
		b.importPath = keep(strings.TrimSuffix(strings.TrimPrefix(s, "ImportError while importing test module '"), "'."))
	}
	b.tr.add(s)
}

type lineEntry struct {
	at pos
	s  string
}

type sumEntry struct {
	at pos
	e  entry
}

// session is one pytest session: everything up to its counts line.
type session struct {
	stats      *stats
	at         pos
	warns      []*region
	stop       string // a "!!! … !!!" banner: Interrupted, KeyboardInterrupt, stopping after…
	kbdAt      string // where a KeyboardInterrupt landed
	collectErr int    // "collected N items / M errors"
}

type region struct {
	from pos
	last int
}

// diag is a pytest error that is not a test: a usage error or an INTERNALERROR.
type diag struct {
	code string
	at   pos
	last int
	msg  string
	tr   trace
}

type scanner struct {
	v     *surveyResult
	src   *evidence.Source
	names []string

	sec      section
	blk      *block
	blocks   []*block
	lineEnts []lineEntry
	entries  []sumEntry
	tests    testSet

	cur      *session
	pending  *session
	sessions []*session

	progFails, progErrs, progPct int
	progSeen                     bool
	started                      bool // a session banner, progress or result line was seen

	diags    []*diag
	usage    *diag // waiting for "pytest: error: …"
	internal *diag
	conftest *block
	awaitKbd bool

	rootdir       string // from the session header, never from captured output
	sumRead       bool   // the short summary found by the first pass was read as one
	titles        map[string]map[string]bool
	kept          int // bytes of titles and summary lines kept
	recognised    bool
	droppedBlocks int
	finalOK       bool
}

func newScanner(v *surveyResult, src *evidence.Source) *scanner {
	sc := &scanner{v: v, src: src, cur: &session{}, progPct: -1}
	sc.tests.byID = make(map[string]int, v.expectTests())
	for _, st := range src.Streams {
		sc.names = append(sc.names, st.Name)
	}
	return sc
}

func (sc *scanner) endStream(int) {
	sc.closeBlock()
	sc.sec = secPre
	sc.internal, sc.conftest, sc.usage = nil, nil, nil
	sc.awaitKbd = false
}

func (sc *scanner) captured() bool { return sc.blk != nil && sc.blk.captured }

func (sc *scanner) line(p pos, s string) {
	if f := sc.v.final; f != nil && p == f.at {
		if sc.acceptFinal(s) {
			sc.onFinal(p)
			return
		}
	}
	captured := sc.captured()
	if !captured {
		if i := strings.Index(s, "INTERNALERROR>"); i >= 0 {
			sc.onInternal(p, s[:i], s[i+len("INTERNALERROR>"):])
			return
		}
	}
	sc.internal = nil
	if s != "" {
		switch c := s[0]; {
		case c == '=':
			if st, ok := parseStats(s); ok {
				if sc.blk == nil {
					if sc.widthOK(s) {
						sc.onStats(p, st)
					}
					return
				}
				sc.blk.nested = sc.blk.nested || captured
				break // inside a block: content
			}
			if title, _, ok := banner(s, '='); ok {
				if sc.acceptBanner(p, title, s, captured) {
					sc.onBanner(p, title, s)
					return
				}
				sc.blk.nested = true // only captured output has banners that are refused
			}
		case c == '!':
			if title, _, ok := banner(s, '!'); ok && !captured {
				sc.closeBlock()
				sc.cur.stop = keep(title)
				sc.awaitKbd = title == "KeyboardInterrupt"
				sc.recognised = true
				return
			}
		case c >= '0' && c <= '9' || c == 'n':
			if sc.blk == nil && (sc.sec == secPre || sc.sec == secSummary || sc.sec == secOther || sc.sec == secWarnings) {
				if st, ok := parseStats(s); ok {
					sc.onStats(p, st)
					return
				}
			}
		}
	}
	switch {
	case sc.sec == secPre:
		sc.pre(p, s)
	case sc.sec.hasBlocks():
		sc.blockLine(p, s)
	case sc.sec == secWarnings:
		if s != "" && len(sc.cur.warns) > 0 {
			sc.cur.warns[len(sc.cur.warns)-1].last = p.n
		}
	case sc.sec == secSummary:
		sc.summaryLine(p, s)
	}
}

// acceptFinal decides whether the last counts line of the output is pytest's
// own. It is not when pytest structure follows it (a nested session in
// captured output, the run cut short after it), when it is drawn at another
// width than the run's banners, when it sits inside captured output of a run
// that did not end with a pytest exit status (0–5: a killed run may end inside
// a nested session), or, for the bare -q form in such a run, when pytest was
// not at a point where it ends a session.
func (sc *scanner) acceptFinal(s string) bool {
	if sc.v.after {
		return false
	}
	st := sc.v.final.st
	if st.banner && (!sc.widthOK(s) || sc.v.width == 0 && !sc.exitOK()) {
		return false // pytest draws this form only under the session banner, at its width
	}
	if sc.captured() {
		return sc.exitOK()
	}
	if st.banner || sc.exitOK() {
		return true
	}
	// A bare -q counts line in a killed run (-s output may imitate one): only
	// where pytest could end a session.
	switch sc.sec {
	case secSummary, secWarnings, secOther:
		return true
	case secPre:
		return sc.progPct == 100
	}
	return false
}

// exitOK reports whether the run ended with one of pytest's own exit statuses
// (0 passed, 1 failed, 2 interrupted, 3 internal error, 4 usage, 5 no tests),
// rather than being killed or timed out.
func (sc *scanner) exitOK() bool { return sc.src.Exit() >= 0 && sc.src.Exit() <= 5 }

func (sc *scanner) onFinal(p pos) {
	sc.closeBlock()
	st := sc.v.final.st
	sc.cur.stats, sc.cur.at = &st, p
	sc.sessions = append(sc.sessions, sc.cur)
	sc.cur, sc.pending = &session{}, nil
	sc.sec = secPre
	sc.finalOK, sc.recognised = true, true
}

// onStats handles a counts line that is not the last one: the end of an
// earlier session, confirmed only when the next session's banner follows
// (under -s a test's printed imitation lands here, followed by more results).
func (sc *scanner) onStats(p pos, st stats) {
	sc.closeBlock()
	sc.cur.stats, sc.cur.at = &st, p
	sc.pending = sc.cur
	sc.cur = &session{}
	sc.sec = secPre
}

func (sc *scanner) confirmPending() {
	if sc.pending != nil {
		sc.sessions = append(sc.sessions, sc.pending)
		sc.pending = nil
	}
}

// widthOK reports whether a separator line was drawn at the run's terminal
// width (nested sessions and printed imitations usually were not).
func (sc *scanner) widthOK(s string) bool {
	w := sc.v.width
	if w == 0 {
		return true
	}
	n := width(s)
	if n == w || n == w-1 {
		return true
	}
	_, fill, _ := banner(s, s[0])
	return fill <= 2 && n > w // a title too long for the line gets one fill char a side
}

// acceptBanner decides whether an "=" banner starts a section. Outside
// captured output every banner does. Inside it, only in a run that ended with
// a pytest exit status (a killed run may end inside a nested session), drawn
// at the run's width, and either the short summary the first pass found or a
// later section in pytest's order.
func (sc *scanner) acceptBanner(p pos, title, s string, captured bool) bool {
	if !captured {
		return true
	}
	if !sc.exitOK() || !sc.widthOK(s) {
		return false // a killed run may end inside a nested session
	}
	if sum := sc.v.summary; sum != nil && p == sum.at {
		return true
	}
	if title == titleSession || title == titleSummary {
		return false
	}
	sec := sectionOf(title)
	if sec == secOther {
		return true
	}
	return sec > sc.sec
}

func (sc *scanner) onBanner(p pos, title, s string) {
	sc.closeBlock()
	sc.recognised = true
	if sum := sc.v.summary; sum != nil && p == sum.at {
		sc.sumRead = true
	}
	if title == titleSession {
		if sc.widthOK(s) {
			sc.confirmPending()
		}
		sc.pending = nil
		sc.started = true
		sc.sec = secPre
		return
	}
	sc.sec = sectionOf(title)
	if sc.sec == secWarnings {
		sc.cur.warns = append(sc.cur.warns, &region{from: p, last: p.n})
	}
}

// charge accounts for n bytes about to be kept; false when over the budget.
func (sc *scanner) charge(n int) bool {
	if sc.kept+n > maxKept {
		return false
	}
	sc.kept += n
	return true
}

func (sc *scanner) closeBlock() {
	sc.blk = nil
}

func (sc *scanner) blockLine(p pos, s string) {
	if s != "" && s[0] == '_' {
		if title, _, ok := banner(s, '_'); ok && sc.acceptHeader(title, s) {
			sc.recognised = true
			if len(sc.blocks) >= maxBlocks || !sc.charge(len(title)) {
				sc.droppedBlocks++
				sc.blk = nil
				return
			}
			sc.blk = &block{sec: sc.sec, head: strings.Clone(title), at: p, last: p.n}
			sc.blocks = append(sc.blocks, sc.blk)
			return
		}
	}
	if sc.blk == nil {
		// --tb=line: one "path:N: message" line per failure, no blocks.
		if sc.sec == secFailures && s != "" && len(sc.lineEnts) < maxBlocks && sc.charge(min(len(s), maxKeep)) {
			sc.lineEnts = append(sc.lineEnts, lineEntry{at: p, s: keep(s)})
		}
		return
	}
	sc.blk.add(p, s)
}

// acceptHeader decides whether a "____ title ____" line starts a new report.
// Inside captured output it must be drawn at the run's width and, when the
// short summary names the reports, be the title of one of them; when it does
// not and the captured output holds a nested pytest session, no title is
// trusted (the blocks merge: precision is lost, never safety).
func (sc *scanner) acceptHeader(title, s string) bool {
	if !sc.widthOK(s) {
		return false
	}
	if !sc.captured() {
		return true
	}
	sum := sc.v.summary
	if !sc.exitOK() {
		sum = nil // a killed run's last summary may be a nested session's
	}
	if sum == nil {
		return !sc.blk.nested
	}
	want := ""
	switch sc.sec {
	case secFailures:
		want = "FAILED"
	case secErrors:
		want = "ERROR"
	case secPasses:
		want = "PASSED"
	case secXFails:
		want = "XFAIL"
	case secXPasses:
		want = "XPASS"
	}
	titles := sc.expected()[want]
	if titles == nil {
		return !sc.blk.nested
	}
	return titles[title]
}

// expected maps each summary word to the report titles its entries give:
// "FAILED a.py::TestC::test_x" → "TestC.test_x"; "ERROR a.py::test_y" → "ERROR
// at setup of test_y" and "ERROR at teardown of test_y"; "ERROR a.py" →
// "ERROR collecting a.py".
func (sc *scanner) expected() map[string]map[string]bool {
	if sc.titles != nil {
		return sc.titles
	}
	sc.titles = map[string]map[string]bool{}
	for _, e := range sc.v.summary.entries {
		m := sc.titles[e.word]
		if m == nil {
			m = map[string]bool{}
			sc.titles[e.word] = m
		}
		h := headOf(e.nodeid)
		if e.word != "ERROR" {
			m[h] = true
			continue
		}
		if !strings.Contains(e.nodeid, "::") {
			m["ERROR collecting "+e.nodeid] = true
		}
		for _, phase := range []string{"setup", "call", "teardown"} {
			m["ERROR at "+phase+" of "+h] = true
		}
	}
	return sc.titles
}

func (sc *scanner) summaryLine(p pos, s string) {
	e, ok := parseEntry(s)
	if !ok || e.word == "SKIPPED" {
		return // a continuation of a multi-line message (CI mode), or a skip location
	}
	sc.recognised = true
	e.nodeid, e.msg = strings.Clone(e.nodeid), keep(e.msg)
	if len(sc.entries) < maxEntries && sc.charge(len(e.nodeid)+len(e.msg)) {
		sc.entries = append(sc.entries, sumEntry{at: p, e: e})
	} else {
		sc.droppedBlocks++
	}
	if t := sc.tests.get(e.nodeid, p); t != nil {
		t.see(e.word, p, rankSummary)
		if e.msg != "" {
			msg := e.msg
			if e.word == "FAILED" || e.word == "ERROR" {
				t.setCrash(classFromMessage(msg), msg, "", 0, rankSummary)
			} else {
				t.setMsg(msg, rankSummary)
			}
		}
	}
}

func (sc *scanner) pre(p pos, s string) {
	if sc.conftest != nil {
		if s == "" {
			sc.conftest = nil
		} else {
			sc.conftest.add(p, s)
		}
		return
	}
	if s == "" {
		return
	}
	if sc.awaitKbd {
		sc.awaitKbd = false
		if l, ok := parseLoc(s); ok && l.msg == "KeyboardInterrupt" {
			sc.cur.kbdAt = fmt.Sprintf("%s:%d", l.file, l.line)
			return
		}
	}
	if strings.HasPrefix(s, "ImportError while loading conftest '") {
		sc.recognised = true
		sc.conftest = &block{conftest: true, head: "conftest", at: p, last: p.n,
			importPath: keep(strings.TrimSuffix(strings.TrimPrefix(s, "ImportError while loading conftest '"), "'."))}
		sc.blocks = append(sc.blocks, sc.conftest)
		return
	}
	if i := strings.Index(s, "ConftestImportFailure: "); i >= 0 {
		sc.onConftestFailure(p, s[i+len("ConftestImportFailure: "):])
		return
	}
	if strings.HasPrefix(s, "rootdir: ") {
		if sc.rootdir == "" {
			sc.rootdir = strings.Clone(parseRootdir(s))
		}
		return
	}
	if rest, ok := cutCollected(s); ok {
		if n := collectErrors(rest); n > 0 {
			sc.cur.collectErr = n
		}
		return
	}
	if id, word, reason, ok := parseVerbose(s); ok {
		sc.recognised, sc.started = true, true
		if t := sc.tests.get(id, p); t != nil {
			t.see(word, p, rankVerbose)
			if reason != "" {
				t.setMsg(reason, rankVerbose)
			}
		}
		return
	}
	if chars, pct, ok := parseProgress(s); ok {
		sc.onProgress(chars, pct)
		return
	}
	sc.usageLine(p, s)
}

func (sc *scanner) onProgress(chars string, pct int) {
	if pct >= 0 {
		sc.recognised = true
	}
	sc.started = true
	sc.progSeen = true
	sc.progFails += strings.Count(chars, "F")
	sc.progErrs += strings.Count(chars, "E")
	if pct >= 0 {
		sc.progPct = pct
	}
}

// usageLine recognises pytest's own errors before any test ran:
// "ERROR: usage: …" followed by "pytest: error: …", "ERROR: file or directory
// not found: x", "ERROR: not found: …".
func (sc *scanner) usageLine(p pos, s string) {
	if d := sc.usage; d != nil {
		if i := strings.Index(s, ": error: "); i > 0 && !strings.Contains(s[:i], " ") {
			d.msg, d.last = keep(s[i+len(": error: "):]), p.n
			sc.usage = nil
			return
		}
		if strings.HasPrefix(s, "  ") { // "  inifile: …", "  rootdir: …"
			d.last = p.n
			return
		}
		sc.usage = nil
	}
	if !strings.HasPrefix(s, "ERROR: ") {
		return
	}
	if sc.started && sc.names[p.s] != evidence.Stderr {
		return // after tests started, an "ERROR: " line on stdout is test output (-s)
	}
	sc.recognised = true
	rest := s[len("ERROR: "):]
	d := &diag{code: "usage-error", at: p, last: p.n, msg: keep(rest)}
	if strings.HasPrefix(rest, "usage: ") {
		d.msg = ""
		sc.usage = d
	}
	sc.diags = append(sc.diags, d)
}

func (sc *scanner) onInternal(p pos, before, body string) {
	sc.recognised = true
	if chars, pct, ok := parseProgress(strings.TrimRight(before, " ")); ok {
		sc.onProgress(chars, pct)
	}
	body = strings.TrimPrefix(body, " ")
	if sc.internal == nil {
		sc.closeBlock()
		sc.internal = &diag{code: "internal-error", at: p}
		sc.diags = append(sc.diags, sc.internal)
	}
	sc.internal.last = p.n
	sc.internal.tr.add(body)
}

// onConftestFailure reads "_pytest.config.ConftestImportFailure: ValueError: boom (from /x/conftest.py)".
func (sc *scanner) onConftestFailure(p pos, rest string) {
	sc.recognised = true
	path := ""
	if i := strings.LastIndex(rest, " (from "); i >= 0 && strings.HasSuffix(rest, ")") {
		path = rest[i+len(" (from ") : len(rest)-1]
		rest = rest[:i]
	}
	b := &block{conftest: true, head: "conftest", at: p, last: p.n, importPath: keep(path)}
	b.tr.add("E   " + rest)
	sc.blocks = append(sc.blocks, b)
}

// cutCollected recognises the header line "collected 19 items / 1 error" (also
// after "collecting ... " in verbose mode).
func cutCollected(s string) (string, bool) {
	if i := strings.Index(s, "collected "); i >= 0 && (i == 0 || strings.HasPrefix(s, "collecting ")) {
		return s[i+len("collected "):], true
	}
	return "", false
}

func collectErrors(rest string) int {
	for _, part := range strings.Split(rest, " / ") {
		var n int
		var w string
		if _, err := fmt.Sscanf(part, "%d %s", &n, &w); err == nil && (w == "error" || w == "errors") {
			return n
		}
	}
	return 0
}
