package store

import (
	"encoding/hex"
	"fmt"

	"github.com/ctxhq/ctx/internal/blake3"
)

// ID is the BLAKE3-256 hash of some content: a blob's raw bytes, a run's
// canonical manifest, a receipt's canonical form.
type ID [32]byte

// ShortLen is the number of hex digits handles show.
const ShortLen = 12

// MinPrefix is the shortest hex prefix a handle may use.
const MinPrefix = 6

// Sum returns the ID of b.
func Sum(b []byte) ID { return ID(blake3.Sum256(b)) }

// String is the full 64-digit hex form.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// Short is the 12-digit form handles show.
func (id ID) Short() string { return id.String()[:ShortLen] }

// IsZero reports whether id is the zero ID (no content recorded).
func (id ID) IsZero() bool { return id == ID{} }

// MarshalText writes the full hex form.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads the full hex form.
func (id *ID) UnmarshalText(b []byte) error {
	v, err := ParseID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// ParseID parses a full 64-digit hex ID.
func ParseID(s string) (ID, error) {
	var id ID
	if len(s) != 64 {
		return id, fmt.Errorf("id %q: want 64 hex digits, have %d", s, len(s))
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, fmt.Errorf("id %q: %w", s, err)
	}
	return id, nil
}

// hasher is a streaming BLAKE3-256.
type hasher struct{ h *blake3.Hasher }

func newHasher() hasher { return hasher{blake3.New()} }

func (h hasher) Write(p []byte) { _, _ = h.h.Write(p) }

func (h hasher) Sum() ID {
	var id ID
	h.h.Sum(id[:0])
	return id
}
