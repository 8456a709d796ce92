package text

import (
	"bytes"
	"hash/maphash"
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
// It writes every byte ('#' for a digit) and moves past it unless it is a
// digit after a digit: no branch on the bytes, which in logs alternate
// between digits and the rest too often to predict (a fifth faster than
// appending byte by byte on the corpus's logs; moving eight digit-free
// bytes at once was slower there).
func appendMasked(out, b []byte) []byte {
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
