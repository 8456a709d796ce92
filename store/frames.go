package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Blob layout: a blob's raw bytes are cut into frames of about FrameSize bytes
// (at the last newline before the limit when one lies within the last quarter,
// else exactly at the limit), each compressed as an independent zstd frame with a
// content checksum. The frame table records each frame's raw offset, raw and
// compressed lengths and the number of newlines before it, so a line or byte
// range is read by decompressing only the frames it touches.
const (
	FrameSize  = 256 << 10
	frameSlack = FrameSize / 4
)

// frame is one row of a blob's frame table.
type frame struct {
	Off  int64  // raw offset of the frame's first byte
	Len  uint32 // raw length
	CLen uint32 // compressed length
	NL   int64  // newlines in the blob before this frame
}

// blobMeta is a blob's record: its size, line count and frame table.
type blobMeta struct {
	Size            int64
	Newlines        int64
	endsWithNewline bool // or is empty
	Frames          []frame
}

// Lines is the number of lines: every newline ends one, and bytes after the
// last newline form one more.
func (m *blobMeta) Lines() int64 {
	if m.Size == 0 {
		return 0
	}
	n := m.Newlines
	if !m.endsWithNewline {
		n++
	}
	return n
}

const blobMetaVersion = 1

func (m *blobMeta) encode() []byte {
	b := make([]byte, 0, 32+len(m.Frames)*20)
	b = append(b, blobMetaVersion)
	b = binary.AppendUvarint(b, uint64(m.Size))
	b = binary.AppendUvarint(b, uint64(m.Newlines))
	last := byte(0)
	if m.endsWithNewline {
		last = 1
	}
	b = append(b, last)
	b = binary.AppendUvarint(b, uint64(len(m.Frames)))
	for _, f := range m.Frames {
		b = binary.AppendUvarint(b, uint64(f.Len))
		b = binary.AppendUvarint(b, uint64(f.CLen))
		b = binary.AppendUvarint(b, uint64(f.NL))
	}
	return b
}

func decodeBlobMeta(b []byte) (*blobMeta, error) {
	bad := fmt.Errorf("blob record: %w", ErrCorrupt)
	if len(b) < 1 || b[0] != blobMetaVersion {
		return nil, bad
	}
	b = b[1:]
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	m := &blobMeta{}
	size, ok1 := next()
	nls, ok2 := next()
	if !ok1 || !ok2 || len(b) < 1 {
		return nil, bad
	}
	m.Size, m.Newlines = int64(size), int64(nls)
	m.endsWithNewline = b[0] == 1
	b = b[1:]
	count, ok := next()
	if !ok || count > uint64(len(b)) {
		return nil, bad
	}
	m.Frames = make([]frame, count)
	var off int64
	for i := range m.Frames {
		l, ok1 := next()
		cl, ok2 := next()
		nl, ok3 := next()
		if !ok1 || !ok2 || !ok3 {
			return nil, bad
		}
		m.Frames[i] = frame{Off: off, Len: uint32(l), CLen: uint32(cl), NL: int64(nl)}
		off += int64(l)
	}
	if off != m.Size {
		return nil, bad
	}
	return m, nil
}

var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
	decoderOnce sync.Once
	decoder     *zstd.Decoder
)

// zstdEncoder returns the shared encoder. EncodeAll is safe for concurrent use.
func zstdEncoder() *zstd.Encoder {
	encoderOnce.Do(func() {
		var err error
		encoder, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderCRC(true),
			zstd.WithEncoderConcurrency(1),
			zstd.WithLowerEncoderMem(true),
			zstd.WithWindowSize(FrameSize*2))
		if err != nil {
			panic(err) // options are constant; an error here is a programming error
		}
	})
	return encoder
}

// zstdDecoder returns the shared decoder. DecodeAll is safe for concurrent use.
func zstdDecoder() *zstd.Decoder {
	decoderOnce.Do(func() {
		var err error
		decoder, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(4*FrameSize))
		if err != nil {
			panic(err)
		}
	})
	return decoder
}

// framer cuts a byte stream into frames, compresses them on its own goroutine
// (in order) and appends the compressed frames to a file. It also hashes the
// stream, so the reader goroutine that feeds it only copies bytes.
type framer struct {
	cur  []byte
	work chan []byte
	free chan []byte
	done chan struct{}

	// Owned by the compressor goroutine until done is closed.
	out      *os.File
	hash     hasher
	meta     blobMeta
	lastByte byte
	err      error
}

func newFramer(out *os.File) *framer {
	f := &framer{
		work: make(chan []byte, 2),
		free: make(chan []byte, 4),
		done: make(chan struct{}),
		out:  out,
		hash: newHasher(),
	}
	for range 3 {
		f.free <- make([]byte, 0, FrameSize)
	}
	f.cur = <-f.free
	go f.compress()
	return f
}

// Write appends p to the stream. It never fails: errors surface in finish.
func (f *framer) Write(p []byte) {
	for len(p) > 0 {
		room := FrameSize - len(f.cur)
		if room > len(p) {
			f.cur = append(f.cur, p...)
			return
		}
		f.cur = append(f.cur, p[:room]...)
		p = p[room:]
		f.cut()
	}
}

// cut hands a full buffer to the compressor, carrying the bytes after the
// chosen cut point into the next buffer.
func (f *framer) cut() {
	full := f.cur
	at := len(full)
	if i := bytes.LastIndexByte(full[len(full)-frameSlack:], '\n'); i >= 0 {
		at = len(full) - frameSlack + i + 1
	}
	next := <-f.free
	next = append(next[:0], full[at:]...)
	f.work <- full[:at]
	f.cur = next
}

// finish flushes the last frame and waits for the compressor. It returns the
// blob's id and frame table.
func (f *framer) finish() (ID, *blobMeta, error) {
	if len(f.cur) > 0 {
		f.work <- f.cur
	}
	close(f.work)
	<-f.done
	if f.err != nil {
		return ID{}, nil, f.err
	}
	f.meta.endsWithNewline = f.meta.Size == 0 || f.lastByte == '\n'
	return f.hash.Sum(), &f.meta, nil
}

func (f *framer) compress() {
	defer close(f.done)
	var enc *zstd.Encoder // built on the first frame: an empty stream costs nothing
	var dst []byte
	for raw := range f.work {
		if f.err == nil && len(raw) > 0 {
			if enc == nil {
				enc = zstdEncoder()
			}
			f.hash.Write(raw)
			dst = enc.EncodeAll(raw, dst[:0])
			if _, err := f.out.Write(dst); err != nil {
				f.err = fmt.Errorf("write spool %s: %w", f.out.Name(), err)
			}
			f.meta.Frames = append(f.meta.Frames, frame{Off: f.meta.Size, Len: uint32(len(raw)), CLen: uint32(len(dst)), NL: f.meta.Newlines})
			f.meta.Size += int64(len(raw))
			f.meta.Newlines += int64(bytes.Count(raw, []byte{'\n'}))
			f.lastByte = raw[len(raw)-1]
		}
		select {
		case f.free <- raw[:0]:
		default:
		}
	}
}
