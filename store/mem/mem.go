// Package mem is the in-memory twin of the store's bbolt tier: a
// store.Backend that keeps blobs and records in maps. It passes the same test
// suite as the bbolt store (store/storetest), so a caller written against
// store.Backend can be tested without a database file, and a new tier (the
// remote object store) has a reference to compare with. It persists nothing.
package mem

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/ctxhq/ctx/store"
)

// Store is an in-memory store.Backend. The zero value is not ready: use New.
type Store struct {
	mu      sync.RWMutex
	blobs   map[store.ID][]byte
	records map[store.Kind]map[store.ID][]byte
}

var _ store.Backend = (*Store)(nil)

// New returns an empty in-memory store.
func New() *Store {
	return &Store{blobs: map[store.ID][]byte{}, records: map[store.Kind]map[store.ID][]byte{}}
}

var emptyID = store.Sum(nil)

// PutBlob stores a copy of data.
func (m *Store) PutBlob(data []byte) (store.ID, error) {
	id := store.Sum(data)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.blobs[id]; !ok {
		m.blobs[id] = bytes.Clone(data)
	}
	return id, nil
}

// OpenBlob opens a stored blob.
func (m *Store) OpenBlob(id store.ID) (store.BlobReader, error) {
	m.mu.RLock()
	data, ok := m.blobs[id]
	m.mu.RUnlock()
	if !ok && id != emptyID {
		return nil, fmt.Errorf("%s: %w", store.HandleOf(store.KindBlob, id), store.ErrNotFound)
	}
	return blob(data), nil
}

// blob is a stored blob's bytes; they are never modified once stored.
type blob []byte

func (b blob) Size() int64 { return int64(len(b)) }

func (b blob) Section(off, end int64) io.Reader {
	end = min(end, int64(len(b)))
	if off >= end {
		return bytes.NewReader(nil)
	}
	return bytes.NewReader(b[off:end])
}

func recordKind(kind store.Kind) error {
	switch kind {
	case store.KindRun, store.KindSpan, store.KindReceipt:
		return nil
	}
	return fmt.Errorf("record kind %q: %w", kind, store.ErrNotRecord)
}

// PutRecord stores a verified record (store.VerifyRecord).
func (m *Store) PutRecord(kind store.Kind, id store.ID, data []byte) error {
	if err := recordKind(kind); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := store.VerifyRecord(kind, id, data, func(b store.ID) bool { _, ok := m.blobs[b]; return ok }); err != nil {
		return err
	}
	recs := m.records[kind]
	if recs == nil {
		recs = map[store.ID][]byte{}
		m.records[kind] = recs
	}
	if _, ok := recs[id]; !ok {
		recs[id] = bytes.Clone(data)
	}
	return nil
}

// Record returns a copy of a stored record.
func (m *Store) Record(kind store.Kind, id store.ID) ([]byte, error) {
	if err := recordKind(kind); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	data, ok := m.records[kind][id]
	if !ok {
		return nil, fmt.Errorf("%s: %w", store.HandleOf(kind, id), store.ErrNotFound)
	}
	return bytes.Clone(data), nil
}

// Records calls fn for every record of kind in id order, without holding the
// lock.
func (m *Store) Records(kind store.Kind, fn func(id store.ID, data []byte) error) error {
	if err := recordKind(kind); err != nil {
		return err
	}
	m.mu.RLock()
	ids := sortedIDs(m.records[kind])
	datas := make([][]byte, len(ids))
	for i, id := range ids {
		datas[i] = bytes.Clone(m.records[kind][id])
	}
	m.mu.RUnlock()
	for i, id := range ids {
		if err := fn(id, datas[i]); err != nil {
			return err
		}
	}
	return nil
}

// Match returns the ids of kind that start with prefix.
func (m *Store) Match(kind store.Kind, prefix string) ([]store.ID, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var ids []store.ID
	switch kind {
	case store.KindBlob:
		ids = sortedIDs(m.blobs)
	default:
		if err := recordKind(kind); err != nil {
			return nil, err
		}
		ids = sortedIDs(m.records[kind])
	}
	var out []store.ID
	for _, id := range ids {
		if strings.HasPrefix(id.String(), prefix) {
			out = append(out, id)
			if len(out) == store.MatchLimit {
				break
			}
		}
	}
	return out, nil
}

func sortedIDs[V any](m map[store.ID]V) []store.ID {
	ids := make([]store.ID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b store.ID) int { return bytes.Compare(a[:], b[:]) })
	return ids
}
