package store

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// A blob copied frame by frame through the transfer surface arrives intact,
// and frames that do not match the id are refused.
func TestTransferBlobFrames(t *testing.T) {
	src, dst := newStore(t), newStore(t)
	data := bytes.Repeat([]byte("line of output that repeats\n"), 40000) // ~1 MiB, several frames
	run := capture(t, src, []string{"gen"}, 64<<20, data, nil)
	id := run.Manifest.Stdout.Blob
	b, err := src.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	if b.Frames() < 2 {
		t.Fatalf("want several frames, got %d", b.Frames())
	}
	tab, err := DecodeFrameTable(id, b.Table().Encode(id))
	if err != nil {
		t.Fatal(err)
	}
	// A table for another id fails its checksum.
	if _, err := DecodeFrameTable(Sum([]byte("x")), b.Table().Encode(id)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("table checked against the wrong id: %v", err)
	}
	// Frames swapped: refused, nothing stored.
	swapped := func(i int) ([]byte, error) { return b.StoredFrame(len(tab.Frames) - 1 - i) }
	if err := dst.PutBlobFrames(id, tab, swapped); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("swapped frames stored: %v", err)
	}
	if ok, _ := dst.HasBlob(id); ok {
		t.Fatal("a refused blob is stored")
	}
	if err := dst.PutBlobFrames(id, tab, b.StoredFrame); err != nil {
		t.Fatal(err)
	}
	if got := readBlob(t, dst, id); !bytes.Equal(got, data) {
		t.Fatal("copied blob differs")
	}
	// The run record follows its blobs; a damaged one is refused.
	bad := *run
	bad.Manifest.Exit = 3
	if err := dst.PutRun(&bad); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("run not hashing to its id stored: %v", err)
	}
	if err := dst.PutRun(run); err != nil {
		t.Fatal(err)
	}
	got, err := dst.GetRun(run.ID)
	if err != nil || got.Manifest.Stdout.Blob != id {
		t.Fatalf("run not copied: %v", err)
	}
}

// A run whose blobs are missing is refused.
func TestPutRunNeedsBlobs(t *testing.T) {
	src, dst := newStore(t), newStore(t)
	run := capture(t, src, []string{"echo"}, 1<<20, []byte("hello\n"), []byte("warn\n"))
	if err := dst.PutRun(run); !errors.Is(err, ErrNotFound) {
		t.Fatalf("run without its blobs stored: %v", err)
	}
}

// A blob read through BlobFrom reads lines as a stored blob does, fetching
// only the frames the lines are in.
func TestBlobFromFetchesOnlyTouchedFrames(t *testing.T) {
	s := newStore(t)
	var data []byte
	for i := range 60000 {
		data = append(data, []byte("line "+string(rune('a'+i%26))+" of a long output\n")...)
	}
	run := capture(t, s, []string{"gen"}, 64<<20, data, nil)
	b, err := s.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	fetched := map[int]int{}
	rb := BlobFrom(b.ID, b.Table(), func(i int) ([]byte, error) { fetched[i]++; return b.StoredFrame(i) })
	off, end, err := rb.LineRange(30000, 30012)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(rb.Section(off, end)); err != nil {
		t.Fatal(err)
	}
	if bytes.Count(out.Bytes(), []byte{'\n'}) != 13 {
		t.Fatalf("got %q", out.String())
	}
	if len(fetched) > 2 || rb.Frames() < 4 {
		t.Fatalf("fetched frames %v of %d for 13 lines", fetched, rb.Frames())
	}
}

// A blob storing more than a pack's threshold is copied frame by frame into
// a pack file (each frame fetched once, in order), passes check, and reads
// back; one whose last frame is damaged leaves neither a record nor a pack.
func TestTransferLargeBlobStreamsToAPack(t *testing.T) {
	src := newStore(t)
	data := randomBytes(t, 12<<20) // incompressible: stores more than packBytes
	run := capture(t, src, []string{"gen"}, 64<<20, data, nil)
	id := run.Manifest.Stdout.Blob
	b, err := src.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	tab := b.Table()
	if tab.StoredSize() <= packBytes {
		t.Fatalf("stored size %d is not above the pack threshold", tab.StoredSize())
	}
	bad := newStore(t)
	damaged := func(i int) ([]byte, error) {
		c, err := b.StoredFrame(i)
		if i == len(tab.Frames)-1 {
			c = bytes.Clone(c)
			c[len(c)/2] ^= 1
		}
		return c, err
	}
	if err := bad.PutBlobFrames(id, tab, damaged); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged last frame: %v", err)
	}
	if ok, _ := bad.HasBlob(id); ok || len(packFiles(t, bad)) != 0 {
		t.Fatalf("a refused blob left a record (%v) or pack files %v", ok, packFiles(t, bad))
	}
	dst := newStore(t)
	next := 0
	inOrder := func(i int) ([]byte, error) {
		if i != next {
			t.Fatalf("frame %d asked for, want %d", i, next)
		}
		next++
		return b.StoredFrame(i)
	}
	if err := dst.PutBlobFrames(id, tab, inOrder); err != nil {
		t.Fatal(err)
	}
	got, err := dst.Blob(id)
	if err != nil || !got.meta.Packed || len(packFiles(t, dst)) != 1 {
		t.Fatalf("large blob not stored as one pack: %v packed %v, packs %v", err, got != nil && got.meta.Packed, packFiles(t, dst))
	}
	if !bytes.Equal(readBlob(t, dst, id), data) {
		t.Fatal("copied blob differs")
	}
	if rep, err := dst.Check(CheckOptions{}); err != nil || !rep.OK() {
		t.Fatalf("check after the copy: %v %+v", err, rep)
	}
}

// TravelFrame compresses a frame stored raw, and returns the frame as it is
// now when a compaction rewrote it after the blob was opened; a table built
// from those lengths checks clean in the receiving store.
func TestTravelFrameAfterCompaction(t *testing.T) {
	for _, size := range []int{3 * FrameSize, 40 * FrameSize} { // frames bucket, and packed
		src := newStore(t)
		sp, err := src.NewSpool(SpoolMeta{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Started: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := sp.Stream("stdout")
		data := logLines(size / 60)
		w.Write(data) // one write: the compressor falls behind, frames go out raw
		run, err := src.CommitSpool(sp, Manifest{Argv: []string{"flood"}, Dir: ".", Status: StatusExited}, Exec{Start: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		stale, _ := src.Blob(run.Manifest.Stdout.Blob)
		if !stale.meta.hasRaw() {
			t.Skipf("size %d: no frame was stored raw this time, so there is no race to test", size)
		}
		if n, _, err := src.Compact(); err != nil || n != 1 {
			t.Fatalf("compact: %d, %v", n, err)
		}
		tab := stale.Table()
		frames := make([][]byte, len(tab.Frames))
		for i := range frames {
			if frames[i], err = stale.TravelFrame(i); err != nil {
				t.Fatal(err)
			}
			if len(frames[i]) > int(tab.Frames[i].Len) {
				t.Fatalf("size %d: frame %d travels raw (%d bytes for %d)", size, i, len(frames[i]), tab.Frames[i].Len)
			}
			tab.Frames[i].CLen = uint32(len(frames[i]))
		}
		dst := newStore(t)
		if err := dst.PutBlobFrames(stale.ID, tab, func(i int) ([]byte, error) { return frames[i], nil }); err != nil {
			t.Fatal(err)
		}
		if rep, err := dst.Check(CheckOptions{}); err != nil || !rep.OK() {
			t.Fatalf("size %d: check after the copy: %v %+v", size, err, rep)
		}
		if !bytes.Equal(readBlob(t, dst, stale.ID), data) {
			t.Fatal("copied blob differs")
		}
	}
}

// A log is brought up to a copy that extends it; a log holding a row the
// copy does not is refused and left as it was.
func TestFastForwardLayerLog(t *testing.T) {
	s := newStore(t)
	appendRow := func(row string) {
		t.Helper()
		if _, err := s.AppendLayerRow("ledger.log", func([]byte, uint64) ([]byte, error) { return []byte(row), nil }); err != nil {
			t.Fatal(err)
		}
	}
	rows := func() []string {
		var out []string
		_ = s.LayerRows("ledger.log", func(_ uint64, r []byte) error { out = append(out, string(r)); return nil })
		return out
	}
	copyRows := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	if n, err := s.FastForwardLayerLog("ledger.log", copyRows[:2]); err != nil || n != 2 {
		t.Fatalf("into an empty log: %d, %v", n, err)
	}
	if n, err := s.FastForwardLayerLog("ledger.log", copyRows); err != nil || n != 1 {
		t.Fatalf("by one row: %d, %v", n, err)
	}
	if n, err := s.FastForwardLayerLog("ledger.log", copyRows); err != nil || n != 0 {
		t.Fatalf("again: %d, %v", n, err)
	}
	appendRow("d") // appended here after the copy: keys go on from 4
	if got := rows(); len(got) != 4 || got[3] != "d" {
		t.Fatalf("rows after a local append: %q", got)
	}
	for _, other := range [][][]byte{copyRows, {[]byte("a"), []byte("x"), []byte("c"), []byte("d"), []byte("e")}} {
		if _, err := s.FastForwardLayerLog("ledger.log", other); !errors.Is(err, ErrDiverged) {
			t.Fatalf("a copy %q that does not extend the log: %v", other, err)
		}
	}
	if got := rows(); len(got) != 4 {
		t.Fatalf("a refused fast-forward changed the log: %q", got)
	}
}
