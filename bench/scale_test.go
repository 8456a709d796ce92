package bench

import (
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// GenerateRuns stores n distinct runs, each listed once and resolvable by
// the handle it returns for the middle one, and the store checks clean.
func TestGenerateRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ctx")
	mid, err := GenerateRuns(dir, 50)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	execs, err := st.Execs(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[store.ID]bool{}
	for _, ex := range execs {
		runs[ex.Run] = true
	}
	if len(execs) != 50 || len(runs) != 50 {
		t.Fatalf("%d executions of %d runs, want 50 of 50", len(execs), len(runs))
	}
	h, err := store.ParseHandle(mid)
	if err != nil {
		t.Fatal(err)
	}
	target, err := st.Resolve(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := target.Run.Manifest.Argv; len(got) != 2 || got[1] != "25" {
		t.Fatalf("%s names %v, want echo 25", mid, got)
	}
	rep, err := st.Check(store.CheckOptions{ReadData: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || rep.Runs != 50 {
		t.Fatalf("check: %d runs, problems %v", rep.Runs, rep.Problems)
	}
}
