package evidence

import (
	"io"
	"strings"
)

// Source is what a profile reads: the command and its captured streams.
//
// A Source may describe a capture that is still running (see Promise): its
// streams can be opened and read while the command prints, and a reader
// waits at the end of what has arrived. What is only known once the capture
// has ended — the exit status, each stream's size and line count — is read
// through methods that wait for it, so a profile reads the same values
// whether it runs during the capture or after it. A profile that reads them
// only after reading its streams to the end runs alongside the capture; one
// that reads them first waits for the end, then runs as it always did.
type Source struct {
	Argv []string // the command as run; for --shell runs ["sh", "-c", script]
	// Streams are the captured streams in a fixed order (stdout, then stderr).
	Streams []Stream

	exit int
	done <-chan struct{} // closed when exit and the streams' facts are final; nil when they always were
	of   *Source         // the source this is a View of, whose exit it reports
}

// View is the same capture read through other streams (the same streams
// with wrapped readers): its exit status is s's, as and when s learns it.
func (s *Source) View(streams []Stream) *Source {
	return &Source{Argv: s.Argv, Streams: streams, of: s}
}

// NewSource is a Source whose facts are all known.
func NewSource(argv []string, exit int, streams []Stream) *Source {
	return &Source{Argv: argv, Streams: streams, exit: exit}
}

// Exit is the exit status ctx reports (124 timeout, 128+N signal…); it waits
// for the end of a running capture.
func (s *Source) Exit() int {
	if s.of != nil {
		return s.of.Exit()
	}
	if s.done != nil {
		<-s.done
	}
	return s.exit
}

// Stream is one captured stream that a profile can read from the beginning as
// many times as it likes.
type Stream struct {
	Name string
	// Open returns a reader of the whole stream (of a running capture: it
	// waits for more at the end of what has arrived, and reports EOF once
	// the capture has ended).
	Open func() (io.ReadCloser, error)

	f *facts // nil: an empty stream
}

// facts are what is known of a stream once it is complete.
type facts struct {
	size  int64
	lines int
	head  []byte
	more  bool // the stream goes on past head
	// headDone is closed when head and more are final (more than HeadSize
	// bytes arrived), done
	// when everything is; nil when they always were.
	headDone, done <-chan struct{}
}

// NewStream is a Stream whose facts are known: its size, its line count
// (newlines, plus one when it ends without a newline) and its first bytes
// (up to HeadSize).
func NewStream(name string, size int64, lines int, head []byte, open func() (io.ReadCloser, error)) Stream {
	return Stream{Name: name, Open: open, f: &facts{size: size, lines: lines, head: head, more: size > int64(len(head))}}
}

// Size is the stream's length in bytes; it waits for the end of a running
// capture.
func (s Stream) Size() int64 {
	if s.f == nil {
		return 0
	}
	s.f.wait()
	return s.f.size
}

// Lines is the newline count, plus one when the stream ends without a
// newline; it waits for the end of a running capture.
func (s Stream) Lines() int {
	if s.f == nil {
		return 0
	}
	s.f.wait()
	return s.f.lines
}

// Head holds the first bytes of the stream (up to HeadSize) for detection.
// It waits until they have arrived or the capture has ended. Its length is
// the stream's size when that is below HeadSize, so len(Head()) == 0 tells
// an empty stream without waiting for the end of a long one.
func (s Stream) Head() []byte {
	if s.f == nil {
		return nil
	}
	if s.f.headDone != nil {
		select {
		case <-s.f.headDone:
		case <-s.f.done:
		}
	}
	return s.f.head
}

// More reports whether the stream goes on past its Head (Size() >
// len(Head())), waiting only as long as Head does.
func (s Stream) More() bool {
	if s.f == nil {
		return false
	}
	s.Head()
	return s.f.more
}

func (f *facts) wait() {
	if f.done != nil {
		<-f.done
	}
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
		return NewStream(name, int64(len(b)), CountLines(b), head,
			func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(string(b))), nil })
	}
	return NewSource(argv, exit, []Stream{mk(Stdout, stdout), mk(Stderr, stderr)})
}
