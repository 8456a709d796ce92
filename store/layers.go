package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Layers above the store (continuity, capsules, the task ledger) keep their
// records in buckets of their own, named "layer.kind" (a dot, so no name can
// collide with the store's own buckets). The store does not interpret these
// records; gc neither follows nor deletes them. docs/store.md lists the names.

func layerBucket(name string) ([]byte, error) {
	if !strings.Contains(name, ".") || strings.ContainsAny(name, "\x00/") {
		return nil, fmt.Errorf("layer bucket %q: want a name like continuity.snapshots", name)
	}
	return []byte(name), nil
}

// LayerPut is a layer record to store with a run (Extra.Layers).
type LayerPut struct {
	Bucket     string
	Key, Value []byte
}

// put stores the record in tx unless its key is there already (existed).
func (l LayerPut) put(tx *bolt.Tx) (existed bool, err error) {
	name, err := layerBucket(l.Bucket)
	if err != nil {
		return false, err
	}
	b, err := tx.CreateBucketIfNotExists(name)
	if err != nil {
		return false, err
	}
	if b.Get(l.Key) != nil {
		return true, nil
	}
	return false, b.Put(l.Key, l.Value)
}

// PutLayerRecord stores value under key in a layer's bucket unless the key is
// already there (records are content-addressed, so an existing one is the
// same). It reports whether the key existed.
func (s *Store) PutLayerRecord(bucket string, key, value []byte) (existed bool, err error) {
	if _, err := layerBucket(bucket); err != nil {
		return false, err
	}
	err = s.update(func(tx *bolt.Tx) error {
		existed, err = LayerPut{Bucket: bucket, Key: key, Value: value}.put(tx)
		return err
	})
	return existed, err
}

// LayerRecord returns a copy of the record under key, or ErrNotFound.
func (s *Store) LayerRecord(bucket string, key []byte) ([]byte, error) {
	name, err := layerBucket(bucket)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = s.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(name); b != nil {
			out = bytes.Clone(b.Get(key))
		}
		return nil
	})
	if err != nil && !isEmpty(err) {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("%s record %x: %w", bucket, key, ErrNotFound)
	}
	return out, nil
}

// LayerKeys lists up to limit keys of a layer's bucket that start with prefix,
// in key order.
func (s *Store) LayerKeys(bucket string, prefix []byte, limit int) ([][]byte, error) {
	name, err := layerBucket(bucket)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	err = s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(name)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, _ = c.Next() {
			out = append(out, bytes.Clone(k))
		}
		return nil
	})
	if isEmpty(err) {
		err = nil
	}
	return out, err
}

// AppendLayerRow appends a row to a layer's append-only log. next receives the
// last row (nil for the first) and the new row's sequence number (1, 2, …)
// and returns the row to store; it runs inside the write transaction, so
// appends from any number of goroutines and processes are serialised: none is
// lost and none sees a stale last row. next must not call the Store.
func (s *Store) AppendLayerRow(bucket string, next func(last []byte, seq uint64) ([]byte, error)) (uint64, error) {
	name, err := layerBucket(bucket)
	if err != nil {
		return 0, err
	}
	var seq uint64
	err = s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(name)
		if err != nil {
			return err
		}
		_, last := b.Cursor().Last()
		seq = b.Sequence() + 1
		row, err := next(bytes.Clone(last), seq)
		if err != nil {
			return err
		}
		if err := b.SetSequence(seq); err != nil {
			return err
		}
		return b.Put(binary.BigEndian.AppendUint64(nil, seq), row)
	})
	return seq, err
}

// LayerRows calls fn for each row of a layer's log in order, with the row's
// key (its sequence number as it is stored). The rows are copied out of the
// transaction before fn runs.
func (s *Store) LayerRows(bucket string, fn func(key uint64, row []byte) error) error {
	name, err := layerBucket(bucket)
	if err != nil {
		return err
	}
	var keys []uint64
	var rows [][]byte
	err = s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(name)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("%s: a key of %d bytes in a log: %w", bucket, len(k), ErrCorrupt)
			}
			keys = append(keys, binary.BigEndian.Uint64(k))
			rows = append(rows, bytes.Clone(v))
			return nil
		})
	})
	if isEmpty(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for i := range keys {
		if err := fn(keys[i], rows[i]); err != nil {
			return err
		}
	}
	return nil
}
