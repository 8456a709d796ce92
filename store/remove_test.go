package store

import (
	"errors"
	"testing"
)

// TestRemoveRun: the run stops listing and resolving at once; blobs another
// run shares stay readable; gc then sweeps only what nothing references; a
// pinned run is refused.
func TestRemoveRun(t *testing.T) {
	s := newStore(t)
	gone := capture(t, s, []string{"a"}, 0, []byte("shared output\n"), []byte("only a\n"))
	capture(t, s, []string{"a"}, 0, []byte("shared output\n"), []byte("only a\n")) // a second execution
	kept := capture(t, s, []string{"b"}, 0, []byte("shared output\n"), nil)

	n, err := s.RemoveRun(gone.ID)
	if err != nil || n != 2 {
		t.Fatalf("RemoveRun = %d, %v; want 2 executions", n, err)
	}
	if _, err := s.GetRun(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removed run still resolves: %v", err)
	}
	execs, _ := s.Execs(0, nil)
	for _, ex := range execs {
		if ex.Run == gone.ID {
			t.Error("an execution of the removed run is still listed")
		}
	}
	if _, err := s.RemoveRun(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second remove: %v, want ErrNotFound", err)
	}
	rep, err := s.GC(GCOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Blobs == 0 {
		t.Errorf("gc swept nothing after the remove: %+v", rep)
	}
	if _, err := s.Blob(gone.Manifest.Stderr.Blob); !errors.Is(err, ErrNotFound) {
		t.Errorf("the removed run's own stderr survived gc: %v", err)
	}
	if got := readBlob(t, s, kept.Manifest.Stdout.Blob); string(got) != "shared output\n" {
		t.Errorf("the other run lost its output: %q", got)
	}

	target, err := s.Resolve(Handle{Scheme: "run", Prefix: kept.ID.String()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutPin(target, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemoveRun(kept.ID); !errors.Is(err, ErrPinned) {
		t.Errorf("pinned run: %v, want ErrPinned", err)
	}
}
