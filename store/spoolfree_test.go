package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// commitSpool prepares and commits sp as a finished pipe run of argv.
func commitSpool(t *testing.T, s *Store, sp *Spool, argv []string) *Run {
	t.Helper()
	p, err := s.Prepare(sp, Manifest{Argv: argv, Dir: ".", Mode: "pipe", Status: StatusExited})
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Commit(p, Exec{Argv: argv, Start: time.Now()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// freeSpools lists the free spools of s.
func freeSpools(t *testing.T, s *Store) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(s.Dir(), spoolName))
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), freePrefix) {
			out = append(out, filepath.Join(s.Dir(), spoolName, e.Name()))
		}
	}
	return out
}

// TestSpoolReused: a committed spool is kept emptied under a free name, the
// next capture takes that very directory (no new one), holds its lock, and
// stores its own bytes only; recovery and check leave a free spool alone.
func TestSpoolReused(t *testing.T) {
	s := newStore(t)
	first := commitSpool(t, s, spool(t, s, []string{"echo", "one"}, bytes.Repeat([]byte("one\n"), 5000)), []string{"echo", "one"})
	free := freeSpools(t, s)
	if len(free) != 1 || !holdsOnly(free[0], freeFiles) {
		t.Fatalf("free spools after a commit: %v", free)
	}
	if b, err := os.ReadFile(filepath.Join(free[0], "meta.json")); err != nil || string(b) != "{}" {
		t.Errorf("a free spool keeps the previous command's description: %q %v", b, err)
	}
	before, err := os.Stat(free[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Recover(); len(got) != 0 {
		t.Fatalf("recovery took a free spool: %+v", got)
	}
	sp := spool(t, s, []string{"echo", "two"}, []byte("two\n"))
	after, err := os.Stat(sp.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || len(freeSpools(t, s)) != 0 {
		t.Fatalf("the second spool %s is not the free one %s", sp.Dir(), free[0])
	}
	f, err := os.Open(filepath.Join(sp.Dir(), "lock"))
	if err != nil {
		t.Fatal(err)
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		t.Error("the reused spool's lock is not held")
	}
	f.Close()
	if got := s.InFlight(); len(got) != 1 || got[0].Argv[1] != "two" {
		t.Errorf("in flight: %+v", got)
	}
	second := commitSpool(t, s, sp, []string{"echo", "two"})
	if b := readBlob(t, s, second.Manifest.Stdout.Blob); string(b) != "two\n" {
		t.Errorf("second run holds %q", b)
	}
	if b := readBlob(t, s, first.Manifest.Stdout.Blob); !bytes.Equal(b, bytes.Repeat([]byte("one\n"), 5000)) {
		t.Errorf("first run holds %d bytes", len(b))
	}
	rep, err := s.Check(CheckOptions{})
	if err != nil || !rep.OK() {
		t.Errorf("check: %+v %v", rep, err)
	}
}

// TestFreeSpoolClaims: concurrent captures never share a spool; a free spool
// left by a capture that died while claiming it is taken again; one older
// than freeMaxAge is left for the hourly sweep.
func TestFreeSpoolClaims(t *testing.T) {
	s := newStore(t)
	for i := 0; i < 4; i++ {
		sp := spool(t, s, []string{"true"}, nil)
		defer sp.Abort()
		if i < 3 {
			commitSpool(t, s, sp, []string{"true"})
		}
	}
	var (
		mu   sync.Mutex
		dirs = map[string]bool{}
		wg   sync.WaitGroup
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp, err := s.NewSpool(SpoolMeta{Argv: []string{"true"}, Dir: ".", Mode: "pipe", Started: time.Now()})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			if dirs[sp.Dir()] {
				t.Errorf("two captures share %s", sp.Dir())
			}
			dirs[sp.Dir()] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n := len(freeSpools(t, s)); n != 0 {
		t.Errorf("%d free spools left with 8 captures running", n)
	}

	// A claim cut short leaves the free spool as it was, lock released.
	s2 := newStore(t)
	commitSpool(t, s2, spool(t, s2, []string{"true"}, nil), []string{"true"})
	free := freeSpools(t, s2)[0]
	dir, lock := claimFree(filepath.Join(s2.Dir(), spoolName))
	if dir != free {
		t.Fatalf("claimed %q, want %q", dir, free)
	}
	if d, _ := claimFree(filepath.Join(s2.Dir(), spoolName)); d != "" {
		t.Errorf("a held free spool was claimed twice")
	}
	lock.Close() // the claimer dies
	if sp := spool(t, s2, []string{"true"}, nil); filepath.Dir(sp.Dir()) != filepath.Dir(free) || len(freeSpools(t, s2)) != 0 {
		t.Errorf("the free spool was not taken again: %s, free %v", sp.Dir(), freeSpools(t, s2))
	} else {
		commitSpool(t, s2, sp, []string{"true"})
	}
	old := time.Now().Add(-freeMaxAge - time.Minute)
	free = freeSpools(t, s2)[0]
	if err := os.Chtimes(free, old, old); err != nil {
		t.Fatal(err)
	}
	sp := spool(t, s2, []string{"true"}, nil)
	defer sp.Abort()
	if got := freeSpools(t, s2); len(got) != 1 || got[0] != free {
		t.Errorf("a free spool older than %v was taken: %v", freeMaxAge, got)
	}
}

// TestReusedSpoolFilesRewritten: a reused spool's meta.json and result.json
// hold exactly the new capture's description and the placeholder, whatever
// longer content the previous capture left in them.
func TestReusedSpoolFilesRewritten(t *testing.T) {
	s := newStore(t)
	long := []string{"echo", strings.Repeat("a-long-argument ", 40)}
	sp := spool(t, s, long, []byte("x\n"))
	if err := sp.SaveResult(Manifest{Exit: 3, Status: StatusExited}); err != nil {
		t.Fatal(err)
	}
	commitSpool(t, s, sp, long)
	if len(freeSpools(t, s)) != 1 {
		t.Fatal("no free spool to reuse")
	}
	sp = spool(t, s, []string{"true"}, nil)
	defer sp.Abort()
	if len(freeSpools(t, s)) != 0 {
		t.Fatal("the free spool was not reused")
	}
	var meta SpoolMeta
	if err := readSpoolJSON(filepath.Join(sp.Dir(), "meta.json"), &meta); err != nil || len(meta.Argv) != 1 || meta.Argv[0] != "true" {
		t.Errorf("reused meta.json: %+v %v", meta, err)
	}
	if b, err := os.ReadFile(filepath.Join(sp.Dir(), resultName)); err != nil || !bytes.Equal(b, resultPlaceholder) {
		t.Errorf("reused result.json is not the placeholder: %q %v", b, err)
	}
}
