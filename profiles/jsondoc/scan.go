package jsondoc

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// A light streaming JSON scanner. It validates the grammar of RFC 8259, counts
// lines the way spans number them, removes terminal escape sequences (jq and gh
// colour their output when they see a terminal), and can copy the clean bytes
// of a value to a sink. It holds one read buffer and never a whole value, so
// memory stays bounded whatever the input.

// vtype is a JSON value type.
type vtype uint8

const (
	tNone vtype = iota
	tNull
	tBool
	tNumber
	tString
	tArray
	tObject
)

var typeNames = [...]string{"", "null", "bool", "number", "string", "array", "object"}

func (t vtype) String() string { return typeNames[t] }

// maxDepth bounds nesting so a hostile input cannot exhaust the stack.
const maxDepth = 10000

// syntaxError is a grammar error at a line of the input.
type syntaxError struct {
	line int
	msg  string
	eof  bool // the input ended inside a value
	nl   bool // a newline ended the value early (line mode)
}

func (e *syntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// errTooDeep is returned for values nested deeper than maxDepth.
var errTooDeep = errors.New("json nested too deeply")

type scanner struct {
	rd   io.Reader
	buf  []byte
	pos  int
	end  int
	rerr error // sticky read error (io.EOF at the end)

	line int  // line of the next byte, 1-based
	last byte // the last byte next consumed

	key []byte  // scratch for object keys
	num *[]byte // when set, number appends the bytes it consumes

	// elems, when set, sees each element of a top-level array as a record.
	elems *elemSink

	// lineMode makes a newline inside a value an error: each JSON Lines
	// record must sit on one line.
	lineMode bool

	// Capture: while capOn, consumed clean bytes are appended to capBuf up to
	// capMax bytes; capW, when set, receives capBuf whenever it fills.
	capOn  bool
	capBuf []byte
	capMax int
	capW   io.Writer
	werr   error
}

func newScanner(r io.Reader) *scanner {
	return &scanner{rd: r, buf: make([]byte, 64<<10), line: 1}
}

// fill reads more input; it reports false at the end or on a read error.
func (s *scanner) fill() bool {
	if s.rerr != nil {
		return false
	}
	for i := 0; i < 100; i++ {
		n, err := s.rd.Read(s.buf)
		s.pos, s.end = 0, n
		if err != nil {
			s.rerr = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	s.rerr = io.ErrNoProgress
	return false
}

// readErr is the read error that stopped the scanner, if it was not the end.
func (s *scanner) readErr() error {
	if s.rerr == nil || s.rerr == io.EOF {
		return nil
	}
	return s.rerr
}

// rawByte returns the next raw byte without consuming it.
func (s *scanner) rawByte() (byte, bool) {
	if s.pos >= s.end && !s.fill() {
		return 0, false
	}
	return s.buf[s.pos], true
}

// peek returns the next clean byte without consuming it, dropping any
// terminal escape sequence in front of it.
func (s *scanner) peek() (byte, bool) {
	for {
		if s.pos >= s.end && !s.fill() {
			return 0, false
		}
		c := s.buf[s.pos]
		if c != 0x1b {
			return c, true
		}
		s.pos++
		s.skipEscape()
	}
}

// skipEscape drops the rest of an escape sequence whose ESC was consumed: CSI
// (ESC [ … final byte), OSC (ESC ] … BEL or ESC \) or a two-byte sequence. It
// never consumes a newline, so line numbers stay right on malformed input.
func (s *scanner) skipEscape() {
	c, ok := s.rawByte()
	if !ok || c == '\n' {
		return
	}
	s.pos++
	switch c {
	case '[':
		for {
			c, ok := s.rawByte()
			if !ok || c == '\n' {
				return
			}
			s.pos++
			if c >= 0x40 && c <= 0x7e {
				return
			}
		}
	case ']':
		for {
			c, ok := s.rawByte()
			if !ok || c == '\n' {
				return
			}
			s.pos++
			if c == 0x07 {
				return
			}
			if c == 0x1b {
				if c, ok := s.rawByte(); ok && c == '\\' {
					s.pos++
				}
				return
			}
		}
	}
}

// next consumes and returns the next clean byte.
func (s *scanner) next() (byte, bool) {
	c, ok := s.peek()
	if !ok {
		return 0, false
	}
	s.pos++
	s.last = c
	if c == '\n' {
		s.line++
	}
	if s.capOn {
		s.capture(c)
	}
	return c, true
}

func (s *scanner) capture(c byte) {
	if s.capW != nil {
		s.capBuf = append(s.capBuf, c)
		if len(s.capBuf) >= 32<<10 {
			s.flush()
		}
		return
	}
	if len(s.capBuf) < s.capMax {
		s.capBuf = append(s.capBuf, c)
	}
}

func (s *scanner) captureBytes(b []byte) {
	if s.capW != nil {
		s.capBuf = append(s.capBuf, b...)
		if len(s.capBuf) >= 32<<10 {
			s.flush()
		}
		return
	}
	if room := s.capMax - len(s.capBuf); room > 0 {
		s.capBuf = append(s.capBuf, b[:min(room, len(b))]...)
	}
}

// startCapture begins copying consumed bytes: into capBuf up to max bytes, or
// to w in chunks when w is set.
func (s *scanner) startCapture(max int, w io.Writer) {
	s.capOn, s.capMax, s.capW = true, max, w
	s.capBuf = s.capBuf[:0]
}

func (s *scanner) stopCapture() {
	if s.capW != nil {
		s.flush()
	}
	s.capOn, s.capW = false, nil
}

func (s *scanner) flush() {
	if len(s.capBuf) == 0 {
		return
	}
	if s.werr == nil {
		_, s.werr = s.capW.Write(s.capBuf)
	}
	s.capBuf = s.capBuf[:0]
}

func (s *scanner) errorf(format string, args ...any) *syntaxError {
	return &syntaxError{line: s.line, msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) eofError() *syntaxError {
	return &syntaxError{line: s.line, msg: "unexpected end of input", eof: true}
}

// ws skips whitespace inside a value. In line mode a newline is an error.
func (s *scanner) ws() error {
	for {
		c, ok := s.peek()
		if !ok {
			return nil
		}
		switch c {
		case ' ', '\t', '\r':
			s.next()
		case '\n':
			if s.lineMode {
				return &syntaxError{line: s.line, msg: "value not finished at end of line", nl: true}
			}
			s.next()
		default:
			return nil
		}
	}
}

// expect consumes whitespace and then the byte want.
func (s *scanner) expect(want byte) error {
	if err := s.ws(); err != nil {
		return err
	}
	c, ok := s.next()
	if !ok {
		return s.eofError()
	}
	if c != want {
		return s.errorf("want %q, found %q", want, c)
	}
	return nil
}

// value consumes one value (after optional whitespace) and returns its type
// and its size: members of an object, elements of an array, decoded bytes of
// a string, 1 for true and for a number other than zero, else 0. A size of 0
// means the value is empty. When n is not nil the value's children are added
// to the outline below n.
func (s *scanner) value(depth int, o *outline, n *onode) (vtype, int, error) {
	if err := s.ws(); err != nil {
		return tNone, 0, err
	}
	c, ok := s.peek()
	if !ok {
		return tNone, 0, s.eofError()
	}
	switch {
	case c == '{':
		if depth >= maxDepth {
			return tNone, 0, errTooDeep
		}
		s.next()
		k, err := s.object(depth, o, n, nil)
		return tObject, k, err
	case c == '[':
		if depth >= maxDepth {
			return tNone, 0, errTooDeep
		}
		s.next()
		k, err := s.array(depth, o, n)
		return tArray, k, err
	case c == '"':
		k, err := s.str(nil, 0)
		return tString, k, err
	case c == '-' || (c >= '0' && c <= '9'):
		zero, err := s.number()
		if zero {
			return tNumber, 0, err
		}
		return tNumber, 1, err
	case c == 't':
		return tBool, 1, s.literal("true")
	case c == 'f':
		return tBool, 0, s.literal("false")
	case c == 'n':
		return tNull, 0, s.literal("null")
	}
	return tNone, 0, s.errorf("unexpected %q", c)
}

// object consumes the members of an object whose '{' was consumed and returns
// how many it had. When ri is not nil the members' keys and types are
// collected into it (a record's shape).
func (s *scanner) object(depth int, o *outline, n *onode, ri *recInfo) (int, error) {
	if err := s.ws(); err != nil {
		return 0, err
	}
	if c, ok := s.peek(); ok && c == '}' {
		s.next()
		return 0, nil
	}
	count := 0
	for {
		if err := s.ws(); err != nil {
			return count, err
		}
		c, ok := s.peek()
		if !ok {
			return count, s.eofError()
		}
		if c != '"' {
			return count, s.errorf("want object key, found %q", c)
		}
		track := n != nil && o.open(n)
		if track || ri != nil {
			s.key = s.key[:0]
			if _, err := s.str(&s.key, maxKey); err != nil {
				return count, err
			}
		} else if _, err := s.str(nil, 0); err != nil {
			return count, err
		}
		var child *onode
		if track {
			o.setKey(n.depth, s.key)
			child = o.child(n, s.key)
		}
		if err := s.expect(':'); err != nil {
			return count, err
		}
		var err error
		if ri != nil {
			err = s.recMember(depth+1, o, child, ri)
		} else {
			err = s.member(depth+1, o, child)
		}
		if err != nil {
			return count, err
		}
		count++
		if err := s.ws(); err != nil {
			return count, err
		}
		c, ok = s.next()
		if !ok {
			return count, s.eofError()
		}
		if c == '}' {
			return count, nil
		}
		if c != ',' {
			return count, s.errorf("want ',' or '}' in object, found %q", c)
		}
	}
}

// array consumes the elements of an array whose '[' was consumed and returns
// how many it had.
func (s *scanner) array(depth int, o *outline, n *onode) (int, error) {
	if err := s.ws(); err != nil {
		return 0, err
	}
	if c, ok := s.peek(); ok && c == ']' {
		s.next()
		return 0, nil
	}
	var child *onode
	track := n != nil && o.open(n)
	if track {
		o.setIndex(n.depth, 0)
		child = o.child(n, star)
	}
	count := 0
	for {
		if track {
			o.setIndex(n.depth, count)
		}
		var err error
		if depth == 0 && s.elems != nil {
			err = s.elems.element(s, count, o, child)
		} else {
			err = s.member(depth+1, o, child)
		}
		if err != nil {
			return count, err
		}
		count++
		if err := s.ws(); err != nil {
			return count, err
		}
		c, ok := s.next()
		if !ok {
			return count, s.eofError()
		}
		if c == ']' {
			return count, nil
		}
		if c != ',' {
			return count, s.errorf("want ',' or ']' in array, found %q", c)
		}
	}
}

// member consumes one value that is an object member or array element and
// records it in the outline node n when there is one.
func (s *scanner) member(depth int, o *outline, n *onode) error {
	if n == nil {
		_, _, err := s.value(depth, nil, nil)
		return err
	}
	if err := s.ws(); err != nil {
		return err
	}
	from := s.line
	t, size, err := s.value(depth, o, n)
	if err != nil {
		return err
	}
	o.seen(n, t, size, from, s.line)
	return nil
}

// maxKey bounds how much of a key is kept.
const maxKey = 128

// str consumes a string. When dst is not nil the decoded text is appended to
// it, up to max bytes. It returns the decoded length in bytes (uncapped).
func (s *scanner) str(dst *[]byte, max int) (int, error) {
	if c, ok := s.next(); !ok || c != '"' {
		return 0, s.errorf("want string")
	}
	n := 0
	put := func(b ...byte) {
		n += len(b)
		if dst != nil && len(*dst)+len(b) <= max {
			*dst = append(*dst, b...)
		}
	}
	for {
		if k := s.plainRun(dst, max); k > 0 {
			n += k
			continue
		}
		c, ok := s.next()
		if !ok {
			return n, s.eofError()
		}
		switch {
		case c == '"':
			return n, nil
		case c == '\\':
			if err := s.escape(put); err != nil {
				return n, err
			}
		case c < 0x20:
			return n, s.errorf("control byte %#x in string", c)
		default:
			n++
			if dst != nil && len(*dst) < max {
				*dst = append(*dst, c)
			}
		}
	}
}

// plainRun is str's fast path: it consumes a run of plain bytes straight
// from the buffer, appending to dst up to max bytes, and returns the run's
// length (0 when the next byte is not plain or the buffer is empty).
func (s *scanner) plainRun(dst *[]byte, max int) int {
	if s.pos >= s.end {
		return 0
	}
	chunk := s.buf[s.pos:s.end]
	i := 0
	for i < len(chunk) {
		if c := chunk[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	if i == 0 {
		return 0
	}
	seg := chunk[:i]
	if dst != nil {
		if room := max - len(*dst); room > 0 {
			*dst = append(*dst, seg[:min(room, i)]...)
		}
	}
	if s.capOn {
		s.captureBytes(seg)
	}
	s.last = seg[i-1]
	s.pos += i
	return i
}

// escape consumes the escape after a backslash in a string and puts its
// decoded bytes.
func (s *scanner) escape(put func(...byte)) error {
	e, ok := s.next()
	if !ok {
		return s.eofError()
	}
	switch e {
	case '"', '\\', '/':
		put(e)
	case 'b':
		put('\b')
	case 'f':
		put('\f')
	case 'n':
		put('\n')
	case 'r':
		put('\r')
	case 't':
		put('\t')
	case 'u':
		return s.unicodeEscape(put)
	default:
		return s.errorf("bad escape \\%c in string", e)
	}
	return nil
}

// unicodeEscape consumes the four hex digits of a \u escape (and the low
// half of a surrogate pair) and puts the rune's UTF-8 bytes.
func (s *scanner) unicodeEscape(put func(...byte)) error {
	r, err := s.hex4()
	if err != nil {
		return err
	}
	if r >= 0xD800 && r < 0xDC00 {
		// A high surrogate pairs with a following \uDC00-\uDFFF.
		if c, ok := s.peek(); ok && c == '\\' {
			s.next()
			if c, ok := s.next(); !ok || c != 'u' {
				return s.errorf("bad escape after surrogate")
			}
			lo, err := s.hex4()
			if err != nil {
				return err
			}
			if lo >= 0xDC00 && lo < 0xE000 {
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			} else {
				var b [8]byte
				put(b[:utf8.EncodeRune(b[:], utf8.RuneError)]...)
				r = lo
			}
		}
	}
	var b [4]byte
	put(b[:utf8.EncodeRune(b[:], r)]...)
	return nil
}

func (s *scanner) hex4() (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		c, ok := s.next()
		if !ok {
			return 0, s.eofError()
		}
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, s.errorf("bad \\u escape")
		}
	}
	return r, nil
}

// number consumes a number and reports whether it is zero.
func (s *scanner) number() (bool, error) {
	zero := true
	c, _ := s.peek()
	if c == '-' {
		s.numByte()
	}
	c, ok := s.peek()
	switch {
	case !ok:
		return false, s.eofError()
	case c == '0':
		s.numByte()
	case c >= '1' && c <= '9':
		zero = false
		for {
			s.numByte()
			if c, ok = s.peek(); !ok || c < '0' || c > '9' {
				break
			}
		}
	default:
		return false, s.errorf("bad number")
	}
	if c, ok = s.peek(); ok && c == '.' {
		s.numByte()
		if d, err := s.digits(); err != nil {
			return false, err
		} else if d {
			zero = false
		}
	}
	if c, ok = s.peek(); ok && (c == 'e' || c == 'E') {
		s.numByte()
		if c, ok = s.peek(); ok && (c == '+' || c == '-') {
			s.numByte()
		}
		if _, err := s.digits(); err != nil {
			return false, err
		}
	}
	return zero, nil
}

func (s *scanner) numByte() {
	c, _ := s.next()
	if s.num != nil && len(*s.num) < 32 {
		*s.num = append(*s.num, c)
	}
}

// digits consumes one or more digits and reports whether any was not '0'.
func (s *scanner) digits() (bool, error) {
	nonzero := false
	c, ok := s.peek()
	if !ok {
		return false, s.eofError()
	}
	if c < '0' || c > '9' {
		return false, s.errorf("bad number")
	}
	for ok && c >= '0' && c <= '9' {
		if c != '0' {
			nonzero = true
		}
		s.numByte()
		c, ok = s.peek()
	}
	return nonzero, nil
}

func (s *scanner) literal(word string) error {
	for i := 0; i < len(word); i++ {
		c, ok := s.next()
		if !ok {
			return s.eofError()
		}
		if c != word[i] {
			return s.errorf("bad literal, want %q", word)
		}
	}
	return nil
}

// skipLine consumes the rest of the current line, including its newline.
func (s *scanner) skipLine() {
	for {
		c, ok := s.rawByte()
		if !ok {
			return
		}
		s.pos++
		if c == '\n' {
			s.line++
			return
		}
	}
}

// endOfLine consumes blanks after a top-level value and reports whether the
// line ends there (a newline, which it consumes, or the end of input).
func (s *scanner) endOfLine() bool {
	for {
		c, ok := s.peek()
		if !ok {
			return true
		}
		switch c {
		case ' ', '\t', '\r':
			s.pos++
		case '\n':
			s.pos++
			s.line++
			return true
		default:
			return false
		}
	}
}
