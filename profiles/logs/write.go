package logs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// idChunk is how many line ids WriteTemplates stores per allocation.
const idChunk = 1 << 16

// WriteTemplates mines every line of r and then writes, for each input line
// in order, "LINENO<TAB>TEMPLATE\n" with 1-based line numbers and the line's
// final template (OverflowText for lines past the template cap). A final line
// without a newline counts; CRLF endings are accepted.
//
// It reads r once and keeps one int32 per line (4 bytes a line) so that every
// line is printed with the template its group has at the end, after any
// merges; nothing is written until r is exhausted. Lines longer than the
// tokenizer's limit are templated from their prefix and never held whole.
// It checks ctx between lines.
func WriteTemplates(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	m := NewMiner(opts)
	var ids [][]int32
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // the prefix of a line longer than br's buffer
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line, err := readLine(br, &long)
		if err == io.EOF && line == nil {
			break
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read lines: %w", err)
		}
		if len(ids) == 0 || len(ids[len(ids)-1]) == idChunk {
			ids = append(ids, make([]int32, 0, idChunk))
		}
		c := &ids[len(ids)-1]
		*c = append(*c, int32(m.Add(line)))
		if err == io.EOF {
			break
		}
	}

	m.settle()
	text := make([]string, len(m.groups))
	for i := range text {
		t, _ := m.Template(i)
		text[i] = t.Text
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	lineno := 0
	for _, chunk := range ids {
		for _, id := range chunk {
			lineno++
			if lineno%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			buf = strconv.AppendInt(buf[:0], int64(lineno), 10)
			buf = append(buf, '\t')
			id := int32(m.real(int(id)))
			if id == OverflowID {
				buf = append(buf, OverflowText...)
			} else {
				buf = append(buf, text[id]...)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("write templates: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write templates: %w", err)
	}
	return nil
}

// readLine returns the next line of br without its "\n" or "\r\n". A line
// longer than br's buffer is returned as its first maxLineBytes+1 bytes
// (enough for the tokenizer to see it is long) and the rest is skipped. At
// the end of input it returns io.EOF, with the final unterminated line if
// there is one and nil otherwise. The line is valid until the next call.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		keep := maxLineBytes + 1
		*long = append((*long)[:0], line[:min(len(line), keep)]...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = br.ReadSlice('\n')
			if n := keep - len(*long); n > 0 {
				*long = append(*long, line[:min(len(line), n)]...)
			}
		}
		line = *long
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if err == io.EOF && len(line) == 0 {
		return nil, io.EOF
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, err
}
