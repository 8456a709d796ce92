package text

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNoAnomaliesInOrdinaryText holds issue 10's false alarms to zero on real
// runs (testdata/realrun/gen.sh): a gofmt -d of three files, a Go source
// file, a list of paths named *err*, and grep hits for `err != nil` mention
// errors only as words in code and paths.
func TestNoAnomaliesInOrdinaryText(t *testing.T) {
	for _, name := range []string{"gofmt-d", "cat-go", "find-error", "grep-err", "ls-long"} {
		b, err := os.ReadFile(filepath.Join("testdata", "realrun", name, "stdout"))
		if err != nil {
			t.Fatal(err)
		}
		if got := anomalies(parse(t, b)); len(got) > 0 {
			t.Errorf("%s: %d anomalies, want 0; first %q", name, len(got), got[0])
		}
	}
}

// TestRareLine finds the one line unlike the others in a repetitive real
// output (testdata/realrun/loop-odd), though it holds no error word.
func TestRareLine(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "realrun", "loop-odd", "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	g := parse(t, b)
	var got []string
	for _, it := range g.Items {
		if it.Why == "rare-line" {
			got = append(got, it.Text)
		}
	}
	// The odd line, and the closing "done" (each shape seen once).
	if len(got) != 2 || got[0] != "checksum differs at block 257, block re-read" || got[1] != "done" {
		t.Errorf("rare lines %q", got)
	}
}
