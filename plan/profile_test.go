package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// TestRunnerFlag: a test runner's graph without a verdict gets no-verdict
// because its profile says it is a runner (Graph.Runner), not because plan
// knows the profile's name.
func TestRunnerFlag(t *testing.T) {
	for _, runner := range []bool{true, false} {
		g := &evidence.Graph{Profile: "some-runner", Version: 1, Runner: runner}
		g.Seal("run:0123456789ab")
		c := mustContract(t, g.Profile, "pass")
		p := Decide(g, c, Inputs{Exit: 0, Status: "exited"})
		if got := hasReason(p.Reasons, ReasonNoVerdict); got != runner {
			t.Errorf("Runner=%v: no-verdict %v, reasons %v", runner, got, p.Reasons)
		}
	}
}

// TestProfileNoise: a failure block is cleaned by the graph's own Noise, and
// only by it: the same lines stay when the profile supplies none.
func TestProfileNoise(t *testing.T) {
	out := []string{"noise: framing line", "    at frame one (a_test.go:3)", "    at frame two (a_test.go:9)", "want 0, got 1"}
	for i := range 2000 { // enough output that the digest is no whole-output copy
		out = append(out, fmt.Sprintf("=== RUN TestOK%d: some long line of progress output that fills the stream", i))
	}
	ls := lineSource{"stdout": append(out, "FAIL")}
	mk := func(noise evidence.NoiseFunc) *evidence.Graph {
		g := &evidence.Graph{Profile: "gotest", Version: 1, Verdict: "fail", Noise: noise}
		g.Add(evidence.Item{Kind: evidence.KindTest, Package: "example.com/m", Name: "TestA", Outcome: evidence.OutcomeFail,
			File: "a_test.go", Line: 3, Message: "want 0, got 1",
			Span: evidence.Span{Stream: "stdout", From: 4, To: 4}, Detail: evidence.Span{Stream: "stdout", From: 1, To: 4}})
		g.Seal("run:0123456789ab")
		return g
	}
	_, plain := render(t, mk(nil), ls, Inputs{Exit: 1, Status: "exited"})
	if !strings.Contains(string(plain.Text), "noise: framing line") || !strings.Contains(string(plain.Text), "at frame one") {
		t.Fatalf("without a Noise the block is shown as it is:\n%s", plain.Text)
	}
	drop := func(l string, it *evidence.Item) (string, bool) {
		if it.Name != "TestA" {
			t.Errorf("noise called for item %q", it.Name)
		}
		return l, !strings.HasPrefix(l, "noise:")
	}
	_, clean := render(t, mk(drop), ls, Inputs{Exit: 1, Status: "exited"})
	if strings.Contains(string(clean.Text), "noise: framing line") || !strings.Contains(string(clean.Text), "at frame one") {
		t.Errorf("the profile's Noise was not applied, or took too much:\n%s", clean.Text)
	}
}
