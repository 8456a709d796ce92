package store

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestRawFrameDecodes(t *testing.T) {
	for _, n := range []int{1, 100, 128 << 10, 128<<10 + 1, FrameSize, FrameSize - 7} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rand.IntN(256))
		}
		fr := rawFrame(nil, src)
		got, err := zstdDecoder().DecodeAll(fr, nil)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("n=%d: raw frame does not decode: %v", n, err)
		}
		// A flipped byte fails the content checksum.
		fr[len(fr)/2] ^= 1
		if _, err := zstdDecoder().DecodeAll(fr, nil); err == nil {
			t.Errorf("n=%d: a damaged raw frame decoded", n)
		}
	}
}
