package pytest

import (
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// trace accumulates what a report's traceback says about the crash, in any of
// pytest's traceback styles: long and short ("path:N: Class" / "path:N: in f"
// location lines and "E   …" lines), native (`File "…", line N` frames and a
// final exception line), and the bare reports of strict xpass.
type trace struct {
	firstFile string // the first location: the test's own file in long and short style
	last      loc    // the last location line
	lastIsLoc bool   // the last frame was a location line rather than a native frame
	native    loc    // the last native frame outside pytest's own machinery
	nativeExc string // the exception line after the last native frame
	inNative  bool
	inE       bool
	eFirst    string // the first line of the last group of E lines
	eClass    string // its first line that starts with an exception class
	eFile     loc    // a `File "…", line N` quoted inside it (SyntaxError)
	xpass     string
}

func (t *trace) add(s string) {
	if s == "" {
		t.inE = false
		return
	}
	if s[0] == 'E' && (len(s) == 1 || s[1] == ' ' || s[1] == '\t') {
		body := strings.TrimLeft(s[1:], " \t")
		if !t.inE {
			t.inE = true
			t.eFirst, t.eClass, t.eFile = "", "", loc{}
		}
		if t.eFirst == "" {
			t.eFirst = keep(body)
		}
		if t.eClass == "" && exceptionClass(body) != "" {
			t.eClass = keep(body)
		}
		if l, ok := parseNativeFrame(body); ok {
			t.eFile = keepLoc(l)
		}
		return
	}
	t.inE = false
	if s[0] == ' ' {
		if l, ok := parseNativeFrame(s); ok {
			t.nativeExc, t.inNative, t.lastIsLoc = "", true, false
			if !pytestInternal(l.file) || t.native.file == "" {
				t.native = keepLoc(l)
			}
			if t.firstFile == "" {
				t.firstFile = keep(l.file)
			}
		}
		return
	}
	if strings.HasPrefix(s, "[XPASS(strict)]") {
		t.xpass = keep(s)
		return
	}
	if l, ok := parseLoc(s); ok {
		t.last, t.lastIsLoc = keepLoc(l), true
		if t.firstFile == "" {
			t.firstFile = t.last.file
		}
		return
	}
	if t.inNative && t.nativeExc == "" && !strings.HasPrefix(s, "Traceback (") {
		t.nativeExc = keep(s)
	}
}

// pytestInternal reports whether a frame is pytest's or pluggy's own, which
// native tracebacks show (pytest.fail raises inside _pytest/outcomes.py) and
// the other styles hide.
func pytestInternal(file string) bool {
	return strings.Contains(file, "/_pytest/") || strings.Contains(file, "/pluggy/") || strings.HasPrefix(file, "<")
}

// crash returns the failure's class, message and location.
func (t *trace) crash() (class, msg string, at loc) {
	switch {
	case t.lastIsLoc || t.eFirst != "":
		at = t.last
		msg = t.eClass
		if msg == "" {
			msg = t.eFirst
		}
		if c := exceptionClass(t.last.msg); c != "" && c == t.last.msg {
			class = c
		} else if t.eClass != "" {
			class = exceptionClass(t.eClass)
		}
		switch class {
		case "SyntaxError", "IndentationError", "TabError":
			if t.eFile.file != "" {
				at = t.eFile
			}
		}
	case t.native.file != "":
		at, msg = t.native, t.nativeExc
		class = exceptionClass(msg)
	}
	if msg == "" {
		msg = t.xpass
	}
	if class == "" {
		class = classFromMessage(msg)
	}
	return class, msg, at
}

// Source ranks: a fact from a better source replaces one from a worse.
const (
	rankVerbose = 1 + iota
	rankSummary
	rankErrorBlock
	rankLineEntry
	rankFailBlock
)

// test is everything seen about one node id.
type test struct {
	id                   string
	first                pos
	fail, err, pass      bool
	skip, xfail, xpass   bool
	phase                string
	class, msg, file     string
	line                 int
	classRank, msgRank   int
	locRank              int
	span                 pos
	spanRank             int
	detail               pos
	detailLast           int
	detailRank           int
	fromHeader           bool // the node id was rebuilt from a block title
	hasDetail, hasSpanAt bool
}

func (t *test) see(word string, p pos, rank int) {
	switch word {
	case "FAILED":
		t.fail = true
	case "ERROR":
		t.err = true
	case "PASSED":
		t.pass = true
	case "SKIPPED":
		t.skip = true
	case "XFAIL":
		t.xfail = true
	case "XPASS":
		t.xpass = true
	}
	// The identity line: the summary entry (it carries the message), else the
	// verbose result line.
	if rank > t.spanRank && (rank == rankSummary || rank == rankVerbose) {
		t.span, t.spanRank, t.hasSpanAt = p, rank, true
	}
}

func (t *test) setMsg(m string, rank int) {
	if m != "" && rank > t.msgRank {
		t.msg, t.msgRank = keep(m), rank
	}
}

func (t *test) setCrash(class, msg, file string, line, rank int) {
	if class != "" && rank > t.classRank {
		t.class, t.classRank = keep(class), rank
	}
	t.setMsg(msg, rank)
	if file != "" && rank > t.locRank {
		t.file, t.line, t.locRank = keep(file), line, rank
	}
}

func (t *test) outcome() evidence.Outcome {
	switch {
	case t.fail:
		return evidence.OutcomeFail
	case t.err:
		return evidence.OutcomeError
	case t.xpass:
		return evidence.OutcomeXPass
	case t.xfail:
		return evidence.OutcomeXFail
	case t.skip:
		return evidence.OutcomeSkip
	case t.pass:
		return evidence.OutcomePass
	}
	return ""
}

// testSet holds tests by node id, bounded.
type testSet struct {
	byID    map[string]int
	list    []*test
	bytes   int
	dropped int
}

func (ts *testSet) get(id string, p pos) *test {
	if i, ok := ts.byID[id]; ok {
		t := ts.list[i]
		if p.less(t.first) {
			t.first = p
		}
		return t
	}
	if len(ts.list) >= maxTests || ts.bytes+len(id) > maxNameBytes {
		ts.dropped++
		return nil
	}
	id = strings.Clone(id) // do not keep the whole line alive
	t := &test{id: id, first: p}
	ts.byID[id] = len(ts.list)
	ts.list = append(ts.list, t)
	ts.bytes += len(id)
	return t
}

// ---- resolution and graph --------------------------------------------------

// rooter turns the absolute paths pytest prints (--tb=native, --tb=line, paths
// outside the invocation directory) into paths relative to the rootdir, so that
// items do not carry temporary directories.
type rooter struct{ root string }

func (r *rooter) rel(p string) string {
	if r.root != "" && strings.HasPrefix(p, r.root+"/") {
		return p[len(r.root)+1:]
	}
	return p
}

func (r *rooter) text(s string) string {
	if r.root == "" || !strings.Contains(s, r.root+"/") {
		return s
	}
	return strings.ReplaceAll(s, r.root+"/", "")
}

// learn sets the root from an absolute path known to name a relative one.
func (r *rooter) learn(abs, relative string) {
	if r.root != "" || relative == "" || strings.HasPrefix(relative, "/") {
		return
	}
	if strings.HasPrefix(abs, "/") && strings.HasSuffix(abs, "/"+relative) {
		r.root = strings.TrimSuffix(abs, "/"+relative)
	}
}

func (sc *scanner) resolve(r *rooter) (fromHeader int) {
	// Learn the root before naming anything.
	for _, b := range sc.blocks {
		if b.conftest {
			r.learn(b.importPath, b.tr.firstFile)
		} else if id, ok := strings.CutPrefix(b.head, "ERROR collecting "); ok {
			r.learn(b.importPath, id)
		}
	}
	byHead := sc.testsByHead()
	// When pytest's own short summary names the failures (or errors), a report
	// block only adds detail to a name it gave: a block whose title matches none
	// is not pytest's (a nested session in captured output) and is dropped.
	named := map[string]bool{}
	if sc.sumRead {
		for _, e := range sc.v.summary.entries {
			named[e.word] = true
		}
	}
	// pick names a block: the first test with the block's title and outcome
	// that no block of the same kind has named yet. A test once named stays
	// named, so the scan of a title's tests starts past the ones named from
	// the front of the list (without that, a title that recurs in every
	// session of a long output is quadratic).
	type pickKey struct {
		use string
		t   *test
	}
	used := map[pickKey]bool{}
	start := map[[2]string]int{}
	pick := func(head, use string, want func(*test) bool) *test {
		list, at := byHead[head], [2]string{use, head}
		i := start[at]
		for i < len(list) && used[pickKey{use, list[i]}] {
			i++
		}
		start[at] = i
		for _, t := range list[i:] {
			if k := (pickKey{use, t}); !used[k] && want(t) {
				used[k] = true
				return t
			}
		}
		return nil
	}
	for _, b := range sc.blocks {
		var t *test
		phase := ""
		head := b.head
		switch {
		case b.conftest:
			name := r.rel(b.importPath)
			if name == "" {
				name = "conftest.py"
			}
			t, phase = sc.tests.get(name, b.at), "conftest"
		case b.sec == secErrors && strings.HasPrefix(b.head, "ERROR collecting "):
			t, phase = sc.tests.get(strings.TrimPrefix(b.head, "ERROR collecting "), b.at), "collect"
		case b.sec == secErrors && strings.HasPrefix(b.head, "ERROR at "):
			ph, h, ok := strings.Cut(strings.TrimPrefix(b.head, "ERROR at "), " of ")
			if ok {
				phase, head = ph, h
			}
			t = pick(head, "error "+phase, func(t *test) bool { return t.err })
		case b.sec == secFailures:
			t = pick(head, "failed", func(t *test) bool { return t.fail })
		case b.sec == secPasses:
			t = pick(head, "passed", func(t *test) bool { return t.pass })
		case b.sec == secXFails:
			t = pick(head, "xfail", func(t *test) bool { return t.xfail })
		case b.sec == secXPasses:
			t = pick(head, "xpass", func(t *test) bool { return t.xpass })
		}
		if t == nil {
			if t = sc.headerTest(b, head, named, r); t == nil {
				continue
			}
			fromHeader++
		}
		applyBlock(t, b, phase)
	}
	sc.resolveLineEntries()
	return fromHeader
}

// testsByHead lists the tests of each report title a block gives, in order
// of appearance (only those: a large run lists far more tests than it
// reports on).
func (sc *scanner) testsByHead() map[string][]*test {
	byHead := map[string][]*test{}
	for _, b := range sc.blocks {
		byHead[b.head] = nil
		if rest, ok := strings.CutPrefix(b.head, "ERROR at "); ok {
			if _, h, ok := strings.Cut(rest, " of "); ok {
				byHead[h] = nil
			}
		}
	}
	if len(byHead) > 0 {
		ordered := append([]*test(nil), sc.tests.list...)
		sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].first.less(ordered[j].first) })
		for _, t := range ordered {
			h := headOf(t.id)
			if list, ok := byHead[h]; ok {
				byHead[h] = append(list, t)
			}
		}
	}
	return byHead
}

// headerTest names a block no listed test matched by rebuilding the test's
// id from the block's header; nil when the block is dropped (its section
// has no blocks, or pytest's own summary names its kind and not it).
func (sc *scanner) headerTest(b *block, head string, named map[string]bool, r *rooter) *test {
	if !b.sec.hasBlocks() {
		return nil
	}
	if b.sec == secFailures && named["FAILED"] || b.sec == secErrors && named["ERROR"] ||
		b.sec == secPasses || b.sec == secXFails || b.sec == secXPasses {
		return nil
	}
	// In a failure the first frame is the test function itself; in a
	// setup or teardown error it is the fixture, whose file says nothing.
	file := ""
	if b.sec == secFailures {
		file = r.rel(b.tr.firstFile)
	}
	t := sc.tests.get(rebuildID(head, file), b.at)
	if t == nil {
		return nil
	}
	t.fromHeader = true
	return t
}

// applyBlock marks a test with what its report block says: the outcome,
// phase, crash, detail and span.
func applyBlock(t *test, b *block, phase string) {
	if p := b.at; p.less(t.first) {
		t.first = p
	}
	rank, detailRank := 0, 0
	switch b.sec {
	case secFailures:
		t.fail = true
		rank, detailRank = rankFailBlock, 4
	case secErrors:
		t.err = true
		rank, detailRank = rankErrorBlock, 3
	case secPasses, secXFails, secXPasses:
		detailRank = 1
	default: // conftest
		t.err = true
		rank, detailRank = rankErrorBlock, 3
	}
	if phase != "" && t.phase == "" {
		t.phase = phase
	}
	if rank > 0 {
		class, msg, at := b.tr.crash()
		t.setCrash(class, msg, at.file, at.line, rank)
	}
	if detailRank > t.detailRank {
		t.detail, t.detailLast, t.detailRank, t.hasDetail = b.at, b.last, detailRank, true
	}
	if !t.hasSpanAt {
		t.span, t.hasSpanAt = b.at, true
	}
}

// rebuildID makes a node id from a block title when pytest printed none
// (-rN, or a run cut before its summary): "TestC.test_x[1.5]" in test_a.py →
// "test_a.py::TestC::test_x[1.5]".
func rebuildID(head, file string) string {
	name := head
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = strings.ReplaceAll(name[:i], ".", "::") + name[i:]
	} else {
		name = strings.ReplaceAll(name, ".", "::")
	}
	if file == "" || strings.HasPrefix(file, "<") || strings.HasPrefix(file, "/") {
		return name
	}
	return file + "::" + name
}

// resolveLineEntries pairs --tb=line lines with the failed tests in report
// order (the order of the short summary's FAILED lines, else of -v lines).
func (sc *scanner) resolveLineEntries() {
	if len(sc.lineEnts) == 0 {
		return
	}
	var failed []*test
	seen := map[string]bool{}
	for _, se := range sc.entries {
		if se.e.word == "FAILED" && !seen[se.e.nodeid] {
			seen[se.e.nodeid] = true
			if i, ok := sc.tests.byID[se.e.nodeid]; ok {
				failed = append(failed, sc.tests.list[i])
			}
		}
	}
	if len(failed) == 0 {
		for _, t := range sc.tests.list {
			if t.fail {
				failed = append(failed, t)
			}
		}
		sort.SliceStable(failed, func(i, j int) bool { return failed[i].first.less(failed[j].first) })
	}
	for i, le := range sc.lineEnts {
		if i >= len(failed) {
			break
		}
		t := failed[i]
		if l, ok := parseLoc(le.s); ok {
			t.setCrash(classFromMessage(l.msg), l.msg, l.file, l.line, rankLineEntry)
		} else {
			t.setCrash(classFromMessage(le.s), le.s, "", 0, rankLineEntry)
		}
		if t.detailRank < 2 {
			t.detail, t.detailLast, t.detailRank, t.hasDetail = le.at, le.at.n, 2, true
		}
	}
}

// placed is an item to be, in output order: what it is and where it starts.
type placed struct {
	at   pos
	kind evidence.Kind
	i, j int // index into tests, diags or sessions; j: the warnings region
}

func (sc *scanner) span(p pos, last int) evidence.Span {
	if p.n <= 0 {
		return evidence.Span{}
	}
	if last < p.n {
		last = p.n
	}
	return evidence.Span{Stream: sc.names[p.s], From: p.n, To: last}
}

func (sc *scanner) build() *evidence.Graph {
	g := &evidence.Graph{Profile: Name, Version: Version, Tool: "pytest"}
	r := &rooter{root: sc.rootdir}
	fromHeader := sc.resolve(r)
	if r.root == "" {
		for _, t := range sc.tests.list {
			r.learn(t.file, fileOf(t.id))
		}
	}

	// Place every item, then build them in the order the output shows them.
	out := make([]placed, 0, len(sc.tests.list)+len(sc.diags)+2*len(sc.sessions))
	nFail, nErrTests, collectErrs := 0, 0, 0
	for i, t := range sc.tests.list {
		switch t.outcome() {
		case "":
			continue
		case evidence.OutcomeFail:
			nFail++
		case evidence.OutcomeError:
			nErrTests++
		}
		if t.phase == "collect" || t.phase == "conftest" {
			collectErrs++
		}
		out = append(out, placed{at: t.first, kind: evidence.KindTest, i: i})
	}
	for i, d := range sc.diags {
		out = append(out, placed{at: d.at, kind: evidence.KindDiagnostic, i: i})
	}
	agg := map[string]int{}
	var stops []string
	for i, s := range sc.sessions {
		for j, w := range s.warns {
			out = append(out, placed{at: w.from, kind: evidence.KindRegion, i: i, j: j})
		}
		out = append(out, placed{at: s.at, kind: evidence.KindSummary, i: i})
		for k, n := range s.stats.counts {
			agg[k] += n
		}
		if s.stop != "" {
			stops = append(stops, s.stop)
		}
		collectErrs += s.collectErr
	}
	// A session that never printed its counts line still tells how it stopped.
	if !sc.finalOK && sc.cur.stop != "" {
		stops = append(stops, sc.cur.stop)
	}
	collectErrs += sc.cur.collectErr

	sort.SliceStable(out, func(i, j int) bool { return out[i].at.less(out[j].at) })
	g.Items = make([]evidence.Item, len(out))
	for k, pl := range out {
		switch pl.kind {
		case evidence.KindTest:
			sc.testItem(&g.Items[k], sc.tests.list[pl.i], r)
		case evidence.KindDiagnostic:
			sc.diagItem(&g.Items[k], sc.diags[pl.i], r)
		case evidence.KindRegion:
			w := sc.sessions[pl.i].warns[pl.j]
			g.Items[k] = evidence.Item{Kind: evidence.KindRegion, Name: "warnings summary", Why: "warnings",
				Span: sc.span(w.from, w.last)}
		case evidence.KindSummary:
			sc.summaryItem(&g.Items[k], pl.i, r)
		}
	}

	sc.verdict(g, agg, stops, nFail, nErrTests, collectErrs)

	// Completeness: every failure pytest counted should have a name.
	if n := agg["failed"]; sc.finalOK && n > nFail {
		g.Lose("partial-parse", "pytest counted %d failed tests but named %d (run with -rf or -v to name them all)", n, nFail)
	}
	if n := agg["errors"]; sc.finalOK && n > 0 && n > sc.errorReports() {
		g.Lose("partial-parse", "pytest counted %d errors but named %d (run with -rE or -v to name them all)", n, sc.errorReports())
	}
	if fromHeader > 0 {
		g.Lose("partial-parse", "%d node ids rebuilt from failure titles: pytest printed no short summary naming them", fromHeader)
	}
	if n := sc.tests.dropped; n > 0 {
		g.Lose("item-cap", "%d further test sightings beyond the cap of %d tests were not itemised; the counts line covers them", n, maxTests)
	}
	if n := sc.droppedBlocks; n > 0 {
		g.Lose("item-cap", "%d report blocks and summary lines beyond the caps (%d blocks, %d MiB) were not read", n, maxBlocks, maxKept>>20)
	}
	return g
}

func (sc *scanner) testItem(it *evidence.Item, t *test, r *rooter) {
	o := t.outcome()
	pkg := fileOf(t.id)
	if t.fromHeader && !strings.Contains(t.id, "::") {
		pkg = "" // a bare title: the file is unknown
	}
	*it = evidence.Item{
		Kind:    evidence.KindTest,
		Tool:    "pytest",
		Package: pkg,
		Name:    t.id,
		Outcome: o,
		Span:    sc.span(t.span, t.span.n),
	}
	if o.Failed() {
		it.Class = evidence.Clip(t.class, maxClass)
		it.File, it.Line = r.rel(t.file), t.line
	}
	if t.msg != "" {
		it.Message = evidence.Clip(r.text(t.msg), maxMsg)
	}
	if t.hasDetail {
		it.Detail = sc.span(t.detail, t.detailLast)
	}
	if o == evidence.OutcomeError && t.phase != "" {
		it.Attrs = map[string]string{"phase": t.phase}
	}
	if t.fromHeader {
		if it.Attrs == nil {
			it.Attrs = map[string]string{}
		}
		it.Attrs["name_from"] = "header"
	}
}

func (sc *scanner) diagItem(it *evidence.Item, d *diag, r *rooter) {
	*it = evidence.Item{
		Kind:     evidence.KindDiagnostic,
		Tool:     "pytest",
		Severity: evidence.SeverityError,
		Code:     d.code,
		Message:  d.msg,
		Span:     sc.span(d.at, d.last),
	}
	if d.code == "internal-error" {
		class, msg, at := d.tr.crash()
		it.Message, it.File, it.Line = msg, r.rel(at.file), at.line
		if it.Message == "" {
			it.Message = class
		}
	}
	it.Message = evidence.Clip(r.text(it.Message), maxMsg)
}

func (sc *scanner) summaryItem(it *evidence.Item, i int, r *rooter) {
	s := sc.sessions[i]
	*it = evidence.Item{Kind: evidence.KindSummary, Tool: "pytest", Text: s.stats.text,
		Span: sc.span(s.at, s.at.n)}
	if len(sc.sessions) > 1 {
		it.Name = "session " + strconv.Itoa(i+1)
	}
	if len(s.stats.counts) > 0 {
		it.Counts = maps.Clone(s.stats.counts)
	}
	if s.stop != "" || s.kbdAt != "" {
		it.Attrs = map[string]string{}
		if s.stop != "" {
			it.Attrs["stopped"] = r.text(s.stop)
		}
		if s.kbdAt != "" {
			it.Attrs["interrupted_at"] = r.rel(s.kbdAt)
		}
	}
}

// errorReports is how many error reports the output names: short-summary
// ERROR lines, else ERRORS blocks.
func (sc *scanner) errorReports() int {
	n, b := 0, 0
	for _, se := range sc.entries {
		if se.e.word == "ERROR" {
			n++
		}
	}
	for _, bl := range sc.blocks {
		if bl.sec == secErrors || bl.conftest {
			b++
		}
	}
	return max(n, b)
}

// verdict sets what pytest's own output says about the run, and labels the
// cases where it cannot say or where the exit status disagrees.
func (sc *scanner) verdict(g *evidence.Graph, agg map[string]int, stops []string, nFail, nErrTests, collectErrs int) {
	toolError := len(sc.diags) > 0 // a usage error or an INTERNALERROR
	for _, t := range sc.tests.list {
		if t.phase == "conftest" {
			toolError = true
		}
	}
	collectStop, interrupted := false, false
	for _, s := range stops {
		switch {
		case strings.HasPrefix(s, "Interrupted: ") && strings.HasSuffix(s, "during collection"):
			collectStop = true
		case s == "KeyboardInterrupt" || strings.Contains(s, "Exit: ") || strings.HasPrefix(s, "Interrupted: "):
			interrupted = true
		}
	}
	failing := nFail > 0 || nErrTests > 0

	switch {
	case sc.finalOK:
		ran := 0
		for k, n := range agg {
			switch k {
			case "deselected", "warnings", "errors", "rerun":
			default:
				ran += n
			}
		}
		switch {
		case toolError || collectStop:
			g.Verdict = "error"
		case agg["errors"] > 0 && ran == 0 && collectErrs > 0:
			g.Verdict = "error"
		case agg["failed"] > 0 || agg["errors"] > 0 || failing:
			g.Verdict = "fail"
		case interrupted:
			g.Verdict = ""
		case ran > 0:
			g.Verdict = "pass"
		}
	default:
		switch {
		case toolError || collectStop:
			g.Verdict = "error"
		case failing || sc.progFails > 0 || sc.progErrs > 0:
			g.Verdict = "fail"
		case sc.progSeen && sc.progPct == 100 && sc.src.Exit() == 0 && !interrupted:
			g.Verdict = "pass" // -qq prints no counts line
		}
		if !toolError {
			g.Lose("partial-parse", "pytest printed no counts line of its own (-qq, or the run was killed or cut short): counts unknown")
		}
	}

	if matchArgv(sc.src.Argv) {
		exit := sc.src.Exit()
		switch {
		case g.Verdict == "pass" && exit != 0,
			g.Verdict == "fail" && exit == 0,
			g.Verdict == "error" && exit == 0:
			g.Lose("partial-parse", "exit status %d disagrees with pytest's output (%s)", exit, g.Verdict)
		}
	}
}
