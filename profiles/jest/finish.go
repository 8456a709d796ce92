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

	// The summaries that count: the last of each line, per tool.
	final := make(map[string]*summ)
	var order []string
	for _, s := range p.sums {
		k := s.tool + "\x00" + s.name
		if _, ok := final[k]; !ok {
			order = append(order, k)
		}
		final[k] = s
	}
	count := func(tool, name, key string) (int, bool) {
		s := final[tool+"\x00"+name]
		if s == nil {
			return 0, false
		}
		v, ok := s.counts[key]
		return v, ok
	}

	// jest writes its report to stderr: when only one stream holds its
	// summary, jest-looking lines in the other stream are the program's own
	// output (process.stdout.write), not results.
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

	var (
		failures   int // failing tests and suites itemised
		suiteFails int
		passes     int
		titleOnly  int
	)
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
				suiteFails++
			} else {
				failures++
			}
			if r.fstream != "" {
				it.Span = evidence.Span{Stream: r.fstream, From: r.fline, To: r.fline}
			}
			fi := r.fi
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
		} else if it.Outcome == evidence.OutcomePass {
			passes++
		}
		g.Add(it)
	}

	// vitest tree lines that name a failed test by its title only (the run
	// ended before the failure report).
	// A failing test's title is its name's last part.
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
		titleOnly++
		failures++
		g.Add(evidence.Item{Kind: evidence.KindTest, Package: tf.file, Name: tf.title, Outcome: evidence.OutcomeFail,
			Class: "fail", Message: tf.msg, File: tf.file, Attrs: map[string]string{"named": "title only"},
			Span: evidence.Span{Stream: tf.stream, From: tf.line, To: tf.line}})
	}

	for _, d := range p.diags {
		it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: d.tool, File: d.file, Line: d.line, Col: d.col,
			Severity: evidence.SeverityError, Code: d.code, Message: d.msg,
			Span: evidence.Span{Stream: d.stream, From: d.from, To: d.from}}
		if d.to > d.from {
			it.Detail = evidence.Span{Stream: d.stream, From: d.from, To: d.to}
		}
		g.Add(it)
	}

	for _, k := range order {
		s := final[k]
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: s.tool, Name: s.name, Counts: s.counts,
			Span: evidence.Span{Stream: s.stream, From: s.line, To: s.line}})
	}

	// The verdict, from the tools' own summaries first.
	testsFailed, _ := count(g.Tool, "Tests", "failed")
	testsTotal, haveTests := count(g.Tool, "Tests", "total")
	suitesName := "Test Suites"
	if g.Tool == "vitest" {
		suitesName = "Test Files"
	}
	suitesFailed, _ := count(g.Tool, suitesName, "failed")
	snapFailed, _ := count(g.Tool, "Snapshots", "failed")
	errorsN, _ := count(g.Tool, "Errors", "errors")
	_, haveSuites := count(g.Tool, suitesName, "total")
	haveSummary := haveTests || haveSuites

	killed := p.src.Exit == 124 || p.src.Exit >= 128
	switch {
	case testsFailed > 0 || snapFailed > 0 || errorsN > 0 || p.unhandled > 0:
		g.Verdict = "fail"
	case suitesFailed > 0 || (!haveSummary && suiteFails > 0):
		if testsTotal > 0 || passes > 0 || failures > 0 {
			g.Verdict = "fail"
		} else {
			g.Verdict = "error" // nothing ran: every suite failed to load
		}
	case haveSummary && failures > 0:
		// Failure reports the summary does not count: believe neither.
		g.Lose("partial-parse", "%d failing tests found, yet the %s summary reports no failure", failures, g.Tool)
	case failures > 0 || len(p.fileFailed) > 0:
		g.Verdict = "fail" // the failures stand where the summary is missing
	case p.noTests:
		g.Verdict = "error"
	case !haveSummary:
	case killed:
	case p.src.Exit != 0:
		g.Lose("partial-parse", "exit status %d, yet the %s summary reports no failure", p.src.Exit, g.Tool)
	default:
		g.Verdict = "pass"
	}
	if !haveSummary && !p.noTests && (len(p.recs) > 0 || len(p.trees) > 0 || p.jestSeen || p.vitestSeen) {
		g.Lose("partial-parse", "output ends before the %s summary%s; tests after the last reported file are missing", g.Tool, exitNote(p.src.Exit))
	}
	if haveSummary && killed && g.Verdict == "" {
		g.Lose("partial-parse", "the run was stopped%s; its summary may be incomplete", exitNote(p.src.Exit))
	}
	if titleOnly > 0 {
		g.Lose("partial-parse", "%d failing tests are named by their title only (the failure report never came)", titleOnly)
	}
	if p.dropped > 0 {
		g.Lose("item-cap", "kept %d tests and diagnostics; %d more were not itemised (the streams keep them)", MaxItems, p.dropped)
	}
	return g
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
