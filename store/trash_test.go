package store

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReleaseLeavesLargeSpoolsToTheSweep: committing a capture whose raw
// spool is past trashBytes and not linked as a plain pack (its content was
// stored already) moves the file to a trash directory instead of deleting it
// on the caller's path; the run is whole and readable, recovery and the
// in-flight list ignore the trash, and Compact deletes it. A small spool is
// deleted at once, and so is the spool's name of a raw spool that became a
// plain pack (its removal frees nothing).
func TestReleaseLeavesLargeSpoolsToTheSweep(t *testing.T) {
	s := newStore(t)
	line := []byte("a line of a flood, numbered 0123456789\n")
	big := bytes.Repeat(line, int(trashBytes)/len(line)+1)
	for _, tc := range []struct {
		name  string
		out   []byte
		trash bool
	}{{"small", line, false}, {"large", big, false}, {"large again", big, true}} {
		sp, err := s.NewSpool(SpoolMeta{Argv: []string{"flood", tc.name}, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 1 << 40})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := sp.Stream("stdout")
		if _, err := w.Write(tc.out); err != nil {
			t.Fatal(err)
		}
		p, err := s.Prepare(sp, Manifest{Argv: []string{"flood", tc.name}, Dir: ".", Mode: "pipe", Status: StatusExited})
		if err != nil {
			t.Fatal(err)
		}
		run, err := s.Commit(p, Exec{Start: time.Now()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.LeftTrash() != tc.trash {
			t.Errorf("%s: left trash %v", tc.name, p.LeftTrash())
		}
		if _, err := os.Stat(sp.Dir()); !os.IsNotExist(err) {
			t.Errorf("%s: the spool is still there: %v", tc.name, err)
		}
		trash := filepath.Join(filepath.Dir(sp.Dir()), trashPrefix+filepath.Base(sp.Dir()))
		if _, err := os.Stat(filepath.Join(trash, "stdout.raw")); (err == nil) != tc.trash {
			t.Errorf("%s: trash %s: %v", tc.name, trash, err)
		}
		b, err := s.Blob(run.Manifest.Stdout.Blob)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(b.Reader())
		if err != nil || !bytes.Equal(got, tc.out) {
			t.Fatalf("%s: the stored stream differs (%d of %d bytes): %v", tc.name, len(got), len(tc.out), err)
		}
	}
	if rec := s.Recover(); len(rec) != 0 {
		t.Errorf("recovery took the trash for a capture: %+v", rec)
	}
	if in := s.InFlight(); len(in) != 0 {
		t.Errorf("in flight: %+v", in)
	}
	if _, _, err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(s.dir, spoolName))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), trashPrefix) {
			t.Errorf("compaction left %s", e.Name())
		}
	}
}
