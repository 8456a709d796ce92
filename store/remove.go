package store

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// RemoveRun deletes one run: its run record and every execution record of
// it, in one transaction, so it is no longer listed and its handle no longer
// resolves. Its blobs stay until ctx gc sweeps what nothing else references
// (another run with the same output keeps them), so a remove can never leave
// a listed run unreadable. A pinned run is refused. It returns how many
// execution records went.
func (s *Store) RemoveRun(id ID) (execs int, err error) {
	err = s.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketRuns).Get(id[:]) == nil {
			return fmt.Errorf("run:%s: %w", id.Short(), ErrNotFound)
		}
		pinned := false
		_ = tx.Bucket(bucketPins).ForEach(func(k, v []byte) error {
			var p Pin
			if json.Unmarshal(v, &p) == nil && p.Kind == KindRun && p.ID == id {
				pinned = true
			}
			return nil
		})
		if pinned {
			return hint(fmt.Errorf("run:%s is pinned: %w", id.Short(), ErrPinned), "run `ctx unpin run:%s` first", id.Short())
		}
		var keys [][]byte
		_ = tx.Bucket(bucketExecs).ForEach(func(k, v []byte) error {
			var ex Exec
			if json.Unmarshal(v, &ex) == nil && ex.Run == id {
				keys = append(keys, bytes.Clone(k))
			}
			return nil
		})
		for _, k := range keys {
			if err := tx.Bucket(bucketExecs).Delete(k); err != nil {
				return err
			}
		}
		execs = len(keys)
		return tx.Bucket(bucketRuns).Delete(id[:])
	})
	return execs, err
}
