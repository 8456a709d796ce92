package store

import (
	"strings"
	"testing"
	"time"
)

// TestInFlight: a spool whose capture is running is listed with what it has
// captured so far; once committed it is gone from the list.
func TestInFlight(t *testing.T) {
	s := newStore(t)
	if got := s.InFlight(); len(got) != 0 {
		t.Fatalf("empty store: %v", got)
	}
	sp, err := s.NewSpool(SpoolMeta{Argv: []string{"long", "job"}, Dir: ".", Mode: "pipe", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sp.Stream("stdout")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("12345\n")); err != nil {
		t.Fatal(err)
	}
	got := s.InFlight()
	if len(got) != 1 || strings.Join(got[0].Argv, " ") != "long job" || got[0].Stdout != 6 {
		t.Fatalf("in flight: %+v", got)
	}
	if _, err := s.CommitSpool(sp, Manifest{Argv: []string{"long", "job"}, Dir: ".", Mode: "pipe", Status: StatusExited}, Exec{Start: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got := s.InFlight(); len(got) != 0 {
		t.Errorf("after commit: %+v", got)
	}
}
