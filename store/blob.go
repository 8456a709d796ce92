package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// Blob is a stored blob opened for reading. Reads fetch and decompress only the
// frames they touch; each frame is checked against its zstd checksum and length,
// and a read of the whole blob is checked against the blob's BLAKE3 id.
type Blob struct {
	ID   ID
	meta *blobMeta
	// fetch returns frame i's compressed bytes, or its raw bytes when plain.
	fetch   func(i int) ([]byte, error)
	plain   bool // fetch returns raw bytes (a capture's spool, a plain pack)
	spooled bool // fetch reads a capture's own spool: already hashed

	cached int // index of the frame in buf, or -1
	buf    []byte
	// fetchMu serialises fetch: fetchers reuse buffers and reload pack
	// layouts, and DecodeFrame may be called from several goroutines.
	fetchMu sync.Mutex
}

// emptyID is the id of the empty blob, which every store holds implicitly.
var emptyID = Sum(nil)

func emptyBlob() *Blob {
	return &Blob{ID: emptyID, meta: &blobMeta{endsWithNewline: true}, cached: -1,
		fetch: func(int) ([]byte, error) { return nil, ErrRange }}
}

// Blob opens the blob with the given id.
func (s *Store) Blob(id ID) (*Blob, error) {
	if id == emptyID {
		return emptyBlob(), nil
	}
	var meta *blobMeta
	err := s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketBlobs).Get(id[:])
		if v == nil {
			return fmt.Errorf("blob:%s: %w", id.Short(), ErrNotFound)
		}
		var err error
		meta, err = decodeBlobMeta(id, v)
		if err != nil {
			return fmt.Errorf("blob:%s: %w", id.Short(), err)
		}
		return nil
	})
	if isEmpty(err) {
		return nil, fmt.Errorf("blob:%s: %w", id.Short(), ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	b := &Blob{ID: id, meta: meta, cached: -1, plain: meta.Plain}
	if meta.Packed {
		b.fetch = s.packFetcher(id, meta)
		return b, nil
	}
	b.fetch = func(i int) ([]byte, error) {
		var comp []byte
		err := s.view(func(tx *bolt.Tx) error {
			v := tx.Bucket(bucketFrames).Get(frameKey(id, i))
			if v == nil {
				return fmt.Errorf("blob:%s frame %d is missing: %w", id.Short(), i, ErrCorrupt)
			}
			comp = bytes.Clone(v)
			return nil
		})
		return comp, err
	}
	return b, nil
}

// Size is the blob's length in bytes.
func (b *Blob) Size() int64 { return b.meta.Size }

// Lines is the number of lines (see blobMeta.Lines).
func (b *Blob) Lines() int64 { return b.meta.Lines() }

// Frames is the number of frames.
func (b *Blob) Frames() int { return len(b.meta.Frames) }

// frame returns the raw bytes of frame i, valid until the next call.
func (b *Blob) frame(i int) ([]byte, error) {
	if i == b.cached {
		return b.buf, nil
	}
	f := b.meta.Frames[i]
	b.fetchMu.Lock()
	comp, err := b.fetch(i)
	b.fetchMu.Unlock()
	if err != nil {
		return nil, err
	}
	if b.plain {
		b.buf, b.cached = comp, i
		return comp, nil
	}
	out, err := zstdDecoder().DecodeAll(comp, b.buf[:0])
	if err != nil || len(out) != int(f.Len) {
		b.cached = -1
		return nil, damagedBlob(b.ID, fmt.Sprintf("frame %d does not decode to its recorded length", i))
	}
	b.buf, b.cached = out, i
	return out, nil
}

// FrameSpan is frame i's raw byte range [off, end).
func (b *Blob) FrameSpan(i int) (off, end int64) {
	f := b.meta.Frames[i]
	return f.Off, f.Off + int64(f.Len)
}

// FrameAt is the index of the frame holding byte offset off.
func (b *Blob) FrameAt(off int64) int { return b.frameAt(off) }

// DecodeFrame returns frame i's raw bytes, decoded into dst's storage
// (grown as needed) and checked like every read. It keeps no state in b, so
// several goroutines may decode frames of one Blob at once (a parallel
// grep); Section and Reader may not be used meanwhile.
func (b *Blob) DecodeFrame(i int, dst []byte) ([]byte, error) {
	if i < 0 || i >= len(b.meta.Frames) {
		return nil, fmt.Errorf("blob:%s frame %d: %w", b.ID.Short(), i, ErrRange)
	}
	f := b.meta.Frames[i]
	b.fetchMu.Lock()
	comp, err := b.fetch(i)
	if err == nil && b.plain {
		dst = append(dst[:0], comp...) // the spool's fetch reuses its buffer
	}
	b.fetchMu.Unlock()
	if err != nil || b.plain {
		return dst, err
	}
	out, err := zstdDecoder().DecodeAll(comp, dst[:0])
	if err != nil || len(out) != int(f.Len) {
		return nil, damagedBlob(b.ID, fmt.Sprintf("frame %d does not decode to its recorded length", i))
	}
	return out, nil
}

// Verifier checks bytes of a blob read out of band (DecodeFrame) against
// its id: write all of them in order, then Check.
type Verifier struct {
	h    hasher
	id   ID
	skip bool
}

// Verifier returns a Verifier of b's bytes. A capture's own spool was
// hashed as it was written, moments ago, and is not hashed again.
func (b *Blob) Verifier() *Verifier { return &Verifier{h: newHasher(), id: b.ID, skip: b.spooled} }

// Write adds the next bytes of the blob.
func (v *Verifier) Write(p []byte) {
	if !v.skip {
		v.h.Write(p)
	}
}

// Check reports a damaged blob when the bytes written do not hash to its id.
func (v *Verifier) Check() error {
	if v.skip || v.h.Sum() == v.id {
		return nil
	}
	return damagedBlob(v.id, "its bytes do not hash to its id")
}

func damagedBlob(id ID, what string) error {
	return hint(fmt.Errorf("blob:%s: %s: %w", id.Short(), what, ErrCorrupt),
		"the stored copy is damaged; rerun the command to capture it again")
}

// frameAt returns the index of the frame holding byte offset off.
func (b *Blob) frameAt(off int64) int {
	fr := b.meta.Frames
	return sort.Search(len(fr), func(i int) bool { return fr[i].Off+int64(fr[i].Len) > off })
}

// LineOffset returns the byte offset where line n (1-based) starts. Line
// Lines()+1 starts at Size().
func (b *Blob) LineOffset(n int64) (int64, error) {
	if n < 1 || n > b.Lines()+1 {
		return 0, fmt.Errorf("line %d: %w (the content has %d lines)", n, ErrRange, b.Lines())
	}
	if n == 1 {
		return 0, nil
	}
	k := n - 1 // line n starts after the k-th newline
	if k > b.meta.Newlines {
		return b.meta.Size, nil
	}
	fr := b.meta.Frames
	// The last frame with fewer than k newlines before it holds the k-th.
	j := sort.Search(len(fr), func(i int) bool { return fr[i].NL >= k }) - 1
	data, err := b.frame(j)
	if err != nil {
		return 0, err
	}
	pos, ok := afterNewlines(data, k-fr[j].NL)
	if !ok {
		return 0, damagedBlob(b.ID, fmt.Sprintf("frame %d holds fewer newlines than its table says", j))
	}
	return fr[j].Off + int64(pos), nil
}

// afterNewlines returns the offset just past the need-th newline of data. It
// counts whole blocks with bytes.Count (vectorised) and looks for single
// newlines only in the last block: a frame of short lines holds tens of
// thousands, and finding them one by one took most of a `ctx get` of a few
// lines from the middle of a large output.
func afterNewlines(data []byte, need int64) (int, bool) {
	const block = 4 << 10
	pos := 0
	for need > 0 && len(data)-pos > block {
		c := int64(bytes.Count(data[pos:pos+block], newline))
		if c >= need {
			break
		}
		need -= c
		pos += block
	}
	for ; need > 0; need-- {
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			return 0, false
		}
		pos += i + 1
	}
	return pos, true
}

var newline = []byte{'\n'}

// LineRange returns the byte range [off, end) of lines from..to (1-based,
// inclusive). to is clamped to the last line.
func (b *Blob) LineRange(from, to int64) (int64, int64, error) {
	lines := b.Lines()
	if from < 1 || from > lines {
		if lines == 0 {
			return 0, 0, fmt.Errorf("line %d: %w (the content is empty)", from, ErrRange)
		}
		return 0, 0, fmt.Errorf("line %d: %w (the content has lines 1-%d)", from, ErrRange, lines)
	}
	if to < from {
		return 0, 0, fmt.Errorf("lines %d-%d: %w (the last line is before the first)", from, to, ErrRange)
	}
	to = min(to, lines)
	off, err := b.LineOffset(from)
	if err != nil {
		return 0, 0, err
	}
	end, err := b.LineOffset(to + 1)
	if err != nil {
		return 0, 0, err
	}
	return off, end, nil
}

// Section returns a reader of bytes [off, end). It checks frames, not the
// whole-blob hash (use Reader for that).
func (b *Blob) Section(off, end int64) io.Reader {
	return &sectionReader{b: b, off: off, end: min(end, b.meta.Size)}
}

type sectionReader struct {
	b        *Blob
	off, end int64
}

func (r *sectionReader) Read(p []byte) (int, error) {
	if r.off >= r.end {
		return 0, io.EOF
	}
	i := r.b.frameAt(r.off)
	data, err := r.b.frame(i)
	if err != nil {
		return 0, err
	}
	f := r.b.meta.Frames[i]
	lo := r.off - f.Off
	hi := min(int64(len(data)), r.end-f.Off)
	n := copy(p, data[lo:hi])
	r.off += int64(n)
	return n, nil
}

// Reader returns a reader of the whole blob that fails with ErrCorrupt at the
// end if the bytes do not hash to the blob's id.
func (b *Blob) Reader() io.Reader {
	if b.spooled {
		return b.Section(0, b.meta.Size) // hashed as it was spooled, moments ago
	}
	return &verifyingReader{r: b.Section(0, b.meta.Size), h: newHasher(), id: b.ID}
}

type verifyingReader struct {
	r  io.Reader
	h  hasher
	id ID
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	if errors.Is(err, io.EOF) && v.h.Sum() != v.id {
		return n, damagedBlob(v.id, "its bytes do not hash to its id")
	}
	return n, err
}

// ReadAll returns a small blob's bytes, verified.
func (b *Blob) ReadAll() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(b.meta.Size))
	_, err := io.Copy(&buf, b.Reader())
	return buf.Bytes(), err
}

// StoredSize is the compressed size of the blob's frames: what it costs the store.
func (b *Blob) StoredSize() int64 { return compressedSize(b.meta) }

// packFetcher reads frames of a packed blob from its pack file. If the pack
// has been replaced by compaction since the blob was opened, it reloads the
// blob's record once and reads the new generation (frames decompress to the
// same bytes whatever their compression). A blob opened plain gets raw
// bytes either way: a frame of the compacted generation is decoded here.
func (s *Store) packFetcher(id ID, meta *blobMeta) func(int) ([]byte, error) {
	lay := layoutOf(meta)
	wantPlain := meta.Plain
	return func(i int) ([]byte, error) {
		f, err := openPack(s.packFile(id, lay.gen, lay.plain))
		if errors.Is(err, os.ErrNotExist) {
			if fresh, ferr := s.blobMeta(id); ferr == nil && fresh.Packed && fresh.Gen != lay.gen && len(fresh.Frames) == len(lay.offs) && (wantPlain || !fresh.Plain) {
				lay = layoutOf(fresh)
				f, err = openPack(s.packFile(id, lay.gen, lay.plain))
			}
		}
		if err != nil {
			return nil, damagedBlob(id, fmt.Sprintf("its pack file is missing (%v)", err))
		}
		defer f.Close()
		buf := make([]byte, lay.lens[i])
		if _, err := f.ReadAt(buf, lay.offs[i]); err != nil {
			return nil, damagedBlob(id, fmt.Sprintf("its pack file is short (%v)", err))
		}
		switch {
		case lay.plain:
			if frameSum(buf) != lay.sums[i] {
				return nil, damagedBlob(id, fmt.Sprintf("frame %d fails its checksum", i))
			}
		case wantPlain:
			raw, err := zstdDecoder().DecodeAll(buf, nil)
			if err != nil || len(raw) != int(meta.Frames[i].Len) {
				return nil, damagedBlob(id, fmt.Sprintf("frame %d does not decode to its recorded length", i))
			}
			return raw, nil
		}
		return buf, nil
	}
}

// openPack opens a pack file for reading: never through a link, never a
// FIFO or device planted in its place (O_NONBLOCK keeps a FIFO from blocking
// the open; a regular file ignores it).
func openPack(path string) (*os.File, error) {
	f, err := openNoFollow(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := checkOwnedFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// packLayout is where a packed blob's frames sit in its pack file.
type packLayout struct {
	gen   uint64
	plain bool
	offs  []int64
	lens  []uint32
	sums  []uint32 // plain only
}

func layoutOf(m *blobMeta) packLayout {
	lay := packLayout{gen: m.Gen, plain: m.Plain, offs: make([]int64, len(m.Frames)), lens: make([]uint32, len(m.Frames))}
	if m.Plain {
		lay.sums = make([]uint32, len(m.Frames))
	}
	var off int64
	for i, f := range m.Frames {
		if m.Plain {
			lay.offs[i], lay.lens[i], lay.sums[i] = rawBase+f.Off, f.Len, f.Sum
			continue
		}
		lay.offs[i], lay.lens[i] = off, f.CLen
		off += int64(f.CLen)
	}
	return lay
}

// blobMeta reads a blob's record.
func (s *Store) blobMeta(id ID) (*blobMeta, error) {
	var meta *blobMeta
	err := s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketBlobs).Get(id[:])
		if v == nil {
			return fmt.Errorf("blob:%s: %w", id.Short(), ErrNotFound)
		}
		var err error
		meta, err = decodeBlobMeta(id, v)
		return err
	})
	return meta, err
}
