package remote

import (
	"context"

	"github.com/ctxhq/ctx/store"
)

// CacheLimit is the most blob data a fallback copies into the local store:
// a run (or blob) storing more is read from the remote in place, one ranged
// GET per frame a read touches, so `ctx get` of 13 lines of a 1 GiB output
// fetches one frame, not the gigabyte (`ctx pull` copies it all).
const CacheLimit = 64 << 20

// cacheLimit is CacheLimit, lowered by tests.
var cacheLimit int64 = CacheLimit

// Fallback resolves a handle the local store does not hold. What fits
// CacheLimit is pulled into the local store (cached: later reads are local)
// and resolved there, with open nil. A larger run or blob is returned as a
// Target read from the remote, and open reads its blobs frame by frame.
func Fallback(ctx context.Context, st *store.Store, r *Remote, h store.Handle) (t *store.Target, open func(store.ID) (*store.Blob, error), err error) {
	f, err := r.Resolve(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	tables := map[store.ID]*remoteBlob{}
	var size int64
	measure := func(ids ...store.ID) error {
		for _, id := range ids {
			rb, err := r.table(ctx, id)
			if err != nil {
				return err
			}
			tables[id] = rb
			size += rb.table.StoredSize()
		}
		return nil
	}
	t = &store.Target{Kind: f.Kind, ID: f.ID, Stream: h.Stream, Range: h.Range}
	switch f.Kind {
	case "run", "span":
		runID := f.ID
		if f.Kind == "span" {
			var sp store.Span
			if err := r.getRecord(ctx, r.key("spans", f.ID.String()), &sp); err != nil {
				return nil, nil, err
			}
			runID, t.Stream, t.Range = sp.Run, sp.Stream, store.Range{Unit: 'L', From: sp.From, To: sp.To}
		}
		run, err := r.GetRun(ctx, runID)
		if err != nil {
			return nil, nil, err
		}
		if err := measure(run.Blobs()...); err != nil {
			return nil, nil, err
		}
		t.Kind, t.ID, t.Run = "run", run.ID, run
	case "blob":
		if err := measure(f.ID); err != nil {
			return nil, nil, err
		}
	}
	if size <= cacheLimit {
		if _, _, err := Pull(ctx, st, r, store.Handle{Scheme: f.Kind, Prefix: f.ID.String()}); err != nil {
			return nil, nil, err
		}
		t, err := st.Resolve(h)
		return t, nil, err
	}
	open = func(id store.ID) (*store.Blob, error) {
		rb, ok := tables[id]
		if !ok {
			var err error
			if rb, err = r.table(ctx, id); err != nil {
				return nil, err
			}
		}
		return store.BlobFrom(id, rb.table, func(i int) ([]byte, error) { return r.frame(ctx, rb, i) }), nil
	}
	return t, open, nil
}
