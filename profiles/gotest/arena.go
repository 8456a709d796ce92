package gotest

import (
	"strings"
	"unsafe"
)

// arena holds the bytes of the text lines, so that a line's string is a
// view of them rather than a copy of its own: a large run has millions of
// lines, and a string each was a fifth of the parse's garbage. Bytes once
// written are never written again, so a view stays valid for as long as
// anything references it; what the parser keeps from a line (names,
// messages, through cut and create) is cloned, so that a kept string does
// not hold a whole chunk alive.
type arena struct {
	buf    []byte
	chunks [][]byte // every chunk handed out, kept only when poisoning
}

// arenaChunk is the size of an arena's chunks; a line longer than a
// quarter of it gets a string of its own.
const arenaChunk = 64 << 10

// poisonArena, set by tests, makes every line its own chunk and release
// overwrite them all: a string the parser kept without cloning it then
// shows in the graph.
var poisonArena = false

// String returns b's bytes as a string that shares the arena's memory.
func (a *arena) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return a.Copy(unsafe.String(&b[0], len(b)))
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

// release ends the lines' use: the parser reads only what it kept from
// here on. Poisoning, it overwrites every line's bytes.
func (a *arena) release() {
	for _, c := range a.chunks {
		for i := range c {
			c[i] = '~'
		}
	}
	a.buf, a.chunks = nil, nil
}
