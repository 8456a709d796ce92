// Package gradle is the profile for Gradle builds (gradle, ./gradlew): task
// outcomes, failing tests with the exception and location Gradle prints,
// javac/kotlinc errors, the "What went wrong" reason and the final BUILD line,
// which the digest always states — from the exit status when Gradle printed
// none (-q). It reads Gradle 4's ":task" lines and Gradle 5+'s "> Task :task".
//
// Gradle's default test logging prints an exception's class and location but
// not its message ("java.lang.AssertionError at CalcTest.java:8"); the
// message is in the HTML/XML report, which a profile cannot read. The item
// carries what was printed, and the build summary names the report.
package gradle

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
	Name    = "gradle"
	Version = 1
)

// Profile is the Gradle profile.
var Profile = evidence.Profile{Name: Name, Version: Version, Argv: matchArgv, Content: matchContent, Parse: Parse}

// maxItems bounds the items of one graph; the rest are counted in a loss.
const maxItems = 50_000

func matchArgv(argv []string) bool { return jvm.Argv(argv, "gradle", "gradlew") }

func matchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		h := string(st.Head())
		if strings.Contains(h, "BUILD SUCCESSFUL in ") || strings.Contains(h, "BUILD FAILED in ") ||
			strings.Contains(h, "actionable task") || strings.Contains(h, "\n> Task :") || strings.HasPrefix(h, "> Task :") {
			return true
		}
	}
	return false
}

var (
	// "> Task :app:test FAILED" (Gradle 5+) or ":app:test FAILED" (Gradle 4).
	reTask = lines.Lazy(`^(?:> Task )?(:[\w.:-]*)(?: (UP-TO-DATE|NO-SOURCE|FAILED|SKIPPED|FROM-CACHE|NO-SOURCE))?$`)
	// "3 actionable tasks: 1 executed, 2 up-to-date"
	reActionable = lines.Lazy(`^(\d+) actionable tasks?: (.+)$`)
	// "demo.CalcTest > addsWrong FAILED", "CalcTest > adds() PASSED"
	reTest = lines.Lazy(`^(\S.*?) > (.+) (FAILED|PASSED|SKIPPED)$`)
	// "4 tests completed, 2 failed, 1 skipped"
	reTests = lines.Lazy(`^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$`)
	// "BUILD FAILED in 4s", "BUILD SUCCESSFUL in 1m 2s"
	reBuild = lines.Lazy(`^BUILD (FAILED|SUCCESSFUL)(?: in .*)?$`)
)

type parser struct {
	g      *evidence.Graph
	stream string

	tasks     map[string]string // task path → its last outcome ("executed" for none)
	executed  string            // the actionable-tasks line, as Gradle counted them
	test      *evidence.Item    // the failing test whose block is open
	diag      *evidence.Item    // the javac diagnostic whose detail lines may follow
	seenDiag  map[string]bool
	tests     map[string]int
	build     string // "FAILED", "SUCCESSFUL" or ""
	buildLine evidence.Span
	wrong     []string // "What went wrong" lines
	inWrong   bool
	dropped   int
}

// Parse extracts the graph of a Gradle build.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := &parser{g: &evidence.Graph{Profile: Name, Version: Version, Tool: "gradle"}, tasks: map[string]string{}, seenDiag: map[string]bool{}}
	err := jvm.Scan(ctx, src, func(stream string, n int, line string) {
		if stream != p.stream {
			p.endBlock()
			p.stream = stream
		}
		p.line(n, line)
	})
	if err != nil {
		return nil, fmt.Errorf("gradle: %w", err)
	}
	p.endBlock()
	return p.finish(src.Exit()), nil
}

func (p *parser) add(it evidence.Item) *evidence.Item {
	if len(p.g.Items) >= maxItems {
		p.dropped++
		return nil
	}
	it.Tool = "gradle"
	return p.g.Add(it)
}

func (p *parser) endBlock() {
	p.test, p.diag, p.inWrong = nil, nil, false
}

func (p *parser) span(n int) evidence.Span { return evidence.Span{Stream: p.stream, From: n, To: n} }

func (p *parser) line(n int, line string) {
	trimmed := strings.TrimSpace(line)
	// A failing test's block: indented exception, message and frames.
	if p.test != nil {
		if trimmed != "" && line != trimmed {
			p.testDetail(n, trimmed)
			return
		}
		p.test = nil
	}
	if p.diag != nil {
		if d, ok := jvm.Detail(line); ok {
			p.diag.Message += "; " + d
			p.diag.Detail.To = n
			return
		}
		if line != trimmed && trimmed != "" { // the source line and its caret
			p.diag.Detail.To = n
			return
		}
		p.diag = nil
	}
	if p.inWrong {
		switch {
		case strings.HasPrefix(line, "* "):
			p.inWrong = false
		case trimmed != "":
			if len(p.wrong) < 8 {
				p.wrong = append(p.wrong, trimmed)
			}
			return
		}
	}
	switch {
	case trimmed == "* What went wrong:":
		p.inWrong = true
	case reBuild.MatchString(line):
		p.build = reBuild.FindStringSubmatch(line)[1]
		p.buildLine = p.span(n)
	case reActionable.MatchString(line):
		p.executed = line
	case reTests.MatchString(line):
		m := reTests.FindStringSubmatch(line)
		total, _ := strconv.Atoi(m[1])
		failed, _ := strconv.Atoi(m[2])
		skipped, _ := strconv.Atoi(m[3])
		p.tests = map[string]int{"total": total, "failed": failed, "skipped": skipped, "passed": total - failed - skipped}
	case reTask.MatchString(line):
		m := reTask.FindStringSubmatch(line)
		outcome := strings.ToLower(m[2])
		if outcome == "" {
			outcome = "executed"
		}
		// Gradle 4 prints ":test" when a task starts and ":test FAILED"
		// when it fails: the last word on a task stands.
		p.tasks[m[1]] = outcome
		if m[2] == "FAILED" {
			p.add(evidence.Item{Kind: evidence.KindSummary, Name: "task " + m[1], Text: "FAILED", Span: p.span(n)})
		}
	case reTest.MatchString(line):
		m := reTest.FindStringSubmatch(line)
		out := map[string]evidence.Outcome{"FAILED": evidence.OutcomeFail, "PASSED": evidence.OutcomePass, "SKIPPED": evidence.OutcomeSkip}[m[3]]
		it := p.add(evidence.Item{Kind: evidence.KindTest, Package: m[1], Name: m[2], Outcome: out, Span: p.span(n)})
		if out == evidence.OutcomeFail && it != nil {
			p.test = it
		}
	default:
		if d, ok := jvm.ParseJavac(line); ok {
			p.diagnostic(n, d)
		}
	}
}

// testDetail attaches an indented line to the open failing test: the first
// exception line gives the class and message (or location, in Gradle's
// short form); frames give the location when the short form did not.
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
			if e.File != "" {
				it.File, it.Line = e.File, e.Line
			}
			if e.Class != e.Short() {
				it.Attrs = map[string]string{"exception": e.Class}
			}
			return
		}
	}
	// A message that goes on over more lines before the first frame.
	if it.Class != "" && it.File == "" && len(it.Message) < 400 && !strings.HasPrefix(s, "at ") && !strings.HasPrefix(s, "...") {
		it.Message = strings.TrimSpace(it.Message + " " + s)
	}
}

func (p *parser) diagnostic(n int, d jvm.Diagnostic) {
	key := fmt.Sprintf("%s:%d:%d:%s", d.File, d.Line, d.Col, d.Message)
	if p.seenDiag[key] {
		return
	}
	p.seenDiag[key] = true
	it := p.add(evidence.Item{Kind: evidence.KindDiagnostic, File: d.File, Line: d.Line, Col: d.Col,
		Severity: evidence.Severity(d.Severity), Message: d.Message, Span: p.span(n), Detail: p.span(n)})
	p.diag = it
}

func (p *parser) finish(exit int) *evidence.Graph {
	g := p.g
	failedTests := len(g.Tests(evidence.OutcomeFail))
	errors := g.Count(func(it *evidence.Item) bool {
		return it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError
	})
	build := p.build
	text := ""
	switch {
	case build != "":
		text = "BUILD " + build
	case exit != 0:
		build = "FAILED"
		text = fmt.Sprintf("BUILD FAILED (exit %d; Gradle printed no BUILD line)", exit)
	case len(g.Items) > 0 || p.executed != "":
		build = "SUCCESSFUL"
		text = "BUILD SUCCESSFUL (exit 0; Gradle printed no BUILD line)"
	}
	if len(p.wrong) > 0 {
		text += " — " + strings.Join(p.wrong, " ")
	}
	if text != "" {
		p.add(evidence.Item{Kind: evidence.KindSummary, Name: "build", Text: text, Span: p.buildLine})
	}
	if p.tests != nil {
		p.add(evidence.Item{Kind: evidence.KindSummary, Name: "tests", Counts: p.tests})
	}
	if len(p.tasks) > 0 {
		counts := map[string]int{}
		for _, o := range p.tasks {
			counts[o]++
		}
		p.add(evidence.Item{Kind: evidence.KindSummary, Name: "tasks", Counts: counts})
	}
	switch {
	case build == "SUCCESSFUL" && failedTests == 0:
		g.Verdict = "pass"
	case failedTests > 0:
		g.Verdict = "fail"
	case errors > 0 && p.tests == nil:
		g.Verdict = "error"
	case build == "FAILED":
		g.Verdict = "fail"
	}
	if p.dropped > 0 {
		g.Lose("item-cap", "%d more items past the cap of %d; the output has them all", p.dropped, maxItems)
	}
	return g
}
