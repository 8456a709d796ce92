// Package readahead reads a stream ahead of its consumer on another
// goroutine, so producing the bytes (decompressing and redacting stored
// frames) and consuming them (matching lines) run on two cores at once.
// Memory is bounded: at most depth chunks are in flight. It never reorders,
// drops or alters bytes.
package readahead

import (
	"io"
	"sync"
)

// Reader is an io.ReadCloser over the chunks a goroutine reads from src.
type Reader struct {
	chunks chan []byte
	free   chan []byte
	stop   chan struct{}
	once   sync.Once
	cur    []byte // the chunk being consumed
	held   []byte // cur's whole buffer, returned to free when consumed
	err    error  // src's error, set before chunks is closed
}

// New starts reading src in chunks of size bytes, with up to depth chunks
// read ahead. Close stops the goroutine (it returns after its current read).
func New(src io.Reader, size, depth int) *Reader {
	r := &Reader{chunks: make(chan []byte, depth), free: make(chan []byte, depth+1), stop: make(chan struct{})}
	for range depth + 1 {
		r.free <- make([]byte, size)
	}
	go r.fill(src)
	return r
}

func (r *Reader) fill(src io.Reader) {
	defer close(r.chunks)
	for {
		var buf []byte
		select {
		case buf = <-r.free:
		case <-r.stop:
			return
		}
		n, err := io.ReadFull(src, buf)
		if n > 0 {
			select {
			case r.chunks <- buf[:n]:
			case <-r.stop:
				return
			}
		}
		if err != nil {
			if err != io.ErrUnexpectedEOF && err != io.EOF {
				r.err = err
			}
			return
		}
	}
}

// Read returns the bytes in order; at the end, src's error or io.EOF.
func (r *Reader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.held != nil {
			r.free <- r.held[:cap(r.held)]
			r.held = nil
		}
		c, ok := <-r.chunks
		if !ok {
			if r.err != nil {
				return 0, r.err
			}
			return 0, io.EOF
		}
		r.cur, r.held = c, c
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// Close stops reading ahead.
func (r *Reader) Close() error {
	r.once.Do(func() { close(r.stop) })
	return nil
}
