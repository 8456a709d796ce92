package lines

import (
	"fmt"
	"io"
	"sync"
)

// Long counts the lines Scan cut at Max in one stream, over every reader
// Track made for it: a parser that reads a stream twice counts its lines
// once. It is safe for concurrent use.
type Long struct {
	mu    sync.Mutex
	count int // the most cut lines one reader saw
	first int // the first cut line's number, 0 for none
}

// Track returns rc as a reader whose cut lines Scan records in l.
func Track(rc io.ReadCloser, l *Long) io.ReadCloser { return &tracked{ReadCloser: rc, long: l} }

// Cut returns how many lines were cut and the first one's number.
func (l *Long) Cut() (count, first int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count, l.first
}

// tracked is a reader Track made; Scan tells it of each line it cut.
type tracked struct {
	io.ReadCloser
	long *Long
	seen int // lines this reader's scan cut
}

func (t *tracked) cut(n int) {
	t.seen++
	l := t.long
	l.mu.Lock()
	l.count = max(l.count, t.seen)
	if l.first == 0 || n < l.first {
		l.first = n
	}
	l.mu.Unlock()
}

// LongDetail is the loss detail for lines of stream longer than Max, of
// which a parser read only the first Max bytes (for what: "for errors only",
// or "" for everything it looks for).
func LongDetail(stream, what string, count, first int) string {
	which := fmt.Sprintf("%d lines", count)
	if count == 1 {
		which = "1 line"
	}
	if what != "" {
		what += " "
	}
	return fmt.Sprintf("%s: %s longer than %d KiB read %sonly in their first %d KiB (the first is line %d; the run's handle with #%s:L%d and --raw returns it whole)",
		stream, which, Max>>10, what, Max>>10, first, stream, first)
}
