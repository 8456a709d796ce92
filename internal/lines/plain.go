package lines

import (
	"bufio"
	"bytes"
	"io"
	"unicode/utf8"
)

// PlainStats counts what Plain changed.
type PlainStats struct {
	Escapes    int // escape sequences removed (colour, cursor, title)
	Overwrites int // lines whose carriage-return overwrites were folded
}

// Changed reports whether Plain altered anything.
func (s PlainStats) Changed() bool { return s.Escapes > 0 || s.Overwrites > 0 }

// Plain copies r to w as a pipe would have carried it: terminal escape
// sequences removed and carriage-return overwrites folded to what a terminal
// would leave on the line. Everything else is copied byte for byte: line
// endings (a CR directly before LF is kept, so CRLF content survives),
// trailing spaces, invalid UTF-8 and lines of any length. A patch captured
// through a terminal therefore applies once it has passed through Plain.
//
// The fold is a one-line terminal: CR returns to column 0, text overwrites
// cells, ESC[K / ESC[0K erases to the end of the line, ESC[2K erases the line,
// backspace steps back one cell. Other escape sequences are dropped.
func Plain(w io.Writer, r io.Reader) (PlainStats, error) {
	var st PlainStats
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			line = append(line, frag...)
			continue
		}
		if len(line) > 0 {
			line = append(line, frag...)
			frag = line
		}
		if len(frag) > 0 {
			if _, werr := bw.Write(plainLine(frag, &st)); werr != nil {
				return st, werr
			}
		}
		line = line[:0]
		if err == io.EOF {
			return st, bw.Flush()
		}
		if err != nil {
			bw.Flush()
			return st, err
		}
	}
}

// plainLine cleans one line, which may end in "\n" or "\r\n" (kept as they are).
func plainLine(b []byte, st *PlainStats) []byte {
	body, end := b, []byte(nil)
	if bytes.HasSuffix(body, []byte("\n")) {
		body, end = body[:len(body)-1], body[len(body)-1:]
		if bytes.HasSuffix(body, []byte("\r")) {
			body, end = body[:len(body)-1], b[len(body)-1:]
		}
	}
	if bytes.IndexByte(body, 0x1b) < 0 && bytes.IndexByte(body, '\r') < 0 && bytes.IndexByte(body, '\b') < 0 {
		return b
	}
	out := fold(body, st)
	return append(out, end...)
}

// fold runs body through the one-line terminal.
func fold(body []byte, st *PlainStats) []byte {
	var cells [][]byte // one entry per cell: a rune's bytes (or one invalid byte)
	col := 0
	overwrote, crEnd := false, false
	put := func(c []byte) {
		for col > len(cells) { // after an erase the cursor may sit past the text
			cells = append(cells, []byte{' '})
		}
		if col < len(cells) {
			cells[col] = c
			overwrote = true
		} else {
			cells = append(cells, c)
		}
		col++
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == 0x1b:
			n, final, arg := escape(body[i:])
			st.Escapes++
			if final == 'K' {
				switch arg {
				case "", "0":
					cells = cells[:min(col, len(cells))]
				case "2":
					cells = cells[:0]
					overwrote = true
				}
			}
			i += n
		case c == '\r' && onlyEscapes(body[i+1:]):
			// A CR that ends the line (with colour codes after it, as git
			// marks a CRLF line's CR) is line-ending content, not an overwrite.
			crEnd = true
			i++
		case c == '\r':
			col = 0
			i++
		case c == '\b':
			if col > 0 {
				col--
			}
			i++
		default:
			size := 1
			if c >= utf8.RuneSelf {
				if _, n := utf8.DecodeRune(body[i:]); n > 1 {
					size = n
				}
			}
			put(body[i : i+size])
			i += size
		}
	}
	if overwrote || bytes.Count(body, []byte{'\r'}) > btoi(crEnd) {
		st.Overwrites++
	}
	out := make([]byte, 0, len(body))
	for _, c := range cells {
		out = append(out, c...)
	}
	if crEnd {
		out = append(out, '\r')
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// onlyEscapes reports whether b holds nothing but escape sequences.
func onlyEscapes(b []byte) bool {
	for len(b) > 0 {
		if b[0] != 0x1b {
			return false
		}
		n, _, _ := escape(b)
		b = b[n:]
	}
	return true
}

// escape measures the escape sequence at the start of b (which begins with
// ESC) and returns its length, and for CSI its final byte and parameters.
func escape(b []byte) (n int, final byte, arg string) {
	if len(b) < 2 {
		return len(b), 0, ""
	}
	switch b[1] {
	case '(', ')', '*', '+':
		return min(3, len(b)), 0, ""
	case '[':
		j := 2
		for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
			j++
		}
		if j < len(b) {
			return j + 1, b[j], string(b[2:j])
		}
		return j, 0, ""
	case ']':
		for j := 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1, 0, ""
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2, 0, ""
			}
		}
		return len(b), 0, ""
	}
	return 2, 0, ""
}
