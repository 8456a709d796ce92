package store

import (
	"bytes"
	"math/rand"
	"testing"
)

// afterNewlines agrees with finding the newlines one by one, for counts that
// end inside, at the edge of and past a counted block.
func TestAfterNewlines(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, size := range []int{0, 1, 4095, 4096, 4097, 9000, 256 << 10} {
		data := make([]byte, size)
		for i := range data {
			if rng.Intn(7) == 0 {
				data[i] = '\n'
			} else {
				data[i] = 'x'
			}
		}
		total := int64(bytes.Count(data, newline))
		for _, need := range []int64{0, 1, 2, total / 3, total / 2, total - 1, total, total + 1} {
			if need < 0 {
				continue
			}
			want, wantOK, pos := 0, true, 0
			for n := need; n > 0; n-- {
				i := bytes.IndexByte(data[pos:], '\n')
				if i < 0 {
					wantOK = false
					break
				}
				pos += i + 1
			}
			if wantOK {
				want = pos
			}
			got, ok := afterNewlines(data, need)
			if ok != wantOK || ok && got != want {
				t.Errorf("size %d, need %d: got %d %v, want %d %v", size, need, got, ok, want, wantOK)
			}
		}
	}
}
