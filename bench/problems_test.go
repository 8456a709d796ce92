package bench

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestProblems is the inserted-problem gate: 20 problem lines inserted into
// each real log, 5 seeds; the detector must find ≥ 95% of them and flag at
// most 1% of the ordinary lines.
func TestProblems(t *testing.T) {
	res, err := RunProblems(context.Background(), 5, 20)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("inserted problems:\n%s", b.String())
	if len(res.Logs) < 5 {
		t.Errorf("%d real logs, want at least 5", len(res.Logs))
	}
	if res.Inserted != len(res.Logs)*5*20 {
		t.Errorf("%d lines inserted, want %d", res.Inserted, len(res.Logs)*5*20)
	}
	if res.Recall < 0.95 {
		t.Errorf("recall %.3f, want ≥ 0.95", res.Recall)
	}
	if res.FlagRate > 0.01 {
		t.Errorf("%.2f%% of ordinary lines flagged, want ≤ 1%%", 100*res.FlagRate)
	}
}

func TestInsertProblems(t *testing.T) {
	log := []byte("2024-01-02 10:00:00 status installed a 1.0\n2024-01-02 10:00:01 status installed b 2.0\nplain line\n")
	out, at := InsertProblems(log, 3, 2)
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 5 || len(at) != 2 {
		t.Fatalf("got %d lines, inserted at %v:\n%s", len(lines), at, out)
	}
	orig := map[string]bool{}
	for _, l := range strings.Split(string(log), "\n") {
		orig[l] = true
	}
	for _, n := range at {
		l := lines[n-1]
		if orig[l] {
			t.Errorf("line %d %q is an original line", n, l)
		}
		prev := lines[n-2]
		if strings.HasPrefix(prev, "2024") && !strings.HasPrefix(l, prev[:20]) {
			t.Errorf("line %d %q does not take the header of %q", n, l, prev)
		}
	}
	// Same seed, same log.
	if again, _ := InsertProblems(log, 3, 2); string(again) != string(out) {
		t.Errorf("InsertProblems is not deterministic")
	}
}

func TestProblemLineFillsSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		if l := ProblemLine(rng); strings.Contains(l, "%[") || l == "" {
			t.Fatalf("unfilled slot: %q", l)
		}
	}
}
