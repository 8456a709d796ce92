package store

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// randomBytes is incompressible content: a stream of n such bytes is packed
// when n is past packBytes.
func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// spool writes stdout into a new spool and returns it, uncommitted.
func spool(t *testing.T, s *Store, argv []string, stdout []byte) *Spool {
	t.Helper()
	sp, err := s.NewSpool(SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sp.Stream("stdout")
	if err != nil {
		t.Fatal(err)
	}
	for data := stdout; len(data) > 0; {
		n := min(len(data), 1<<20)
		if _, err := w.Write(data[:n]); err != nil {
			t.Fatal(err)
		}
		data = data[n:]
	}
	return sp
}

// holdDBLock takes a shared flock on the database through a file description
// of its own, as a reading ctx process would (`flock -s store.db`), until the
// returned function is called: reads go on, writes time out.
func holdDBLock(t *testing.T, s *Store) func() {
	t.Helper()
	if err := s.update(func(*boltTx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(s.dbPath(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		t.Fatal(err)
	}
	return func() { f.Close() }
}

// checkReadable fails unless every run the store lists reads back whole and
// verified: the invariant that a visible run's bytes are all there.
func checkReadable(t *testing.T, s *Store) {
	t.Helper()
	execs, err := s.Execs(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range execs {
		run, err := s.GetRun(ex.Run)
		if err != nil {
			t.Errorf("exec %s: %v", ex.Key, err)
			continue
		}
		for _, id := range []ID{run.Manifest.Stdout.Blob, run.Manifest.Stderr.Blob} {
			b, err := s.Blob(id)
			if err == nil {
				_, err = b.ReadAll()
			}
			if err != nil {
				t.Errorf("%s lists blob:%s: %v", run.Handle(), id.Short(), err)
			}
		}
	}
}

// TestPackAfterLockTimeout: a large output whose commit timed out on the
// lock was packed already; recovery of its spool must still record the blob
// (putPack used to return early when the pack file existed, and the
// recovered run listed a blob that was never recorded).
func TestPackAfterLockTimeout(t *testing.T) {
	s := newStore(t)
	data := randomBytes(t, 12<<20)
	sp := spool(t, s, []string{"cat", "big.txt"}, data)
	m := Manifest{Argv: []string{"cat", "big.txt"}, Dir: ".", Mode: "pipe", Status: StatusExited}
	p, err := s.Prepare(sp, m)
	if err != nil {
		t.Fatal(err)
	}
	release := holdDBLock(t, s)
	s.timeout = 100 * time.Millisecond
	if _, err := s.Commit(p, Exec{Start: time.Now()}, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("commit under a held lock: %v, want ErrLocked", err)
	}
	if err := sp.SaveResult(p.Run.Manifest); err != nil {
		t.Fatal(err)
	}
	sp.Unlock()
	release()
	got := s.Recover()
	if len(got) != 1 || got[0].Run == nil {
		t.Fatalf("recover: %+v", got)
	}
	if got[0].Run.ID != p.Run.ID {
		t.Errorf("recovered as %s, want the run it would have been, %s", got[0].Run.Handle(), p.Run.Handle())
	}
	if b := readBlob(t, s, got[0].Run.Manifest.Stdout.Blob); !bytes.Equal(b, data) {
		t.Fatal("recovered bytes differ")
	}
	checkReadable(t, s)
	// gc sweeps the first pack (orphaned by the failed commit), never the one in use.
	if _, err := s.GC(GCOptions{Now: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	checkReadable(t, s)
}

// TestGCRacingRerun: gc sweeps a blob no run references while a rerun with
// the same output, having seen the blob stored, commits. The run must not
// end up referencing the swept blob.
func TestGCRacingRerun(t *testing.T) {
	s := newStore(t)
	data := randomBytes(t, 10<<20)
	first := capture(t, s, []string{"gen"}, 0, data, nil)
	// The rerun is spooled and packed while the blob is still stored…
	sp := spool(t, s, []string{"gen", "again"}, data)
	p, err := s.Prepare(sp, Manifest{Argv: []string{"gen", "again"}, Dir: ".", Mode: "pipe", Status: StatusExited})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.StoreLarge(); err != nil {
		t.Fatal(err)
	}
	// …then gc drops the only run that referenced it, before the rerun commits.
	if err := s.update(func(tx *boltTx) error {
		return tx.Bucket(bucketExecs).ForEach(func(k, _ []byte) error { return tx.Bucket(bucketExecs).Delete(k) })
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := s.GC(GCOptions{Now: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Blobs == 0 {
		t.Fatalf("gc swept nothing (%+v): the race was not set up", rep)
	}
	if _, err := s.GetRun(first.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the first run survived gc: %v", err)
	}
	run, err := s.Commit(p, Exec{Start: time.Now()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(b, data) {
		t.Fatal("rerun bytes differ")
	}
	checkReadable(t, s)
}

func packFiles(t *testing.T, s *Store) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.dir, packsName, "*", "*"))
	return files
}

// floodRun commits a packed stream whose frames are stored raw, so there is
// something to compact: incompressible bytes, whose zstd frames are raw
// blocks whatever the compressor's speed.
func floodRun(t *testing.T, s *Store) (*Run, []byte) {
	t.Helper()
	sp, err := s.NewSpool(SpoolMeta{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := sp.Stream("stdout")
	data := randomBytes(t, 10<<20)
	w.Write(data)
	run, err := s.CommitSpool(sp, Manifest{Argv: []string{"flood"}, Dir: ".", Status: StatusExited}, Exec{Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Blob(run.Manifest.Stdout.Blob)
	if !b.meta.Packed || !b.meta.hasRaw() {
		t.Fatalf("the flood was not stored packed with raw frames (packed %v)", b.meta.Packed)
	}
	return run, data
}

// TestConcurrentCompaction: compactions and gcs started together (ctx run
// starts a background compaction after most runs) never lose a blob.
func TestConcurrentCompaction(t *testing.T) {
	for trial := range 4 {
		s := newStore(t)
		run, data := floodRun(t, s)
		loc := Location{Dir: s.dir, Root: s.root}
		errs := make(chan error, 4)
		for i := range 4 {
			go func() {
				other, err := Open(loc, false)
				if err != nil {
					errs <- err
					return
				}
				defer other.Close()
				if (i+trial)%3 == 2 {
					_, err = other.GC(GCOptions{Compact: true, Now: time.Now().Add(time.Hour)})
				} else {
					_, _, err = other.Compact()
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil && !errors.Is(err, ErrBusy) {
				t.Error(err)
			}
		}
		if got := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(got, data) {
			t.Fatalf("trial %d: bytes differ after concurrent compaction", trial)
		}
		if n := len(packFiles(t, s)); n != 1 {
			t.Errorf("trial %d: %d pack files left, want 1: %v", trial, n, packFiles(t, s))
		}
	}
}

// TestCrashBetweenCommitAndMark: a crash after the final transaction but
// before the spool is marked committed must not store the execution twice.
func TestCrashBetweenCommitAndMark(t *testing.T) {
	s := newStore(t)
	sp := spool(t, s, []string{"echo", "once"}, []byte("once\n"))
	p, err := s.Prepare(sp, Manifest{Argv: []string{"echo", "once"}, Dir: ".", Mode: "pipe", Status: StatusExited})
	if err != nil {
		t.Fatal(err)
	}
	ex := Exec{Key: sp.Meta.Exec, Start: time.Now()}
	if _, err := s.commitTx([]Commit{{Pending: p, Exec: ex}}); err != nil {
		t.Fatal(err)
	}
	sp.Unlock() // the process dies here
	for _, r := range s.Recover() {
		if r.Run != nil || r.Err != nil {
			t.Errorf("recovery stored the spool again: %+v", r)
		}
	}
	execs, _ := s.Execs(0, nil)
	if len(execs) != 1 {
		t.Errorf("%d execution records, want 1", len(execs))
	}
	if _, err := os.Stat(sp.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("spool left behind: %v", err)
	}
}

// TestFullDiskKeepsExitStatus: when the spool cannot be written (a full
// disk), the command's exit status is still saved, and recovery stores it
// with the bytes that did not fit counted as dropped.
func TestFullDiskKeepsExitStatus(t *testing.T) {
	s := newStore(t)
	sp := spool(t, s, []string{"make"}, []byte("line 1\nline 2\n"))
	w, _ := sp.Stream("stdout")
	w.raw.Close() // every further write fails, as on a full disk
	if _, err := w.Write([]byte("line 3\n")); err == nil {
		t.Fatal("a write to a closed spool succeeded")
	}
	m := Manifest{Argv: []string{"make"}, Dir: ".", Mode: "pipe", Exit: 2, Status: StatusExited}
	if err := sp.SaveResult(m); err != nil {
		t.Fatal(err)
	}
	sp.Unlock()
	got := s.Recover()
	if len(got) != 1 || got[0].Run == nil {
		t.Fatalf("recover: %+v", got)
	}
	rm := got[0].Run.Manifest
	if rm.Exit != 2 || rm.Status != StatusExited {
		t.Errorf("recovered exit %d status %q, want 2 exited", rm.Exit, rm.Status)
	}
	if rm.Stdout.Dropped != 7 || rm.Stdout.DroppedAt != 14 || rm.Stdout.Lost != 7 {
		t.Errorf("dropped %d at %d (lost to the disk %d), want 7 at 14, all lost", rm.Stdout.Dropped, rm.Stdout.DroppedAt, rm.Stdout.Lost)
	}
}

// TestHostileSpool: links and forged files in a spool are never followed or
// ingested; the spool is quarantined with a message.
func TestHostileSpool(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		plant  func(dir string) error
		data   string // the capture's output, default "0123456789ab" (past its cap of 8)
		stored bool   // the spool itself is sound: it is stored, the link replaced, not followed
	}{
		{name: "raw symlink", plant: func(dir string) error {
			os.Remove(filepath.Join(dir, "stdout.raw"))
			return os.Symlink(outside, filepath.Join(dir, "stdout.raw"))
		}},
		{name: "frames.recovered symlink", plant: func(dir string) error {
			return os.Symlink(outside, filepath.Join(dir, "stdout.frames.recovered"))
		}, stored: true},
		{name: "raw without header", plant: func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "stdout.raw"), []byte("forged output\n"), 0o600)
		}},
		{name: "meta.json symlink", plant: func(dir string) error {
			os.Remove(filepath.Join(dir, "meta.json"))
			return os.Symlink(outside, filepath.Join(dir, "meta.json"))
		}},
		{name: "meta.json garbage", plant: func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"argv":[],"mode":"x"}`), 0o600)
		}},
		{name: "ringpos past an unfilled ring", plant: func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "stdout.ringpos"), []byte{0x7f, 0, 0, 0, 0, 0, 0, 0}, 0o600)
		}, data: "012345"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			sp, err := s.NewSpool(SpoolMeta{Argv: []string{"x"}, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 8})
			if err != nil {
				t.Fatal(err)
			}
			w, _ := sp.Stream("stdout")
			data := tc.data
			if data == "" {
				data = "0123456789ab"
			}
			w.Write([]byte(data))
			sp.Unlock()
			if err := tc.plant(sp.Dir()); err != nil {
				t.Fatal(err)
			}
			got := s.Recover()
			if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
				t.Fatalf("the file outside the store was changed: %q", b)
			}
			if tc.stored {
				if len(got) != 1 || got[0].Run == nil {
					t.Fatalf("recover: %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Run != nil || got[0].Quarantined == "" {
				t.Fatalf("recover: %+v", got)
			}
			if execs, _ := s.Execs(0, nil); len(execs) != 0 {
				t.Errorf("a hostile spool was stored: %+v", execs[0])
			}
			if again := s.Recover(); len(again) != 0 {
				t.Errorf("the quarantined spool was seen again: %+v", again)
			}
		})
	}
}

// TestUnsafeStoreDir: a store directory others can write to (or one planted
// by another user) is refused, and a FIFO or link planted as a pack file is
// reported damaged instead of blocking or being followed.
func TestUnsafeStoreDir(t *testing.T) {
	s := newStore(t)
	run := capture(t, s, []string{"big"}, 0, randomBytes(t, 9<<20), nil)
	files := packFiles(t, s)
	if len(files) != 1 {
		t.Fatalf("pack files %v", files)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(files[0], 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := s.Blob(run.Manifest.Stdout.Blob)
	if err == nil {
		_, err = b.ReadAll()
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("a FIFO in place of a pack: %v, want ErrCorrupt", err)
	}
	if err := os.Chmod(s.dir, 0o777); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(s.dir, 0o700)
	if _, err := Open(Location{Dir: s.dir, Root: s.root}, false); !errors.Is(err, ErrUnsafe) {
		t.Errorf("a world-writable store: %v, want ErrUnsafe", err)
	}
}

// TestCommitBatch: several pending runs go in one transaction; each is
// stored with its execution and its spool removed. A batch that never
// commits (the process dies first) leaves every spool, with the exit status
// saved, for recovery: a finished step of a sequence is never lost.
func TestCommitBatch(t *testing.T) {
	s := newStore(t)
	var batch []Commit
	var spools []*Spool
	for i, word := range []string{"one", "two", "one"} {
		sp := spool(t, s, []string{"echo", word}, []byte(word+"\n"))
		p, err := s.Prepare(sp, Manifest{Argv: []string{"echo", word}, Dir: ".", Mode: "pipe", Status: StatusExited, Exit: i})
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, Commit{Pending: p, Exec: Exec{Start: time.Now()}})
		spools = append(spools, sp)
	}
	runs, err := s.CommitBatch(batch)
	if err != nil || len(runs) != 3 {
		t.Fatalf("CommitBatch: %d runs, %v", len(runs), err)
	}
	for i, r := range runs {
		got, err := s.GetRun(r.ID)
		if err != nil || got.Manifest.Exit != i {
			t.Errorf("run %d: %+v, %v", i, got, err)
		}
		if _, err := os.Stat(spools[i].Dir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("spool %d left behind: %v", i, err)
		}
	}
	if execs, _ := s.Execs(0, nil); len(execs) != 3 {
		t.Errorf("%d execution records, want 3", len(execs))
	}

	// The crash: two steps finished and saved their results, the batch
	// never committed.
	for i, word := range []string{"three", "four"} {
		sp := spool(t, s, []string{"echo", word}, []byte(word+"\n"))
		m := Manifest{Argv: []string{"echo", word}, Dir: ".", Mode: "pipe", Status: StatusExited, Exit: 3 + i}
		if _, err := s.Prepare(sp, m); err != nil {
			t.Fatal(err)
		}
		if err := sp.SaveResult(m); err != nil {
			t.Fatal(err)
		}
		sp.Unlock() // the process dies here
	}
	rec := s.Recover()
	if len(rec) != 2 {
		t.Fatalf("recovered %d spools, want 2: %+v", len(rec), rec)
	}
	for _, r := range rec {
		if r.Run == nil || r.Err != nil {
			t.Fatalf("not recovered: %+v", r)
		}
		want := 3
		if r.Argv[1] == "four" {
			want = 4
		}
		if r.Run.Manifest.Exit != want {
			t.Errorf("%v recovered with exit %d, want %d", r.Argv, r.Run.Manifest.Exit, want)
		}
	}
}
