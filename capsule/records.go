package capsule

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/store"
)

// Bucket is the layer bucket holding capsules, keyed by their 32-byte id.
const Bucket = "capsule.records"

// Handle is the capsule: handle of an id, in its short form.
func Handle(id store.ID) string { return "capsule:" + id.Short() }

// Put stores a capsule (a no-op when the same capsule is already there) and
// returns its id.
func Put(st *store.Store, c *Capsule) (store.ID, error) {
	b, err := c.Canonical()
	if err != nil {
		return store.ID{}, err
	}
	if len(b) > MaxSize {
		return store.ID{}, fmt.Errorf("%w: %d bytes, over the %d KiB limit; keep evidence as handles, not pasted output", ErrInvalid, len(b), MaxSize>>10)
	}
	id := store.Sum(b)
	if _, err := st.PutLayerRecord(Bucket, id[:], b); err != nil {
		return store.ID{}, fmt.Errorf("store %s: %w", Handle(id), err)
	}
	return id, nil
}

// Loader finds a capsule by full id: the store, or a map in tests.
type Loader interface {
	Capsule(id store.ID) (*Capsule, error)
}

// StoreLoader loads capsules from a store.
type StoreLoader struct{ St *store.Store }

var _ Loader = StoreLoader{}

// Capsule loads and verifies one capsule.
func (l StoreLoader) Capsule(id store.ID) (*Capsule, error) {
	b, err := l.St.LayerRecord(Bucket, id[:])
	if err != nil {
		return nil, err
	}
	if store.Sum(b) != id {
		return nil, fmt.Errorf("%s: the stored record does not hash to its id: %w", Handle(id), store.ErrCorrupt)
	}
	return Decode(b)
}

// Resolve turns capsule:PREFIX (or a bare hex prefix of 6+ digits) into the
// id of a stored capsule.
func Resolve(st *store.Store, handle string) (store.ID, error) {
	h := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(handle), "capsule:"))
	if len(h) < store.MinPrefix || len(h) > 64 || !isHex(h) {
		return store.ID{}, &store.Error{Err: fmt.Errorf("capsule handle %q: want capsule: and 6 to 64 hex digits: %w", handle, store.ErrBadHandle),
			Hint: "ctx capsule capture prints the handle; ctx capsule history lists sends and receives"}
	}
	prefix, _ := hex.DecodeString(h[:len(h)/2*2])
	keys, err := st.LayerKeys(Bucket, prefix, 64)
	if err != nil {
		return store.ID{}, err
	}
	var match []store.ID
	for _, k := range keys {
		if len(k) == 32 && strings.HasPrefix(hex.EncodeToString(k), h) {
			match = append(match, store.ID(k))
		}
	}
	switch len(match) {
	case 0:
		return store.ID{}, &store.Error{Err: fmt.Errorf("capsule:%s: no capsule with that id in this store: %w", h, store.ErrNotFound),
			Hint: "capsules belong to the store they were captured or received in; receive it with ctx capsule receive"}
	case 1:
		return match[0], nil
	}
	var names []string
	for _, m := range match {
		names = append(names, Handle(m))
	}
	return store.ID{}, &store.AmbiguousError{Prefix: h, Candidates: names}
}

// Load resolves a handle and loads the capsule.
func Load(st *store.Store, handle string) (store.ID, *Capsule, error) {
	id, err := Resolve(st, handle)
	if err != nil {
		return id, nil, err
	}
	c, err := StoreLoader{st}.Capsule(id)
	return id, c, err
}
