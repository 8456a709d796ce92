package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// PutReceipt stores a receipt (canonical JSON bytes) under the hash of its bytes
// and returns the id. Storing the same receipt twice is a no-op.
func (s *Store) PutReceipt(data []byte) (ID, error) {
	id := ReceiptID(data)
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketReceipts)
		if b.Get(id[:]) != nil {
			return nil
		}
		return b.Put(id[:], data)
	})
	return id, err
}

// Receipt returns a stored receipt's bytes.
func (s *Store) Receipt(id ID) ([]byte, error) {
	var out []byte
	err := s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketReceipts).Get(id[:])
		if v == nil {
			return fmt.Errorf("receipt:%s: %w", id.Short(), ErrNotFound)
		}
		out = bytes.Clone(v)
		return nil
	})
	if isEmpty(err) {
		return nil, fmt.Errorf("receipt:%s: %w", id.Short(), ErrNotFound)
	}
	return out, err
}

// ForEachReceipt calls fn for every stored receipt, in id order.
func (s *Store) ForEachReceipt(fn func(id ID, data []byte) error) error {
	var ids []ID
	var datas [][]byte
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketReceipts).ForEach(func(k, v []byte) error {
			ids = append(ids, ID(k))
			datas = append(datas, bytes.Clone(v))
			return nil
		})
	})
	if isEmpty(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for i := range ids {
		if err := fn(ids[i], datas[i]); err != nil {
			return err
		}
	}
	return nil
}

// Session is what ctx remembers about one command within an agent session, to
// notice an equivalent rerun (a reflex: the last digest was not enough).
type Session struct {
	Run   ID  `json:"run"`
	Level int `json:"level"` // how much detail the last digest showed (plan's escalation level)
	Count int `json:"count"` // how many times the command ran in the session
}

func sessionKey(session, command string) []byte {
	return []byte(session + "\x00" + command)
}

// GetSession returns the session record of a command, or the zero record.
func (s *Store) GetSession(session, command string) (Session, error) {
	var rec Session
	err := s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketSessions).Get(sessionKey(session, command))
		if v == nil {
			return nil
		}
		return json.Unmarshal(v, &rec)
	})
	if isEmpty(err) {
		return Session{}, nil
	}
	return rec, err
}

// PutSession records a command's session state.
func (s *Store) PutSession(session, command string, rec Session) error {
	b, _ := json.Marshal(rec)
	return s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketSessions).Put(sessionKey(session, command), b) })
}

// Pin keeps a record from gc.
type Pin struct {
	Handle string    `json:"handle"`
	Kind   Kind      `json:"kind"`
	ID     ID        `json:"id"`
	Note   string    `json:"note,omitempty"`
	Time   time.Time `json:"time"`
}

// PutPin pins the target of a resolved handle.
func (s *Store) PutPin(t *Target, note string) (Pin, error) {
	p := Pin{Handle: HandleOf(t.Kind, t.ID), Kind: t.Kind, ID: t.ID, Note: note, Time: time.Now().UTC()}
	b, _ := json.Marshal(p)
	err := s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketPins).Put(t.ID[:], b) })
	return p, err
}

// DeletePin unpins; it reports whether a pin existed.
func (s *Store) DeletePin(id ID) (bool, error) {
	found := false
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPins)
		found = b.Get(id[:]) != nil
		return b.Delete(id[:])
	})
	return found, err
}

// Pins lists the pins in id order.
func (s *Store) Pins() ([]Pin, error) {
	var out []Pin
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPins).ForEach(func(k, v []byte) error {
			var p Pin
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("pin record: %v: %w", err, ErrCorrupt)
			}
			out = append(out, p)
			return nil
		})
	})
	if isEmpty(err) {
		return nil, nil
	}
	return out, err
}
