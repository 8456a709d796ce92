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
	other := t.TempDir() // a store that exists: a gone one's line would be pruned
	for _, index := range []string{"", other + "\n", other + "\n" + b.Dir() + "\n"} {
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

// TestRegisterPrunes: a store registering drops the lines of stores that
// are gone, so the index does not grow with every store the user ever
// made; the stores that exist keep their lines, and a store whose marker
// points into the index as it was before is found again.
func TestRegisterPrunes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var stores []*Store
	for range 4 {
		s := newStore(t)
		if err := s.Register(); err != nil {
			t.Fatal(err)
		}
		stores = append(stores, s)
	}
	for _, s := range stores[:3:3] {
		if err := os.RemoveAll(filepath.Dir(s.Dir())); err != nil {
			t.Fatal(err)
		}
	}
	kept := stores[3]
	fresh := newStore(t)
	if err := fresh.Register(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(IndexPath())
	if err != nil {
		t.Fatal(err)
	}
	if want := kept.Dir() + "\n" + fresh.Dir() + "\n"; string(data) != want {
		t.Errorf("index after registering with three stores gone:\n%s\nwant:\n%s", data, want)
	}
	if !fresh.markedIndexed(IndexPath()) {
		t.Error("the registering store is not marked at its line of the pruned index")
	}
	if kept.markedIndexed(IndexPath()) {
		t.Fatal("a marker into the index before it was pruned is believed")
	}
	if err := kept.Register(); err != nil || !kept.markedIndexed(IndexPath()) {
		t.Errorf("a kept store registering again: %v, marked %v", err, kept.markedIndexed(IndexPath()))
	}
	if after, _ := os.ReadFile(IndexPath()); string(after) != string(data) {
		t.Errorf("a kept store registering again changed the index:\n%s", after)
	}
}

// TestRegisterPrunesConcurrently: writers that prune (replacing the index
// file) and writers that append, at once and each with a descriptor of its
// own as separate processes have, lose no live store's line and list none
// twice.
func TestRegisterPrunesConcurrently(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	const writers, rounds = 8, 20
	var (
		mu   sync.Mutex
		live = map[string]bool{}
		errs []error
		wg   sync.WaitGroup
	)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var prev string
			for r := range rounds {
				dir := t.TempDir()
				s, err := Open(Location{Dir: filepath.Join(dir, DirName), Root: dir}, true)
				if err == nil {
					err = s.Register()
				}
				if err == nil && r%2 == 1 {
					err = os.RemoveAll(prev) // a dead line for the next writer to prune
				}
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					live[s.Dir()] = true
					if r%2 == 1 {
						delete(live, filepath.Join(prev, DirName))
					}
				}
				mu.Unlock()
				prev = dir
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	last := newStore(t) // prunes what the last removals left
	if err := last.Register(); err != nil {
		t.Fatal(err)
	}
	live[last.Dir()] = true
	dirs, err := readIndex(IndexPath())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] || !live[d] {
			t.Errorf("index lists %s twice or though it is gone", d)
		}
		seen[d] = true
	}
	for d := range live {
		if !seen[d] {
			t.Errorf("index lost %s", d)
		}
	}
}
