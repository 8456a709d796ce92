package remote

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ctxhq/ctx/store"
)

// capsuleBucket is the capsule layer's bucket (package capsule's Bucket):
// a capsule's key is the BLAKE3 of its stored bytes.
const capsuleBucket = "capsule.records"

// runRefPattern finds the runs a record names by full id.
var runRefPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`run:[0-9a-f]{64}`) })

// PullCapsule copies a capsule (a hex prefix of its id) from the remote into
// the local store, checked against its id, with the runs and blobs it names
// by full id, so a handoff made on one machine is read on another.
func PullCapsule(ctx context.Context, st *store.Store, r *Remote, prefix string) (store.ID, *PullReport, error) {
	prefix = strings.ToLower(prefix)
	objs, err := r.list(ctx, "layers/"+capsuleBucket+"/"+prefix, nil)
	if err != nil {
		return store.ID{}, nil, err
	}
	if len(objs) == 0 {
		return store.ID{}, nil, fmt.Errorf("capsule:%s: not in the remote s3://%s/%s: %w", prefix, r.cfg.Bucket, r.prefix, store.ErrNotFound)
	}
	if len(objs) > 1 {
		var names []string
		for _, o := range objs {
			names = append(names, "capsule:"+strings.TrimPrefix(o.Key, "layers/"+capsuleBucket+"/"))
		}
		return store.ID{}, nil, &store.AmbiguousError{Prefix: prefix, Candidates: names}
	}
	id, err := store.ParseID(strings.TrimPrefix(objs[0].Key, "layers/"+capsuleBucket+"/"))
	if err != nil {
		return store.ID{}, nil, fmt.Errorf("remote %s: %w", objs[0].Key, store.ErrCorrupt)
	}
	b, err := r.get(ctx, r.key(objs[0].Key))
	if err == nil {
		b, err = r.seal.open("remote capsule:"+id.Short(), b)
	}
	if err != nil {
		return id, nil, err
	}
	if store.Sum(b) != id {
		return id, nil, fmt.Errorf("remote capsule:%s does not hash to its id: %w", id.Short(), store.ErrCorrupt)
	}
	rep := &PullReport{}
	for _, m := range runRefPattern().FindAll(b, -1) {
		run, _ := store.ParseID(string(m[4:]))
		// A run the capsule names that was never pushed is left out: the
		// capsule says which it names, and inspecting it reports the gap.
		if err := r.pullRun(ctx, st, run, rep); err != nil && !errors.Is(err, store.ErrNotFound) {
			return id, rep, fmt.Errorf("pull capsule:%s: %w", id.Short(), err)
		}
	}
	for _, ref := range blobRefs(b) {
		n, err := r.pullBlob(ctx, st, ref)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return id, rep, fmt.Errorf("pull capsule:%s: %w", id.Short(), err)
		}
		rep.Bytes += n
		if n > 0 {
			rep.Blobs++
		}
	}
	if _, err := st.PutLayerRecord(capsuleBucket, id[:], b); err != nil {
		return id, rep, err
	}
	return id, rep, nil
}

// layerKey is a layer record's object name.
func (r *Remote) layerKey(bucket, ws string, key []byte, perWorkspace bool) string {
	if perWorkspace {
		return r.key("layers", bucket, ws, hex.EncodeToString(key))
	}
	return r.key("layers", bucket, hex.EncodeToString(key))
}
