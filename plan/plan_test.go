package plan

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
)

// lineSource serves lines of synthetic streams.
type lineSource map[string][]string

func (l lineSource) Lines(stream string, from, to int64) ([]string, error) {
	ls := l[stream]
	if from < 1 || from > int64(len(ls)) {
		return nil, fmt.Errorf("line %d of %d", from, len(ls))
	}
	return ls[from-1 : min(to, int64(len(ls)))], nil
}

func mustContract(t *testing.T, profile, outcome string) *contract.Contract {
	t.Helper()
	c, err := contract.Load(profile, outcome, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// failures builds a go test graph with n failing tests spread over files, and
// the stdout it came from.
func failures(n int) (*evidence.Graph, lineSource) {
	g := &evidence.Graph{Profile: "gotest", Version: 1, Verdict: "fail"}
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("--- FAIL: TestCase%d (0.00s)", i), fmt.Sprintf("    case_test.go:%d: want %d, got %d", 10+i, i, i+1))
		g.Add(evidence.Item{Kind: evidence.KindTest, Package: fmt.Sprintf("example.com/m/p%d", i%7), Name: fmt.Sprintf("TestCase%d", i),
			Outcome: evidence.OutcomeFail, Class: "fail", File: "case_test.go", Line: 10 + i, Message: fmt.Sprintf("want %d, got %d", i, i+1),
			Span: evidence.Span{Stream: "stdout", From: len(out) - 1, To: len(out) - 1}, Detail: evidence.Span{Stream: "stdout", From: len(out) - 1, To: len(out)}})
	}
	for i := range 300 {
		out = append(out, fmt.Sprintf("--- PASS: TestOK%d (0.00s)", i))
		g.Add(evidence.Item{Kind: evidence.KindTest, Package: "example.com/m/ok", Name: fmt.Sprintf("TestOK%d", i), Outcome: evidence.OutcomePass,
			Span: evidence.Span{Stream: "stdout", From: len(out), To: len(out)}})
	}
	out = append(out, "FAIL")
	g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "go test", Name: "total", Counts: map[string]int{"fail": n, "pass": 300}})
	g.Seal("run:0123456789ab")
	return g, lineSource{"stdout": out}
}

func streams(ls lineSource) []StreamInfo {
	var out []StreamInfo
	for _, name := range []string{"stdout", "stderr"} {
		size := 0
		for _, l := range ls[name] {
			size += len(l) + 1
		}
		out = append(out, StreamInfo{Name: name, Size: int64(size), Lines: int64(len(ls[name]))})
	}
	return out
}

func render(t *testing.T, g *evidence.Graph, ls lineSource, in Inputs) (Plan, *Digest) {
	t.Helper()
	in.Streams = streams(ls)
	outcome, _ := Outcome(g, in)
	c := mustContract(t, g.Profile, outcome)
	p := Decide(g, c, in)
	d, err := Render(Input{Run: RunInfo{Handle: "run:0123456789ab", Argv: []string{"go", "test", "./..."}, Dir: ".", Exit: in.Exit, Status: "exited"},
		Streams: in.Streams, Graph: g, Contract: c, Plan: p, Lines: ls,
		Census: func(b []byte) string { return "blob:census" }})
	if err != nil {
		t.Fatal(err)
	}
	return p, d
}

func TestModes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failures int
		budget   int
		mode     string
	}{
		{"few failures: census", 5, 0, ModeCensus},
		{"many failures, small budget: dense", 60, 700, ModeDense},
		{"too many for dense: flood", 400, 300, ModeFlood},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ls := failures(tc.failures)
			p, d := render(t, g, ls, Inputs{Exit: 1, Status: "exited", Budget: tc.budget})
			if p.Mode != tc.mode {
				t.Fatalf("mode %s, want %s (reasons %v)", p.Mode, tc.mode, p.Reasons)
			}
			text := string(d.Text)
			// REQUIRED items are never dropped: inline, or in the census.
			if d.Coverage.RequiredUnrepresented != 0 {
				t.Errorf("unrepresented required %d", d.Coverage.RequiredUnrepresented)
			}
			for _, it := range g.Tests(evidence.OutcomeFail) {
				named := strings.Contains(text, it.Name)
				inCensus := strings.Contains(string(d.Census), it.Name)
				if !named && !inCensus {
					t.Errorf("%s neither named nor in the census", it.Name)
				}
				if tc.mode != ModeFlood && !named {
					t.Errorf("%s not named in %s mode", it.Name, tc.mode)
				}
			}
			if tc.mode == ModeFlood && (d.Census == nil || !strings.Contains(text, "blob:census")) {
				t.Error("flood mode without a census blob handle")
			}
			if strings.Contains(text, "TestOK") {
				t.Error("a passing test was shown in a failure digest")
			}
			if !strings.Contains(text, "not shown (retrievable): 300 pass tests") {
				t.Errorf("the passing tests are not accounted for:\n%s", text)
			}
		})
	}
}

func TestPassSummary(t *testing.T) {
	g, ls := failures(0)
	g.Verdict = "pass"
	p, d := render(t, g, ls, Inputs{Exit: 0, Status: "exited"})
	if p.Mode != ModeSummary || p.Outcome != "pass" {
		t.Fatalf("mode %s outcome %s", p.Mode, p.Outcome)
	}
	if lines := strings.Count(string(d.Text), "\n"); lines > 6 {
		t.Errorf("a pass summary of %d lines:\n%s", lines, d.Text)
	}
}

// TestNeverClaimSuccess: whenever the exit status or the tool's own verdict
// says failure, the outcome is a failure and a conflict is stated.
func TestNeverClaimSuccess(t *testing.T) {
	for _, tc := range []struct {
		verdict  string
		exit     int
		outcome  string
		conflict bool
	}{
		{"pass", 0, "pass", false},
		{"pass", 1, "fail", true},
		{"fail", 0, "fail", true},
		{"fail", 1, "fail", false},
		{"", 1, "fail", false},
		{"", 0, "pass", false},
		{"error", 0, "error", true},
		{"error", 2, "error", false},
	} {
		g := &evidence.Graph{Profile: "pytest", Version: 1, Verdict: tc.verdict}
		got, rs := Outcome(g, Inputs{Exit: tc.exit, Status: "exited"})
		if got != tc.outcome || hasReason(rs, ReasonExitConflict) != tc.conflict {
			t.Errorf("verdict %q exit %d: outcome %s reasons %v, want %s conflict=%v", tc.verdict, tc.exit, got, rs, tc.outcome, tc.conflict)
		}
	}
	// A recovered run never passes, whatever its text says.
	if got, _ := Outcome(&evidence.Graph{Verdict: "pass"}, Inputs{Exit: -1, Status: "recovered"}); got == "pass" {
		t.Error("a recovered run passed")
	}
	// grep's exit 1 (no match) is success when the profile says so.
	if got, rs := Outcome(&evidence.Graph{Verdict: "pass", ExitOK: []int{1}}, Inputs{Exit: 1, Status: "exited"}); got != "pass" || !hasReason(rs, ReasonExitExpected) {
		t.Errorf("grep exit 1: %s %v", got, rs)
	}
	// The digest states the conflict.
	g, ls := failures(0)
	g.Verdict = "pass"
	_, d := render(t, g, ls, Inputs{Exit: 1, Status: "exited"})
	if !strings.Contains(string(d.Text), "treated as a failure") {
		t.Errorf("the conflict is not stated:\n%s", d.Text)
	}
}

func TestBudgetInputs(t *testing.T) {
	g, ls := failures(30)
	base, _ := render(t, g, ls, Inputs{Exit: 1, Status: "exited"})
	high, _ := render(t, g, ls, Inputs{Exit: 1, Status: "exited", Pressure: PressureHigh})
	reflex, dr := render(t, g, ls, Inputs{Exit: 1, Status: "exited", Level: 1})
	if high.Budget >= base.Budget || !hasReason(high.Reasons, ReasonPressureHigh) {
		t.Errorf("high pressure budget %d, base %d", high.Budget, base.Budget)
	}
	if reflex.Budget <= base.Budget || !hasReason(reflex.Reasons, ReasonReflexRerun) {
		t.Errorf("reflex budget %d, base %d", reflex.Budget, base.Budget)
	}
	_, db := render(t, g, ls, Inputs{Exit: 1, Status: "exited"})
	if len(dr.Text) <= len(db.Text) {
		t.Errorf("an equivalent rerun showed no more (%d vs %d bytes)", len(dr.Text), len(db.Text))
	}
	if base.ID == high.ID || base.ID == reflex.ID {
		t.Error("different plans share an id")
	}
	again, _ := render(t, g, ls, Inputs{Exit: 1, Status: "exited"})
	if again.ID != base.ID {
		t.Error("the same plan inputs gave a different plan id")
	}
}

func TestParsePressure(t *testing.T) {
	for in, want := range map[string]string{"": PressureNormal, "high": PressureHigh, "LOW": PressureLow, "0.9": PressureHigh, "85%": PressureHigh, "0.1": PressureLow, "0.5": PressureNormal} {
		if got, err := ParsePressure(in); err != nil || got != want {
			t.Errorf("ParsePressure(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParsePressure("very"); err == nil {
		t.Error("ParsePressure accepted nonsense")
	}
}

// TestDemotedFailuresAreNamed: a project contract that makes a failing
// run's failures RETRIEVABLE (one a cloned repository can ship in
// .ctx/contracts/) still gets a digest that names them as left out, and
// never one that says no failure was found.
func TestDemotedFailuresAreNamed(t *testing.T) {
	dir := t.TempDir()
	body := "[default]\nrequired = []\nelastic = []\nretrievable = [\"test\", \"diagnostic\", \"anomaly\", \"summary\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "default.toml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	g, ls := failures(1)
	in := Inputs{Exit: 1, Status: "exited", Streams: streams(ls)}
	c, err := contract.Load(g.Profile, "fail", dir)
	if err != nil {
		t.Fatal(err)
	}
	p := Decide(g, c, in)
	d, err := Render(Input{Run: RunInfo{Handle: "run:0123456789ab", Argv: []string{"go", "test", "./..."}, Dir: ".", Exit: 1, Status: "exited"},
		Streams: in.Streams, Graph: g, Contract: c, Plan: p, Lines: ls, Census: func(b []byte) string { return "blob:census" }})
	if err != nil {
		t.Fatal(err)
	}
	text := string(d.Text)
	if strings.Contains(text, "no failure was itemised") || !strings.Contains(text, "1 failure itemised, none REQUIRED") {
		t.Errorf("the digest does not say the failure was found and left out:\n%s", text)
	}
	if !strings.Contains(text, "not shown (retrievable): 1 fail test") {
		t.Errorf("the digest does not name the failing test it left out:\n%s", text)
	}
}

// planted is the secret the redaction tests plant in an anomaly's text.
const planted = "ghp_SECRETSECRETSECRET"

// renderAnomaly renders a text digest of 2,001 lines whose first line is
// first and whose one REQUIRED item is an anomaly on it holding planted,
// with a redaction that replaces planted.
func renderAnomaly(t *testing.T, first string) *Digest {
	t.Helper()
	g := &evidence.Graph{Profile: "text", Version: 1}
	out := []string{first}
	g.Add(evidence.Item{Kind: evidence.KindAnomaly, Line: 1, Count: 1, Text: "token=" + planted, Why: "rare-line",
		Span: evidence.Span{Stream: "stdout", From: 1, To: 1}})
	for i := range 2000 {
		out = append(out, fmt.Sprint(i))
	}
	g.Seal("run:0123456789ab")
	ls := lineSource{"stdout": out}
	in := Inputs{Exit: 0, Status: "exited", Streams: streams(ls)}
	c := mustContract(t, g.Profile, "pass")
	p := Decide(g, c, in)
	redact := func(b []byte) ([]byte, string) {
		return bytes.ReplaceAll(b, []byte(planted), []byte("[REDACTED:github-pat:0000]")), "! 1 secret redacted"
	}
	d, err := Render(Input{Run: RunInfo{Handle: "run:0123456789ab", Argv: []string{"sh", "-c", "x"}, Dir: ".", Exit: 0, Status: "exited"},
		Streams: in.Streams, Graph: g, Contract: c, Plan: p, Lines: ls, Redact: redact, Census: func(b []byte) string { return "blob:census" }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(d.Text), planted) {
		t.Errorf("the digest prints the secret:\n%s", d.Text)
	}
	return d
}

// TestRedactedLineRepresentsItsItem: an anomaly whose line holds a
// credential is shown by the excerpt's redacted line. It was counted as
// REQUIRED and unrepresented (the item's own text still held the secret,
// so it never matched), and the warning then quoted it, secret and all.
func TestRedactedLineRepresentsItsItem(t *testing.T) {
	d := renderAnomaly(t, "token=[REDACTED:github-pat:0000]") // excerpt lines arrive redacted
	if d.Coverage.RequiredUnrepresented != 0 || strings.Contains(string(d.Text), "REQUIRED items not shown") {
		t.Errorf("the anomaly's line is shown (redacted), yet it is counted unrepresented:\n%s", d.Text)
	}
}

// TestUnshownWarningQuotesRedacted: when a REQUIRED item really is left
// out (here its line says something else than the item, so the excerpt
// does not show it), the warning that quotes it is redacted like the body.
func TestUnshownWarningQuotesRedacted(t *testing.T) {
	d := renderAnomaly(t, "a line that is not the item's")
	if !strings.Contains(string(d.Text), "not shown with their identity and message: L1: token=[REDACTED:github-pat:0000]") {
		t.Errorf("the warning does not quote the unshown item, redacted:\n%s", d.Text)
	}
}
