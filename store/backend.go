package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// Backend is the small contract one tier of the store keeps: content-addressed
// blobs with ranged reads, records put, got and listed by kind, and the id
// prefix lookup that handle resolution is built on. *Store (bbolt, the
// embedded default), store/mem (memory) and the remote tier's bucket
// (remote.Remote.Backend, S3-compatible object storage) implement it and
// pass one test suite (store/storetest).
//
// Every method is safe for concurrent use. Puts are idempotent: an id names
// its content, so storing it again changes nothing. A record is accepted only
// when it hashes to its id (VerifyRecord), and a run only when the blobs it
// references are present, so no tier ever lists what it cannot return.
type Backend interface {
	// PutBlob stores data and returns its id (Sum(data)).
	PutBlob(data []byte) (ID, error)
	// OpenBlob opens a stored blob for ranged reads; a missing one is
	// ErrNotFound.
	OpenBlob(id ID) (BlobReader, error)
	// PutRecord stores the record of kind (KindRun, KindSpan or KindReceipt)
	// with id.
	PutRecord(kind Kind, id ID, data []byte) error
	// Record returns a stored record's bytes; a missing one is ErrNotFound.
	Record(kind Kind, id ID) ([]byte, error)
	// Records calls fn for every record of kind, in id order. fn runs
	// outside any transaction and may call the backend.
	Records(kind Kind, fn func(id ID, data []byte) error) error
	// Match returns the ids of kind (a record kind or KindBlob) that start
	// with the hex prefix, in id order, at most MatchLimit of them.
	Match(kind Kind, prefix string) ([]ID, error)
}

// BlobReader reads a stored blob.
type BlobReader interface {
	// Size is the blob's length in bytes.
	Size() int64
	// Section reads bytes [off, end), end clamped to the size.
	Section(off, end int64) io.Reader
}

// MatchLimit is the most ids Match returns: enough to show an ambiguity.
const MatchLimit = 8

var _ Backend = (*Store)(nil)

// ErrNotRecord is the error for a kind that names no record (blob, or an
// unknown word).
var ErrNotRecord = errors.New("not a record kind")

// VerifyRecord checks that data is a record of kind that id names: a
// receipt's id is ReceiptID(data), a run's the hash of its manifest (and
// hasBlob must report every stream blob it references); a span's token is
// checked against its run when it is resolved. A mismatch is ErrCorrupt.
func VerifyRecord(kind Kind, id ID, data []byte, hasBlob func(ID) bool) error {
	switch kind {
	case KindReceipt:
		if ReceiptID(data) != id {
			return fmt.Errorf("receipt:%s: its bytes do not hash to its id: %w", id.Short(), ErrCorrupt)
		}
	case KindRun:
		var run Run
		if err := json.Unmarshal(data, &run); err != nil {
			return fmt.Errorf("run:%s record: %v: %w", id.Short(), err, ErrCorrupt)
		}
		if run.ID != id || run.Manifest.ID() != id {
			return fmt.Errorf("run:%s record does not hash to its id: %w", id.Short(), ErrCorrupt)
		}
		for _, ref := range []ID{run.Manifest.Stdout.Blob, run.Manifest.Stderr.Blob, run.Manifest.Stdin, run.Interleave} {
			if !ref.IsZero() && ref != emptyID && !hasBlob(ref) {
				return fmt.Errorf("run:%s references blob:%s, which is not stored: %w", id.Short(), ref.Short(), ErrNotFound)
			}
		}
	case KindSpan:
		var sp Span
		if err := json.Unmarshal(data, &sp); err != nil {
			return fmt.Errorf("span:%s record: %v: %w", id.Short(), err, ErrCorrupt)
		}
	default:
		return fmt.Errorf("record kind %q: %w", kind, ErrNotRecord)
	}
	return nil
}

// recordBucket is the bucket of a record kind.
func recordBucket(kind Kind) ([]byte, error) {
	if kind == KindBlob {
		return nil, fmt.Errorf("record kind %q: %w", kind, ErrNotRecord)
	}
	b := bucketFor(kind)
	if b == nil {
		return nil, fmt.Errorf("record kind %q: %w", kind, ErrNotRecord)
	}
	return b, nil
}

// OpenBlob opens a blob (Blob) as a BlobReader.
func (s *Store) OpenBlob(id ID) (BlobReader, error) {
	b, err := s.Blob(id)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// PutRecord stores a verified record (VerifyRecord).
func (s *Store) PutRecord(kind Kind, id ID, data []byte) error {
	bucket, err := recordBucket(kind)
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		blobs := tx.Bucket(bucketBlobs)
		if err := VerifyRecord(kind, id, data, func(b ID) bool { return blobs.Get(b[:]) != nil }); err != nil {
			return err
		}
		b := tx.Bucket(bucket)
		if b.Get(id[:]) != nil {
			return nil
		}
		return b.Put(id[:], data)
	})
}

// Record returns a stored record's bytes.
func (s *Store) Record(kind Kind, id ID) ([]byte, error) {
	bucket, err := recordBucket(kind)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get(id[:])
		if v == nil {
			return fmt.Errorf("%s: %w", HandleOf(kind, id), ErrNotFound)
		}
		out = bytes.Clone(v)
		return nil
	})
	if isEmpty(err) {
		return nil, fmt.Errorf("%s: %w", HandleOf(kind, id), ErrNotFound)
	}
	return out, err
}

// Records calls fn for every record of kind, in id order, after the
// transaction that read them has ended.
func (s *Store) Records(kind Kind, fn func(id ID, data []byte) error) error {
	bucket, err := recordBucket(kind)
	if err != nil {
		return err
	}
	type rec struct {
		id   ID
		data []byte
	}
	var recs []rec
	err = s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).ForEach(func(k, v []byte) error {
			if len(k) == len(ID{}) {
				recs = append(recs, rec{ID(k), bytes.Clone(v)})
			}
			return nil
		})
	})
	if isEmpty(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := fn(r.id, r.data); err != nil {
			return err
		}
	}
	return nil
}

// Match returns the ids of kind starting with prefix.
func (s *Store) Match(kind Kind, prefix string) ([]ID, error) {
	bucket := bucketFor(kind)
	if bucket == nil {
		return nil, fmt.Errorf("kind %q: %w", kind, ErrNotRecord)
	}
	var out []ID
	err := s.view(func(tx *bolt.Tx) error {
		out = matchPrefix(tx.Bucket(bucket), prefix)
		return nil
	})
	if isEmpty(err) {
		return nil, nil
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i][:], out[j][:]) < 0 })
	return out, err
}
