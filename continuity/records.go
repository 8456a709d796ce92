package continuity

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/ctxhq/ctx/store"
)

// Store buckets (docs/store.md): records are keyed by the 32 bytes of their
// SHA-256 digest.
const (
	SnapshotBucket = "continuity.snapshots"
	DropBucket     = "continuity.drops"
)

// Handle schemes of continuity records: snap:ID and drop:ID, where ID is a
// prefix (6 to 64 hex digits) of the record's SHA-256 — the hex of its digest.
const (
	SnapScheme = "snap"
	DropScheme = "drop"
)

// HandleOf is the short handle of a record digest: "snap:" and 12 hex.
func HandleOf(scheme, digest string) string {
	hexs := digest[strings.LastIndexByte(digest, ':')+1:]
	return scheme + ":" + hexs[:store.ShortLen]
}

func digestKey(digest string) ([]byte, error) {
	hexs := strings.TrimPrefix(strings.TrimPrefix(digest, JSONDigestPrefix), RawDigestPrefix)
	k, err := hex.DecodeString(hexs)
	if err != nil || len(k) != 32 {
		return nil, fmt.Errorf("digest %q is not a sha256 digest", digest)
	}
	return k, nil
}

// SaveSnapshot stores a snapshot under its digest. Sealing the same content
// twice keeps the first record (and its created_at).
func SaveSnapshot(st *store.Store, s *Snapshot) error {
	rec, err := s.Record()
	if err != nil {
		return err
	}
	k, err := digestKey(s.Digest)
	if err != nil {
		return err
	}
	_, err = st.PutLayerRecord(SnapshotBucket, k, rec)
	return err
}

// LoadSnapshot finds a snapshot by handle (snap:ID, or a bare hex prefix, or
// a full sha256:json-c14n:v1: digest) and checks it against its digest.
func LoadSnapshot(st *store.Store, handle string) (*Snapshot, error) {
	k, err := resolve(st, SnapScheme, SnapshotBucket, handle)
	if err != nil {
		return nil, err
	}
	data, err := st.LayerRecord(SnapshotBucket, k)
	if err != nil {
		return nil, err
	}
	s, err := DecodeSnapshot(data)
	if err != nil {
		return nil, err
	}
	if got, _ := digestKey(s.Digest); string(got) != string(k) {
		return nil, fmt.Errorf("%s: the record stored under it has digest %s: %w", handle, s.Digest, ErrTampered)
	}
	return s, nil
}

// SaveDrop stores a drop receipt under its digest.
func SaveDrop(st *store.Store, r *DropReceipt) error {
	rec, err := r.Record()
	if err != nil {
		return err
	}
	k, err := digestKey(r.Digest)
	if err != nil {
		return err
	}
	_, err = st.PutLayerRecord(DropBucket, k, rec)
	return err
}

// LoadDrop returns a stored drop receipt's record, checked against its digest.
func LoadDrop(st *store.Store, handle string) ([]byte, error) {
	k, err := resolve(st, DropScheme, DropBucket, handle)
	if err != nil {
		return nil, err
	}
	data, err := st.LayerRecord(DropBucket, k)
	if err != nil {
		return nil, err
	}
	v, err := ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("drop receipt: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("drop receipt: not an object: %w", ErrTampered)
	}
	d, _ := m["receipt_digest"].(string)
	delete(m, "receipt_digest")
	want, err := Digest(m)
	if err != nil || want != d || d != JSONDigestPrefix+hex.EncodeToString(k) {
		return nil, fmt.Errorf("%s: %w", handle, ErrTampered)
	}
	return data, nil
}

// resolve turns a handle into a record key, refusing ambiguous prefixes.
func resolve(st *store.Store, scheme, bucket, handle string) ([]byte, error) {
	h := strings.TrimSpace(handle)
	switch {
	case strings.HasPrefix(h, scheme+":"):
		h = strings.TrimPrefix(h, scheme+":")
	case strings.HasPrefix(h, JSONDigestPrefix):
		h = strings.TrimPrefix(h, JSONDigestPrefix)
	}
	h = strings.ToLower(h)
	if _, err := hex.DecodeString(h + strings.Repeat("0", len(h)%2)); err != nil || len(h) < store.MinPrefix || len(h) > 64 {
		return nil, &store.Error{Err: fmt.Errorf("handle %q: want %s:ID with 6 to 64 hex digits: %w", handle, scheme, store.ErrBadHandle),
			Hint: fmt.Sprintf("the handle is printed by ctx continuity %s, e.g. %s:3f2a9c01b7e4", map[string]string{SnapScheme: "seal", DropScheme: "drop-receipt"}[scheme], scheme)}
	}
	prefix, _ := hex.DecodeString(h[:len(h)/2*2])
	keys, err := st.LayerKeys(bucket, prefix, 64)
	if err != nil {
		return nil, err
	}
	var match []string
	var key []byte
	for _, k := range keys {
		if x := hex.EncodeToString(k); strings.HasPrefix(x, h) {
			match, key = append(match, x), k
		}
	}
	switch len(match) {
	case 0:
		return nil, &store.Error{Err: fmt.Errorf("%s:%s: no such record in this store: %w", scheme, h, store.ErrNotFound),
			Hint: fmt.Sprintf("records belong to the store they were made in (%s); list them with `ctx continuity log`", st.Dir())}
	case 1:
		return key, nil
	}
	sort.Strings(match)
	cands := make([]string, len(match))
	for i, m := range match {
		cands[i] = scheme + ":" + m[:len(h)+4]
	}
	return nil, &store.AmbiguousError{Prefix: h, Candidates: cands}
}
