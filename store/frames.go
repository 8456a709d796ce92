package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
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
	// Sum is the low 32 bits of the xxhash64 of the frame's raw bytes (what a
	// zstd frame's content checksum holds). A plain blob's frames carry no
	// zstd checksum, so its record keeps this one and reads check it.
	Sum uint32
}

// blobMeta is a blob's record: its size, line count and frame table.
type blobMeta struct {
	Size            int64
	Newlines        int64
	endsWithNewline bool // or is empty
	// Packed: the frames live back to back in a pack file (packs/xx/ID.zst),
	// not in the frames bucket. Large blobs are packed: committing them is a
	// rename of the spooled frames, not a copy into the database.
	Packed bool
	Gen    uint64 // pack generation: compaction writes a new pack file
	// Plain: the pack file is the capture's raw spool (rawHeader, then the
	// blob's bytes as the command wrote them), hard-linked into packs/ at
	// commit. Capture then spends no CPU on compression; the background
	// compaction writes the zstd frames as a new generation. Always Packed.
	Plain  bool
	Frames []frame
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

// hasRaw reports whether any frame was stored uncompressed.
func (m *blobMeta) hasRaw() bool {
	if m.Plain {
		return true
	}
	for _, f := range m.Frames {
		if isRawFrame(f) {
			return true
		}
	}
	return false
}

// Blob record versions: 1 frames in the frames bucket, 2 frames in a pack
// file (both read only: older stores); 3 and 4 the same, followed by a
// checksum, so a damaged frame table (a flipped newline count returns the
// wrong lines) is detected instead of trusted; 5 a plain pack (the raw
// spool), each frame's row its raw length, newlines before it and Sum, then
// the same checksum.
const (
	blobMetaVersion              = 1
	blobMetaVersionPacked        = 2
	blobMetaVersionChecked       = 3
	blobMetaVersionPackedChecked = 4
	blobMetaVersionPlainChecked  = 5
)

// encode returns the record of blob id: version 3 or 4, ending with the
// xxhash64 (little-endian) of the blob id followed by everything before it.
func (m *blobMeta) encode(id ID) []byte {
	b := make([]byte, 0, 40+len(m.Frames)*20)
	switch {
	case m.Plain:
		b = append(b, blobMetaVersionPlainChecked)
	case m.Packed:
		b = append(b, blobMetaVersionPackedChecked)
	default:
		b = append(b, blobMetaVersionChecked)
	}
	b = binary.AppendUvarint(b, uint64(m.Size))
	b = binary.AppendUvarint(b, uint64(m.Newlines))
	last := byte(0)
	if m.endsWithNewline {
		last = 1
	}
	b = append(b, last)
	b = binary.AppendUvarint(b, uint64(len(m.Frames)))
	if m.Packed {
		b = binary.AppendUvarint(b, m.Gen)
	}
	for _, f := range m.Frames {
		b = binary.AppendUvarint(b, uint64(f.Len))
		if m.Plain {
			b = binary.AppendUvarint(b, uint64(f.NL))
			b = binary.LittleEndian.AppendUint32(b, f.Sum)
			continue
		}
		b = binary.AppendUvarint(b, uint64(f.CLen))
		b = binary.AppendUvarint(b, uint64(f.NL))
	}
	return binary.LittleEndian.AppendUint64(b, recordSum(id, b))
}

func recordSum(id ID, rec []byte) uint64 {
	d := xxhash.New()
	d.Write(id[:])
	d.Write(rec)
	return d.Sum64()
}

// decodeBlobMeta decodes and checks the record of blob id.
func decodeBlobMeta(id ID, b []byte) (*blobMeta, error) {
	bad := fmt.Errorf("blob:%s record: %w", id.Short(), ErrCorrupt)
	if len(b) < 1 {
		return nil, bad
	}
	var packed, plain bool
	switch b[0] {
	case blobMetaVersion:
	case blobMetaVersionPacked:
		packed = true
	case blobMetaVersionChecked, blobMetaVersionPackedChecked, blobMetaVersionPlainChecked:
		packed = b[0] != blobMetaVersionChecked
		plain = b[0] == blobMetaVersionPlainChecked
		if len(b) < 9 {
			return nil, bad
		}
		body := b[:len(b)-8]
		if binary.LittleEndian.Uint64(b[len(b)-8:]) != recordSum(id, body) {
			return nil, fmt.Errorf("blob:%s record fails its checksum: %w", id.Short(), ErrCorrupt)
		}
		b = body
	default:
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
	m := &blobMeta{Packed: packed, Plain: plain}
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
	if packed {
		if m.Gen, ok = next(); !ok {
			return nil, bad
		}
	}
	m.Frames = make([]frame, count)
	var off, nl int64
	for i := range m.Frames {
		var f frame
		var ok bool
		if plain {
			f, ok = nextPlainRow(&b, next)
		} else {
			f, ok = nextRow(next)
		}
		if !ok || f.NL < nl || f.NL > m.Newlines {
			return nil, bad
		}
		f.Off = off
		m.Frames[i] = f
		off += int64(f.Len)
		nl = f.NL
	}
	if off != m.Size || len(b) != 0 {
		return nil, bad
	}
	return m, nil
}

// nextRow decodes a frame table row of a zstd blob: raw length, stored
// length, newlines before it.
func nextRow(next func() (uint64, bool)) (frame, bool) {
	l, ok1 := next()
	cl, ok2 := next()
	nl, ok3 := next()
	return frame{Len: uint32(l), CLen: uint32(cl), NL: int64(nl)}, ok1 && ok2 && ok3 && l <= 1<<31 && cl <= 1<<31
}

// nextPlainRow decodes a frame table row of a plain blob: raw length,
// newlines before it, Sum. Its stored length is its raw length.
func nextPlainRow(b *[]byte, next func() (uint64, bool)) (frame, bool) {
	l, ok1 := next()
	nl, ok2 := next()
	if !ok1 || !ok2 || len(*b) < 4 || l > 1<<31 {
		return frame{}, false
	}
	sum := binary.LittleEndian.Uint32(*b)
	*b = (*b)[4:]
	return frame{Len: uint32(l), CLen: uint32(l), NL: int64(nl), Sum: sum}, true
}

// frameSum is a frame's Sum.
func frameSum(raw []byte) uint32 { return uint32(xxhash.Sum64(raw)) }

// packSize is the size of a packed blob's pack file.
func packSize(m *blobMeta) int64 {
	if m.Plain {
		return rawBase + m.Size
	}
	return compressedSize(m)
}

var (
	betterOnce  sync.Once
	better      *zstd.Encoder
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

// betterEncoder compresses harder, for work no command waits on (compaction).
func betterEncoder() *zstd.Encoder {
	betterOnce.Do(func() {
		var err error
		better, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
			zstd.WithEncoderCRC(true),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(FrameSize*2))
		if err != nil {
			panic(err)
		}
	})
	return better
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

// rawFrame appends src to dst as a zstd frame of raw (uncompressed) blocks
// with a content checksum: as cheap to write as a copy, and readable by any
// zstd decoder. The framer writes these when compression falls behind a fast
// producer, so capture never waits for the compressor; gc compresses them later.
func rawFrame(dst, src []byte) []byte {
	dst = append(dst, 0x28, 0xb5, 0x2f, 0xfd) // magic
	// Frame header: 4-byte content size, single segment (the window is the
	// content), content checksum, no dictionary.
	dst = append(dst, 0xa4)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
	const maxBlock = 128 << 10
	for off := 0; ; {
		n := min(len(src)-off, maxBlock)
		last := uint32(0)
		if off+n == len(src) {
			last = 1
		}
		h := last | uint32(n)<<3 // block type 0: raw
		dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
		dst = append(dst, src[off:off+n]...)
		off += n
		if last == 1 {
			break
		}
	}
	return binary.LittleEndian.AppendUint32(dst, uint32(xxhash.Sum64(src)))
}

// isRawFrame reports whether a frame was stored uncompressed.
func isRawFrame(f frame) bool { return f.CLen > f.Len }

// job is one frame on its way to the compressor.
type job struct {
	buf   []byte
	raw   bool // store uncompressed: the compressor is behind
	plain bool // leave the frame in the raw spool (see framer.plainFrom)
}

// framer cuts a byte stream into frames, compresses them on its own goroutine
// (in order) and appends the compressed frames to a file. It also hashes the
// stream, so the reader goroutine that feeds it only copies bytes. When the
// compressor falls behind a fast producer, frames are stored raw rather than
// making the capture wait (unless block is set: ingest and recovery, where no
// command is waiting, always compress).
//
// A capture's framer goes plain once plainFrom bytes have passed: from then
// on it only hashes, counts and checksums the frames, which stay where the
// capture wrote them, in the raw spool, and the blob is committed as a plain
// pack (that spool file, hard-linked). A flood then costs one write of its
// bytes, not two, and no compression while the command runs; the background
// compaction builds the zstd frames afterwards.
type framer struct {
	cur   []byte
	block bool
	work  chan job
	free  chan []byte
	done  chan struct{}

	// Owned by the feeding goroutine.
	plainFrom int64 // 0: never plain
	fed       int64 // bytes handed to the compressor
	wentPlain bool  // a plain job was sent
	ended     bool  // work is closed (finish or stop)

	rawSpool *os.File      // the raw spool the plain frames stay in, for its writeback
	rawRead  *atomic.Int64 // how far the raw spool has been read back (StreamWriter.read)
	rawWB    *writebacker  // the raw spool's, from the first plain frame

	// Owned by the compressor goroutine until done is closed.
	out      *os.File
	outWB    *writebacker // out's, from its first frame
	written  int64        // bytes written to out
	plain    bool
	hash     hasher
	meta     blobMeta
	lastByte byte
	err      error
}

// backlog is how many frames may wait for the compressor before further ones
// are stored raw.
const backlog = 1

// plainFrom is where a capture's stream goes plain. Below it a stream is
// compressed as it arrives (most outputs: small, stored in the database);
// it is at least twice packBytes, so every plain blob is packed.
const plainFrom = 16 << 20

func newFramer(out *os.File, block bool) *framer {
	f := makeFramer(out, block)
	go f.compress()
	return f
}

// newPlainFramer is newFramer for a capture whose raw bytes go to rawSpool
// (written by the caller before they are given to Write): it goes plain
// after plainFrom bytes. read is how far rawSpool has been read back: its
// writeback releases the pages on disk up to there.
func newPlainFramer(out, rawSpool *os.File, read *atomic.Int64) *framer {
	f := makeFramer(out, false)
	f.plainFrom, f.rawSpool, f.rawRead = plainFrom, rawSpool, read
	go f.compress()
	return f
}

func makeFramer(out *os.File, block bool) *framer {
	f := &framer{
		block: block,
		work:  make(chan job, backlog+2),
		free:  make(chan []byte, backlog+4),
		done:  make(chan struct{}),
		out:   out,
		hash:  newHasher(),
	}
	for range backlog + 3 {
		f.free <- make([]byte, 0, FrameSize)
	}
	f.cur = <-f.free
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
	f.send(full[:at])
	f.cur = next
}

// send hands one frame to the compressor.
func (f *framer) send(buf []byte) {
	j := job{buf: buf, raw: !f.block && len(f.work) >= backlog}
	if f.plainFrom > 0 && f.fed >= f.plainFrom {
		j.plain, f.wentPlain = true, true
	}
	f.fed += int64(len(buf))
	if j.plain && f.rawSpool != nil {
		// The caller wrote these bytes to the raw spool before giving them
		// to Write: their writeback can start now.
		if f.rawWB == nil {
			f.rawWB = newWritebacker(f.rawSpool, f.rawRead)
		}
		f.rawWB.advance(rawBase + f.fed)
	}
	f.work <- j
}

// finish flushes the last frame and waits for the compressor. It returns the
// blob's id and frame table.
func (f *framer) finish() (ID, *blobMeta, error) {
	if len(f.cur) > 0 {
		f.send(f.cur)
	}
	f.ended = true
	close(f.work)
	<-f.done
	if f.err != nil {
		return ID{}, nil, f.err
	}
	f.meta.endsWithNewline = f.meta.Size == 0 || f.lastByte == '\n'
	if f.plain {
		// Every frame, compressed ones included, is read from the raw spool
		// (packed at commit: putPack).
		f.meta.Plain = true
		for i := range f.meta.Frames {
			f.meta.Frames[i].CLen = f.meta.Frames[i].Len
		}
	}
	return f.hash.Sum(), &f.meta, nil
}

// stop ends the compressor goroutine (and with it the writeback goroutines)
// of a stream that is dropped rather than finished: an aborted capture, or
// one left in its spool for recovery. Bytes not yet handed over are not
// framed; the raw spool keeps them. It does nothing after finish.
func (f *framer) stop() {
	if f.ended {
		return
	}
	f.ended = true
	close(f.work)
	<-f.done
}

func (f *framer) compress() {
	defer close(f.done)
	defer func() {
		// finish closed work after its last send: rawWB is this
		// goroutine's to stop now.
		f.outWB.close()
		f.rawWB.close()
	}()
	var enc *zstd.Encoder // built on the first frame: an empty stream costs nothing
	var dst []byte
	for j := range f.work {
		raw := j.buf
		if f.err == nil && len(raw) > 0 {
			f.hash.Write(raw)
			if j.plain && !f.plain {
				f.plain = true
				f.dropFrames()
			}
			clen := len(raw)
			if !f.plain {
				if j.raw {
					dst = rawFrame(dst[:0], raw)
				} else {
					if enc == nil {
						enc = zstdEncoder()
					}
					dst = enc.EncodeAll(raw, dst[:0])
				}
				f.writeFrame(dst)
				clen = len(dst)
			}
			f.meta.Frames = append(f.meta.Frames, frame{Off: f.meta.Size, Len: uint32(len(raw)), CLen: uint32(clen), NL: f.meta.Newlines, Sum: frameSum(raw)})
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

// dropFrames empties out when the stream goes plain: every frame is then
// read from the raw spool (finish), so the frames compressed so far are
// never read. Emptied now, while the command runs, their pages are neither
// written to disk nor left for the spool's release to free after the
// command has ended. A stream that passes its cap after going plain is
// framed again from the raw spool (StreamWriter.reframe).
func (f *framer) dropFrames() {
	f.outWB.close()
	f.outWB = nil
	if err := f.out.Truncate(0); err != nil {
		f.err = fmt.Errorf("write spool %s: %w", f.out.Name(), err)
	}
}

// writeFrame appends a compressed frame to out.
func (f *framer) writeFrame(dst []byte) {
	if _, err := f.out.Write(dst); err != nil {
		f.err = fmt.Errorf("write spool %s: %w", f.out.Name(), err)
	}
	f.written += int64(len(dst))
	if f.outWB == nil && f.written >= writeback {
		f.outWB = newWritebacker(f.out, nil)
	}
	if f.outWB != nil {
		f.outWB.advance(f.written)
	}
}
