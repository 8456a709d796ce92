package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// AppendLayerRowChecked is AppendLayerRow for a log whose next row depends on
// every row before it (the task ledger refuses a claim while another live
// claim holds the task). next receives copies of all rows, oldest first, and
// the new row's sequence number, inside the write transaction: a check made
// there cannot be raced by another process. An error from next appends
// nothing and is returned as it is. next must not call the Store.
func (s *Store) AppendLayerRowChecked(bucket string, next func(rows [][]byte, seq uint64) ([]byte, error)) (uint64, error) {
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
		var rows [][]byte
		err = b.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("%s: a key of %d bytes in a log: %w", bucket, len(k), ErrCorrupt)
			}
			rows = append(rows, bytes.Clone(v))
			return nil
		})
		if err != nil {
			return err
		}
		seq = b.Sequence() + 1
		row, err := next(rows, seq)
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
