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

// TestRegisteredExactLine: the byte search of the index finds a store only
// on a line of its own; a longer path that starts or ends with it is not it,
// and a line the parse accepts (spaces, an unclean path) still counts.
func TestRegisteredExactLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores")
	for _, tc := range []struct {
		index string
		want  bool
	}{
		{"/w/a/.ctx\n", true},
		{"/w/b/.ctx\n/w/a/.ctx\n", true},
		{"/w/a/.ctx2\n/x/w/a/.ctx\n", false},
		{"/w/a/.ctx", true},               // no final newline: the parse finds it
		{"  /w/a/.ctx  \n", true},         // spaces the parse trims
		{"/w/b/../a/.ctx\n", true},        // cleaned by the parse
		{"w/a/.ctx\n/w/a/.ctxx\n", false}, // relative lines are ignored
	} {
		if err := os.WriteFile(path, []byte(tc.index), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := registered(path, "/w/a/.ctx"); got != tc.want {
			t.Errorf("index %q: registered = %v, want %v", tc.index, got, tc.want)
		}
	}
	if registered(filepath.Join(t.TempDir(), "none"), "/w/a/.ctx") {
		t.Error("a missing index lists the store")
	}
}
