package gotest

import (
	"bytes"
	"sort"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// parser holds the state of one Parse call. Lines arrive in stream order
// (stdout, then stderr); each is a -json event or a text line.
type parser struct {
	seq int

	pending    map[string]*block // open text block per stream
	streams    []string          // stream names in the order read
	blocks     []*block          // closed blocks, kept for items, in closing order
	jsonBlocks map[string]*block // -json blocks by package, open or closed
	jsonOrder  []*block

	groups      []*group
	groupByKey  map[string]*group // -json build groups by ImportPath
	groupByPkg  map[string]*group // text build groups by package
	buildMode   *group            // the text build block being read
	goDiags     []*diag
	lastGo      *diag
	lastEvent   event      // the -json event before, whose strings the next reuses
	lines       arena      // records' names, copied from the text lines that named them
	names       arena      // kept records' names, copied from the lines: they live as long as the graph
	viewing     bool       // the line being read is a view of the reader's buffer (text), not an event's own strings
	spareRecs   recTable   // a settled block's records table, emptied, for the next block
	free        []*rec     // records recycled from settled blocks
	lastPending *pendingOf // the pending block last looked up, nil when it closed

	// Tallies that survive the caps.
	passKept, failKept, capped, untracked int
	diagsKept, diagsCapped                int
	pkgsCapped                            int
	okPkgs, noTestPkgs, runFails          int
	buildFails                            int
	failedTests                           int
	pkgLines                              int
	fakes, badJSON, cutNames              int
	truncated                             []string
	unfinished                            int

	overall   evidence.Span
	goCommand bool // argv is `go test`: a missing package line means the run was cut short
	nonBlank  int
	recognise int
}

func newParser() *parser {
	return &parser{
		pending:    map[string]*block{},
		jsonBlocks: map[string]*block{},
		groupByKey: map[string]*group{},
		groupByPkg: map[string]*group{},
	}
}

func (p *parser) next() int { p.seq++; return p.seq }

func (p *parser) newBlock() *block {
	recs := p.spareRecs
	p.spareRecs = recTable{}
	return &block{seq: p.next(), recs: recs}
}

func (p *parser) recognised() bool { return p.recognise > 0 }

// line routes one cleaned line.
func (p *parser) line(stream string, n int, raw []byte) {
	ln := evidence.Span{Stream: stream, From: n, To: n}
	if len(raw) > 0 && raw[0] > ' ' && raw[0] < 0x80 || len(bytes.TrimSpace(raw)) > 0 {
		p.nonBlank++
	}
	if len(raw) > 0 && raw[0] == '{' {
		if ev, ok := decodeEvent(raw, &p.lastEvent); ok {
			p.lastEvent = ev
			p.viewing = false
			p.event(ln, ev)
			return
		}
		if bytes.Contains(raw, []byte(`"Action"`)) {
			p.badJSON++
			return
		}
	}
	p.viewing = true
	if poisonArena {
		raw = bytes.Clone(raw)
		defer poison(raw)
	}
	p.text(ln, view(raw))
}

// endStream closes what cannot continue into the next stream.
func (p *parser) endStream() {
	p.buildMode = nil
	p.lastGo = nil
}

// ---- text lines ----

func (p *parser) pendingBlock(stream string) *block {
	if p.lastPending != nil && p.lastPending.stream == stream {
		return p.lastPending.b
	}
	b := p.pending[stream]
	if b == nil {
		b = p.newBlock()
		p.pending[stream] = b
		known := false
		for _, st := range p.streams {
			known = known || st == stream
		}
		if !known {
			p.streams = append(p.streams, stream)
		}
	}
	p.lastPending = &pendingOf{stream, b}
	return b
}

// closePending removes a stream's pending block: its package line came or
// the output ended.
func (p *parser) closePending(stream string) {
	delete(p.pending, stream)
	p.lastPending = nil
}

// pendingOf is a stream's pending block.
type pendingOf struct {
	stream string
	b      *block
}

func (p *parser) text(ln evidence.Span, s string) {
	pend := p.pendingBlock(ln.Stream)
	if rest, ok := strings.CutPrefix(s, "# "); ok && (pend.structural == 0 || ln.Stream != evidence.Stdout || strings.HasSuffix(rest, ".test]")) {
		p.buildHeader(ln, rest)
		return
	}
	if p.buildMode != nil {
		if p.buildLine(p.buildMode, ln, s, false) {
			return
		}
		p.buildMode = nil
	}
	if p.lastGo != nil && strings.HasPrefix(s, "\t") {
		extend(&p.lastGo.detail, ln)
		return
	}
	p.lastGo = nil
	if strings.HasPrefix(s, "go: ") && (pend.structural == 0 || ln.Stream != evidence.Stdout) {
		p.goLine(ln, s)
		return
	}
	if pl, ok := parsePkgLine(s); ok {
		p.textPkgLine(ln, pl)
		return
	}
	p.blockLine(pend, ln, s, "")
}

func (p *parser) goLine(ln evidence.Span, s string) {
	msg := strings.TrimPrefix(s, "go: ")
	sev := evidence.SeverityError
	for _, info := range [...]string{"downloading ", "finding ", "extracting ", "added ", "upgraded ", "downgraded ", "removed ", "found "} {
		if strings.HasPrefix(msg, info) {
			return
		}
	}
	if w, ok := strings.CutPrefix(msg, "warning: "); ok {
		sev, msg = evidence.SeverityWarning, w
	}
	p.recognise++
	if p.diagCount() >= MaxDiags {
		p.diagsCapped++
		return
	}
	d := &diag{tool: "go", severity: sev, msg: cut(msg, maxMessage), span: ln, detail: ln}
	p.goDiags = append(p.goDiags, d)
	p.diagsKept++
	p.lastGo = d
}

func (p *parser) diagCount() int { return p.diagsKept }

// textPkgLine closes the pending block with a package line, or records a
// package that ran nothing (build/setup failure, no test files).
func (p *parser) textPkgLine(ln evidence.Span, pl pkgLine) {
	p.recognise++
	p.pkgLines++
	if pl.build != "" || pl.status == "?" {
		b := p.newBlock()
		b.pkg = cut(pl.pkg, maxName)
		b.status = pl.status
		b.build = pl.build
		b.span, b.detail = ln, ln
		p.close(b)
		return
	}
	b := p.pendingBlock(ln.Stream)
	p.closePending(ln.Stream)
	b.pkg = cut(pl.pkg, maxName)
	p.applyPkgLine(b, ln, pl)
	b.status = pl.status
	extend(&b.detail, ln)
	p.close(b)
}

func (p *parser) applyPkgLine(b *block, ln evidence.Span, pl pkgLine) {
	b.span = ln
	b.cached = b.cached || pl.cached
	if pl.coverage != "" {
		b.coverage = pl.coverage
	}
	b.noTests = b.noTests || pl.noTests
	if pl.build != "" {
		b.build = pl.build
	}
}

// blockLine reads a line of one package's output. jt is the -json Test field.
func (p *parser) blockLine(b *block, ln evidence.Span, s string, jt string) {
	extend(&b.detail, ln)
	adj := b.lastAdj
	b.lastAdj = false
	if b.tr != nil && p.traceLine(b, ln, s) {
		return
	}
	if h, ok := parseHeader(s); ok {
		p.header(b, ln, h, jt)
		return
	}
	if r, ok := parseResult(s); ok {
		if p.result(b, ln, r, jt) {
			return
		}
	}
	switch {
	case s == "PASS" || s == "FAIL":
		b.bare, b.bareSpan = strings.Clone(s), ln
		b.last = nil
		p.recognise++
		return
	case strings.HasPrefix(s, "exit status "):
		b.exit = strings.Clone(s)
		b.last = nil
		return
	case s == "testing: warning: no tests to run":
		b.noTests = true
		p.recognise++
		return
	case strings.HasPrefix(s, "coverage: ") && jt == "":
		b.coverage = strings.Clone(strings.TrimPrefix(s, "coverage: "))
		return
	case strings.HasPrefix(s, "panic: "):
		t := &trace{kind: "panic", msg: cut(s, maxMessage), span: ln}
		if strings.HasPrefix(s, "panic: test timed out after ") {
			t.kind = "timeout"
		}
		switch {
		case jt != "":
			t.target = p.get(b, jt, ln)
		case b.last != nil && adj && b.last.outcome == evidence.OutcomeFail:
			t.target = b.last
		case b.cur != nil && b.cur.outcome == "":
			t.target = b.cur
		}
		b.tr = t
		if t.target != nil {
			extend(&t.target.detail, ln)
		}
		return
	case s == "WARNING: DATA RACE":
		t := &trace{kind: "race", span: ln, confirmed: true}
		if b.prevSep > 0 && b.prevSep == ln.From-1 {
			t.span.From = b.prevSep
		}
		b.tr = t
		if o := b.owner(s, jt, p, ln); o != nil {
			extend(&o.detail, ln)
		}
		return
	case strings.HasPrefix(s, "=================="):
		b.prevSep = ln.From
	}
	if jt == "" || b.json {
		for _, pre := range [...]string{"goos: ", "goarch: ", "pkg: ", "cpu: "} {
			if strings.HasPrefix(s, pre) {
				b.benchHdr = true
				b.last = nil
				return
			}
		}
	}
	if name, m, ok := parseBench(s); ok {
		p.bench(b, ln, name, m, jt)
		return
	}
	if b.benchHdr && strings.HasPrefix(s, "Benchmark") && !hasBlank(s) {
		// -v announces each benchmark by name before its logs.
		b.last = nil
		if jt == "" && !b.json {
			if r := p.get(b, s, ln); r != nil {
				b.cur = r
			}
		}
		return
	}
	if r, i, ok := findResult(s); ok && !b.json {
		if x := b.recs.get(r.name); x != nil && x.outcome == "" {
			if o := b.owner(s[:i], jt, p, ln); o != nil {
				extend(&o.detail, ln)
			}
			p.result(b, ln, r, jt)
			return
		}
	}
	p.output(b, ln, s, jt)
}

// owner is the test a plain output line belongs to: the -json Test; else
// the test of the last result line when the line is indented under it (logs
// printed after the result, as without -v) or continues a failing example's
// got/want block; else the test running under -v.
func (b *block) owner(s, jt string, p *parser, ln evidence.Span) *rec {
	if jt != "" {
		return p.get(b, jt, ln)
	}
	if b.json {
		return nil // output of the package itself
	}
	if b.last != nil {
		if strings.TrimSpace(s) == "" {
			return b.last
		}
		if indentOf(s) > b.lastIndent {
			return b.last
		}
		if b.last.kind == kindExample && b.last.outcome == evidence.OutcomeFail {
			return b.last
		}
		if indentOf(s) == 0 {
			b.last = nil // output of another test, printed directly
		}
	}
	return b.cur
}

// output reads a line that is neither a header nor a result: a log line, an
// example's got/want block, or anything a test printed.
func (p *parser) output(b *block, ln evidence.Span, s, jt string) {
	o := b.owner(s, jt, p, ln)
	l, isLog := parseLog(s)
	if isLog && l.msg == "race detected during execution of test" {
		p.recognise++
		if o == nil {
			if b.race == nil {
				b.race = b.pendingRace
				if b.race == nil {
					b.race = &trace{kind: "race", span: ln}
				}
			}
			b.pendingRace = nil
			return
		}
		extend(&o.detail, ln)
		x := o.more()
		x.raced = true
		if x.raceTrace == nil {
			x.raceTrace = b.pendingRace
		}
		b.pendingRace = nil
		return
	}
	if o == nil {
		if t := strings.TrimSpace(s); t != "" && !ends(t) && !strings.HasPrefix(t, "testing:") && !strings.HasPrefix(t, "coverage:") {
			b.stray, b.straySpan = cut(t, maxMessage), ln
		}
		return
	}
	extend(&o.detail, ln)
	b.own(o, ln)
	if isLog {
		b.structural++
		// The message is the first line that reads like a failure (t.Log
		// and t.Error print alike); failing that, the last one printed
		// (t.Fatal ends a test).
		if x := o.about(); !x.logged || !x.failMsg {
			x = o.more()
			x.logged, x.failMsg = true, failureLike(l.msg)
			x.msgRun = o.run
			x.msg = cut(l.msg, maxMessage)
			x.file = cut(l.file, maxName)
			x.line = l.line
		}
		return
	}
	if o.kind == kindExample {
		x := o.more()
		switch s {
		case "got:":
			x.exState = 1
		case "want:":
			x.exState = 2
		default:
			if x.exState == 1 && x.got == "" {
				x.got = cut(s, maxMessage/2)
			} else if x.exState == 2 && x.want == "" {
				x.want = cut(s, maxMessage/2)
			}
		}
	}
}

// get returns the latest record of a name, creating it. It returns nil past
// the live cap.
func (p *parser) get(b *block, name string, ln evidence.Span) *rec {
	if len(name) > maxName {
		name = cut(name, maxName)
		p.cutNames++
	}
	h := hashName(name)
	i, r := b.recs.find(name, h)
	if r != nil {
		return r
	}
	return p.createAt(b, name, h, i, ln)
}

// create makes the first record of a name that has none.
func (p *parser) create(b *block, name string, ln evidence.Span) *rec {
	h := hashName(name)
	i, _ := b.recs.find(name, h)
	return p.createAt(b, name, h, i, ln)
}

// createAt makes the latest record of a name hashing to h, at slot i of
// the block's records (from find). It returns nil past the live cap.
func (p *parser) createAt(b *block, name string, h uint64, i int, ln evidence.Span) *rec {
	if b.recs.len() >= maxLive {
		p.untracked++
		return nil
	}
	var r *rec // zero: new, or zeroed by recycle
	if n := len(p.free); n > 0 {
		r, p.free = p.free[n-1], p.free[:n-1]
	} else {
		r = new(rec)
	}
	// A text line's name is copied into the lines' arena, and again into
	// the kept names' when the record is kept (keep copies it): past the
	// item cap most records are counted and recycled, and a string each
	// was most of a flood's garbage.
	if p.viewing {
		name = p.lines.Copy(name)
	}
	// Set field by field: the record is zero already, and writing a whole
	// literal would clear its 224 bytes a second time.
	r.name, r.hash, r.seq, r.kind, r.detail = name, h, p.next(), kindOf(name), ln
	r.viewName, r.mapped = p.viewing, true
	b.recs.set(i, h, r)
	return r
}

// rerun creates the record of a test's next run, which replaces old (nil
// for none) as the latest record of its name; h and i are the name's hash
// and slot (find).
func (p *parser) rerun(b *block, old *rec, name string, h uint64, i int, ln evidence.Span) *rec {
	r := p.createAt(b, name, h, i, ln)
	if r != nil && old != nil {
		old.mapped = false
	}
	return r
}

func (p *parser) header(b *block, ln evidence.Span, h header, jt string) {
	b.verbose = true
	b.structural++
	b.last = nil
	p.recognise++
	if b.json {
		// The run, pause and cont events said it; the line is the test's output.
		if jt != "" {
			if r := p.get(b, jt, ln); r != nil {
				extend(&r.detail, ln)
				b.own(r, ln)
			}
		}
		return
	}
	if h.name == "" {
		b.cur = nil
		return
	}
	name := h.name
	if len(name) > maxName {
		name = cut(name, maxName)
		p.cutNames++
	}
	hash := hashName(name)
	i, r := b.recs.find(name, hash) // one lookup: a new test's record goes in its slot
	if r == nil || (h.verb == "RUN" && r.outcome != "") {
		r = p.rerun(b, r, name, hash, i, ln) // a first run, or a rerun under -count
	}
	if r == nil {
		b.cur = nil
		return
	}
	extend(&r.detail, ln)
	b.own(r, ln)
	b.cur = r
}

// result reads a `--- PASS/FAIL/SKIP/BENCH` line. It reports false when the
// line is not go test's own (a test printed it) so that it is read as output.
func (p *parser) result(b *block, ln evidence.Span, res result, jt string) bool {
	name := res.name
	if len(name) > maxName {
		name = cut(name, maxName)
		p.cutNames++
	}
	if b.json {
		// Outcomes come from actions; the line only marks where the result is.
		if jt == "" || (name != jt && benchBase(name) != jt) {
			return false
		}
		r := p.get(b, jt, ln)
		if r == nil {
			return true
		}
		extend(&r.detail, ln)
		if res.verb != "BENCH" {
			r.span = ln
			r.resultIndent = res.indent
		}
		b.last, b.lastIndent, b.lastAdj = r, res.indent, true
		b.structural++
		p.recognise++
		return true
	}
	if res.verb == "BENCH" {
		r := p.get(b, benchName(b, name), ln)
		if r != nil {
			extend(&r.detail, ln)
		}
		b.last, b.lastIndent = r, res.indent
		b.structural++
		return true
	}
	r := b.cur // under -v the result usually follows its own test's lines
	if r == nil || r.name != name {
		r = b.recs.get(name)
	}
	if b.verbose && kindOf(name) != kindBench {
		// In -v output every result follows its RUN header; a result line for
		// a test that is not running is text some test printed.
		if r == nil || (r.outcome != "" && res.indent <= r.resultIndent) {
			return false
		}
	}
	if r == nil {
		r = p.create(b, name, ln)
	}
	o := outcomeOf(res.verb)
	b.structural++
	p.recognise++
	if r == nil {
		b.counts.add(countKey(o), 1)
		return true
	}
	r.text = true
	extend(&r.detail, ln)
	if r.span.IsZero() || r.outcome == "" {
		r.span = ln
		r.resultIndent = res.indent
	}
	p.resolve(b, r, o)
	if b.cur == r {
		b.cur = nil
	}
	b.last, b.lastIndent, b.lastAdj = r, res.indent, true
	return true
}

func outcomeOf(verb string) evidence.Outcome {
	switch verb {
	case "FAIL":
		return evidence.OutcomeFail
	case "SKIP":
		return evidence.OutcomeSkip
	}
	return evidence.OutcomePass
}

func countKey(o evidence.Outcome) string { return string(o) }

// benchName picks the record a benchmark result belongs to: the name as
// printed when a record has it (a sub-benchmark named "size-10"), else the
// name without its GOMAXPROCS suffix.
func benchName(b *block, printed string) string {
	if b.recs.get(printed) != nil {
		return printed
	}
	return benchBase(printed)
}

func (p *parser) bench(b *block, ln evidence.Span, printed string, m map[string]string, jt string) {
	name := benchName(b, printed)
	if jt != "" && (printed == jt || benchBase(printed) == jt) {
		name = jt
	}
	b.structural++
	p.recognise++
	r := p.get(b, name, ln)
	if r == nil {
		b.counts.add(countKey(evidence.OutcomePass), 1)
		return
	}
	r.kind = kindBench
	x := r.more()
	x.runs++
	extend(&r.detail, ln)
	if x.metrics == nil {
		x.metrics = make(map[string]string, len(m))
		for k, v := range m {
			x.metrics[strings.Clone(k)] = strings.Clone(v)
		}
		r.span = ln
	}
	if r.outcome == "" {
		p.resolve(b, r, evidence.OutcomePass)
	}
	if b.cur == r {
		b.cur = nil
	}
}

// resolve gives a record its outcome, counting it and deciding whether it is
// kept as an item. An outcome only changes from pass or skip to fail.
func (p *parser) resolve(b *block, r *rec, o evidence.Outcome) {
	if r.outcome == o {
		return
	}
	if r.outcome != "" {
		if o != evidence.OutcomeFail {
			return
		}
		b.counts.add(countKey(r.outcome), -1)
		if r.kept {
			p.passKept--
			r.kept = false
			b.list = removeRec(b.list, r)
		} else if r.dropped {
			p.capped--
			r.dropped = false
		}
	}
	if r.outcome == "" && r.kind == kindBench {
		b.counts.add("bench", 1)
	}
	r.outcome = o
	b.counts.add(countKey(o), 1)
	if o == evidence.OutcomeFail {
		if p.failKept < MaxTests {
			p.failKept++
			p.keep(b, r)
		} else {
			p.capped++
			r.dropped = true
		}
		return
	}
	if p.passKept < MaxTests {
		p.passKept++
		p.keep(b, r)
		return
	}
	p.capped++
	r.dropped = true
	if r.mapped && b.last != r && b.cur != r { // b.recs holds r under its name: removed without hashing it
		b.recs.remove(r, r.hash)
		r.mapped = false
		if !b.json {
			b.gone = append(b.gone, r) // recycled when the block settles
		}
	}
}

// keep lists r as an item. Its name is copied out of the lines' arena
// into the names': a view would hold a whole chunk of lines alive, and the
// items' names live as long as the graph.
func (p *parser) keep(b *block, r *rec) {
	r.kept = true
	if r.viewName {
		r.name, r.viewName = p.names.Copy(r.name), false
	}
	b.list = append(b.list, r)
}

func removeRec(list []*rec, r *rec) []*rec {
	for i, x := range list {
		if x == r {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// ---- traces ----

// traceLine feeds a line to the trace being read. It reports whether the line
// was consumed; a line that ends the trace is not.
func (p *parser) traceLine(b *block, ln evidence.Span, s string) bool {
	t := b.tr
	t.done = false
	if t.kind == "race" {
		if strings.HasPrefix(s, "==================") {
			extend(&t.span, ln)
			p.endTrace(b)
			b.prevSep = 0
			return true
		}
		if ends(s) {
			p.endTrace(b)
			return false
		}
		p.traceFrame(t, s)
		extend(&t.span, ln)
		if t.target != nil {
			extend(&t.target.detail, ln)
		}
		return true
	}
	if !t.confirmed {
		switch {
		case strings.HasPrefix(s, "goroutine ") && strings.Contains(s, " ["):
			t.confirmed = true
		case strings.TrimSpace(s) == "",
			strings.HasPrefix(s, "\t"),
			strings.HasPrefix(s, "[signal "),
			strings.HasPrefix(s, "fatal error: "):
		default:
			b.tr = nil // not a panic: some test printed "panic:"
			return false
		}
	}
	if t.confirmed && ends(s) {
		p.endTrace(b)
		return false
	}
	if t.kind == "timeout" {
		switch {
		case strings.TrimSpace(s) == "running tests:":
			t.inRunning = true
		case t.inRunning && strings.HasPrefix(s, "\t\t"):
			if f := strings.Fields(s); len(f) > 0 && len(t.running) < maxRunning {
				t.running = append(t.running, cut(f[0], maxName))
			}
		default:
			t.inRunning = false
		}
	}
	p.traceFrame(t, s)
	extend(&t.span, ln)
	if t.target != nil {
		extend(&t.target.detail, ln)
	}
	return true
}

// ends reports whether a line is go test's own and so ends a trace.
func ends(s string) bool {
	if s == "PASS" || s == "FAIL" || strings.HasPrefix(s, "exit status ") {
		return true
	}
	if _, ok := parseHeader(s); ok {
		return true
	}
	if _, ok := parseResult(s); ok {
		return true
	}
	_, ok := parsePkgLine(s)
	return ok
}

func (p *parser) traceFrame(t *trace, s string) {
	if file, n, ok := frameFile(s); ok {
		if len(t.frames) < maxFrames {
			t.frames = append(t.frames, frame{fn: t.prevFunc, file: strings.Clone(file), line: n})
		}
		return
	}
	if v := strings.TrimSpace(s); v != "" {
		t.prevFunc = strings.Clone(v)
	}
}

// endTrace files a finished trace where it belongs. A panic is only a cause
// when a goroutine dump confirmed it; it only fails a test if the package
// fails (see settle).
func (p *parser) endTrace(b *block) {
	t := b.tr
	b.tr = nil
	if t == nil || t.done {
		return
	}
	t.done = true
	if t.kind == "race" {
		b.pendingRace = t
		return
	}
	if !t.confirmed {
		return
	}
	p.recognise++
	b.structural++
	if t.kind == "timeout" && len(t.running) > 0 {
		for _, name := range t.running {
			if r := p.get(b, name, t.span); r != nil && r.about().trace == nil {
				r.more().trace = t
			}
		}
		return
	}
	if t.target != nil {
		if t.target.about().trace == nil {
			t.target.more().trace = t
		}
		return
	}
	b.traces = append(b.traces, t)
}

// ---- closing blocks ----

// close files a block whose package line or action was seen.
func (p *parser) close(b *block) {
	if b.closed {
		return
	}
	b.closed = true
	p.settle(b)
	switch {
	case b.status == "ok":
		p.okPkgs++
	case b.status == "?":
		p.noTestPkgs++
	case b.failed() && b.build != "":
		p.buildFails++
	case b.failed():
		p.runFails++
	}
	if !b.json {
		p.keepBlock(b)
	}
}

func (p *parser) keepBlock(b *block) {
	if len(p.blocks) >= MaxPkgs {
		p.pkgsCapped++
		p.failedTests += b.counts.get("fail")
		return
	}
	p.blocks = append(p.blocks, b)
}

// settle decides what the block's output means once it is complete.
func (p *parser) settle(b *block) {
	if len(b.partial) > 0 {
		p.flushPartial(b)
	}
	if b.tr != nil {
		p.endTrace(b)
	}
	if b.status == "ok" && !b.json {
		// A passing package has no failing tests: failure lines in it were
		// printed by its tests (possible without -v, where nothing marks them).
		kept := b.list[:0]
		for _, r := range b.list {
			if r.outcome == evidence.OutcomeFail && r.text {
				p.fakes++
				b.counts.add("fail", -1)
				p.failKept--
				continue
			}
			kept = append(kept, r)
		}
		b.list = kept
	}
	open := b.unresolved()
	if b.failed() && b.build == "" {
		caused := false
		for _, r := range open {
			if r.about().trace != nil {
				p.resolve(b, r, evidence.OutcomeFail)
				caused = true
			}
		}
		for _, r := range b.list {
			if r.outcome == evidence.OutcomeFail {
				caused = true
			}
		}
		if !caused && len(b.traces) == 0 && b.race == nil {
			// The binary died while a test ran and said nothing else (os.Exit).
			if c := b.cur; c != nil && c.outcome == "" && c.kind != kindBench {
				c.more().exited = true
				p.resolve(b, c, evidence.OutcomeFail)
			}
		}
		// Parents of failing subtests fail with them.
		for _, r := range b.list {
			if r.outcome != evidence.OutcomeFail {
				continue
			}
			for name := parentName(r.name); name != ""; name = parentName(name) {
				if a := b.recs.get(name); a != nil && a.outcome == "" {
					p.resolve(b, a, evidence.OutcomeFail)
				}
			}
		}
		open = b.unresolved()
	}
	if b.failed() || b.truncated {
		for _, r := range open {
			if r.kind != kindBench {
				b.counts.add("unfinished", 1)
				if b.truncated {
					p.unfinished++
				}
			}
		}
	}
	for _, r := range b.list {
		if r.outcome == evidence.OutcomeFail {
			p.classify(b, r)
		}
	}
	// Only the kept records are needed from here on.
	b.cur, b.last, b.prev = nil, nil, nil
	if b.json {
		b.recs.drain(func(*rec) {})
	} else {
		b.recs.drain(p.recycle)
		for _, r := range b.gone {
			p.recycle(r)
		}
		b.gone = nil
	}
	p.spareRecs, b.recs = b.recs, recTable{} // the next block's, grown already
	b.pendingRace, b.traces = nil, b.traces[:min(len(b.traces), 1)]
}

// recycle keeps a settled text block's record that nothing references
// any more for the records to come: past the item cap a flood's tests are
// counted, not kept, and their records would be most of its garbage. A
// record is reused only if no item holds it (not kept) and it has no
// recInfo (a trace that hit it may still point at it); a text block
// receives no line once settled, and its cur, last and prev are cleared.
func (p *parser) recycle(r *rec) {
	if !r.kept && r.info == nil && len(p.free) < maxLive {
		*r = rec{} // createAt relies on it; and a waiting record holds no chunk of lines
		p.free = append(p.free, r)
	}
}

// unresolved lists the records without an outcome, in creation order.
func (b *block) unresolved() []*rec {
	var out []*rec
	b.recs.each(func(r *rec) {
		if r.outcome == "" {
			out = append(out, r)
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func parentName(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i <= 0 {
		return ""
	}
	return name[:i]
}

// classify sets a failing test's class, message and location.
func (p *parser) classify(b *block, r *rec) {
	x := r.more()
	switch {
	case x.trace != nil:
		x.msg = x.trace.msg
		x.file, x.line = x.trace.locate(r.name)
		if x.trace.kind == "timeout" {
			x.class = "timeout"
		} else {
			x.class = "panic"
		}
		if r.span.IsZero() {
			r.span = evidence.Span{Stream: x.trace.span.Stream, From: x.trace.span.From, To: x.trace.span.From}
		}
	case x.raced:
		x.class = "race"
		x.msg = "race detected during execution of test"
		if x.raceTrace != nil {
			if f, n := x.raceTrace.locate(""); f != "" {
				x.file, x.line = f, n
			}
			extend(&r.detail, x.raceTrace.span)
		}
	case x.exited:
		// The binary exited while the test ran: the class says so, and the
		// message is what go test printed about it ("exit status 3"), or
		// nothing when it printed nothing (-v, -json). ctx's own reading is
		// not the tool's message: a digest showing the output whole shows
		// everything the output says, and a receipt must not need more.
		x.class = "exit"
		x.msg = b.exit
		x.why = "the test binary exited while the test ran"
	default:
		x.class = "fail"
		if r.kind == kindExample && !x.logged && (x.got != "" || x.want != "") {
			x.msg = cut("got: "+x.got+"; want: "+x.want, maxMessage)
		}
	}
	if r.span.IsZero() {
		r.span = evidence.Span{Stream: r.detail.Stream, From: r.detail.From, To: r.detail.From}
	}
}

// failureWords mark a log line as a failure report rather than a progress note.
var failureWords = []string{"got", "want", "expect", "mismatch", "fail", "error", "err:", "unexpected", "!=", "should",
	"not equal", "panic", "assert", "invalid", "missing", "differ", "wrong", "timeout", "timed out"}

// failureLike reports whether a test's log line reads like a failure.
func failureLike(msg string) bool {
	m := strings.ToLower(msg)
	for _, w := range failureWords {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}
