package store

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// plainFlood is a text flood past plainFrom, so its capture goes plain.
func plainFlood() []byte { return logLines((plainFrom + 8<<20) / 60) }

// plainRun captures data and checks that it was committed as a plain pack:
// the raw spool, linked into packs/ under a .raw name, the spool gone.
func plainRun(t *testing.T, s *Store, data []byte) (*Run, string) {
	t.Helper()
	run := capture(t, s, []string{"flood"}, 1<<40, data, nil)
	m, err := s.blobMeta(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Plain || !m.Packed {
		t.Fatalf("a %d-byte capture was not committed plain (plain %v, packed %v)", len(data), m.Plain, m.Packed)
	}
	path := s.packFile(run.Manifest.Stdout.Blob, m.Gen, true)
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != rawBase+int64(len(data)) {
		t.Fatalf("plain pack %s: %v (size %d, want %d)", path, err, fi.Size(), rawBase+int64(len(data)))
	}
	return run, path
}

// readLines returns lines from..to of blob id as the store serves them.
func readLines(t *testing.T, b *Blob, from, to int64) []byte {
	t.Helper()
	off, end, err := b.LineRange(from, to)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(b.Section(off, end))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// wantLines is lines from..to of data.
func wantLines(data []byte, from, to int64) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	return bytes.Join(lines[from-1:to], nil)
}

// TestPlainRunReadAcrossCrashAndCompaction: a run committed as a plain pack
// and not compacted yet (the process that committed it died before its
// background compaction ran) is read whole and in part by the next
// process, pushed frame by frame, and survives compactions that died at
// each step; a compaction then makes its zstd generation, and a Blob opened
// before it, on the plain pack, goes on reading the same bytes.
func TestPlainRunReadAcrossCrashAndCompaction(t *testing.T) {
	loc, s := openFresh(t)
	data := plainFlood()
	run, rawPack := plainRun(t, s, data)
	id := run.Manifest.Stdout.Blob
	s.Close() // killed here, before any compaction

	s, err := Open(loc, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rec := s.Recover(); len(rec) != 0 {
		t.Fatalf("recovery found something to do after a commit: %+v", rec)
	}
	if got := readBlob(t, s, id); !bytes.Equal(got, data) {
		t.Fatal("the plain pack reads back different bytes")
	}
	early, err := s.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	lines := early.Lines()
	if got := readLines(t, early, lines/2, lines/2+12); !bytes.Equal(got, wantLines(data, lines/2, lines/2+12)) {
		t.Fatalf("lines from the middle differ: %q", got)
	}
	for _, i := range []int{0, early.Frames() / 2} {
		c, err := early.TravelFrame(i)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := zstdDecoder().DecodeAll(c, nil)
		off, end := early.FrameSpan(i)
		if err != nil || !bytes.Equal(raw, data[off:end]) {
			t.Fatalf("frame %d as pushed does not decode to its bytes: %v", i, err)
		}
	}

	// Compactions that died: one before renaming its new generation into
	// place, one after (its record swap never happened).
	tmp := filepath.Join(filepath.Dir(rawPack), "."+filepath.Base(s.packPath(id, newGen()))+".tmp")
	dead := s.packPath(id, newGen())
	for _, p := range []string{tmp, dead} {
		if err := os.WriteFile(p, []byte("half a compaction"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := readBlob(t, s, id); !bytes.Equal(got, data) {
		t.Fatal("a dead compaction's files changed what the run reads")
	}
	rep, err := s.Check(CheckOptions{ReadData: true})
	if err != nil || len(rep.Problems) != 0 {
		t.Fatalf("check after dead compactions: %v %+v", err, rep.Problems)
	}

	n, saved, err := s.Compact()
	if err != nil || n != 1 || saved <= 0 {
		t.Fatalf("compact: %d blobs, %d bytes saved, %v", n, saved, err)
	}
	m, _ := s.blobMeta(id)
	if m.Plain || !m.Packed || m.hasRaw() {
		t.Fatalf("after compaction the blob is plain %v, packed %v, raw %v", m.Plain, m.Packed, m.hasRaw())
	}
	if _, err := os.Stat(rawPack); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the plain pack is still there after compaction: %v", err)
	}
	// The Blob opened on the plain pack reads frames of the new generation.
	if got := readLines(t, early, 3, 9); !bytes.Equal(got, wantLines(data, 3, 9)) {
		t.Fatalf("a blob opened before compaction reads %q", got)
	}
	if got := readBlob(t, s, id); !bytes.Equal(got, data) {
		t.Fatal("compaction changed the bytes")
	}
	rep, err = s.Check(CheckOptions{ReadData: true})
	if err != nil || len(rep.Problems) != 0 {
		t.Fatalf("check after compaction: %v %+v", err, rep.Problems)
	}
}

// TestPlainPackDamageDetected: a flipped byte in a plain pack fails the read
// of its frame (each frame's xxhash in the record) and ctx check.
func TestPlainPackDamageDetected(t *testing.T) {
	s := newStore(t)
	data := plainFlood()
	run, path := plainRun(t, s, data)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	at := rawBase + int64(len(data))/2
	if _, err := f.WriteAt([]byte{data[at-rawBase] ^ 0x20}, at); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := s.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.DecodeFrame(b.FrameAt(at-rawBase), nil)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("reading the damaged frame: %v, want ErrCorrupt", err)
	}
	if _, err := b.DecodeFrame(0, nil); err != nil {
		t.Fatalf("an intact frame of the damaged pack: %v", err)
	}
	rep, err := s.Check(CheckOptions{ReadData: true})
	if err != nil || len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0].What, "checksum") {
		t.Fatalf("check of a damaged plain pack: %v %+v", err, rep.Problems)
	}
}

// TestPlainStreamPastItsCap: a stream that went plain and then passed its
// cap is not plain (the ring keeps the tail out of order): its head and
// tail are framed again at the end and stored as any capped stream.
func TestPlainStreamPastItsCap(t *testing.T) {
	s := newStore(t)
	data := logLines((3*plainFrom + 4<<20) / 60)
	capBytes := int64(2*plainFrom + 2<<20) // the head alone goes plain
	run := capture(t, s, []string{"capped"}, capBytes, data, nil)
	head, ring := capBytes/2, capBytes-capBytes/2
	want := append(bytes.Clone(data[:head]), data[int64(len(data))-ring:]...)
	m, err := s.blobMeta(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if m.Plain {
		t.Fatal("a capped stream was committed plain")
	}
	if got := readBlob(t, s, run.Manifest.Stdout.Blob); !bytes.Equal(got, want) {
		t.Fatalf("the capped stream holds %d bytes, not its head and tail (%d)", len(got), len(want))
	}
	if d := run.Manifest.Stdout.Dropped; d != int64(len(data))-capBytes {
		t.Errorf("dropped %d, want %d", d, int64(len(data))-capBytes)
	}
}

// TestPlainRecordRoundTrip: a plain record decodes to what was encoded, and
// a damaged one is refused.
func TestPlainRecordRoundTrip(t *testing.T) {
	id := Sum([]byte("x"))
	m := &blobMeta{Size: 300, Newlines: 7, endsWithNewline: true, Packed: true, Plain: true, Gen: 42,
		Frames: []frame{{Off: 0, Len: 200, CLen: 200, NL: 0, Sum: 0xdeadbeef}, {Off: 200, Len: 100, CLen: 100, NL: 5, Sum: 7}}}
	rec := m.encode(id)
	got, err := decodeBlobMeta(id, rec)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Plain || !got.Packed || got.Gen != 42 || len(got.Frames) != 2 || got.Frames[1] != m.Frames[1] || got.Frames[0] != m.Frames[0] {
		t.Fatalf("decoded %+v, want %+v", got, m)
	}
	if packSize(got) != rawBase+300 {
		t.Errorf("pack size %d", packSize(got))
	}
	for i := range rec {
		bad := bytes.Clone(rec)
		bad[i] ^= 1
		if _, err := decodeBlobMeta(id, bad); err == nil {
			t.Fatalf("a record with byte %d flipped decodes", i)
		}
	}
}

// TestPlainCompactionKilled: a compaction of a plain pack killed (SIGKILL)
// at any point leaves the run readable, whole and checked, from the plain
// pack or the new generation, and the next compaction finishes the job.
func TestPlainCompactionKilled(t *testing.T) {
	if dir := os.Getenv("CTX_TEST_COMPACT_DIR"); dir != "" {
		s, err := Open(Location{Dir: dir, Root: filepath.Dir(dir)}, false)
		if err != nil {
			os.Exit(3)
		}
		_, _, _ = s.Compact()
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("compacts a 24 MiB flood once per kill")
	}
	for _, delay := range []time.Duration{20 * time.Millisecond, 80 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond, time.Second} {
		loc, s := openFresh(t)
		data := plainFlood()
		run, _ := plainRun(t, s, data)
		id := run.Manifest.Stdout.Blob
		s.Close()
		cmd := exec.Command(os.Args[0], "-test.run=^TestPlainCompactionKilled$")
		cmd.Env = append(os.Environ(), "CTX_TEST_COMPACT_DIR="+loc.Dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		s, err := Open(loc, false)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := s.blobMeta(id)
		if got := readBlob(t, s, id); !bytes.Equal(got, data) {
			t.Fatalf("killed after %v (plain %v): the run reads different bytes", delay, m != nil && m.Plain)
		}
		rep, err := s.Check(CheckOptions{ReadData: true})
		if err != nil || len(rep.Problems) != 0 {
			t.Fatalf("killed after %v: check: %v %+v", delay, err, rep.Problems)
		}
		if _, _, err := s.Compact(); err != nil {
			t.Fatal(err)
		}
		if m, _ := s.blobMeta(id); m.Plain {
			t.Errorf("killed after %v: still plain after a compaction that ran to its end", delay)
		}
		if got := readBlob(t, s, id); !bytes.Equal(got, data) {
			t.Fatalf("killed after %v: the bytes changed in the second compaction", delay)
		}
		t.Logf("killed after %v: the record was plain %v at the kill", delay, m.Plain)
		s.Close()
	}
}

// openFresh opens a new store in a test directory, and returns its location
// for the test to open it again as another process would.
func openFresh(t *testing.T) (Location, *Store) {
	t.Helper()
	dir := t.TempDir()
	loc := Location{Dir: filepath.Join(dir, DirName), Root: dir}
	s, err := Open(loc, true)
	if err != nil {
		t.Fatal(err)
	}
	return loc, s
}
