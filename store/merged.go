package store

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Merged returns a reader of a run's two streams interleaved in the order the
// bytes arrived. When the arrival order is unknown (one stream was empty, or the
// run was recovered after a crash) it reads stdout, then stderr, and ordered
// reports false.
func (s *Store) Merged(run *Run) (r io.Reader, ordered bool, err error) {
	return MergedWith(run, s.Blob)
}

// MergedWith is Merged with the run's blobs opened by open (a run read in
// place from another tier).
func MergedWith(run *Run, open func(ID) (*Blob, error)) (r io.Reader, ordered bool, err error) {
	out, err := open(run.Manifest.Stdout.Blob)
	if err != nil {
		return nil, false, err
	}
	errb, err := open(run.Manifest.Stderr.Blob)
	if err != nil {
		return nil, false, err
	}
	if run.Interleave.IsZero() {
		return io.MultiReader(out.Reader(), errb.Reader()), run.Manifest.Stdout.Size == 0 || run.Manifest.Stderr.Size == 0, nil
	}
	ib, err := open(run.Interleave)
	if err != nil {
		return nil, false, err
	}
	index, err := ib.ReadAll()
	if err != nil {
		return nil, false, err
	}
	return &mergedReader{index: index, streams: [3]io.Reader{nil, out.Reader(), errb.Reader()}}, true, nil
}

type mergedReader struct {
	index   []byte
	streams [3]io.Reader
	cur     io.Reader
	left    uint64
	tail    bool
}

func (m *mergedReader) Read(p []byte) (int, error) {
	for m.left == 0 {
		if len(m.index) == 0 {
			if m.tail {
				return 0, io.EOF
			}
			// Whatever the index did not cover (it is flushed in blocks) follows.
			m.tail = true
			m.cur = io.MultiReader(m.streams[1], m.streams[2])
			m.left = ^uint64(0)
			break
		}
		code := m.index[0]
		n, k := binary.Uvarint(m.index[1:])
		if k <= 0 || code < 1 || code > 2 {
			return 0, fmt.Errorf("interleave index: %w", ErrCorrupt)
		}
		m.index = m.index[1+k:]
		m.cur, m.left = m.streams[code], n
	}
	if uint64(len(p)) > m.left {
		p = p[:m.left]
	}
	n, err := m.cur.Read(p)
	m.left -= uint64(n)
	if err == io.EOF {
		if m.tail {
			return n, io.EOF
		}
		// A stream ended before its recorded length: the index overstates it.
		m.left = 0
		err = nil
		if n == 0 {
			return m.Read(p)
		}
	}
	return n, err
}
