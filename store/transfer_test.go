package store

import (
	"bytes"
	"errors"
	"testing"
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
