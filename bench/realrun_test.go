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
		if !g.Met {
			t.Errorf("%s: measured %.3f, target %.3f", g.Name, g.Measured, g.Target)
		}
	}
}
