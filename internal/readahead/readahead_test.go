package readahead

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"testing"
	"testing/iotest"
)

// Every byte arrives once and in order, whatever the chunk and read sizes.
func TestSameBytes(t *testing.T) {
	data := make([]byte, 1<<20+17)
	rand.New(rand.NewSource(1)).Read(data)
	for _, size := range []int{1, 7, 4096, 1 << 20, 2 << 20} {
		for _, depth := range []int{1, 4} {
			r := New(iotest.HalfReader(bytes.NewReader(data)), size, depth)
			got, err := io.ReadAll(iotest.OneByteReader(io.LimitReader(r, 5000)))
			if err != nil {
				t.Fatal(err)
			}
			rest, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			if !bytes.Equal(append(got, rest...), data) {
				t.Fatalf("size %d depth %d: bytes differ", size, depth)
			}
		}
	}
}

// The source's error reaches the reader after the bytes before it.
func TestSourceError(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(bytes.NewReader([]byte("abc")), iotest.ErrReader(boom))
	r := New(src, 2, 2)
	defer r.Close()
	got, err := io.ReadAll(r)
	if string(got) != "abc" || !errors.Is(err, boom) {
		t.Fatalf("got %q, %v; want abc, boom", got, err)
	}
}

// Close lets a reader stop early: the goroutine exits without the rest
// being read.
func TestCloseEarly(t *testing.T) {
	r := New(bytes.NewReader(make([]byte, 1<<20)), 1024, 2)
	if _, err := r.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	r.Close()
	for range r.chunks { // drains and ends once fill has returned
	}
}
