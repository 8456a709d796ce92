package jest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// finish settles outcomes, picks the summaries that count and builds the
// graph.
func (p *parser) finish() *evidence.Graph {
	g := &evidence.Graph{Profile: Name, Version: Version, Tool: "jest"}
	g.Items = make([]evidence.Item, 0, len(p.recs)+len(p.trees)+len(p.diags)+8)
	if p.vitestSeen && !p.jestSeen {
		g.Tool = "vitest"
	}
	fs := p.finalSummaries()
	var t tally
	p.addRecords(g, p.jestStreams(), &t)
	p.addTitleOnly(g, &t)
	p.addDiags(g)
	for _, k := range fs.order {
		s := fs.final[k]
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: s.tool, Name: s.name, Counts: s.counts,
			Span: evidence.Span{Stream: s.stream, From: s.line, To: s.line}})
	}
	p.verdict(g, fs, t)
	return g
}

// finals holds the summaries that count: the last of each line, per tool,
// in the order the lines first appeared.
type finals struct {
	final map[string]*summ
	order []string
}

// finalSummaries picks the last summary of each line, per tool.
func (p *parser) finalSummaries() finals {
	fs := finals{final: make(map[string]*summ)}
	for _, s := range p.sums {
		k := s.tool + "\x00" + s.name
		if _, ok := fs.final[k]; !ok {
			fs.order = append(fs.order, k)
		}
		fs.final[k] = s
	}
	return fs
}

// count reads one count of a tool's final summary line.
func (fs finals) count(tool, name, key string) (int, bool) {
	s := fs.final[tool+"\x00"+name]
	if s == nil {
		return 0, false
	}
	v, ok := s.counts[key]
	return v, ok
}

// jestStreams returns the bits of the streams that hold jest's summary.
// jest writes its report to stderr: when only one stream holds its
// summary, jest-looking lines in the other stream are the program's own
// output (process.stdout.write), not results.
func (p *parser) jestStreams() uint8 {
	var jestBits uint8
	bit := p.streamBits()
	for _, s := range p.sums {
		if s.tool == "jest" {
			jestBits |= bit[s.stream]
		}
	}
	for st, ok := range p.ranAll {
		if ok {
			jestBits |= bit[st]
		}
	}
	return jestBits
}

// tally counts the itemised tests the verdict weighs.
type tally struct {
	failures   int // failing tests and suites itemised
	suiteFails int
	passes     int
	titleOnly  int
}

// addRecords adds an item for each test record, skipping jest-looking
// lines outside the streams that hold jest's summary.
func (p *parser) addRecords(g *evidence.Graph, jestBits uint8, t *tally) {
	for _, r := range p.recs {
		if r.tool == "jest" && jestBits != 0 && r.streams&jestBits == 0 {
			continue
		}
		it := evidence.Item{Kind: evidence.KindTest, Package: r.pkg, Name: r.name,
			Span: evidence.Span{Stream: r.stream, From: r.line, To: r.line}}
		switch {
		case r.suite:
			it.Outcome = evidence.OutcomeError
		case r.fail:
			it.Outcome = evidence.OutcomeFail
		case r.pass:
			it.Outcome = evidence.OutcomePass
		default:
			it.Outcome = evidence.OutcomeSkip
		}
		if r.todo && !r.fail {
			it.Attrs = map[string]string{"todo": "true"}
		}
		if it.Outcome.Failed() {
			if r.suite {
				t.suiteFails++
			} else {
				t.failures++
			}
			failure(&it, r)
		} else if it.Outcome == evidence.OutcomePass {
			t.passes++
		}
		g.Add(it)
	}
}

// failure fills a failed test's item from its failure report.
func failure(it *evidence.Item, r *rec) {
	if r.fstream != "" {
		it.Span = evidence.Span{Stream: r.fstream, From: r.fline, To: r.fline}
	}
	var fi failInfo
	if r.fi != nil {
		fi = *r.fi
	}
	if fi.message == "" {
		fi.message = fi.alt
	}
	if fi.class == "" {
		fi.class = "fail"
	}
	if fi.file == "" {
		fi.file, fi.line, fi.col = fi.ffile, fi.fline, fi.fcol
	}
	if fi.file == "" {
		fi.file = r.pkg
	}
	it.Class, it.Message, it.File, it.Line, it.Col = fi.class, relPath(fi.message, r.pkg), fi.file, fi.line, fi.col
	if len(fi.attrs) > 0 {
		it.Attrs = fi.attrs
	}
	it.Detail = r.detail
}

// addTitleOnly adds the vitest tree lines that name a failed test by its
// title only (the run ended before the failure report). A failing test's
// title is its name's last part.
func (p *parser) addTitleOnly(g *evidence.Graph, t *tally) {
	var named map[string]bool
	if len(p.trees) > 0 {
		named = make(map[string]bool)
		for _, r := range p.recs {
			if r.fail {
				named[r.pkg+"\x00"+r.name] = true
				named[r.pkg+"\x00"+lastPart(r.name)] = true
			}
		}
	}
	for _, tf := range p.trees {
		if named[tf.file+"\x00"+tf.title] {
			continue
		}
		t.titleOnly++
		t.failures++
		g.Add(evidence.Item{Kind: evidence.KindTest, Package: tf.file, Name: tf.title, Outcome: evidence.OutcomeFail,
			Class: "fail", Message: tf.msg, File: tf.file, Attrs: map[string]string{"named": "title only"},
			Span: evidence.Span{Stream: tf.stream, From: tf.line, To: tf.line}})
	}
}

// addDiags adds the compiler diagnostics.
func (p *parser) addDiags(g *evidence.Graph) {
	for _, d := range p.diags {
		it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: d.tool, File: d.file, Line: d.line, Col: d.col,
			Severity: evidence.SeverityError, Code: d.code, Message: d.msg,
			Span: evidence.Span{Stream: d.stream, From: d.from, To: d.from}}
		if d.to > d.from {
			it.Detail = evidence.Span{Stream: d.stream, From: d.from, To: d.to}
		}
		g.Add(it)
	}
}

// verdict settles the graph's verdict, from the tools' own summaries
// first, and notes what the parse lost.
func (p *parser) verdict(g *evidence.Graph, fs finals, t tally) {
	testsFailed, _ := fs.count(g.Tool, "Tests", "failed")
	testsTotal, haveTests := fs.count(g.Tool, "Tests", "total")
	suitesName := "Test Suites"
	if g.Tool == "vitest" {
		suitesName = "Test Files"
	}
	suitesFailed, _ := fs.count(g.Tool, suitesName, "failed")
	snapFailed, _ := fs.count(g.Tool, "Snapshots", "failed")
	errorsN, _ := fs.count(g.Tool, "Errors", "errors")
	_, haveSuites := fs.count(g.Tool, suitesName, "total")
	haveSummary := haveTests || haveSuites

	killed := p.src.Exit() == 124 || p.src.Exit() >= 128
	switch {
	case testsFailed > 0 || snapFailed > 0 || errorsN > 0 || p.unhandled > 0:
		g.Verdict = "fail"
	case suitesFailed > 0 || (!haveSummary && t.suiteFails > 0):
		if testsTotal > 0 || t.passes > 0 || t.failures > 0 {
			g.Verdict = "fail"
		} else {
			g.Verdict = "error" // nothing ran: every suite failed to load
		}
	case haveSummary && t.failures > 0:
		// Failure reports the summary does not count: believe neither.
		g.Lose("partial-parse", "%d failing tests found, yet the %s summary reports no failure", t.failures, g.Tool)
	case t.failures > 0 || len(p.fileFailed) > 0:
		g.Verdict = "fail" // the failures stand where the summary is missing
	case p.noTests:
		g.Verdict = "error"
	case !haveSummary:
	case killed:
	case p.src.Exit() != 0:
		g.Lose("partial-parse", "exit status %d, yet the %s summary reports no failure", p.src.Exit(), g.Tool)
	default:
		g.Verdict = "pass"
	}
	if !haveSummary && !p.noTests && (len(p.recs) > 0 || len(p.trees) > 0 || p.jestSeen || p.vitestSeen) {
		g.Lose("partial-parse", "output ends before the %s summary%s; tests after the last reported file are missing", g.Tool, exitNote(p.src.Exit()))
	}
	if haveSummary && killed && g.Verdict == "" {
		g.Lose("partial-parse", "the run was stopped%s; its summary may be incomplete", exitNote(p.src.Exit()))
	}
	if t.titleOnly > 0 {
		g.Lose("partial-parse", "%d failing tests are named by their title only (the failure report never came)", t.titleOnly)
	}
	if p.dropped > 0 {
		g.Lose("item-cap", "kept %d tests and diagnostics; %d more were not itemised (the streams keep them)", MaxItems, p.dropped)
	}
}

// relPath shortens an absolute path to the test file in a message
// ("SyntaxError: /tmp/x/src/a.test.js: …") to the file as the reporter names
// it, so machine-specific paths stay out of digests.
func relPath(msg, file string) string {
	if file == "" || strings.HasPrefix(file, "/") {
		return msg
	}
	i := strings.Index(msg, "/"+file)
	if i <= 0 {
		return msg
	}
	start := strings.LastIndexAny(msg[:i], " \t(\"'") + 1
	if start >= i || msg[start] != '/' {
		return msg
	}
	return msg[:start] + msg[i+1:]
}

// lastPart is a test's own title: "c" of "a > b > c" or "a › b › c".
func lastPart(name string) string {
	for _, sep := range []string{" > ", " › "} {
		if i := strings.LastIndex(name, sep); i >= 0 {
			name = name[i+len(sep):]
		}
	}
	return name
}

// streamBits maps stream names to the bits parse gave them.
func (p *parser) streamBits() map[string]uint8 {
	m := make(map[string]uint8)
	var b uint8 = 1
	for _, st := range p.src.Streams {
		if st.Open == nil {
			continue
		}
		m[st.Name] = b
		b <<= 1
	}
	return m
}

func exitNote(exit int) string {
	switch {
	case exit == 124:
		return " (exit 124: timed out)"
	case exit >= 128:
		return " (exit " + strconv.Itoa(exit) + ": killed by a signal)"
	}
	return ""
}
