package evidence

import (
	"fmt"
	"strconv"
	"strings"
)

// MarshalText renders the span as its handle so items carry "span":"run:…#stdout:L3-9".
func (s Span) MarshalText() ([]byte, error) { return []byte(s.Handle()), nil }

// UnmarshalText parses the form MarshalText writes.
func (s *Span) UnmarshalText(b []byte) error {
	sp, err := ParseSpan(string(b))
	if err != nil {
		return err
	}
	*s = sp
	return nil
}

// ParseSpan parses "BASE#STREAM:LA-B" or "BASE#STREAM:LA". The empty string is
// the zero span.
func ParseSpan(h string) (Span, error) {
	if h == "" {
		return Span{}, nil
	}
	base, rest, ok := strings.Cut(h, "#")
	if !ok {
		return Span{}, fmt.Errorf("span %q: want BASE#STREAM:LA-B", h)
	}
	stream, lines, ok := strings.Cut(rest, ":L")
	if !ok || stream == "" {
		return Span{}, fmt.Errorf("span %q: want BASE#STREAM:LA-B", h)
	}
	a, b, isRange := strings.Cut(lines, "-")
	from, err := strconv.Atoi(a)
	if err != nil || from < 1 {
		return Span{}, fmt.Errorf("span %q: bad first line", h)
	}
	to := from
	if isRange {
		if to, err = strconv.Atoi(b); err != nil || to < from {
			return Span{}, fmt.Errorf("span %q: bad last line", h)
		}
	}
	return Span{Base: base, Stream: stream, From: from, To: to}, nil
}

// CountLines counts lines the way spans number them: every newline ends a line,
// and trailing bytes without a newline form one more.
func CountLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
