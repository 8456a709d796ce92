package retrieve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// Region is a resolved, readable range of stored content: a run's stream
// (or its merged view) or a blob, whole or a line or byte range of it.
type Region struct {
	handle string // canonical handle of the whole stream or blob
	blob   *store.Blob
	// A merged view has no random access: openMerged reads it from the
	// start, and the region is its bytes [mStart, mEnd).
	openMerged   func() (io.Reader, error)
	mStart, mEnd int64
	unit         byte  // 'L', 'B' or 0 (all)
	from, to     int64 // lines (inclusive) or bytes [from, to)
	size         int64 // bytes in the region
	lineN        int64 // lines in the region (0 if unknown)
	// unordered: a merged view of a run whose capture recorded no arrival
	// order (ingested files): stdout, then stderr.
	unordered bool
	// Reveal gives secrets as stored (a person at a terminal asked);
	// otherwise every reader redacts them.
	Reveal bool
}

// Open resolves the range rng (zero: all) of what a target names. Only run
// and blob targets name bytes.
func Open(st *store.Store, t *store.Target, rng store.Range) (*Region, error) {
	return OpenWith(st, t, rng, st.Blob)
}

// OpenWith is Open reading the target's blob through openBlob (the remote
// tier reads a blob too large to cache from the bucket, frame by frame).
func OpenWith(st *store.Store, t *store.Target, rng store.Range, openBlob func(store.ID) (*store.Blob, error)) (*Region, error) {
	reg := &Region{unit: rng.Unit}
	var blobID store.ID
	switch t.Kind {
	case "run":
		stream := t.Stream
		if stream == "" {
			stream = t.Run.DefaultStream()
		}
		reg.handle = t.Run.Handle() + "#" + stream
		if stream == "merged" {
			run := t.Run
			open := func() (io.Reader, error) {
				r, _, err := store.MergedWith(run, openBlob)
				return r, err
			}
			// An ingested run's index only records the order ctx read
			// the files in, not the order a program wrote them.
			m := run.Manifest
			ordered := !run.Interleave.IsZero() || m.Stdout.Size == 0 || m.Stderr.Size == 0
			reg.unordered = !ordered || m.Mode == "ingest" && m.Stdout.Size > 0 && m.Stderr.Size > 0
			return mergedRegion(reg, open, rng, m.Stdout.Size+m.Stderr.Size)
		}
		ref, _ := t.Run.StreamBlob(stream)
		blobID = ref.Blob
	case "blob":
		blobID = t.ID
		reg.handle = store.HandleOf(store.KindBlob, t.ID)
	default:
		return nil, fmt.Errorf("%s handles name no bytes", t.Kind)
	}
	b, err := openBlob(blobID)
	if err != nil {
		return nil, err
	}
	reg.blob = b
	switch rng.Unit {
	case 'L':
		to := rng.To
		if to == 0 {
			to = b.Lines()
		}
		off, end, err := b.LineRange(rng.From, to)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", reg.handle, err)
		}
		reg.from, reg.to = rng.From, min(to, b.Lines())
		reg.size = end - off
		reg.lineN = reg.to - reg.from + 1
	case 'B':
		to := rng.To // B0-0 is empty: the end is excluded
		if to < 0 {
			to = b.Size()
		}
		if rng.From > b.Size() {
			return nil, fmt.Errorf("%s: byte %d: %w (the content has %d bytes)", reg.handle, rng.From, store.ErrRange, b.Size())
		}
		reg.from, reg.to = rng.From, min(to, b.Size())
		reg.size = reg.to - reg.from
	default:
		reg.unit, reg.from, reg.to = 'L', 1, b.Lines()
		reg.size, reg.lineN = b.Size(), b.Lines()
		if b.Size() == 0 {
			reg.from = 0
		}
	}
	return reg, nil
}

// mergedRegion selects from a merged view. It reads the view once to find
// where the selection starts and ends, keeping nothing; the bytes are read
// again, streamed, when printed — so any region of any size is printed in
// bounded memory.
func mergedRegion(reg *Region, open func() (io.Reader, error), rng store.Range, total int64) (*Region, error) {
	reg.openMerged = open
	if rng.Unit == 'B' {
		// The merged view holds every byte of both streams.
		if rng.From > total {
			return nil, fmt.Errorf("%s: byte %d: %w (the content has %d bytes)", reg.handle, rng.From, store.ErrRange, total)
		}
		to := rng.To
		if to < 0 || to > total {
			to = total
		}
		reg.from, reg.to = rng.From, to
		reg.mStart, reg.mEnd = rng.From, to
		reg.size = to - rng.From
		return reg, nil
	}
	from, to := int64(1), int64(0)
	if rng.Unit == 'L' {
		from, to = rng.From, rng.To
	}
	r, err := open()
	if err != nil {
		return nil, err
	}
	start, end, n, err := scanLines(r, from, to)
	if err != nil {
		return nil, err
	}
	if from > n && !(from == 1 && n == 0) {
		return nil, fmt.Errorf("%s: line %d: %w (the content has %d lines)", reg.handle, from, store.ErrRange, n)
	}
	reg.unit, reg.from, reg.to = 'L', from, max(from, min(to, n))
	if to == 0 {
		reg.to = n
	}
	reg.lineN = reg.to - reg.from + 1
	if n == 0 {
		reg.from, reg.lineN = 0, 0
	}
	reg.mStart, reg.mEnd = start, end
	reg.size = end - start
	return reg, nil
}

// scanLines reads r to find the byte offsets [start, end) of lines from..to
// (1-based, inclusive; to 0 for the last line) and the number of lines it
// read: all of them, or up to line to. Memory use is one buffer.
func scanLines(r io.Reader, from, to int64) (start, end, n int64, err error) {
	buf := make([]byte, 64<<10)
	var pos, nl int64
	var last byte
	for {
		k, rerr := r.Read(buf)
		chunk := buf[:k]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				break
			}
			nl++
			lineEnd := pos + int64(i) + 1
			if nl == from-1 {
				start = lineEnd
			}
			if to > 0 && nl == to {
				return start, lineEnd, nl, nil
			}
			pos = lineEnd
			chunk = chunk[i+1:]
		}
		pos += int64(len(chunk))
		if k > 0 {
			last = buf[k-1]
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return 0, 0, 0, rerr
		}
	}
	n = nl
	if pos > 0 && last != '\n' {
		n++ // bytes after the last newline form one more line
	}
	if from > n {
		start = pos
	}
	return start, pos, n, nil
}

// Reader returns the region's bytes, secrets redacted unless revealed.
func (reg *Region) Reader() (io.Reader, error) {
	r, err := reg.rawReader()
	if err != nil || reg.Reveal {
		return r, err
	}
	if reg.unit == 'B' && reg.blob != nil {
		return secrets.RedactSection(reg.blob, reg.from, reg.to)
	}
	red := secrets.NewReader(r)
	if err := reg.prime(&red.Redactor); err != nil {
		return nil, err
	}
	return red, nil
}

// rawReader returns the region's bytes as stored.
func (reg *Region) rawReader() (io.Reader, error) {
	if reg.openMerged != nil {
		r, err := reg.openMerged()
		if err != nil {
			return nil, err
		}
		if _, err := io.CopyN(io.Discard, r, reg.mStart); err != nil {
			return nil, err
		}
		return io.LimitReader(r, reg.mEnd-reg.mStart), nil
	}
	if reg.unit == 'B' {
		return reg.blob.Section(reg.from, reg.to), nil
	}
	if reg.from == 0 {
		return bytes.NewReader(nil), nil
	}
	if reg.from == 1 && reg.to >= reg.blob.Lines() {
		return reg.blob.Reader(), nil // the whole blob: verified against its id
	}
	off, end, err := reg.blob.LineRange(reg.from, reg.to)
	if err != nil {
		return nil, err
	}
	return reg.blob.Section(off, end), nil
}

// Copy writes the region's bytes (redacted unless revealed) to w.
func (reg *Region) Copy(w io.Writer) error {
	r, err := reg.Reader()
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return err
}

// Describe is the region's handle with its range (run:ID#stdout:L1-40).
func (reg *Region) Describe() string {
	switch reg.unit {
	case 'B':
		return fmt.Sprintf("%s:B%d-%d", reg.handle, reg.from, reg.to)
	}
	return fmt.Sprintf("%s:L%d-%d", reg.handle, reg.from, reg.to)
}

// ParseSelector reads "A:B", "A:", ":B" or "A" into a range.
func ParseSelector(s string, unit byte) (store.Range, error) {
	a, b, colon := strings.Cut(s, ":")
	num := func(x string, def int64) (int64, error) {
		if x == "" {
			return def, nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a number", x)
		}
		return n, nil
	}
	if unit == 'L' {
		from, err := num(a, 1)
		if err != nil {
			return store.Range{}, err
		}
		if from < 1 {
			return store.Range{}, fmt.Errorf("lines are numbered from 1")
		}
		to := from
		if colon {
			if to, err = num(b, 0); err != nil {
				return store.Range{}, err
			}
			if to != 0 && to < from {
				return store.Range{}, fmt.Errorf("%s: the end is before the start", s)
			}
		}
		return store.Range{Unit: 'L', From: from, To: to}, nil
	}
	from, err := num(a, 0)
	if err != nil {
		return store.Range{}, err
	}
	if !colon {
		return store.Range{}, fmt.Errorf("%s: want A:B, A: or :B", s)
	}
	to, err := num(b, -1)
	if err != nil {
		return store.Range{}, err
	}
	if to != -1 && to < from {
		return store.Range{}, fmt.Errorf("%s: the end is before the start", s)
	}
	return store.Range{Unit: 'B', From: from, To: to}, nil
}

// ParseRange is the range selected by a handle h and the --lines/--bytes
// selectors (at most one of them, and none when the handle has a range).
func ParseRange(h store.Handle, lines, bytes string) (store.Range, error) {
	if lines != "" && bytes != "" {
		return store.Range{}, &UsageError{errors.New("give --lines or --bytes, not both")}
	}
	if (lines != "" || bytes != "") && !h.Range.IsZero() {
		return store.Range{}, &UsageError{fmt.Errorf("the handle already selects %s; drop it or the --lines/--bytes flag", h.Range)}
	}
	switch {
	case lines != "":
		r, err := ParseSelector(lines, 'L')
		if err != nil {
			return r, &UsageError{fmt.Errorf("--lines: %w", err)}
		}
		return r, nil
	case bytes != "":
		r, err := ParseSelector(bytes, 'B')
		if err != nil {
			return r, &UsageError{fmt.Errorf("--bytes: %w", err)}
		}
		return r, nil
	}
	return store.Range{}, nil
}
