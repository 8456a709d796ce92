package store

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Compact deletes the large spool files committed runs left in the trash,
// then recompresses every blob holding frames that a flood left stored raw.
// It returns how many blobs it compacted and the bytes saved. It is safe to
// run beside other ctx processes: it holds the maintenance lease, and returns
// ErrBusy at once when another gc or compaction holds it.
func (s *Store) Compact() (int, int64, error) {
	// Large spool files of committed runs first: deleting them is the
	// cheapest thing a background job does for the disk.
	s.sweepTrash()
	release, err := s.lease(false)
	if err != nil {
		return 0, 0, err
	}
	defer release()
	return s.compactAll()
}

// HasRaw reports whether the pending run's streams hold frames stored raw,
// or are plain (so a compaction is worth starting once it is committed).
func (p *Pending) HasRaw() bool {
	for _, fs := range p.streams {
		if fs.meta != nil && fs.meta.hasRaw() {
			return true
		}
	}
	return false
}

// compactAll recompresses every blob that holds raw frames. The caller holds
// the maintenance lease.
func (s *Store) compactAll() (int, int64, error) {
	var ids []ID
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
			if len(k) != 32 {
				return nil
			}
			if m, err := decodeBlobMeta(ID(k), v); err == nil && m.hasRaw() {
				ids = append(ids, ID(k))
			}
			return nil
		})
	})
	if err != nil {
		if isEmpty(err) {
			return 0, 0, nil
		}
		return 0, 0, err
	}
	var n int
	var saved int64
	for _, id := range ids {
		b, err := s.compact(id)
		if err != nil {
			return n, saved, err
		}
		n++
		saved += b
	}
	return n, saved, nil
}

// compact recompresses one blob's raw frames. A blob in the frames bucket is
// rewritten in one transaction; a packed blob gets a new pack generation,
// written and synced before the record points at it, so a crash leaves the old
// generation in use and the new one an orphan.
func (s *Store) compact(id ID) (int64, error) {
	b, err := s.Blob(id)
	if err != nil {
		return 0, err
	}
	meta := b.meta
	// The record as stored, for the compare-and-swap (an older version
	// of the record encodes differently from meta.encode).
	var stored []byte
	if err := s.view(func(tx *bolt.Tx) error {
		stored = bytes.Clone(tx.Bucket(bucketBlobs).Get(id[:]))
		return nil
	}); err != nil {
		return 0, err
	}
	if !meta.Packed {
		return s.compactFrames(b, stored)
	}
	return s.compactPack(b, stored)
}

// compactFrames recompresses the raw frames of a blob kept in the frames
// bucket, and rewrites them and its record in one transaction if the record
// is still stored (as stored).
func (s *Store) compactFrames(b *Blob, stored []byte) (int64, error) {
	id, meta := b.ID, b.meta
	before := compressedSize(meta)
	enc := betterEncoder() // nobody waits on compaction
	// Compress first (reads take the store's lock), then write all at once.
	packedFrames := map[int][]byte{}
	for i, f := range meta.Frames {
		if !isRawFrame(f) {
			continue
		}
		raw, err := b.frame(i)
		if err != nil {
			return 0, err
		}
		packedFrames[i] = enc.EncodeAll(raw, nil)
		meta.Frames[i].CLen = uint32(len(packedFrames[i]))
	}
	err := s.update(func(tx *bolt.Tx) error {
		if cur := tx.Bucket(bucketBlobs).Get(id[:]); cur == nil || !bytes.Equal(cur, stored) {
			return fmt.Errorf("blob:%s changed during compaction", id.Short())
		}
		for i, c := range packedFrames {
			if err := tx.Bucket(bucketFrames).Put(frameKey(id, i), c); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketBlobs).Put(id[:], meta.encode(id))
	})
	return before - compressedSize(meta), err
}

// compactPack writes a packed blob's new pack generation, its raw frames
// recompressed (all of them for a plain pack), and points the record at it.
func (s *Store) compactPack(b *Blob, stored []byte) (int64, error) {
	id, meta := b.ID, b.meta
	before := compressedSize(meta)
	enc := betterEncoder() // nobody waits on compaction
	newMeta := *meta
	newMeta.Frames = append([]frame(nil), meta.Frames...)
	// The new generation has a name no other writer uses, and is written
	// under a temporary name and renamed into place once synced: a crash
	// leaves the old generation in use and at most an orphan.
	newMeta.Gen, newMeta.Plain = newGen(), false
	final := s.packPath(id, newMeta.Gen)
	tmp := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".tmp")
	out, err := openNoFollow(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, storeErr(filepath.Dir(final), "compact pack", err)
	}
	written := tmp // removed unless the record ends up pointing at it
	defer func() {
		out.Close()
		if written != "" {
			os.Remove(written)
		}
	}()
	oldPath := s.packFile(id, meta.Gen, meta.Plain)
	old, err := openPack(oldPath)
	if err != nil {
		return 0, damagedBlob(id, fmt.Sprintf("its pack file is missing (%v)", err))
	}
	defer old.Close()
	for i, f := range meta.Frames {
		var c []byte
		if meta.Plain || isRawFrame(f) {
			raw, err := b.frame(i)
			if err != nil {
				return 0, err
			}
			c = enc.EncodeAll(raw, nil)
		} else {
			c = make([]byte, f.CLen)
			if _, err := io.ReadFull(io.NewSectionReader(old, offsetOf(meta, i), int64(f.CLen)), c); err != nil {
				return 0, damagedBlob(id, "its pack file is short")
			}
		}
		if _, err := out.Write(c); err != nil {
			return 0, storeErr(filepath.Dir(final), "compact pack", err)
		}
		newMeta.Frames[i].CLen = uint32(len(c))
	}
	if err := out.Sync(); err != nil {
		return 0, storeErr(filepath.Dir(final), "compact pack", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return 0, storeErr(filepath.Dir(final), "compact pack", err)
	}
	written = final
	syncDir(filepath.Dir(final))
	err = s.update(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bucketBlobs).Get(id[:])
		if cur == nil || !bytes.Equal(cur, stored) {
			return fmt.Errorf("blob:%s changed during compaction", id.Short())
		}
		return tx.Bucket(bucketBlobs).Put(id[:], newMeta.encode(id))
	})
	if err != nil {
		return 0, err
	}
	written = ""
	_ = os.Remove(oldPath)
	return before - compressedSize(&newMeta), nil
}

func offsetOf(m *blobMeta, i int) int64 {
	var off int64
	for _, f := range m.Frames[:i] {
		off += int64(f.CLen)
	}
	return off
}
