package jsondoc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// A record is one top-level JSON value of the input: one line of JSON Lines,
// one value of a stream of (possibly pretty-printed) values such as `jq .[]`
// prints, or the single value of a document. Records are numbered from 1 in
// the order they appear; lines that hold no valid value are not records and
// are counted as invalid instead, so numbering is the same for Parse and
// Records.

// recInfo is what a record's top level tells: its type, the keys and types of
// its members when it is an object, and whether it looks like an error.
type recInfo struct {
	typ      vtype
	keys     []keyType
	arena    []byte // key bytes
	errorish bool
	hasMsg   bool
	numLevel []byte // the digits of a numeric "level"
	level    []byte // scratch for a level string
	sig      []byte // the shape signature, built by signature
	// vals are the short scalar values of top-level members (strings of at
	// most maxVal bytes, booleans, null), for the value counts of fields.
	vals   []keyVal
	valBuf []byte
}

// keyVal is one top-level member's scalar value: key bytes in arena, value
// bytes in valBuf.
type keyVal struct {
	koff, kend int
	voff, vend int
}

// maxVal is the longest string value counted per field; longer strings are
// free text, not categories.
const maxVal = 48

type keyType struct {
	off, end int // key bytes in arena
	t        vtype
}

func (ri *recInfo) reset() {
	ri.typ = tNone
	ri.keys = ri.keys[:0]
	ri.arena = ri.arena[:0]
	ri.errorish, ri.hasMsg = false, false
	ri.numLevel = ri.numLevel[:0]
	ri.vals = ri.vals[:0]
	ri.valBuf = ri.valBuf[:0]
}

func (ri *recInfo) key(i int) []byte { k := ri.keys[i]; return ri.arena[k.off:k.end] }

// maxSigKeys bounds how many keys of one record enter its signature.
const maxSigKeys = 256

// keyClass sorts a top-level key by what it can tell about errors.
type keyClass uint8

const (
	kOther keyClass = iota
	kLevel
	kError
	kMsg
)

func classifyKey(k []byte) keyClass {
	if len(k) == 0 || len(k) > 12 {
		return kOther
	}
	var low [12]byte
	for i, c := range k {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(k)]) {
	case "level", "lvl", "severity", "levelname", "log.level", "loglevel", "log_level", "@l", "@level":
		return kLevel
	case "error", "err", "exception", "exc_info", "errors", "@x":
		return kError
	case "msg":
		return kMsg
	}
	return kOther
}

// errorLevel reports whether a level string names an error or worse.
func errorLevel(v []byte) bool {
	if len(v) == 0 || len(v) > 12 {
		return false
	}
	var low [12]byte
	for i, c := range v {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(v)]) {
	case "error", "err", "fatal", "critical", "crit", "panic", "dpanic", "emerg", "emergency", "alert", "severe", "e", "f":
		return true
	}
	return false
}

// recMember consumes the value of a top-level member whose key is in s.key
// and records it in ri (and in the outline node n, when there is one).
func (s *scanner) recMember(depth int, o *outline, n *onode, ri *recInfo) error {
	off := len(ri.arena)
	ri.arena = append(ri.arena, s.key...)
	kt := keyType{off: off, end: len(ri.arena)}
	class := classifyKey(s.key)
	if err := s.ws(); err != nil {
		return err
	}
	from := s.line
	c, _ := s.peek()
	var (
		t    vtype
		size int
		err  error
	)
	switch {
	case class == kLevel && c == '"':
		ri.level = ri.level[:0]
		size, err = s.str(&ri.level, 12)
		t = tString
		if err == nil && errorLevel(ri.level) {
			ri.errorish = true
		}
	case class == kLevel && (c == '-' || c >= '0' && c <= '9'):
		ri.numLevel = ri.numLevel[:0]
		s.num = &ri.numLevel
		t, size, err = s.value(depth, o, n)
		s.num = nil
	case c == '"':
		voff := len(ri.valBuf)
		size, err = s.str(&ri.valBuf, voff+maxVal)
		t = tString
		if err == nil && size <= maxVal && len(ri.vals) < maxSigKeys {
			ri.vals = append(ri.vals, keyVal{koff: kt.off, kend: kt.end, voff: voff, vend: len(ri.valBuf)})
		} else {
			ri.valBuf = ri.valBuf[:voff]
		}
	default:
		t, size, err = s.value(depth, o, n)
		if err == nil && (t == tBool || t == tNull) && len(ri.vals) < maxSigKeys {
			v := "null"
			if t == tBool {
				v = map[bool]string{true: "true", false: "false"}[size == 1]
			}
			voff := len(ri.valBuf)
			ri.valBuf = append(ri.valBuf, v...)
			ri.vals = append(ri.vals, keyVal{koff: kt.off, kend: kt.end, voff: voff, vend: len(ri.valBuf)})
		}
	}
	if err != nil {
		return err
	}
	if n != nil {
		o.seen(n, t, size, from, s.line)
	}
	kt.t = t
	if len(ri.keys) < maxSigKeys {
		ri.keys = append(ri.keys, kt)
	}
	switch class {
	case kError:
		if size > 0 {
			ri.errorish = true
		}
	case kMsg:
		ri.hasMsg = true
	}
	return nil
}

// record consumes one value as a record, collecting its shape into ri. When
// n is not nil the value is outlined below it.
func (s *scanner) record(depth int, o *outline, n *onode, ri *recInfo) (int, error) {
	ri.reset()
	if err := s.ws(); err != nil {
		return 0, err
	}
	c, ok := s.peek()
	if !ok {
		return 0, s.eofError()
	}
	if c != '{' {
		t, size, err := s.value(depth, o, n)
		ri.typ = t
		return size, err
	}
	if depth >= maxDepth {
		return 0, errTooDeep
	}
	s.next()
	ri.typ = tObject
	size, err := s.object(depth, o, n, ri)
	if err == nil && !ri.errorish && ri.hasMsg && len(ri.numLevel) > 0 {
		// pino and bunyan: 50 is error, 60 fatal.
		if v, perr := strconv.ParseFloat(string(ri.numLevel), 64); perr == nil && v >= 50 && v < 1000 {
			ri.errorish = true
		}
	}
	return size, err
}

// signature renders the record's shape: the sorted keys with their types,
// `{"id":number,"msg":string}`, or the type name for a value that is not an
// object. The result is valid until the next record.
func (ri *recInfo) signature() []byte {
	ri.sig = ri.sig[:0]
	if ri.typ != tObject {
		return append(ri.sig, ri.typ.String()...)
	}
	// Insertion sort: records have few keys and this allocates nothing.
	ks := ri.keys
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ri.less(j, j-1); j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	ri.sig = append(ri.sig, '{')
	for i := range ks {
		if i > 0 {
			ri.sig = append(ri.sig, ',')
		}
		ri.sig = appendQuoted(ri.sig, ri.key(i))
		ri.sig = append(ri.sig, ':')
		ri.sig = append(ri.sig, ks[i].t.String()...)
	}
	return append(ri.sig, '}')
}

func (ri *recInfo) less(i, j int) bool {
	if c := bytes.Compare(ri.key(i), ri.key(j)); c != 0 {
		return c < 0
	}
	return ri.keys[i].t < ri.keys[j].t
}

// appendQuoted appends k as a JSON string.
func appendQuoted(dst, k []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range k {
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// recReader reads the records of an input one at a time.
type recReader struct {
	s        *scanner
	n        int // records read
	invalid  int // lines that held no valid record
	badLines []int
	valid    int // lines covered by valid records
	multi    bool
	lastBad  error  // why the last invalid line was invalid
	onBad    func() // called after an invalid record, to drop what it left
	ri       recInfo

	// The current record.
	from, to int
	size     int
}

// maxBadLines bounds how many invalid line numbers are kept for the loss.
const maxBadLines = 5

// errBrokenDocument is wrapped by the error for a first value that spans
// lines and does not parse: the input is one broken document.
var errBrokenDocument = errors.New("broken json document")

func newRecReader(r io.Reader) *recReader {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64 << 10)
	s := newScanner(br)
	s.lineMode = firstLineIsValue(head)
	return &recReader{s: s}
}

// firstLineIsValue reports whether the first line of head that starts a JSON
// container holds exactly one complete value: the mark of JSON Lines.
func firstLineIsValue(head []byte) bool {
	for len(head) > 0 {
		line := head
		i := bytes.IndexByte(head, '\n')
		if i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		t := bytes.TrimLeft(stripEscapes(line), " \t\r")
		if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
			continue
		}
		if i < 0 {
			return false // the line does not end inside the head
		}
		s := newScanner(bytes.NewReader(line))
		s.lineMode = true
		var ri recInfo
		if _, err := s.record(0, nil, nil, &ri); err != nil {
			return false
		}
		return s.endOfLine()
	}
	return false
}

// stripEscapes removes terminal escape sequences when there are any.
func stripEscapes(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return b
	}
	var out []byte
	s := newScanner(bytes.NewReader(b))
	for {
		c, ok := s.next()
		if !ok {
			return out
		}
		out = append(out, c)
	}
}

// next reads the next record. capMax bounds how many of its bytes are kept in
// s.capBuf (0 keeps none). It returns false at the end of input; the error is
// a read error or errBrokenDocument.
func (rr *recReader) next(capMax int, o *outline, n *onode) (bool, error) {
	s := rr.s
	for {
		// Blank space between records, newlines included.
		for {
			c, ok := s.peek()
			if !ok {
				return false, s.readErr()
			}
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				break
			}
			s.next()
		}
		from := s.line
		s.last = 0
		s.startCapture(capMax, nil)
		size, err := s.record(0, o, n, &rr.ri)
		to := s.line
		if err == nil && !s.endOfLine() {
			err = s.errorf("text after the value")
		}
		s.stopCapture()
		if err == nil {
			rr.n++
			rr.from, rr.to, rr.size = from, to, size
			rr.valid += to - from + 1
			if to > from {
				rr.multi = true
			}
			return true, nil
		}
		if rerr := s.readErr(); rerr != nil {
			return false, rerr
		}
		last := s.line
		if s.last == '\n' {
			last--
		}
		if rr.n == 0 && last > from && !s.lineMode {
			return false, fmt.Errorf("%w: %v", errBrokenDocument, err)
		}
		for l := from; l <= last; l++ {
			if len(rr.badLines) < maxBadLines {
				rr.badLines = append(rr.badLines, l)
			}
		}
		rr.invalid += last - from + 1
		rr.lastBad = err
		if rr.onBad != nil {
			rr.onBad()
		}
		if s.last != '\n' {
			s.skipLine()
		}
	}
}

// RangeError reports a records range that the input does not hold.
type RangeError struct {
	From, To int
	Records  int // how many records the input holds
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("records %d:%d: the input holds %d records", e.From, e.To, e.Records)
}

// Records writes records from..to (1-based, inclusive) of a JSON Lines or
// JSON stream input to w, each as the exact bytes it has in the input
// (terminal colour removed) followed by a newline. Numbering skips lines that
// hold no valid JSON, as the profile's record items do. When the range goes
// past the last record, the records that exist are written and a *RangeError
// says how many there are. One record is held in memory at a time.
func Records(r io.Reader, from, to int, w io.Writer) error {
	if from < 1 || to < from {
		return fmt.Errorf("records %d:%d: want 1 <= from <= to", from, to)
	}
	rr := newRecReader(r)
	for rr.n < to {
		keep := 0
		if rr.n+1 >= from {
			keep = int(^uint(0) >> 1)
		}
		ok, err := rr.next(keep, nil, nil)
		if err != nil {
			return fmt.Errorf("records %d:%d: %w", from, to, err)
		}
		if !ok {
			return &RangeError{From: from, To: to, Records: rr.n}
		}
		if rr.n >= from {
			if _, err := w.Write(append(rr.s.capBuf, '\n')); err != nil {
				return err
			}
		}
	}
	return nil
}
