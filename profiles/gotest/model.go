package gotest

import (
	"strings"
	"unsafe"

	"github.com/ctxhq/ctx/evidence"
)

// rec is one test identity as the parser learns about it: created by a RUN
// header, a -json run event or a result line, resolved by a result line or a
// -json action. A large run has hundreds of thousands, so a rec holds only
// what every test has; what only some have (a log line, a failure's
// reading, a trace, benchmark metrics) is in its recInfo.
type rec struct {
	name    string
	hash    uint64 // of name (hashName): its slot in the block's records
	seq     int    // creation order; items are emitted in it
	outcome evidence.Outcome

	kind        testKind
	text        bool // outcome read from a text result line, not a -json action
	interleaved bool // another running test's lines fell among its own (t.Parallel)
	kept        bool // in block.list
	dropped     bool // beyond the cap: counted, not itemised
	mapped      bool // the block's recs holds it under its name (a rerun's record replaces it there)
	viewName    bool // name is in the lines' arena, shared with other records' names, not yet a copy of its own (keep copies it)

	span         evidence.Span // the result line (identity)
	resultIndent int
	detail       evidence.Span // its output block
	run          evidence.Span // the latest run of consecutive lines it owns

	info *recInfo // nil until the output says more than a name and an outcome
}

// recInfo is what the output says of a test beyond its name, outcome and
// lines.
type recInfo struct {
	class string

	// The `file.go:N: message` log line that states the failure.
	logged  bool
	failMsg bool // msg reads like a failure: later log lines do not replace it
	msg     string
	why     string // ctx's reading when the output gives no message (evidence.Item.Why)
	file    string
	line    int

	msgRun evidence.Span // the run holding its failure message

	trace     *trace // a panic or timeout that hit it while running
	raced     bool   // its output says a race was detected
	raceTrace *trace // the race report before that line
	exited    bool   // the binary exited while it ran, with no other cause

	runs    int               // benchmark result lines merged into it
	metrics map[string]string // benchmark metrics of the first result

	exState   int // example got/want reading: 1 in got, 2 in want
	got, want string
}

// noInfo is the recInfo of a rec that has none, for reading.
var noInfo recInfo

// more returns r's recInfo, creating it.
func (r *rec) more() *recInfo {
	if r.info == nil {
		r.info = &recInfo{}
	}
	return r.info
}

// about returns r's recInfo for reading: the zero one when it has none.
func (r *rec) about() *recInfo {
	if r.info == nil {
		return &noInfo
	}
	return r.info
}

// testKind is a test's kind, by its function name's prefix: a byte, not
// a string, in each of a run's hundreds of thousands of records.
type testKind uint8

// Test kinds.
const (
	kindTest testKind = iota
	kindBench
	kindExample
	kindFuzz
)

// String is the kind as the graph names it.
func (k testKind) String() string {
	return [...]string{kindTest: "test", kindBench: "benchmark", kindExample: "example", kindFuzz: "fuzz"}[k]
}

func kindOf(name string) testKind {
	if name == "" || name[0] != 'B' && name[0] != 'E' && name[0] != 'F' {
		return kindTest
	}
	switch {
	case strings.HasPrefix(name, "Benchmark"):
		return kindBench
	case strings.HasPrefix(name, "Example"):
		return kindExample
	case strings.HasPrefix(name, "Fuzz"):
		return kindFuzz
	}
	return kindTest
}

// extend grows a span to cover ln when both are in the same stream.
func extend(sp *evidence.Span, ln evidence.Span) {
	if sp.IsZero() {
		*sp = ln
		return
	}
	if !sameStream(sp.Stream, ln.Stream) {
		return
	}
	if ln.From < sp.From {
		sp.From = ln.From
	}
	if ln.To > sp.To {
		sp.To = ln.To
	}
}

// sameStream is a == b, deciding without a call when both are the same
// string (a stream's spans all share its name's bytes).
func sameStream(a, b string) bool {
	if len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b) {
		return true
	}
	return a == b
}

// block is the output of one package: in text mode the lines up to its
// `ok`/`FAIL` line, in -json mode the events carrying its Package.
type block struct {
	seq  int
	pkg  string
	json bool

	recs recTable // the latest record of each name
	gone []*rec   // records dropped from recs past the cap, recycled when it settles (text)
	list []*rec   // kept records
	cur  *rec     // the test whose output is being printed (-v)
	prev *rec     // the owner of the last line owned by a test

	last       *rec // the test of the last result line: indented lines after it are its own
	lastIndent int
	lastAdj    bool // the previous line was that result line

	verbose  bool // RUN headers or -json: every test is listed
	benchHdr bool // goos:/pkg:/cpu: seen, benchmark names may follow

	status    string // "ok", "FAIL", "?"; "" while open
	build     string // "build failed", "setup failed"
	buildKey  string // -json FailedBuild
	cached    bool
	coverage  string
	noTests   bool // [no tests to run] or "testing: warning: no tests to run"
	exit      string
	stray     string        // the last output line no test owns (a failing TestMain says why there)
	straySpan evidence.Span // its line
	bare      string        // the binary's own PASS/FAIL line
	bareSpan  evidence.Span

	span   evidence.Span // the package line
	detail evidence.Span // the whole block
	counts tally

	tr          *trace   // the trace being read
	traces      []*trace // panics and timeouts not tied to a test
	pendingRace *trace   // a race report waiting for its test's "race detected" line
	race        *trace   // a race reported outside any test

	partial    map[string]string // -json: the start of a line whose end has not come, by Test
	structural int               // lines that are go test's own (headers, results, traces)
	closed     bool              // its package line or action was seen
	truncated  bool
	prevSep    int // line number of the last "==================" line
}

func (b *block) failed() bool { return b.status == "FAIL" }

// trace is a panic (with its goroutine dump), a timeout or a race report.
type trace struct {
	kind      string // "panic", "timeout", "race"
	msg       string
	span      evidence.Span
	confirmed bool // a goroutine dump followed the panic line
	done      bool
	target    *rec
	running   []string // tests a timeout names
	inRunning bool
	frames    []frame
	prevFunc  string
}

type frame struct {
	fn   string
	file string
	line int
}

const (
	maxFrames  = 256
	maxRunning = 1000
)

// group is the build output of one package: a `# pkg` header and the
// diagnostics after it, or the -json build-output events of one ImportPath.
type group struct {
	seq     int
	key     string // -json ImportPath; the package in text
	pkg     string
	tool    string
	json    bool
	failed  bool // -json build-fail
	diags   []*diag
	errors  int // diagnostics seen, kept or not
	span    evidence.Span
	claims  []*block
	emitted bool
}

type diag struct {
	tool     string
	pkg      string
	file     string
	line     int
	col      int
	severity evidence.Severity
	msg      string
	located  bool
	span     evidence.Span
	detail   evidence.Span
}

// own notes that line ln is r's: it grows r's current run of consecutive
// lines (and the run holding its message), and when the line before was a
// still-running unrelated test's, both are marked interleaved: parallel
// tests print among each other, so their output blocks cover siblings'.
func (b *block) own(r *rec, ln evidence.Span) {
	if r.run.IsZero() || r.run.Stream != ln.Stream || ln.From > r.run.To+1 {
		r.run = ln
	} else {
		extend(&r.run, ln)
	}
	if x := r.info; x != nil && !x.msgRun.IsZero() && x.msgRun.Stream == r.run.Stream && x.msgRun.From == r.run.From {
		x.msgRun = r.run
	}
	if o := b.prev; o != nil && o != r && o.outcome == "" && !related(o.name, r.name) {
		o.interleaved, r.interleaved = true, true
	}
	b.prev = r
}

// related reports whether one test is the other or an ancestor of it.
func related(a, b string) bool {
	return a == b || isChild(b, a) || isChild(a, b)
}

// isChild reports whether name is a subtest (at any depth) of parent.
func isChild(name, parent string) bool {
	return len(name) > len(parent) && name[len(parent)] == '/' && strings.HasPrefix(name, parent)
}

// tally is a block's test counts by key: the keys every test moves
// (outcomes, benchmarks, unfinished) in fields, any other in a map. A
// large run counts hundreds of thousands of tests, a map update each.
type tally struct {
	pass, fail, skip, bench, unfinished int
	other                               map[string]int
}

// slot is the field counting a key, nil for a key counted in other.
func (t *tally) slot(key string) *int {
	switch key {
	case "pass":
		return &t.pass
	case "fail":
		return &t.fail
	case "skip":
		return &t.skip
	case "bench":
		return &t.bench
	case "unfinished":
		return &t.unfinished
	}
	return nil
}

// add adds n to a key's count.
func (t *tally) add(key string, n int) {
	if p := t.slot(key); p != nil {
		*p += n
		return
	}
	if t.other == nil {
		t.other = map[string]int{}
	}
	t.other[key] += n
}

// get is a key's count.
func (t *tally) get(key string) int {
	if p := t.slot(key); p != nil {
		return *p
	}
	return t.other[key]
}

// copyTo adds every count to m.
func (t *tally) copyTo(m map[string]int) {
	for _, c := range [...]struct {
		key string
		n   int
	}{{"pass", t.pass}, {"fail", t.fail}, {"skip", t.skip}, {"bench", t.bench}, {"unfinished", t.unfinished}} {
		if c.n != 0 {
			m[c.key] = c.n
		}
	}
	for k, v := range t.other {
		m[k] = v
	}
}
