package jsondoc

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PointerError reports a JSON pointer that does not resolve in the document.
type PointerError struct {
	Pointer string // the whole pointer
	At      string // the prefix that did resolve ("" is the root)
	Segment string // the reference token that did not
	Reason  string // "no such key", "index out of range (3 elements)", "not a container (string)"
}

func (e *PointerError) Error() string {
	at := e.At
	if at == "" {
		at = "the root"
	}
	return fmt.Sprintf("json pointer %q: segment %q at %s: %s", e.Pointer, e.Segment, at, e.Reason)
}

// parsePointer splits an RFC 6901 pointer into unescaped reference tokens.
func parsePointer(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if ptr[0] != '/' {
		return nil, fmt.Errorf("json pointer %q: must be empty or start with '/'", ptr)
	}
	raw := strings.Split(ptr[1:], "/")
	segs := make([]string, len(raw))
	for i, r := range raw {
		for j := 0; j < len(r); j++ {
			if r[j] == '~' && (j+1 >= len(r) || (r[j+1] != '0' && r[j+1] != '1')) {
				return nil, fmt.Errorf("json pointer %q: bad escape in segment %q (want ~0 or ~1)", ptr, r)
			}
		}
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(r)
	}
	return segs, nil
}

// Pointer writes the value that the RFC 6901 pointer ptr addresses in the
// JSON document read from r: its exact bytes as they stand in the input
// (terminal colour removed), not re-encoded, followed by nothing. The empty
// pointer addresses the whole document. It reads the first JSON value of r
// only, and streams: the addressed value is copied as it is scanned, never
// held whole. A pointer that does not resolve returns a *PointerError naming
// the missing segment; malformed JSON returns a syntax error.
func Pointer(r io.Reader, ptr string, w io.Writer) error {
	segs, err := parsePointer(ptr)
	if err != nil {
		return err
	}
	s := newScanner(r)
	at := ""
	var key []byte
	for i, seg := range segs {
		if err := s.ws(); err != nil {
			return err
		}
		fail := func(reason string) error {
			return &PointerError{Pointer: ptr, At: at, Segment: seg, Reason: reason}
		}
		c, ok := s.peek()
		if !ok {
			return pointerSyntax(ptr, s, s.eofError())
		}
		switch c {
		case '{':
			if err := seekKey(s, ptr, seg, &key, fail); err != nil {
				return err
			}
		case '[':
			if err := seekIndex(s, ptr, seg, fail); err != nil {
				return err
			}
		default:
			t, _, err := s.value(1, nil, nil)
			if err != nil {
				return pointerSyntax(ptr, s, err)
			}
			return fail(fmt.Sprintf("not an object or array (%s)", t))
		}
		at = "/" + strings.Join(escapeAll(segs[:i+1]), "/")
	}
	if err := s.ws(); err != nil {
		return pointerSyntax(ptr, s, err)
	}
	if _, ok := s.peek(); !ok {
		return pointerSyntax(ptr, s, s.eofError())
	}
	s.startCapture(0, w)
	_, _, err = s.value(1, nil, nil)
	s.stopCapture()
	if err != nil {
		return pointerSyntax(ptr, s, err)
	}
	if err := s.readErr(); err != nil {
		return err
	}
	return s.werr
}

// seekKey reads an object from its '{' up to the value of the member
// named seg, skipping the members before it; key is reused scratch.
func seekKey(s *scanner, ptr, seg string, key *[]byte, fail func(string) error) error {
	s.next()
	for {
		if err := s.ws(); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		c, ok := s.peek()
		if !ok {
			return pointerSyntax(ptr, s, s.eofError())
		}
		if c == '}' {
			return fail("no such key")
		}
		*key = (*key)[:0]
		n, err := s.str(key, len(seg)+1)
		if err != nil {
			return pointerSyntax(ptr, s, err)
		}
		if err := s.expect(':'); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		if n == len(seg) && string(*key) == seg {
			return nil
		}
		if _, _, err := s.value(1, nil, nil); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		if err := s.ws(); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		c, ok = s.next()
		switch {
		case !ok:
			return pointerSyntax(ptr, s, s.eofError())
		case c == '}':
			return fail("no such key")
		case c != ',':
			return pointerSyntax(ptr, s, s.errorf("want ',' or '}' in object, found %q", c))
		}
	}
}

// seekIndex reads an array from its '[' up to the element seg indexes,
// skipping the elements before it.
func seekIndex(s *scanner, ptr, seg string, fail func(string) error) error {
	idx, ierr := arrayIndex(seg)
	if ierr != nil {
		return fail(ierr.Error() + " (the value is an array)")
	}
	s.next()
	count := 0
	for {
		if err := s.ws(); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		if c, ok := s.peek(); ok && c == ']' && count == 0 {
			return fail("index out of range (empty array)")
		}
		if count == idx {
			return nil
		}
		if _, _, err := s.value(1, nil, nil); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		count++
		if err := s.ws(); err != nil {
			return pointerSyntax(ptr, s, err)
		}
		c, ok := s.next()
		switch {
		case !ok:
			return pointerSyntax(ptr, s, s.eofError())
		case c == ']':
			return fail(fmt.Sprintf("index out of range (%d elements)", count))
		case c != ',':
			return pointerSyntax(ptr, s, s.errorf("want ',' or ']' in array, found %q", c))
		}
	}
}

func pointerSyntax(ptr string, s *scanner, err error) error {
	if rerr := s.readErr(); rerr != nil {
		return rerr
	}
	return fmt.Errorf("json pointer %q: %w", ptr, err)
}

// arrayIndex parses an array reference token: digits without leading zeros.
func arrayIndex(seg string) (int, error) {
	if seg == "-" {
		return 0, errors.New("\"-\" names the element after the last, which does not exist")
	}
	if seg == "" || (len(seg) > 1 && seg[0] == '0') || strings.TrimLeft(seg, "0123456789") != "" {
		return 0, errors.New("not an array index")
	}
	n, err := strconv.Atoi(seg)
	if err != nil {
		return 0, errors.New("array index too large")
	}
	return n, nil
}

func escapeAll(segs []string) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = escapeToken(s)
	}
	return out
}
