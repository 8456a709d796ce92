// Package maven is the profile for Maven builds (mvn, ./mvnw): surefire and
// failsafe test failures with their exception and message, compiler-plugin
// errors with their locations, the reactor's module outcomes, the "Failed to
// execute goal" reason and the BUILD line, which the digest always states —
// from the exit status when Maven printed none (-q).
package maven

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/internal/jvm"
)

// Name and Version identify the profile.
const (
	Name    = "maven"
	Version = 1
)

// Profile is the Maven profile.
var Profile = evidence.Profile{Name: Name, Version: Version, Argv: matchArgv, Content: matchContent, Parse: Parse}

// maxItems bounds the items of one graph; the rest are counted in a loss.
const maxItems = 50_000

func matchArgv(argv []string) bool { return jvm.Argv(argv, "mvn", "mvnw", "mvnd") }

func matchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		h := string(st.Head())
		if strings.Contains(h, "] BUILD SUCCESS") || strings.Contains(h, "] BUILD FAILURE") ||
			strings.Contains(h, "] Scanning for projects...") || strings.Contains(h, "] Failed to execute goal ") {
			return true
		}
	}
	return false
}

var (
	// "[INFO] ", "[ERROR] ", "[WARNING] " (the level word may be coloured,
	// which lines.Clean has already removed).
	reLevel = lines.Lazy(`^\[(INFO|ERROR|WARNING|WARN|DEBUG)\] ?`)
	// "--------------< demo:calc >--------------"
	reModule = lines.Lazy(`^-+< ([^ >]+) >-+$`)
	// "Running demo.CalcTest"
	reRunning = lines.Lazy(`^Running ([\w.$]+)$`)
	// surefire 2: "addsWrong  Time elapsed: 0.038 s  <<< FAILURE!"
	// surefire 3: "demo.CalcTest.addsWrong -- Time elapsed: 0.038 s <<< FAILURE!"
	// JUnit 4:    "addsWrong(demo.CalcTest)  Time elapsed: 0.01 sec  <<< ERROR!"
	reCase = lines.Lazy(`^(\S+?)(?:\(([\w.$]+)\))?(?: --)?\s+Time elapsed: .*<<< (FAILURE|ERROR)!$`)
	// "Tests run: 4, Failures: 1, Errors: 1, Skipped: 0[, Time elapsed: …]"
	reTestsRun = lines.Lazy(`^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(.*)$`)
	// Results section: "  CalcTest.addsWrong:8 expected: <1> but was: <0>",
	// "  CalcTest.dividesByZero:10 » Arithmetic / by zero"
	reResult = lines.Lazy(`^  ([\w$]+(?:\.[\w$]+)*)\.([\w$\[\]()., -]+?)(?::(\d+))? (.+)$`)
	// "calc ............... FAILURE [  1.234 s]", "cli ...... SKIPPED"
	reReactor = lines.Lazy(`^(.+?) \.{2,} ?(SUCCESS|FAILURE|SKIPPED)(?: \[.*\])?$`)
	reBuild   = lines.Lazy(`^BUILD (SUCCESS|FAILURE)$`)
	// "Failed to execute goal G (id) on project calc: reason"
	reGoal = lines.Lazy(`^Failed to execute goal (\S+) (?:\(([^)]*)\) )?on project ([^:]+): (.*)$`)
)

type parser struct {
	g      *evidence.Graph
	stream string

	module  string
	class   string         // the test class surefire is running
	test    *evidence.Item // the failing test whose block is open
	diag    *evidence.Item // the compiler diagnostic whose detail lines may follow
	tests   map[string]*evidence.Item
	diags   map[string]bool
	results string // "" or "Failures"/"Errors": inside surefire's Results list
	totals  map[string]map[string]int
	modules []string
	build   string
	buildAt evidence.Span
	goals   []string
	dropped int
}

// Parse extracts the graph of a Maven build.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := &parser{g: &evidence.Graph{Profile: Name, Version: Version, Tool: "maven"},
		tests: map[string]*evidence.Item{}, diags: map[string]bool{}, totals: map[string]map[string]int{}}
	err := jvm.Scan(ctx, src, func(stream string, n int, line string) {
		if stream != p.stream {
			p.test, p.diag, p.results = nil, nil, ""
			p.stream = stream
		}
		p.line(n, line)
	})
	if err != nil {
		return nil, fmt.Errorf("maven: %w", err)
	}
	return p.finish(src.Exit()), nil
}

func (p *parser) add(it evidence.Item) *evidence.Item {
	if len(p.g.Items) >= maxItems {
		p.dropped++
		return nil
	}
	it.Tool = "maven"
	return p.g.Add(it)
}

func (p *parser) span(n int) evidence.Span { return evidence.Span{Stream: p.stream, From: n, To: n} }

func (p *parser) line(n int, raw string) {
	level := ""
	line := raw
	if m := reLevel.FindStringSubmatch(raw); m != nil {
		level, line = m[1], raw[len(m[0]):]
	}
	// Unprefixed lines continue the open block: a failing test's exception
	// and frames, a compiler error's symbol/location lines.
	if level == "" {
		p.continuation(n, raw)
		return
	}
	p.test, p.diag = nil, nil
	trimmed := strings.TrimSpace(line)
	if level == "ERROR" && p.results != "" && strings.HasPrefix(line, "  ") {
		p.result(n, line)
		return
	}
	p.results = ""
	switch {
	case trimmed == "Failures:" || trimmed == "Errors:" || trimmed == "Tests in error:" || trimmed == "Failed tests:":
		p.results = trimmed
	case reModule.MatchString(line):
		p.module = reModule.FindStringSubmatch(line)[1]
	case reRunning.MatchString(line):
		p.class = reRunning.FindStringSubmatch(line)[1]
	case reCase.MatchString(line):
		p.testCase(n, reCase.FindStringSubmatch(line))
	case reTestsRun.MatchString(line):
		m := reTestsRun.FindStringSubmatch(line)
		if strings.Contains(m[5], "Time elapsed") {
			// One class's result (the module's total follows); with -q it
			// is the only line that names the class.
			if _, c, ok := strings.Cut(m[5], " - in "); ok {
				p.class = strings.TrimSpace(c)
			}
			return
		}
		c := map[string]int{}
		for i, k := range []string{"total", "failed", "errors", "skipped"} {
			c[k], _ = strconv.Atoi(m[i+1])
		}
		c["passed"] = c["total"] - c["failed"] - c["errors"] - c["skipped"]
		p.totals[p.module] = c
	case reReactor.MatchString(line) && !strings.HasPrefix(line, "Building "):
		m := reReactor.FindStringSubmatch(line)
		p.modules = append(p.modules, m[2])
		if m[2] != "SUCCESS" {
			p.add(evidence.Item{Kind: evidence.KindSummary, Name: "module " + strings.TrimSpace(m[1]), Text: m[2], Span: p.span(n)})
		}
	case reBuild.MatchString(line):
		p.build = reBuild.FindStringSubmatch(line)[1]
		p.buildAt = p.span(n)
	case reGoal.MatchString(line) && level == "ERROR":
		m := reGoal.FindStringSubmatch(line)
		if len(p.goals) < 4 {
			p.goals = append(p.goals, fmt.Sprintf("%s on project %s: %s", m[1], m[3], strings.TrimSuffix(m[4], " -> [Help 1]")))
		}
	case level == "ERROR" || level == "WARNING" || level == "WARN":
		if d, ok := jvm.ParseMavenJavac(line); ok {
			d.Severity = "error"
			if level != "ERROR" {
				d.Severity = "warning"
			}
			p.diagnostic(n, d)
		}
	}
}

func (p *parser) continuation(n int, raw string) {
	s := strings.TrimSpace(raw)
	switch {
	case p.test != nil && s != "":
		p.testDetail(n, s)
	case p.diag != nil:
		if d, ok := jvm.Detail(raw); ok {
			p.diag.Message += "; " + d
			p.diag.Detail.To = n
		}
	}
	if s == "" {
		p.test, p.diag = nil, nil
	}
}

// testCase opens a failing test's block.
func (p *parser) testCase(n int, m []string) {
	class, name := m[2], m[1]
	if class == "" {
		class = p.class
		// surefire 3 names the test "pkg.Class.method".
		if class != "" && strings.HasPrefix(name, class+".") {
			name = name[len(class)+1:]
		} else if i := strings.LastIndexByte(name, '.'); class == "" && i > 0 {
			class, name = name[:i], name[i+1:]
		}
	}
	outcome := evidence.OutcomeFail
	if m[3] == "ERROR" {
		outcome = evidence.OutcomeError
	}
	key := class + "\x00" + name
	if it := p.tests[key]; it != nil {
		p.test = nil // printed again (a rerun, or the -q repeat): keep the first
		return
	}
	it := p.add(evidence.Item{Kind: evidence.KindTest, Package: class, Name: name, Outcome: outcome, Span: p.span(n)})
	if it != nil {
		p.tests[key] = it
		p.test = it
	}
}

func (p *parser) testDetail(n int, s string) {
	it := p.test
	it.Span.To = n
	if f, ok := jvm.ParseFrame(s); ok {
		if it.File == "" && f.Line > 0 && strings.HasPrefix(f.Method, it.Package+".") {
			it.File, it.Line = f.File, f.Line
		}
		return
	}
	if it.Class == "" {
		if e, ok := jvm.ParseException(s); ok {
			it.Class, it.Message = e.Short(), e.Message
			if e.Class != e.Short() {
				it.Attrs = map[string]string{"exception": e.Class}
			}
			return
		}
	}
	if it.Class != "" && it.File == "" && len(it.Message) < 400 && !strings.HasPrefix(s, "at ") {
		it.Message = strings.TrimSpace(it.Message + " " + s)
	}
}

// result reads one line of surefire's Results list; it adds the test only
// when no detailed block named it (trimmed stack traces, -q, failsafe).
func (p *parser) result(n int, line string) {
	m := reResult.FindStringSubmatch(line)
	if m == nil {
		return
	}
	simple, name := m[1], m[2]
	for _, it := range p.tests {
		if it.Name == name && (it.Package == simple || strings.HasSuffix(it.Package, "."+simple)) {
			return
		}
	}
	outcome := evidence.OutcomeFail
	if p.results == "Errors:" || p.results == "Tests in error:" {
		outcome = evidence.OutcomeError
	}
	line2, _ := strconv.Atoi(m[3])
	msg := strings.TrimPrefix(m[4], "» ")
	it := p.add(evidence.Item{Kind: evidence.KindTest, Package: simple, Name: name, Outcome: outcome, Message: msg, Line: line2, Span: p.span(n)})
	if it != nil {
		if line2 > 0 {
			it.File = simple[strings.LastIndexByte(simple, '.')+1:] + ".java"
		}
		p.tests[simple+"\x00"+name] = it
	}
}

func (p *parser) diagnostic(n int, d jvm.Diagnostic) {
	key := fmt.Sprintf("%s:%d:%d:%s", d.File, d.Line, d.Col, d.Message)
	if p.diags[key] {
		p.diag = nil // the "Failed to execute goal" recap repeats every error
		return
	}
	p.diags[key] = true
	p.diag = p.add(evidence.Item{Kind: evidence.KindDiagnostic, File: d.File, Line: d.Line, Col: d.Col,
		Severity: evidence.Severity(d.Severity), Message: d.Message, Span: p.span(n), Detail: p.span(n)})
}

func (p *parser) finish(exit int) *evidence.Graph {
	g := p.g
	failedTests := len(g.Tests(evidence.OutcomeFail, evidence.OutcomeError))
	errors := g.Count(func(it *evidence.Item) bool {
		return it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError
	})
	build, text := p.build, ""
	switch {
	case build != "":
		text = "BUILD " + build
	case exit != 0:
		build = "FAILURE"
		text = fmt.Sprintf("BUILD FAILURE (exit %d; Maven printed no BUILD line)", exit)
	case len(g.Items) > 0 || len(p.totals) > 0:
		build = "SUCCESS"
		text = "BUILD SUCCESS (exit 0; Maven printed no BUILD line)"
	}
	if len(p.goals) > 0 {
		text += " — " + strings.Join(p.goals, " · ")
	}
	if text != "" {
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "maven", Name: "build", Text: text, Span: p.buildAt})
	}
	if len(p.totals) > 0 {
		sum := map[string]int{}
		for _, c := range p.totals {
			for k, v := range c {
				sum[k] += v
			}
		}
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "maven", Name: "tests", Counts: sum})
	}
	if len(p.modules) > 1 {
		c := map[string]int{}
		for _, o := range p.modules {
			c[strings.ToLower(o)]++
		}
		g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "maven", Name: "modules", Counts: c})
	}
	switch {
	case build == "SUCCESS" && failedTests == 0:
		g.Verdict = "pass"
	case failedTests > 0:
		g.Verdict = "fail"
	case errors > 0:
		g.Verdict = "error"
	case build == "FAILURE":
		g.Verdict = "fail"
	}
	if p.dropped > 0 {
		g.Lose("item-cap", "%d more items past the cap of %d; the output has them all", p.dropped, maxItems)
	}
	return g
}
