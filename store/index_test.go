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
		off   int64
	}{
		{"/w/a/.ctx\n", true, 0},
		{"/w/b/.ctx\n/w/a/.ctx\n", true, 10},
		{"/w/a/.ctx2\n/x/w/a/.ctx\n", false, -1},
		{"/w/a/.ctx", true, -1},               // no final newline: the parse finds it
		{"  /w/a/.ctx  \n", true, -1},         // spaces the parse trims
		{"/w/b/../a/.ctx\n", true, -1},        // cleaned by the parse
		{"w/a/.ctx\n/w/a/.ctxx\n", false, -1}, // relative lines are ignored
	} {
		if err := os.WriteFile(path, []byte(tc.index), 0o600); err != nil {
			t.Fatal(err)
		}
		if off, got := lineOffset(path, "/w/a/.ctx"); got != tc.want || off != tc.off {
			t.Errorf("index %q: lineOffset = %d, %v, want %d, %v", tc.index, off, got, tc.off, tc.want)
		}
	}
	if _, ok := lineOffset(filepath.Join(t.TempDir(), "none"), "/w/a/.ctx"); ok {
		t.Error("a missing index lists the store")
	}
}

// TestRegisterMarker: the store's indexed file answers later runs without
// reading the whole index, and is never believed once the index no longer
// holds the store's line where it says: a replaced, truncated or rewritten
// index gets the store registered again.
func TestRegisterMarker(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	a, b := newStore(t), newStore(t)
	for _, s := range []*Store{b, a} {
		if err := s.Register(); err != nil {
			t.Fatal(err)
		}
	}
	if !a.markedIndexed(IndexPath()) || !b.markedIndexed(IndexPath()) {
		t.Fatal("a registered store is not marked")
	}
	lines := func() int {
		data, _ := os.ReadFile(IndexPath())
		return strings.Count(string(data), "\n")
	}
	for _, index := range []string{"", "/other/.ctx\n", a.Dir() + "x\n" + b.Dir() + "\n"} {
		if err := os.WriteFile(IndexPath(), []byte(index), 0o600); err != nil {
			t.Fatal(err)
		}
		if a.markedIndexed(IndexPath()) {
			t.Errorf("index %q: the marker is believed", index)
		}
		before := lines()
		if err := a.Register(); err != nil {
			t.Fatal(err)
		}
		if off, ok := lineOffset(IndexPath(), a.Dir()); !ok || lines() != before+1 || !a.markedIndexed(IndexPath()) {
			t.Errorf("index %q: after Register the store is listed %v at %d, %d lines, marked %v", index, ok, off, lines(), a.markedIndexed(IndexPath()))
		}
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if a.markedIndexed(IndexPath()) {
		t.Error("the marker is believed for another index")
	}
	if err := a.Register(); err != nil || lines() != 1 {
		t.Errorf("a new index: %v, %d lines", err, lines())
	}
}
