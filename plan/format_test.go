package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// TestOneLineStatesWhatTheItemSays holds the one-line forms of issue 10's
// findings: a diagnostic with no location names its program and keeps
// "fatal error"; a package that failed as a whole says why; a run that
// stopped early says so beside its counts.
func TestOneLineStatesWhatTheItemSays(t *testing.T) {
	for _, c := range []struct {
		it   evidence.Item
		want string
	}{
		{evidence.Item{Kind: evidence.KindDiagnostic, Tool: "cc1", Severity: evidence.SeverityError, Class: "fatal error", Message: "nosuch.c: No such file or directory"},
			"cc1: fatal error: nosuch.c: No such file or directory"},
		{evidence.Item{Kind: evidence.KindDiagnostic, Tool: "collect2", Severity: evidence.SeverityError, Message: "ld returned 1 exit status"},
			"collect2: error: ld returned 1 exit status"},
		{evidence.Item{Kind: evidence.KindDiagnostic, Severity: evidence.SeverityError, Message: "no input files"},
			"error: no input files"},
		{evidence.Item{Kind: evidence.KindSummary, Tool: "go test", Package: "example.com/m/gopanic", Outcome: evidence.OutcomeFail, Message: "panic: in goroutine",
			Span: evidence.Span{Stream: "stdout", From: 2, To: 9}},
			"go test example.com/m/gopanic: FAIL — panic: in goroutine [L2-9]"},
		{evidence.Item{Kind: evidence.KindSummary, Tool: "pytest", Counts: map[string]int{"failed": 1, "passed": 736}, Attrs: map[string]string{"stopped": "stopping after 1 failures"}},
			"pytest: 1 failed · 736 passed · stopped: stopping after 1 failures"},
		{evidence.Item{Kind: evidence.KindTest, Package: "calc", Name: "tests::adds_wrong", Outcome: evidence.OutcomeFail, Class: "panic",
			Message: "assertion `left == right` failed: two and two", Attrs: map[string]string{"left": "4", "right": "5"}},
			"FAIL calc tests::adds_wrong — panic: assertion `left == right` failed: two and two (left: 4, right: 5)"},
		// A minted repo: handle names the location instead of file:line.
		{evidence.Item{Kind: evidence.KindTest, Package: "calc", Name: "TestDiv", Outcome: evidence.OutcomeFail, Message: "divide by zero",
			File: "calc.go", Line: 5, Attrs: map[string]string{"repo": "repo:calc.go:L5@f3c01c24"}},
			"FAIL calc TestDiv — divide by zero @repo:calc.go:L5@f3c01c24"},
		{evidence.Item{Kind: evidence.KindTest, Package: "calc", Name: "TestDiv", Outcome: evidence.OutcomeFail, Message: "divide by zero", File: "/elsewhere/calc.go", Line: 5},
			"FAIL calc TestDiv — divide by zero @/elsewhere/calc.go:5"},
		{evidence.Item{Kind: evidence.KindDiagnostic, Severity: evidence.SeverityError, File: "a.go", Line: 3, Col: 2, Message: "undefined: x",
			Attrs: map[string]string{"repo": "repo:a.go:L3@0a1b2c3d"}},
			"a.go:3:2: error: undefined: x · repo:a.go:L3@0a1b2c3d"},
	} {
		if got := oneLine(&c.it); got != c.want {
			t.Errorf("oneLine = %q, want %q", got, c.want)
		}
	}
}

// TestReceiptCountsWhatWasEmitted builds an anomaly whose text is not what
// the digest shows of its line: the receipt must not count it as shown, and
// the digest must say which item is missing and where it is.
func TestReceiptCountsWhatWasEmitted(t *testing.T) {
	var out []string
	for i := range 400 {
		out = append(out, fmt.Sprintf("step %d of 400: copying shard %d", i+1, i))
	}
	g := &evidence.Graph{Profile: "text", Version: 1}
	g.Add(evidence.Item{Kind: evidence.KindRegion, Name: "stdout", Why: "stream", Count: len(out), Span: evidence.Span{Stream: "stdout", From: 1, To: len(out)}})
	// Line 2 is in the head the excerpt prints verbatim, but it does not say this.
	g.Add(evidence.Item{Kind: evidence.KindAnomaly, Why: "error-text", Line: 2, Text: "error: disk full on /dev/sdb",
		Span: evidence.Span{Stream: "stdout", From: 2, To: 2}})
	g.Seal("run:0123456789ab")
	_, d := render(t, g, lineSource{"stdout": out}, Inputs{Exit: 0, Status: "exited"})
	if d.Coverage.RequiredUnrepresented != 1 {
		t.Errorf("unrepresented required %d, want 1:\n%s", d.Coverage.RequiredUnrepresented, d.Text)
	}
	if !strings.Contains(string(d.Text), "! 1 REQUIRED items not shown with their identity and message: L2: error: disk full on /dev/sdb (run:0123456789ab#stdout:L2)") {
		t.Errorf("the digest does not name the missing item:\n%s", d.Text)
	}
}

// TestFindingsAreTheExplanation: a linter that fails on warnings (no REQUIRED
// item) lists its findings; the digest must not repeat the output's tail
// after them as if nothing had been itemised.
func TestFindingsAreTheExplanation(t *testing.T) {
	var out []string
	g := &evidence.Graph{Profile: "diag", Version: 1}
	for i := range 6 {
		out = append(out, fmt.Sprintf("src/mod%d.py:%d:1: W0612 unused variable 'x%d'", i, i+1, i))
		g.Add(evidence.Item{Kind: evidence.KindDiagnostic, Tool: "pylint", File: fmt.Sprintf("src/mod%d.py", i), Line: i + 1, Col: 1,
			Severity: evidence.SeverityWarning, Code: "W0612", Message: fmt.Sprintf("unused variable 'x%d'", i),
			Span: evidence.Span{Stream: "stdout", From: len(out), To: len(out)}})
		for k := range 10 { // the tool's explanation of each finding
			out = append(out, fmt.Sprintf("    note %d: a variable assigned and never read is usually a mistake or dead code", k))
		}
	}
	g.Seal("run:0123456789ab")
	p, d := render(t, g, lineSource{"stdout": out}, Inputs{Exit: 4, Status: "exited"})
	if p.Outcome == "pass" {
		t.Fatalf("outcome pass for exit 4")
	}
	if strings.Contains(string(d.Text), "no failure was itemised") {
		t.Errorf("the findings are listed, yet the digest repeats the output's tail:\n%s", d.Text)
	}
	if !strings.Contains(string(d.Text), "unused variable 'x0'") {
		t.Errorf("the findings are not listed:\n%s", d.Text)
	}
}

// TestWholeMeansWhole: a one-line JSON result (gh --json) shown whole keeps
// every byte; a long line in an excerpt is cut with a label naming its line.
func TestWholeMeansWhole(t *testing.T) {
	line := `[{"number":1,"title":"` + strings.Repeat("a long title ", 60) + `","state":"OPEN","author":{"login":"ada"}}]`
	g := &evidence.Graph{Profile: "text", Version: 1}
	g.Seal("run:0123456789ab")
	p, d := render(t, g, lineSource{"stdout": {line}}, Inputs{Exit: 0, Status: "exited"})
	if p.Mode != ModeWhole || !strings.Contains(string(d.Text), line) {
		t.Errorf("mode %s: the line is not shown whole:\n%s", p.Mode, d.Text)
	}

	var out []string
	for i := range 300 {
		out = append(out, fmt.Sprintf("row %d ok", i))
	}
	out[0] = "header " + strings.Repeat("x", 500)
	g = &evidence.Graph{Profile: "text", Version: 1}
	g.Add(evidence.Item{Kind: evidence.KindRegion, Name: "stdout", Why: "stream", Count: len(out), Span: evidence.Span{Stream: "stdout", From: 1, To: len(out)}})
	g.Seal("run:0123456789ab")
	p, d = render(t, g, lineSource{"stdout": out}, Inputs{Exit: 0, Status: "exited"})
	if p.Mode != ModeExcerpt {
		t.Fatalf("mode %s, want excerpt", p.Mode)
	}
	if !strings.Contains(string(d.Text), "… [+267 B clipped: L1]") {
		t.Errorf("the clipped line is not labelled with its line:\n%s", d.Text)
	}
	found := false
	for _, l := range d.Coverage.Losses {
		found = found || l.Code == "clipped"
	}
	if !found {
		t.Errorf("the receipt lists no clipped loss: %+v", d.Coverage.Losses)
	}
}

// A whole output shows the lines a profile composed a message from, so it
// adds no ctx: line restating them; a message carrying ctx's own reading
// (words the output does not have) still gets its ctx: line.
func TestWholeOutputComposedMessages(t *testing.T) {
	out := []string{
		"Calc.java:5: error: cannot find symbol",
		"    return a / c;",
		"  symbol:   variable c",
		"  location: class Calc",
		"=== RUN   TestExit",
		"FAIL\texample.com/m/exitpkg\t0.010s",
	}
	g := &evidence.Graph{Profile: "text", Version: 1}
	g.Add(evidence.Item{Kind: evidence.KindDiagnostic, File: "Calc.java", Line: 5, Severity: evidence.SeverityError,
		Message: "cannot find symbol; symbol: variable c; location: class Calc", Span: evidence.Span{Stream: "stdout", From: 1, To: 4}})
	g.Add(evidence.Item{Kind: evidence.KindTest, Name: "TestExit", Package: "example.com/m/exitpkg", Outcome: "fail",
		Message: "exit: the test binary exited while the test ran", Span: evidence.Span{Stream: "stdout", From: 5, To: 6}})
	g.Seal("run:0123456789ab")
	p, d := render(t, g, lineSource{"stdout": out}, Inputs{Exit: 1, Status: "exited"})
	if p.Mode != ModeWhole {
		t.Fatalf("mode %s, want whole", p.Mode)
	}
	text := string(d.Text)
	if strings.Contains(text, "ctx: Calc.java") {
		t.Errorf("a ctx: line restates the javac message the output shows:\n%s", text)
	}
	if !strings.Contains(text, "ctx: ") || !strings.Contains(text, "the test binary exited") {
		t.Errorf("ctx's reading of TestExit is missing:\n%s", text)
	}
	if d.Coverage.RequiredUnrepresented != 0 {
		t.Errorf("unrepresented required %d", d.Coverage.RequiredUnrepresented)
	}
}

func TestComposedOf(t *testing.T) {
	set := wordSet("error: cannot find symbol\n symbol: variable c\n location: class Calc\n got 2, want 1")
	for needle, want := range map[string]bool{
		"cannot find symbol; symbol: variable c; location: class Calc": true,
		"the test binary exited while the test ran":                    false,
		"cannot resolve symbol":                                        false,
		"":                                                             false,
	} {
		if got := composedOf(needle, set); got != want {
			t.Errorf("composedOf(%q) = %v, want %v", needle, got, want)
		}
	}
}

// TestClipRedactsBeforeCutting: a credential that a message's cut would
// split is redacted whole, not shown up to the cut (where no rule matches
// it any more), and the cut never splits the mark that stands for it.
func TestClipRedactsBeforeCutting(t *testing.T) {
	// Generated, the shape of an OpenAI project key; not a real one.
	key := "sk-proj-575yx8xm5MslfY5ubiheyEd7P4zDL_ak6J0kGODKdinZnLXicaBAg8WY1jzIRlNQb0prFmbh7-" +
		"T3BlbkFJwy5yq1XoY1BaIMcAxYmfsB4HbQLXjjlAFbVV6q9rXxtNDFyuzX9k1gnneGEYG1-LwiqD9jJBAc"
	msg := "loaded: openai.AuthenticationError: Incorrect API key provided: " + key
	for _, n := range []int{100, 200, 75} {
		got := clip(msg, n)
		if strings.Contains(got, key[40:56]) || strings.Contains(got, "sk-proj-575y") {
			t.Errorf("clip(%d) shows part of the key: %q", n, got)
		}
		if i := strings.LastIndex(got, "[REDACTED:"); i >= 0 && !strings.Contains(got[i:], "]") {
			t.Errorf("clip(%d) cuts the redaction mark: %q", n, got)
		}
	}
	if got := clip("plain words and a path /usr/lib/x86_64-linux-gnu/libc.so.6 that runs on", 40); !strings.HasPrefix(got, "plain words and a path /usr/lib/x86_64-l") {
		t.Errorf("clip without a secret changed the text: %q", got)
	}
}
