package lines

import (
	"bytes"
	"encoding/binary"
	"sync"
)

// markerWords are the words, in lower case, of which every match of the error
// patterns holds one: a marker (err covers error and errors, fail failed and
// failure, crit critical, abort aborted; Error and Exception end a class
// name) or a word of a failure phrase. A word's index is its bit in a
// markerSet.
var markerWords = [...]string{"err", "fatal", "panic", "fail", "crit", "emerg", "alert", "severe",
	"exception", "abort", "traceback", "segmentation fault", "core dumped", "undefined reference",
	"no such file", "permission denied", "command not found", "out of memory"}

// markerSet has bit i set when markerWords[i] occurs in a line (any case).
type markerSet uint32

// The bits the matchers ask about, by the index of their word.
const (
	markErr markerSet = 1 << iota
	markFatal
	markPanic
	markFail
	markCrit
	markEmerg
	markAlert
	markSevere
	markException
	markAbort
	markTraceback
	markSegfault
	markCoreDumped
	markUndefined
	markNoSuchFile
	markPermission
	markNotFound
	markOutOfMemory
)

// triCode numbers the bytes a marker word's first three can be: ASCII
// letters in either case 1–26, the space 27, anything else 0 (so a window
// holding another byte is never a marker's).
func triCode(c byte) uint32 {
	switch l := c | 0x20; {
	case 'a' <= l && l <= 'z':
		return uint32(l-'a') + 1
	case c == ' ':
		return 27
	}
	return 0
}

// markerTable is what markersIn scans with: the code of every byte, the set
// of the three-byte windows that start a marker word (a bit for each of the
// 2^15 codes of three bytes), and the words under each first byte's code.
type markerTable struct {
	code    [256]uint8
	starts  [1 << 15 / 64]uint64
	byFirst [28][]uint8
}

var (
	markersOnce sync.Once
	markerTab   markerTable
)

// markers returns the table, built on first use, not at start-up: every ctx
// command links this package, few of them scan text.
func markers() *markerTable {
	markersOnce.Do(markerTab.build)
	return &markerTab
}

func (t *markerTable) build() {
	for c := range t.code {
		t.code[c] = uint8(triCode(byte(c)))
	}
	for i, w := range markerWords {
		k := triCode(w[0])<<10 | triCode(w[1])<<5 | triCode(w[2])
		t.starts[k/64] |= 1 << (k % 64)
		t.byFirst[triCode(w[0])] = append(t.byFirst[triCode(w[0])], uint8(i))
	}
}

// markersIn returns the marker words a line holds, in any case, in one pass
// over its bytes: a necessary condition for the error patterns, and, word by
// word, for each of them. A line holding ſ or the Kelvin sign reports exact
// false (and no set): the patterns fold those to s and k, only they can
// judge it. Any other byte (non-ASCII, invalid UTF-8) folds to nothing
// ASCII, so the byte-wise matchers read it as the patterns do.
func markersIn(line []byte) (m markerSet, exact bool) {
	if !isASCII(line) && (bytes.Contains(line, []byte("\u017f")) || bytes.Contains(line, []byte("\u212a"))) {
		return 0, false
	}
	t := markers()
	var k uint32 // the codes of the last three bytes
	for i, c := range line {
		k = (k<<5 | uint32(t.code[c])) & (1<<15 - 1)
		if t.starts[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		// A window like a marker's start (k holds no 0 code, so i ≥ 2).
		p := i - 2
		for _, w := range t.byFirst[t.code[line[p]]] {
			if hasFoldPrefix(line[p:], markerWords[w]) {
				m |= 1 << w
			}
		}
	}
	return m, true
}

// isASCII reports whether b holds only ASCII bytes, eight at a time.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// hasFoldPrefix reports whether b starts with the lower-case word w, ASCII
// letters compared in either case.
func hasFoldPrefix(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		c := b[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}
