package text

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"

	"github.com/ctxhq/ctx/internal/lines"
)

// Rare lines are the other surprise generic text can hold: in an output that
// repeats a few shapes (a progress flood, a loop's log), a line whose shape —
// its text with digits masked — occurs once. Only a strongly repetitive
// stream qualifies (at least minRareLines lines, at most one distinct shape
// in twenty), and only when such lines are few (at most maxRare); otherwise
// nothing is surprising and nothing is flagged.
const (
	minRareLines = 200
	maxShapes    = 4096
	maxRare      = 20
)

type rareLine struct {
	n    int
	text string
}

// rarity counts the shapes of a stream's lines. They are kept in the order
// first seen, with a hash table of their indexes beside them: a slot holds
// the high half of the shape's hash and its index plus one (0 is empty),
// and the table doubles at half full, up to 2·maxShapes slots; past
// maxShapes shapes the stream is not repetitive and counting stops. A line
// costs its masking, one hash and, for a shape seen before, one comparison;
// a new shape one allocation.
type rarity struct {
	seen   int
	shapes []shape
	slots  []uint64
	seed   maphash.Seed
	off    bool   // too many shapes: not a repetitive stream
	key    []byte // the shape being looked up, reused
}

// shape is one distinct shape.
type shape struct {
	keyText string // the shape, then the text of its first line
	keyLen  int
	first   int // the line it was first seen on
	count   int
}

func newRarity() *rarity {
	return &rarity{slots: make([]uint64, 64), seed: maphash.MakeSeed()}
}

// shapeText is what a line's shape is made from: its first 512 bytes as a
// terminal shows them, without white space around.
func shapeText(line []byte) []byte {
	if len(line) > 512 {
		line = line[:512]
	}
	return bytes.TrimSpace(lines.Clean(line))
}

func (r *rarity) see(n int, line []byte) {
	r.seen++
	if r.off {
		return
	}
	clean := shapeText(line)
	if len(clean) == 0 {
		return
	}
	r.key = appendMasked(r.key[:0], clean)
	h := maphash.Bytes(r.seed, r.key)
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(r.slots) - 1)
	i := h & mask
	for ; r.slots[i] != 0; i = (i + 1) & mask {
		if r.slots[i]&^(1<<32-1) != tag {
			continue
		}
		if s := &r.shapes[uint32(r.slots[i])-1]; s.keyText[:s.keyLen] == string(r.key) {
			s.count++
			return
		}
	}
	if len(r.shapes) == maxShapes {
		// This one is the shape too many.
		r.off, r.shapes, r.slots = true, nil, nil
		return
	}
	r.key = append(r.key, clean...)
	r.shapes = append(r.shapes, shape{keyText: string(r.key), keyLen: len(r.key) - len(clean), first: n, count: 1})
	r.slots[i] = tag | uint64(len(r.shapes))
	if 2*len(r.shapes) > len(r.slots) {
		r.grow()
	}
}

// grow doubles the table, placing each shape again by its hash.
func (r *rarity) grow() {
	slots := make([]uint64, 2*len(r.slots))
	mask := uint64(len(slots) - 1)
	for k, s := range r.shapes {
		h := maphash.String(r.seed, s.keyText[:s.keyLen])
		i := h & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = h&^(1<<32-1) | uint64(k+1)
	}
	r.slots = slots
}

// lines returns the rare lines in line order, or none.
func (r *rarity) lines() []rareLine {
	if r.off || r.seen < minRareLines || len(r.shapes)*20 > r.seen {
		return nil
	}
	var out []rareLine
	for _, s := range r.shapes { // in the order first seen: line order
		if s.count == 1 {
			if len(out) == maxRare {
				return nil
			}
			out = append(out, rareLine{n: s.first, text: strings.ToValidUTF8(s.keyText[s.keyLen:], "\uFFFD")})
		}
	}
	return out
}

// appendMasked appends b to out with each run of digits replaced by '#'.
// The bytes before the first digit are copied as they are (many lines have
// none, or only near their end); from there it writes every byte ('#' for a
// digit) and moves past it unless it is a digit after a digit: no branch on
// the bytes, which in logs alternate between digits and the rest too often
// to predict (a fifth faster on the corpus's logs than appending byte by
// byte; moving eight digit-free bytes at once was slower there).
func appendMasked(out, b []byte) []byte {
	i := firstDigit(b)
	out = append(out, b[:i]...)
	b = b[i:]
	n := len(out)
	out = slices.Grow(out, len(b))
	dst := out[n : n+len(b)]
	j := 0
	prev := 0 // 1 after a digit
	for _, c := range b {
		d := 0
		if c-'0' < 10 {
			d, c = 1, '#'
		}
		dst[j] = c
		j += 1 - d&prev
		prev = d
	}
	return out[:n+j]
}

// firstDigit returns the index of the first ASCII digit in b, or len(b),
// testing eight bytes at a time: each byte's high bit in the word below is
// set exactly when that byte is strictly between '0'-1 and '9'+1 (no carry
// or borrow crosses bytes), so the lowest set bit names the first digit.
func firstDigit(b []byte) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
		low7 = 0x7f7f7f7f7f7f7f7f
	)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		t := w & low7
		if d := (ones*(127+'9'+1) - t) &^ w & (t + ones*(127-('0'-1))) & high; d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i]-'0' < 10 {
			return i
		}
	}
	return i
}
