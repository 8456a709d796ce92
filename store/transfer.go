package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Transfer is the surface a tier outside this store (package remote) uses to
// copy runs and blobs out of it and back into it. Nothing is written that has
// not been verified: a blob's frames must decode to bytes that hash to its
// id, a run record must hash to its id and find its blobs stored, a span
// record must match its token.

// FrameTable is a blob's size, line count and frame table as it travels
// between stores: the frames themselves are the zstd frames of the store.
type FrameTable struct {
	Size            int64
	Newlines        int64
	EndsWithNewline bool
	Frames          []FrameInfo
}

// FrameInfo is one frame of a FrameTable: its raw and stored lengths and the
// newlines in the blob before it.
type FrameInfo struct {
	Len, CLen uint32
	NL        int64
}

// Lines is the blob's number of lines (see Blob.Lines).
func (t *FrameTable) Lines() int64 { return t.meta().Lines() }

// StoredSize is the sum of the frames' stored lengths.
func (t *FrameTable) StoredSize() int64 {
	var n int64
	for _, f := range t.Frames {
		n += int64(f.CLen)
	}
	return n
}

func (t *FrameTable) meta() *blobMeta {
	m := &blobMeta{Size: t.Size, Newlines: t.Newlines, endsWithNewline: t.EndsWithNewline}
	var off int64
	for _, f := range t.Frames {
		m.Frames = append(m.Frames, frame{Off: off, Len: f.Len, CLen: f.CLen, NL: f.NL})
		off += int64(f.Len)
	}
	return m
}

func tableOf(m *blobMeta) *FrameTable {
	t := &FrameTable{Size: m.Size, Newlines: m.Newlines, EndsWithNewline: m.endsWithNewline}
	for _, f := range m.Frames {
		t.Frames = append(t.Frames, FrameInfo{Len: f.Len, CLen: f.CLen, NL: f.NL})
	}
	return t
}

// Encode returns the table in the store's checked record format (version 3:
// an xxhash64 of the blob id and the record ends it), so a damaged copy is
// detected by DecodeFrameTable.
func (t *FrameTable) Encode(id ID) []byte { return t.meta().encode(id) }

// DecodeFrameTable decodes and checks a table Encode made for blob id, and
// checks that its frames add up to its size.
func DecodeFrameTable(id ID, b []byte) (*FrameTable, error) {
	m, err := decodeBlobMeta(id, b)
	if err != nil {
		return nil, err
	}
	var sum int64
	for _, f := range m.Frames {
		sum += int64(f.Len)
	}
	if sum != m.Size {
		return nil, fmt.Errorf("blob:%s frame table: frames hold %d bytes, not %d: %w", id.Short(), sum, m.Size, ErrCorrupt)
	}
	return tableOf(m), nil
}

// Table returns the blob's frame table.
func (b *Blob) Table() *FrameTable { return tableOf(b.meta) }

// StoredFrame returns frame i as stored: one zstd frame with its content
// checksum.
// A plain blob's frame (one not compacted yet) is returned as a zstd frame
// of raw blocks.
func (b *Blob) StoredFrame(i int) ([]byte, error) {
	if b.spooled {
		return nil, fmt.Errorf("blob:%s is a capture in progress, not a stored blob", b.ID.Short())
	}
	if i < 0 || i >= len(b.meta.Frames) {
		return nil, fmt.Errorf("blob:%s frame %d: %w", b.ID.Short(), i, ErrRange)
	}
	b.fetchMu.Lock()
	c, err := b.fetch(i)
	b.fetchMu.Unlock()
	if err != nil || !b.plain {
		return c, err
	}
	return rawFrame(nil, c), nil
}

// FramesOf cuts bytes that fit in memory into frames as the store does
// (PutBlob) and returns their table and zstd frames, for a tier that stores
// blobs of its own.
func FramesOf(data []byte) (*FrameTable, [][]byte) {
	m, frames := frameBytes(data)
	return tableOf(m), frames
}

// frameBytes cuts data into frames of about FrameSize (at a newline in the
// last quarter when there is one) and compresses each.
func frameBytes(data []byte) (*blobMeta, [][]byte) {
	meta := &blobMeta{endsWithNewline: len(data) == 0 || data[len(data)-1] == '\n'}
	var frames [][]byte
	enc := zstdEncoder()
	for len(data) > 0 {
		n := min(len(data), FrameSize)
		if n == FrameSize {
			if j := bytes.LastIndexByte(data[FrameSize-frameSlack:FrameSize], '\n'); j >= 0 {
				n = FrameSize - frameSlack + j + 1
			}
		}
		c := enc.EncodeAll(data[:n], nil)
		frames = append(frames, c)
		meta.Frames = append(meta.Frames, frame{Off: meta.Size, Len: uint32(n), CLen: uint32(len(c)), NL: meta.Newlines})
		meta.Size += int64(n)
		meta.Newlines += int64(bytes.Count(data[:n], []byte{'\n'}))
		data = data[n:]
	}
	return meta, frames
}

// TravelFrame returns frame i as one zstd frame for a copy in another tier:
// the frame as stored, except that one the capture stored raw (its
// compressor fell behind a flood) is compressed now, as ctx compact would,
// so no tier keeps a flood's raw frames. A compaction may rewrite the frame
// after the blob was opened, so the copy's table must record the length
// returned here, not the one in Table.
func (b *Blob) TravelFrame(i int) ([]byte, error) {
	c, err := b.StoredFrame(i)
	if err != nil || len(c) <= int(b.meta.Frames[i].Len) {
		return c, err
	}
	raw, err := zstdDecoder().DecodeAll(c, nil)
	if err != nil || len(raw) != int(b.meta.Frames[i].Len) {
		return nil, damagedBlob(b.ID, fmt.Sprintf("frame %d does not decode to its recorded length", i))
	}
	// Compaction's encoder: the capture's fastest one leaves text of high
	// entropy (hashes, hex) at its raw size, this one halves it, at about
	// 100 MiB/s, above a push's upload speed.
	if packed := betterEncoder().EncodeAll(raw, nil); len(packed) < len(c) {
		return packed, nil
	}
	return c, nil
}

// BlobFrom opens a blob whose frames are fetched by fetch (from another
// tier): reads check every frame's zstd checksum and length, and a read of
// the whole blob its BLAKE3 id, as for a stored blob.
func BlobFrom(id ID, t *FrameTable, fetch func(i int) ([]byte, error)) *Blob {
	if id == emptyID {
		return emptyBlob()
	}
	return &Blob{ID: id, meta: t.meta(), fetch: fetch, cached: -1}
}

// HasBlob reports whether blob id is stored.
func (s *Store) HasBlob(id ID) (bool, error) {
	if id == emptyID {
		return true, nil
	}
	_, err := s.blobMeta(id)
	if err == nil {
		return true, nil
	}
	if isEmpty(err) || errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return false, err
}

// PutBlobFrames stores blob id from its frame table and its frames, which
// next returns in order (i = 0, 1, …; each called once), after checking that
// every frame decodes to its recorded length and newlines and that the whole
// decodes to bytes hashing to id. The table's stored lengths are not trusted:
// the record keeps the lengths of the frames received. A blob storing more
// than a pack's threshold is written frame by frame to a pack file of its own,
// as a large capture is, so one frame at a time is held in memory; a smaller
// one goes to the database in one transaction. Nothing of a blob that fails
// a check is kept; a blob already stored is left as it is.
func (s *Store) PutBlobFrames(id ID, t *FrameTable, next func(i int) ([]byte, error)) error {
	if ok, err := s.HasBlob(id); err != nil || ok {
		return err
	}
	v := &frameVerifier{id: id, t: t, meta: t.meta(), h: newHasher()}
	if t.StoredSize() > packBytes {
		return s.putPulledPack(v, next)
	}
	comp := make([][]byte, len(t.Frames))
	for i := range t.Frames {
		c, err := v.frame(i, next)
		if err != nil {
			return err
		}
		comp[i] = c
	}
	if err := v.done(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketBlobs).Get(id[:]) != nil {
			return nil
		}
		for i, c := range comp {
			if err := tx.Bucket(bucketFrames).Put(frameKey(id, i), c); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketBlobs).Put(id[:], v.meta.encode(id))
	})
}

// frameVerifier checks a blob's frames as they arrive from another tier.
type frameVerifier struct {
	id   ID
	t    *FrameTable
	meta *blobMeta // the record to store: stored lengths as received
	h    hasher
	raw  []byte
}

// frame fetches frame i with next and checks it against the table.
func (v *frameVerifier) frame(i int, next func(int) ([]byte, error)) ([]byte, error) {
	c, err := next(i)
	if err != nil {
		return nil, fmt.Errorf("blob:%s frame %d: %w", v.id.Short(), i, err)
	}
	f := v.t.Frames[i]
	v.raw, err = zstdDecoder().DecodeAll(c, v.raw[:0])
	if err != nil || len(v.raw) != int(f.Len) {
		return nil, fmt.Errorf("blob:%s frame %d does not decode to its recorded length: %w", v.id.Short(), i, ErrCorrupt)
	}
	after := v.t.Newlines
	if i+1 < len(v.t.Frames) {
		after = v.t.Frames[i+1].NL
	}
	if after-f.NL != int64(bytes.Count(v.raw, []byte{'\n'})) {
		return nil, fmt.Errorf("blob:%s frame %d does not hold its recorded newlines: %w", v.id.Short(), i, ErrCorrupt)
	}
	v.h.Write(v.raw)
	v.meta.Frames[i].CLen = uint32(len(c))
	return c, nil
}

// done checks the whole blob against its id.
func (v *frameVerifier) done() error {
	if v.h.Sum() != v.id {
		return fmt.Errorf("blob:%s: its frames do not hash to its id: %w", v.id.Short(), ErrCorrupt)
	}
	return nil
}

// putPulledPack streams a blob's checked frames into a new pack file, under a
// temporary name until it is complete and synced, then records it. A crash
// or a failed check leaves at most a temporary file, which gc removes.
func (s *Store) putPulledPack(v *frameVerifier, next func(int) ([]byte, error)) error {
	v.meta.Packed, v.meta.Gen = true, newGen()
	final := s.packPath(v.id, v.meta.Gen)
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return storeErr(dir, "create pack", err)
	}
	tmp := filepath.Join(dir, "."+filepath.Base(final)+".tmp")
	out, err := openNoFollow(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return storeErr(dir, "create pack", err)
	}
	written := tmp // removed unless the record ends up pointing at it
	defer func() {
		out.Close()
		if written != "" {
			os.Remove(written)
		}
	}()
	w := bufio.NewWriterSize(out, 1<<20)
	for i := range v.t.Frames {
		c, err := v.frame(i, next)
		if err != nil {
			return err
		}
		if _, err := w.Write(c); err != nil {
			return storeErr(dir, "write pack", err)
		}
	}
	if err := v.done(); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return storeErr(dir, "write pack", err)
	}
	if err := out.Sync(); err != nil {
		return storeErr(dir, "sync pack", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return storeErr(dir, "store pack", err)
	}
	written = final
	syncDir(dir)
	err = s.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketBlobs).Get(v.id[:]) != nil {
			return nil // stored meanwhile: ours is spare
		}
		written = ""
		return tx.Bucket(bucketBlobs).Put(v.id[:], v.meta.encode(v.id))
	})
	if err != nil {
		written = final
	}
	return err
}

// Blobs lists the blobs the run references (its streams and interleave
// index), without the empty blob, each once.
func (r *Run) Blobs() []ID {
	var out []ID
	seen := map[ID]bool{emptyID: true, {}: true}
	for _, id := range []ID{r.Manifest.Stdin, r.Manifest.Stdout.Blob, r.Manifest.Stderr.Blob, r.Interleave} {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// PutRun stores a run record that came from another tier: it must hash to
// its id, and every blob it references must be stored already. A run
// already stored is left as it is.
func (s *Store) PutRun(run *Run) error {
	if run.Manifest.ID() != run.ID {
		return fmt.Errorf("run:%s record does not hash to its id: %w", run.ID.Short(), ErrCorrupt)
	}
	rb, err := json.Marshal(run)
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		for _, id := range run.Blobs() {
			if tx.Bucket(bucketBlobs).Get(id[:]) == nil {
				return fmt.Errorf("run:%s references blob:%s, which is not stored: %w", run.ID.Short(), id.Short(), ErrNotFound)
			}
		}
		if err := putSmallBlob(tx, emptyID, nil); err != nil {
			return err
		}
		if tx.Bucket(bucketRuns).Get(run.ID[:]) != nil {
			return nil
		}
		return tx.Bucket(bucketRuns).Put(run.ID[:], rb)
	})
}

// PutExecIfAbsent stores an execution record that came from another tier,
// unless one with its key is stored. Its run must be stored.
func (s *Store) PutExecIfAbsent(ex *Exec) error {
	eb, err := json.Marshal(ex)
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketRuns).Get(ex.Run[:]) == nil {
			return fmt.Errorf("execution %s: run:%s is not stored: %w", ex.Key, ex.Run.Short(), ErrNotFound)
		}
		if tx.Bucket(bucketExecs).Get([]byte(ex.Key)) != nil {
			return nil
		}
		return tx.Bucket(bucketExecs).Put([]byte(ex.Key), eb)
	})
}

// AllSpans returns every recorded span, by token.
func (s *Store) AllSpans() (map[ID]Span, error) {
	out := map[ID]Span{}
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSpans).ForEach(func(k, v []byte) error {
			var sp Span
			if json.Unmarshal(v, &sp) == nil && len(k) == len(ID{}) {
				out[ID(k)] = sp
			}
			return nil
		})
	})
	if isEmpty(err) {
		return out, nil
	}
	return out, err
}

// PutSpanRecord stores a span that came from another tier: its run must be
// stored and its token must be the span's own.
func (s *Store) PutSpanRecord(tok ID, sp Span) error {
	run, err := s.GetRun(sp.Run)
	if err != nil {
		return err
	}
	want, err := sp.Token(run)
	if err != nil {
		return err
	}
	if want != tok {
		return fmt.Errorf("span:%s does not match its record: %w", tok.Short(), ErrCorrupt)
	}
	return s.update(func(tx *bolt.Tx) error { return putSpan(tx, tok, sp) })
}

// FastForwardLayerLog brings a layer's append-only log up to rows, the whole
// of another copy of it (oldest first, as stored there): the rows stored here
// must be its first rows, byte for byte, and the rest are appended under the
// next sequence numbers, in one transaction. It returns how many it appended.
// A log holding a row that rows does not is ErrDiverged, and nothing is
// written. The caller checks the rows themselves (a chained log re-derives).
func (s *Store) FastForwardLayerLog(bucket string, rows [][]byte) (int, error) {
	name, err := layerBucket(bucket)
	if err != nil {
		return 0, err
	}
	added := 0
	err = s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(name)
		if err != nil {
			return err
		}
		n := 0
		err = b.ForEach(func(k, v []byte) error {
			if n >= len(rows) || !bytes.Equal(v, rows[n]) || len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(n+1) {
				return fmt.Errorf("%s: row %d here is not row %d of the copy: %w", bucket, n+1, n+1, ErrDiverged)
			}
			n++
			return nil
		})
		if err != nil {
			return err
		}
		if b.Sequence() != uint64(n) {
			return fmt.Errorf("%s: %d rows here, but %d were appended: %w", bucket, n, b.Sequence(), ErrDiverged)
		}
		for i := n; i < len(rows); i++ {
			if err := b.Put(binary.BigEndian.AppendUint64(nil, uint64(i+1)), rows[i]); err != nil {
				return err
			}
		}
		added = len(rows) - n
		return b.SetSequence(uint64(len(rows)))
	})
	return added, err
}
