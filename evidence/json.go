package evidence

import (
	"fmt"
	"io"
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

// Source is what a profile reads: the command and its captured streams.
type Source struct {
	Argv []string // the command as run; for --shell runs ["sh", "-c", script]
	Exit int      // the exit status ctx reports (124 timeout, 128+N signal…)
	// Streams are the captured streams in a fixed order (stdout, then stderr).
	Streams []Stream
}

// Stream is one captured stream that a profile can read from the beginning as
// many times as it likes.
type Stream struct {
	Name  string
	Size  int64
	Lines int // newline count, plus one when the stream ends without a newline
	// Head holds the first bytes of the stream (up to HeadSize) for detection.
	Head []byte
	// Open returns a reader of the whole stream.
	Open func() (io.ReadCloser, error)
}

// HeadSize is how much of each stream Stream.Head holds.
const HeadSize = 64 << 10

// Stream returns the named stream, or an empty one.
func (s *Source) Stream(name string) Stream {
	for _, st := range s.Streams {
		if st.Name == name {
			return st
		}
	}
	return Stream{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("")), nil }}
}

// BytesSource builds a Source from in-memory streams; tests and `ctx templates`
// use it.
func BytesSource(argv []string, exit int, stdout, stderr []byte) *Source {
	mk := func(name string, b []byte) Stream {
		head := b
		if len(head) > HeadSize {
			head = head[:HeadSize]
		}
		return Stream{Name: name, Size: int64(len(b)), Lines: CountLines(b), Head: head,
			Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(string(b))), nil }}
	}
	return &Source{Argv: argv, Exit: exit, Streams: []Stream{mk(Stdout, stdout), mk(Stderr, stderr)}}
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
