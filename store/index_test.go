package store

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestIndex: registering is idempotent and safe from concurrent processes'
// goroutines; a store that is gone drops out of Indexed.
func TestIndex(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	a, b := newStore(t), newStore(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(2)
		go func() { defer wg.Done(); _ = a.Register() }()
		go func() { defer wg.Done(); _ = b.Register() }()
	}
	wg.Wait()
	data, err := os.ReadFile(IndexPath())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("index holds %d lines, want 2:\n%s", n, data)
	}
	if got := Indexed(); len(got) != 2 || got[0] != a.Dir() && got[1] != a.Dir() {
		t.Errorf("Indexed = %v", got)
	}
	if err := os.RemoveAll(filepath.Dir(b.Dir())); err != nil {
		t.Fatal(err)
	}
	if got := Indexed(); len(got) != 1 || got[0] != a.Dir() {
		t.Errorf("after removing a store: %v", got)
	}
	if !strings.HasSuffix(IndexPath(), filepath.Join("ctx", "stores")) {
		t.Errorf("IndexPath = %s", IndexPath())
	}
}
