// Package lines reads captured output the way parsers need it: numbered lines,
// terminal colour removed, carriage-return overwrites folded, enormous lines
// capped. It never changes stored bytes; it only shapes what parsers see.
package lines

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
)

// readers pools Scan's buffers: parsers scan many small streams, and a fresh
// 256 KiB buffer for each would dominate their cost.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 256<<10) }}

// Max is the longest line a parser is shown. Longer lines are cut at Max and the
// rest of the line is skipped (the stored bytes are untouched).
const Max = 64 << 10

// Scan calls fn for every line of r with its 1-based number. The line excludes
// its newline and a trailing carriage return, and is only valid during the call.
// long reports that the line was cut at Max (and a reader from Track records
// it). A stream that ends without a newline still yields its last line. Scan stops at the first error fn returns,
// or when ctx is done.
func Scan(ctx context.Context, r io.Reader, fn func(n int, line []byte, long bool) error) error {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	var buf []byte
	n := 0
	t, _ := r.(*tracked)
	for {
		frag, err := br.ReadSlice('\n')
		long := false
		line := frag
		if err == bufio.ErrBufferFull {
			// Gather up to Max, then skip to the end of the line.
			buf = append(buf[:0], frag...)
			for err == bufio.ErrBufferFull {
				frag, err = br.ReadSlice('\n')
				if room := Max - len(buf); room > 0 {
					if len(frag) > room {
						buf = append(buf, frag[:room]...)
						long = true
					} else {
						buf = append(buf, frag...)
					}
				} else {
					long = true
				}
			}
			if len(buf) > Max {
				buf = buf[:Max]
				long = true
			}
			line = buf
		} else if len(line) > Max {
			line = line[:Max]
			long = true
		}
		if len(line) == 0 && err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		n++
		if n&1023 == 0 {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
		}
		// Trimmed by hand: bytes.TrimSuffix compares through a call per
		// line, a twentieth of a test runner's parse.
		if k := len(line); k > 0 && line[k-1] == '\n' {
			line = line[:k-1]
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		if long && t != nil {
			t.cut(n)
		}
		if ferr := fn(n, line, long); ferr != nil {
			return ferr
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// Clean returns the line as a terminal would leave it: ANSI escape sequences
// removed and, where carriage returns overwrite the line (progress bars), only
// the last non-empty segment kept. It returns line itself when there is nothing
// to remove, else a new slice.
func Clean(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) < 0 && bytes.IndexByte(line, '\r') < 0 {
		return line
	}
	out := StripANSI(line)
	for {
		i := bytes.LastIndexByte(out, '\r')
		if i < 0 {
			break
		}
		if i == len(out)-1 {
			out = out[:i]
			continue
		}
		out = out[i+1:]
		break
	}
	return out
}

// StripANSI removes CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \),
// character-set designations (ESC ( B) and two-byte ESC sequences. It always returns a new slice when line holds ESC.
func StripANSI(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) < 0 {
		return line
	}
	out := make([]byte, 0, len(line))
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != 0x1b {
			out = append(out, c)
			continue
		}
		if i+1 >= len(line) {
			break
		}
		switch line[i+1] {
		case '(', ')', '*', '+':
			// Character-set designation: ESC ( B and the like, three bytes.
			i += 2
		case '[':
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			i = j
		case ']':
			j := i + 2
			for j < len(line) {
				if line[j] == 0x07 {
					break
				}
				if line[j] == 0x1b && j+1 < len(line) && line[j+1] == '\\' {
					j++
					break
				}
				j++
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// Printable reports whether b looks like text: valid enough UTF-8 with few
// control bytes other than tab, newline, carriage return, backspace and ESC,
// or Latin-1 text (latin1). Detection of binary streams uses it on a
// stream's head.
func Printable(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	var ctl, odd, c1, run, maxRun, words int
	for i := 0; i < len(b); {
		c := b[i]
		if c == ' ' || 'a' <= c|0x20 && c|0x20 <= 'z' {
			words++
		}
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\b' && c != 0x1b && c != '\f' && c != '\v' {
			ctl++
			i++
			run = 0
			continue
		}
		if c < 0x80 {
			i++
			run = 0
			continue
		}
		size := utf8Len(b[i:])
		if size == 0 {
			// A rune cut at the end of the head is not evidence of binary.
			if cutRune(b[i:]) {
				break
			}
			odd++
			if c < 0xA0 {
				c1++
			}
			run++
			maxRun = max(maxRun, run)
			i++
			continue
		}
		run = 0
		i += size
	}
	if (ctl+odd)*100 <= len(b) {
		return true
	}
	// Latin-1 text (Grüße from a program that writes ISO 8859-1): no
	// control byte, no byte of the C1 range 0x80-0x9F (which Latin-1 text
	// never holds and binary does), at most a third of its bytes not UTF-8
	// and never more than three of them in a row (accented letters sit
	// between ASCII ones), and at least half ASCII letters and spaces.
	// Random bytes have a fifth of those.
	return ctl == 0 && c1 == 0 && odd*3 <= len(b) && maxRun <= 3 && words*2 >= len(b)
}

// cutRune reports whether b is the start of a UTF-8 rune cut short by the
// end of the head: a lead byte followed by continuation bytes only, fewer
// than the lead announces.
func cutRune(b []byte) bool {
	if len(b) >= 4 || b[0] < 0xC2 || b[0] > 0xF4 {
		return false
	}
	for _, c := range b[1:] {
		if c&0xC0 != 0x80 {
			return false
		}
	}
	return true
}

func utf8Len(b []byte) int {
	c := b[0]
	var n int
	switch {
	case c&0xE0 == 0xC0:
		n = 2
	case c&0xF0 == 0xE0:
		n = 3
	case c&0xF8 == 0xF0:
		n = 4
	default:
		return 0
	}
	if len(b) < n {
		return 0
	}
	for k := 1; k < n; k++ {
		if b[k]&0xC0 != 0x80 {
			return 0
		}
	}
	return n
}
