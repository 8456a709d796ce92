package lines

import (
	"bytes"
	"math/bits"
)

// matchStart is errStartRE.Match on a line without ſ or the Kelvin sign
// (see match.go; a longer line than maxErrorLine goes to the pattern). The pattern is white space, any run of prefixes (a `file:line:`
// location, a [bracketed] field, a date-time, a time), each followed by
// white space, then a marker. Where a prefix may end is not unique (the
// location's \S+ and the time's digits can stop early), so the positions a
// marker may start at are found forwards, each once, in a bit set: that is
// the whole of the pattern's backtracking, bounded by the line's length.
// No prefix or marker starts with white space, so after each the white
// space is skipped whole.
func matchStart(b []byte) bool {
	if len(b) > maxErrorLine {
		return errStartRE.Match(b)
	}
	s := startScan{b: b}
	s.reach(skipSpace(b, 0))
	for w := 0; w <= len(b)/64; w++ { // the words positions 0..len(b) are in
		for s.reachable[w] != 0 {
			bit := bits.TrailingZeros64(s.reachable[w])
			s.reachable[w] &^= 1 << bit
			p := w*64 + bit
			if s.markerAt(p) {
				return true
			}
			s.prefixesAt(p) // sets only positions after p
		}
	}
	return false
}

// startScan is matchStart's state: the positions still to visit and what
// is known of the runs the current position is in.
type startScan struct {
	b         []byte
	reachable [maxErrorLine/64 + 1]uint64
	locEnd    int // the end of the last non-space run whose locations were added
	closeAt   int // the first ']' after the last '[' seen, or len(b)
	classEnd  int // the end of the last [\w.$] run judged for a class name
	classLast int // the last position in that run a class name may start at, or -1
}

// reach marks position i (≤ len(b)) as one a prefix ends at, after the
// white space that follows it.
func (s *startScan) reach(i int) {
	i = skipSpace(s.b, i)
	s.reachable[i/64] |= 1 << (i % 64)
}

// markerAt reports whether a marker starts at p: a case-insensitive one
// and its tail, an upper-case one and \b, or an exception's class name.
func (s *startScan) markerAt(p int) bool {
	b := s.b
	if p == len(b) {
		return false
	}
	l := b[p] | 0x20
	if l == 'f' || l == 'e' || l == 'p' || l == 'c' || l == 'a' || l == 's' {
		for _, w := range startMarkers {
			if w[0] == l && hasFoldPrefix(b[p:], w) && markerTail(b, p+len(w)) {
				return true
			}
		}
		if upperMarkerAt(b, p) {
			return true
		}
	}
	return s.classNameAt(p)
}

// markerTail reports whether (?:\[[^\]]*\])?(?::|!|\]|$) starts at e.
func markerTail(b []byte, e int) bool {
	if e < len(b) && b[e] == '[' {
		if f := bytes.IndexByte(b[e+1:], ']'); f >= 0 && closesMarker(b, e+1+f+1) {
			return true
		}
	}
	return closesMarker(b, e)
}

// closesMarker reports whether (?::|!|\]|$) starts at e.
func closesMarker(b []byte, e int) bool {
	return e == len(b) || b[e] == ':' || b[e] == '!' || b[e] == ']'
}

// classNameAt reports whether [A-Za-z_$][\w.$]*[a-z](?:Error|Exception)
// (?::\s|:?$) starts at p. What follows the suffix is ':' or the end, outside
// [\w.$], so the suffix ends the run of [\w.$] that p is in: the run is
// judged once, and p only has to start early enough in it.
func (s *startScan) classNameAt(p int) bool {
	b := s.b
	if c := b[p]; !('a' <= c|0x20 && c|0x20 <= 'z' || c == '_' || c == '$') {
		return false
	}
	if p >= s.classEnd {
		r := p
		for r < len(b) && (isWordByte(b[r]) || b[r] == '.' || b[r] == '$') {
			r++
		}
		s.classEnd, s.classLast = r, -1
		tail := r == len(b) || b[r] == ':' && (r+1 == len(b) || isRESpace(b[r+1]))
		for _, suffix := range [...]string{"Error", "Exception"} {
			if i := r - len(suffix); tail && i >= 1 && bytes.HasSuffix(b[:r], []byte(suffix)) && 'a' <= b[i-1] && b[i-1] <= 'z' {
				s.classLast = i - 2 // [A-Za-z_$] and [a-z] are two bytes
			}
		}
	}
	return p <= s.classLast
}

// prefixesAt marks where each prefix starting at p can end.
func (s *startScan) prefixesAt(p int) {
	b := s.b
	if p == len(b) {
		return
	}
	if p >= s.locEnd {
		s.locations(p)
	}
	if b[p] == '[' {
		if s.closeAt <= p {
			s.closeAt = len(b)
			if f := bytes.IndexByte(b[p+1:], ']'); f >= 0 {
				s.closeAt = p + 1 + f
			}
		}
		if s.closeAt < len(b) {
			s.reach(s.closeAt + 1)
		}
	}
	if isDigit(b[p]) {
		s.dateTime(p)
		s.clock(p)
	}
}

// locations marks the ends of \S+:\d+(?::\d+)?: from p: after each ':'
// in p's non-space run (past p) that digits and a ':' follow, and after a
// second group of digits and ':'. A later start in the same run would end
// at fewer of these places, so each run is done once, from its first
// reachable position.
func (s *startScan) locations(p int) {
	b := s.b
	q := p + 1
	for ; q < len(b) && !isRESpace(b[q]); q++ {
		if b[q] != ':' {
			continue
		}
		d := digitsAt(b, q+1)
		if e := q + 1 + d; d == 0 || e >= len(b) || b[e] != ':' {
			continue
		}
		e := q + 1 + d + 1
		s.reach(e)
		if d2 := digitsAt(b, e); d2 > 0 && e+d2 < len(b) && b[e+d2] == ':' {
			s.reach(e + d2 + 1)
		}
	}
	s.locEnd = q
}

// dateTime marks the ends of \d{4}-\d\d-\d\d[T ][\d:.,]+Z? from p.
func (s *startScan) dateTime(p int) {
	b := s.b
	if p+12 > len(b) || digitsAt(b[:p+4], p) != 4 || b[p+4] != '-' || !isDigit(b[p+5]) || !isDigit(b[p+6]) ||
		b[p+7] != '-' || !isDigit(b[p+8]) || !isDigit(b[p+9]) || b[p+10] != 'T' && b[p+10] != ' ' {
		return
	}
	e := p + 11
	for e < len(b) && (isDigit(b[e]) || b[e] == ':' || b[e] == '.' || b[e] == ',') {
		e++
		s.reach(e)
	}
	if e > p+11 && e < len(b) && b[e] == 'Z' {
		s.reach(e + 1)
	}
}

// clock marks the ends of \d\d:\d\d:\d\d[.,\d]* from p.
func (s *startScan) clock(p int) {
	b := s.b
	if p+8 > len(b) || !isDigit(b[p+1]) || b[p+2] != ':' || !isDigit(b[p+3]) || !isDigit(b[p+4]) ||
		b[p+5] != ':' || !isDigit(b[p+6]) || !isDigit(b[p+7]) {
		return
	}
	e := p + 8
	s.reach(e)
	for e < len(b) && (isDigit(b[e]) || b[e] == '.' || b[e] == ',') {
		e++
		s.reach(e)
	}
}
