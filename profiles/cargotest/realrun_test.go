package cargotest

import (
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/realrun"
)

// TestRecordedNextest holds issue 10's nextest findings on outputs nextest
// itself printed (cargo-nextest cannot be installed here; the fixtures and
// their sources are in testdata/realrun/README.md): a failing test is
// counted once though nextest names it in the run and again under Summary,
// and the libtest "test result:" line inside each failing test's captured
// output (one per test process, "13 filtered out") is not a binary's
// summary.
func TestRecordedNextest(t *testing.T) {
	all, err := realrun.Load(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fixtures := map[string]realrun.Fixture{}
	for _, f := range all {
		fixtures[f.Name] = f
	}
	for _, c := range []struct {
		name, fail, msg, left, right string
		passed                       int
	}{
		{"nextest-replay-fail", "nextest-tests::basic|test_failure_assert", "", "", "", 0},
		{"nextest-issue460", "server::organization|test_authorization", "assertion `left == right` failed", "200", "401", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, ok := fixtures["cargotest/"+c.name]
			if !ok {
				t.Fatalf("no real-run fixture cargotest/%s", c.name)
			}
			g := parse(t, f.Argv, f.Exit, f.Stdout, f.Stderr)
			if got := failing(g); len(got) != 1 || got[0] != c.fail {
				t.Errorf("failing %q, want [%s] once", got, c.fail)
			}
			passed := 0
			for _, it := range g.Items {
				switch it.Kind {
				case evidence.KindTest:
					if it.Outcome == evidence.OutcomePass {
						passed++
					}
					if it.Outcome == evidence.OutcomeFail && (it.Message != c.msg || it.Attrs["left"] != c.left || it.Attrs["right"] != c.right) {
						t.Errorf("%s: message %q left %q right %q, want %q %q %q", it.Name, it.Message, it.Attrs["left"], it.Attrs["right"], c.msg, c.left, c.right)
					}
				case evidence.KindSummary:
					if _, ok := it.Counts["filtered_out"]; ok {
						t.Errorf("a test process's libtest line became a summary: %s %v", it.Tool, it.Counts)
					}
				}
			}
			if passed != c.passed {
				t.Errorf("%d passing tests, want %d", passed, c.passed)
			}
		})
	}
}
