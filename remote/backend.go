package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxhq/ctx/store"
)

// Backend returns the bucket itself as a store.Backend: blobs are the
// table and data objects push writes and pull reads (blobs/<id>/…), run,
// receipt and span records the objects under runs/, receipts/ and spans/,
// sealed when the remote encrypts. It is how the store's one test suite
// (store/storetest) runs against the remote tier, through the same code
// push, pull and the fallback use. Every call blocks on the network under
// ctx; nothing is cached, and every read is checked as pull checks it.
func (r *Remote) Backend(ctx context.Context) store.Backend { return &backend{ctx: ctx, r: r} }

type backend struct {
	ctx context.Context
	r   *Remote
}

var _ store.Backend = (*backend)(nil)

var emptyID = store.Sum(nil)

// PutBlob frames data as the local store does and writes it unless the
// bucket holds it (the empty blob is implicit, as locally).
func (b *backend) PutBlob(data []byte) (store.ID, error) {
	id := store.Sum(data)
	if id == emptyID {
		return id, nil
	}
	t, frames := store.FramesOf(data)
	_, err := b.r.putBlob(b.ctx, id, t, func(i int) ([]byte, error) { return frames[i], nil })
	return id, err
}

// OpenBlob reads the blob's table (one GET); reads fetch each frame they
// touch with one ranged GET.
func (b *backend) OpenBlob(id store.ID) (store.BlobReader, error) {
	if id == emptyID {
		return store.BlobFrom(id, nil, nil), nil
	}
	blob, err := b.r.OpenBlob(b.ctx, id)
	if err != nil {
		return nil, err
	}
	return blob, nil
}

// recordDir is the directory of a record kind in the bucket.
func recordDir(kind store.Kind) (string, error) {
	switch kind {
	case store.KindRun, store.KindReceipt, store.KindSpan:
		return kindDirs[kind], nil
	}
	return "", fmt.Errorf("record kind %q: %w", kind, store.ErrNotRecord)
}

// PutRecord writes a record verified as the local store verifies it: a run
// only when the bucket holds every blob it references.
func (b *backend) PutRecord(kind store.Kind, id store.ID, data []byte) error {
	dir, err := recordDir(kind)
	if err != nil {
		return err
	}
	var headErr error
	has := func(blob store.ID) bool {
		ok, err := b.r.hasBlob(b.ctx, blob)
		if err != nil && headErr == nil {
			headErr = err
		}
		return ok
	}
	if err := store.VerifyRecord(kind, id, data, has); err != nil {
		if headErr != nil {
			return headErr
		}
		return err
	}
	return b.r.putSealed(b.ctx, b.r.key(dir, id.String()), data)
}

// Record reads a record and checks it against its id.
func (b *backend) Record(kind store.Kind, id store.ID) ([]byte, error) {
	dir, err := recordDir(kind)
	if err != nil {
		return nil, err
	}
	data, err := b.r.get(b.ctx, b.r.key(dir, id.String()))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%s: not in the remote: %w", store.HandleOf(kind, id), store.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if data, err = b.r.seal.open("remote "+store.HandleOf(kind, id), data); err != nil {
		return nil, err
	}
	// Blobs are checked when they are read, not here: a run listed is one
	// whose blobs were there when it was written.
	if err := store.VerifyRecord(kind, id, data, func(store.ID) bool { return true }); err != nil {
		return nil, fmt.Errorf("remote %w", err)
	}
	return data, nil
}

// Records lists the kind's directory (one LIST) and reads each record.
func (b *backend) Records(kind store.Kind, fn func(id store.ID, data []byte) error) error {
	ids, err := b.ids(kind, "", 0)
	if err != nil {
		return err
	}
	for _, id := range ids {
		data, err := b.Record(kind, id)
		if err != nil {
			return err
		}
		if err := fn(id, data); err != nil {
			return err
		}
	}
	return nil
}

// Match lists the ids of kind under the prefix: one LIST.
func (b *backend) Match(kind store.Kind, prefix string) ([]store.ID, error) {
	if kind != store.KindBlob {
		if _, err := recordDir(kind); err != nil {
			return nil, err
		}
	}
	return b.ids(kind, prefix, store.MatchLimit)
}

// ids lists the ids of kind starting with prefix, in id order, at most limit
// of them (0: all). A blob counts once its table is written.
func (b *backend) ids(kind store.Kind, prefix string, limit int) ([]store.ID, error) {
	dir := kindDirs[kind]
	objs, err := b.r.list(b.ctx, dir+"/"+prefix, nil)
	if err != nil {
		return nil, err
	}
	var out []store.ID
	for _, o := range objs {
		name, rest, _ := strings.Cut(strings.TrimPrefix(o.Key, dir+"/"), "/")
		if kind == store.KindBlob && rest != "table" || kind != store.KindBlob && rest != "" {
			continue
		}
		if id, err := store.ParseID(name); err == nil {
			out = append(out, id)
		}
	}
	slices.SortFunc(out, func(a, b store.ID) int { return bytes.Compare(a[:], b[:]) })
	out = slices.Compact(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
