package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSeqShapes: every shape names three steps and a module with a go.mod,
// names are unique, and both design and held-out shapes exist.
func TestSeqShapes(t *testing.T) {
	seen := map[string]bool{}
	held := 0
	for _, s := range SeqShapes() {
		if seen[s.Name] || len(s.Steps) != 3 || s.Files["go.mod"] == "" {
			t.Errorf("shape %s: duplicate %v, %d steps, go.mod %q", s.Name, seen[s.Name], len(s.Steps), s.Files["go.mod"])
		}
		seen[s.Name] = true
		if s.Holdout {
			held++
		}
	}
	if held == 0 || held == len(seen) {
		t.Errorf("%d held-out shapes of %d", held, len(seen))
	}
	dir := t.TempDir()
	s := SeqShapes()[len(SeqShapes())-1]
	if err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	for name := range s.Files {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}

func TestSpreadOf(t *testing.T) {
	for _, tc := range []struct {
		xs   []int
		want Spread
	}{{[]int{3, 1, 2}, Spread{2, 1, 3}}, {[]int{4, 1, 2, 3}, Spread{2.5, 1, 4}}, {nil, Spread{}}} {
		if got := SpreadOf(tc.xs); got != tc.want {
			t.Errorf("SpreadOf(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
	if got := (Spread{5, 4, 7}).String(); got != "5 (4–7)" {
		t.Errorf("String %q", got)
	}
}
