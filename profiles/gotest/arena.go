package gotest

import (
	"strings"
	"unsafe"
)

// arena holds the names of test records, copied out of the lines that
// named them: a line is a view of the reader's buffer, valid only while
// the parser reads it, and a large run has hundreds of thousands of
// names, a string each a fifth of the parse's garbage. Bytes once written
// are never written again, so a copy stays valid for as long as anything
// references it; what the parser keeps for the graph is copied again (a
// kept name into the kept names' arena, messages through cut), so that a
// kept string does not hold a whole chunk of others alive.
type arena struct {
	buf    []byte
	chunks [][]byte // every chunk handed out, kept only when poisoning
}

// arenaChunk is the size of an arena's chunks; a string longer than a
// quarter of it gets a copy of its own.
const arenaChunk = 64 << 10

// poisonArena, set by tests, makes every line a copy of its own that is
// overwritten as soon as the parser has read it, and every arena string
// its own chunk that release overwrites: a string the parser kept without
// copying it then shows in the graph.
var poisonArena = false

// view is a line's bytes as a string that shares their memory, valid
// only while the line is read: what outlives the line must be copied.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// poison overwrites a line's bytes once the parser has read it.
func poison(b []byte) {
	for i := range b {
		b[i] = '~'
	}
}

// Copy returns a copy of s in the arena's memory.
func (a *arena) Copy(s string) string {
	if len(s) == 0 {
		return ""
	}
	if poisonArena {
		c := []byte(s)
		a.chunks = append(a.chunks, c)
		return unsafe.String(&c[0], len(c))
	}
	if len(s) > cap(a.buf)-len(a.buf) {
		if len(s) > arenaChunk/4 {
			return strings.Clone(s)
		}
		a.buf = make([]byte, 0, arenaChunk)
	}
	start := len(a.buf)
	a.buf = append(a.buf, s...)
	return unsafe.String(&a.buf[start], len(s))
}

// release ends the arena's use: the parser reads only what it kept from
// here on. Poisoning, it overwrites every string's bytes.
func (a *arena) release() {
	for _, c := range a.chunks {
		for i := range c {
			c[i] = '~'
		}
	}
	a.buf, a.chunks = nil, nil
}
