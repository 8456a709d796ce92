package secrets

import (
	"bytes"
	"io"
)

// Sections is stored content that can be read at any byte offset.
type Sections interface {
	Section(off, end int64) io.Reader
	Size() int64
}

// edge is how far past a byte range a line is read to judge the secrets
// that the range cuts through; lookbackBytes is how far back a key block is
// looked for.
const (
	edge          = 4 << 10
	lookbackBytes = 16 << 10
)

// RedactSection returns bytes [from, to) of src with secrets redacted. A
// secret that the range cuts through is judged on its whole line and its
// marker stands where the range meets it, so no part of it is shown.
func RedactSection(src Sections, from, to int64) (io.Reader, error) {
	size := src.Size()
	to = min(to, size)
	if from >= to {
		return bytes.NewReader(nil), nil
	}
	// The line holding from: back to its start (at most edge bytes).
	ws := max(0, from-lookbackBytes)
	before, err := io.ReadAll(src.Section(ws, from))
	if err != nil {
		return nil, err
	}
	var red Redactor
	ls := from
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		ls = ws + int64(i) + 1
		for _, l := range bytes.Split(before[:i], []byte("\n")) {
			red.Prime(l)
		}
	} else if from-ws <= edge {
		ls = ws
	} // else: a line longer than the look-back; judged from `from`
	// The line holding to-1: on to its end (at most edge bytes).
	after, err := io.ReadAll(src.Section(to, min(size, to+edge)))
	if err != nil {
		return nil, err
	}
	le := to + int64(len(after))
	if i := bytes.IndexByte(after, '\n'); i >= 0 {
		le = to + int64(i)
	}
	body, err := io.ReadAll(src.Section(ls, le))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	off := ls // raw offset of body[0]
	for len(body) > 0 {
		line := body
		nl := bytes.IndexByte(body, '\n')
		if nl >= 0 {
			line = body[:nl]
		}
		a, b := max(from, off)-off, min(to, off+int64(len(line)))-off
		if a <= 0 && b >= int64(len(line)) {
			out.Write(red.Line(line)) // a whole line inside the range
		} else if a < b {
			out.Write(red.clip(line, int(a), int(b)))
		}
		if nl < 0 {
			break
		}
		if off+int64(nl) >= from && off+int64(nl) < to {
			out.WriteByte('\n')
		}
		off += int64(nl) + 1
		body = body[nl+1:]
	}
	return bytes.NewReader(out.Bytes()), nil
}

// clip redacts line and returns the part of it between raw offsets a and b;
// a secret crossing either end is replaced by its marker, shown once.
func (r *Redactor) clip(line []byte, a, b int) []byte {
	if r.inKey {
		if out, ok := r.keyBody(line); ok {
			if !bytes.Equal(out, line) {
				return out
			}
			return line[a:b]
		}
	}
	if out, ok := r.dataLine(line); ok {
		if !bytes.Equal(out, line) {
			return out // the whole line: its value is a secret
		}
		return line[a:b]
	}
	f := Find(line)
	r.startKey(line)
	var out []byte
	pos := a
	for _, x := range f {
		if x.End <= a || x.Start >= b {
			continue
		}
		if x.Start > pos {
			out = append(out, line[pos:x.Start]...)
		}
		m := Marker(x.Rule, line[x.Start:x.End])
		r.count(x.Rule, m)
		out = append(out, m...)
		pos = x.End
	}
	if pos < b {
		out = append(out, line[pos:b]...)
	}
	return out
}
