package store

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// floodSpool opens a spool's stdout for a flood in a new store, the dirty
// window shrunk to one writeback step (for the test) so the waits run.
func floodSpool(t *testing.T) (*Store, *Spool, *StreamWriter) {
	t.Helper()
	old := dirtyWindow
	dirtyWindow = writeback
	t.Cleanup(func() { dirtyWindow = old })
	s := newStore(t)
	sp, err := s.NewSpool(SpoolMeta{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sp.Stream("stdout")
	if err != nil {
		t.Fatal(err)
	}
	return s, sp, w
}

// TestWritebackKeepsBytes: a flood whose raw spool is written back while it
// is captured (writeback started every few MiB from the writeback goroutine,
// and, with the dirty window shrunk, waited for behind it) commits as a
// plain pack that reads back byte for byte, whole and by lines; the frames
// compressed before it went plain were dropped while it ran.
func TestWritebackKeepsBytes(t *testing.T) {
	s, sp, w := floodSpool(t)
	data := plainFlood()
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 61_003) // uneven, as a pipe delivers
		if _, err := w.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	p, err := s.Prepare(sp, Manifest{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Status: StatusExited})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(sp.Dir(), "stdout.frames")); err != nil || fi.Size() != 0 {
		t.Fatalf("the frames compressed before the stream went plain were kept: %v", err)
	}
	run, err := s.Commit(p, Exec{Argv: []string{"flood"}, Start: time.Now()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wb := w.fr.rawWB
	if wb != nil {
		<-wb.done
	}
	if wb == nil || wb.starts.Load() == 0 || wb.waits.Load() == 0 {
		t.Fatalf("the raw spool's writeback did not run (%v)", wb)
	}
	if n := wb.released.Load(); n != 0 {
		t.Fatalf("%d bytes released from the page cache though nothing read them back", n)
	}
	t.Logf("%d writebacks started, %d waited for", wb.starts.Load(), wb.waits.Load())
	m, err := s.blobMeta(run.Manifest.Stdout.Blob)
	if err != nil || !m.Plain {
		t.Fatalf("not committed plain: %v %+v", err, m)
	}
	if got := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(got, data) {
		t.Fatal("the plain pack written back during the capture reads different bytes")
	}
	b, err := s.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	lines := b.Lines()
	for _, from := range []int64{1, lines / 3, lines - 10} {
		if got := readLines(t, b, from, from+9); !bytes.Equal(got, wantLines(data, from, from+9)) {
			t.Fatalf("lines %d-%d differ", from, from+9)
		}
	}
	rep, err := s.Check(CheckOptions{ReadData: true})
	if err != nil || len(rep.Problems) != 0 {
		t.Fatalf("check: %v %+v", err, rep.Problems)
	}
}

// TestWritebackReleasesWhatWasRead: while a flood is written back, the
// pages a reader (the live parse) has read and the disk holds are released,
// never one it has not read yet nor the stream's start; what the reader reads after a release, and
// the committed run, are the bytes written.
func TestWritebackReleasesWhatWasRead(t *testing.T) {
	s, sp, w := floodSpool(t)
	data := logLines((plainFrom + 24<<20) / 60)
	const lag = 8 << 20 // the reader trails the capture by this much
	var read int64
	buf := make([]byte, 1<<20)
	for off := 0; off < len(data); off += writebackChunk {
		end := min(off+writebackChunk, len(data))
		if _, err := w.Write(data[off:end]); err != nil {
			t.Fatal(err)
		}
		for read+int64(len(buf)) <= int64(end)-lag {
			n, err := w.ReadAt(buf, read)
			if err != nil || !bytes.Equal(buf[:n], data[read:read+int64(n)]) {
				t.Fatalf("read back at %d: %v, or different bytes", read, err)
			}
			read += int64(n)
		}
		if off%writeback == 0 {
			time.Sleep(time.Millisecond) // let the writeback goroutine run
		}
	}
	run, err := s.CommitSpool(sp, Manifest{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Status: StatusExited}, Exec{Argv: []string{"flood"}, Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	wb := w.fr.rawWB
	<-wb.done
	released := wb.released.Load()
	if released == 0 || keepCached+released > rawBase+read {
		t.Fatalf("released %d bytes of the page cache, want some and none of the first %d or past the %d read", released, keepCached, rawBase+read)
	}
	t.Logf("%d of %d bytes read back, %d released", read, len(data), released)
	if got := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(got, data) {
		t.Fatal("the run whose pages were released reads different bytes")
	}
}

// writebackChunk is what the killed capture writes at a time.
const writebackChunk = 64 << 10

// TestWritebackKilledMidCapture: a process commits a flood (written back as
// it was captured), then starts a second one and is killed (SIGKILL) in the
// middle of it, its writeback goroutine running. The committed run reads
// back whole, the killed capture is recovered with every byte it had
// written, in order, and the store checks clean.
func TestWritebackKilledMidCapture(t *testing.T) {
	if dir := os.Getenv("CTX_TEST_WB_DIR"); dir != "" {
		writebackChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("captures two 24 MiB floods in a child process")
	}
	dir := t.TempDir()
	loc := Location{Dir: filepath.Join(dir, DirName), Root: dir}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWritebackKilledMidCapture$")
	cmd.Env = append(os.Environ(), "CTX_TEST_WB_DIR="+loc.Dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var runID string
	var written, starts int64
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "committed %s", &runID); err == nil {
			continue
		}
		if _, err := fmt.Sscanf(sc.Text(), "written %d starts %d", &written, &starts); err == nil && written > plainFrom+8*writeback && starts > 1 {
			break // far past plainFrom: the second flood is plain, its writeback running
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if runID == "" || starts < 2 {
		t.Fatalf("the child did not get going (run %q, %d bytes, %d writebacks started)", runID, written, starts)
	}
	t.Logf("killed after %d bytes, %d writebacks started", written, starts)

	s, err := Open(loc, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	data := plainFlood()
	id, err := ParseID(runID)
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.GetRun(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(got, data) {
		t.Fatal("the run committed before the kill reads different bytes")
	}
	rec := s.Recover()
	if len(rec) != 1 || rec[0].Run == nil {
		t.Fatalf("recovery of the killed capture: %+v", rec)
	}
	got := readBlob(t, s, rec[0].Run.Manifest.Stdout.Blob)
	flood := killedFlood()
	if int64(len(got)) < written || len(got) > len(flood) || !bytes.Equal(got, flood[:len(got)]) {
		t.Fatalf("recovered %d bytes of the killed capture, want the first %d or more of its %d, in order", len(got), written, len(flood))
	}
	rep, err := s.Check(CheckOptions{ReadData: true})
	if err != nil || len(rep.Problems) != 0 {
		t.Fatalf("check: %v %+v", err, rep.Problems)
	}
}

// killedFlood is what the killed capture prints: plainFlood's lines, then
// as many again, never ending before the kill.
func killedFlood() []byte { return logLines(4 * (plainFrom + 8<<20) / 60) }

// writebackChild is the killed process: it commits plainFlood, says so,
// then spools killedFlood, reporting how much it has written, and sleeps
// at its end until it is killed.
func writebackChild(dir string) {
	s, err := Open(Location{Dir: dir, Root: filepath.Dir(dir)}, true)
	if err != nil {
		os.Exit(3)
	}
	dirtyWindow = writeback
	argv := []string{"flood"}
	sp, err := s.NewSpool(SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 1 << 40})
	if err != nil {
		os.Exit(3)
	}
	w, _ := sp.Stream("stdout")
	if _, err := w.Write(plainFlood()); err != nil {
		os.Exit(3)
	}
	run, err := s.CommitSpool(sp, Manifest{Argv: argv, Dir: ".", Mode: "pipe", Status: StatusExited}, Exec{Argv: argv, Start: time.Now()})
	if err != nil {
		os.Exit(3)
	}
	fmt.Printf("committed %s\n", run.ID)
	if sp, err = s.NewSpool(SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 1 << 40}); err != nil {
		os.Exit(3)
	}
	w, _ = sp.Stream("stdout")
	flood := killedFlood()
	for off := 0; off < len(flood); off += writebackChunk {
		if _, err := w.Write(flood[off:min(off+writebackChunk, len(flood))]); err != nil {
			os.Exit(3)
		}
		var starts int64
		if wb := w.fr.rawWB; wb != nil {
			starts = wb.starts.Load()
		}
		fmt.Printf("written %d starts %d\n", min(off+writebackChunk, len(flood)), starts)
		runtime.Gosched()
	}
	time.Sleep(time.Minute)
	os.Exit(0)
}
