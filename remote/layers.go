package remote

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ctxhq/ctx/continuity"
	"github.com/ctxhq/ctx/store"
)

// capsuleBucket is the capsule layer's bucket (package capsule's Bucket):
// a capsule's key is the BLAKE3 of its stored bytes.
const capsuleBucket = "capsule.records"

// ledgerBucket is the task ledger's log (package ledger's Log), and
// ledgerScheme the handle that names one workspace's copy in the remote.
const (
	ledgerBucket = "ledger.log"
	ledgerScheme = "ledger"
)

// layerKind is a content-addressed layer record a handle names: its scheme,
// its bucket, and how a record is checked against its key.
type layerKind struct {
	scheme, bucket string
	check          func(key, data []byte) error
}

var layerKinds = []layerKind{
	{"capsule", capsuleBucket, func(key, data []byte) error {
		if store.Sum(data) != store.ID(key) {
			return errors.New("does not hash to its id")
		}
		return nil
	}},
	{continuity.SnapScheme, continuity.SnapshotBucket, checkSnapshot},
	{continuity.DropScheme, continuity.DropBucket, checkDrop},
}

// checkSnapshot checks that a snapshot record derives to the digest its key
// names (continuity.LoadSnapshot's check).
func checkSnapshot(key, data []byte) error {
	s, err := continuity.DecodeSnapshot(data)
	if err != nil {
		return err
	}
	if s.Digest != continuity.JSONDigestPrefix+hex.EncodeToString(key) {
		return fmt.Errorf("holds the snapshot %s", s.Digest)
	}
	return nil
}

// checkDrop checks that a drop receipt's canonical digest is the one its key
// names (continuity.LoadDrop's check).
func checkDrop(key, data []byte) error {
	v, err := continuity.ParseJSON(data)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		return fmt.Errorf("is not a JSON object (%v)", err)
	}
	d, _ := m["receipt_digest"].(string)
	delete(m, "receipt_digest")
	want, err := continuity.Digest(m)
	if err != nil || want != d || d != continuity.JSONDigestPrefix+hex.EncodeToString(key) {
		return errors.New("does not derive to its digest")
	}
	return nil
}

// runRefPattern finds the runs a record names by full id: run:ID, or a
// ledger row's "run":"ID".
var runRefPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`run(?::|"\s*:\s*")([0-9a-f]{64})`) })

// PullLayer copies what a layer handle names from the remote into the local
// store, checked, with the runs and blobs it names by full id: capsule:ID,
// snap:ID and drop:ID (a hex prefix of the record's key), or ledger:WORKSPACE
// (a prefix of a workspace id; empty: the one other workspace that pushed a
// ledger), whose rows must re-derive their chain and extend the local
// ledger. ok is false when handle has none of these schemes. It returns the
// handle of what it copied.
func PullLayer(ctx context.Context, st *store.Store, r *Remote, handle string) (name string, rep *PullReport, ok bool, err error) {
	scheme, prefix, _ := strings.Cut(handle, ":")
	prefix = strings.ToLower(prefix)
	if scheme == ledgerScheme {
		name, rep, err = r.pullLedger(ctx, st, prefix)
		return name, rep, true, err
	}
	for _, k := range layerKinds {
		if k.scheme == scheme {
			name, rep, err = r.pullRecord(ctx, st, k, prefix)
			return name, rep, true, err
		}
	}
	return "", nil, false, nil
}

var hexPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{1,64}$`) })

// pullRecord copies the one record of kind k whose key starts with prefix.
func (r *Remote) pullRecord(ctx context.Context, st *store.Store, k layerKind, prefix string) (string, *PullReport, error) {
	if !hexPrefix().MatchString(prefix) {
		return "", nil, fmt.Errorf("%s:%s: want %s:ID, a hex prefix of the record's id: %w", k.scheme, prefix, k.scheme, store.ErrBadHandle)
	}
	dir := "layers/" + k.bucket + "/"
	objs, err := r.list(ctx, dir+prefix, nil)
	if err != nil {
		return "", nil, err
	}
	var keys []string
	for _, o := range objs {
		if name := strings.TrimPrefix(o.Key, dir); len(name) == 64 && hexPrefix().MatchString(name) {
			keys = append(keys, name)
		}
	}
	switch len(keys) {
	case 0:
		return "", nil, fmt.Errorf("%s:%s: not in the remote s3://%s/%s: %w", k.scheme, prefix, r.cfg.Bucket, r.prefix, store.ErrNotFound)
	case 1:
	default:
		for i := range keys {
			keys[i] = k.scheme + ":" + keys[i][:len(prefix)+4]
		}
		return "", nil, &store.AmbiguousError{Prefix: prefix, Candidates: keys}
	}
	key, _ := hex.DecodeString(keys[0])
	name := k.scheme + ":" + keys[0][:store.ShortLen]
	b, err := r.get(ctx, r.key(dir+keys[0]))
	if err == nil {
		b, err = r.seal.open("remote "+name, b)
	}
	if err != nil {
		return name, nil, err
	}
	if err := k.check(key, b); err != nil {
		return name, nil, fmt.Errorf("remote %s %v: %w", name, err, store.ErrCorrupt)
	}
	rep := &PullReport{}
	if err := r.pullRefs(ctx, st, [][]byte{b}, rep); err != nil {
		return name, rep, fmt.Errorf("pull %s: %w", name, err)
	}
	if _, err := st.PutLayerRecord(k.bucket, key, b); err != nil {
		return name, rep, err
	}
	rep.Records++
	return name, rep, nil
}

// pullRefs pulls the runs and blobs records name by full id. One the remote
// does not hold (never pushed) is counted as missing, not an error: the
// record says what it names, and reading it reports the gap.
func (r *Remote) pullRefs(ctx context.Context, st *store.Store, records [][]byte, rep *PullReport) error {
	seen := map[store.ID]bool{}
	for _, rec := range records {
		for _, m := range runRefPattern().FindAllSubmatch(rec, -1) {
			run, _ := store.ParseID(string(m[1]))
			if seen[run] {
				continue
			}
			seen[run] = true
			if err := r.pullRun(ctx, st, run, rep); errors.Is(err, store.ErrNotFound) {
				rep.Missing++
			} else if err != nil {
				return err
			}
		}
		for _, ref := range blobRefs(rec) {
			n, err := r.pullBlob(ctx, st, ref)
			switch {
			case errors.Is(err, store.ErrNotFound):
				rep.Missing++
			case err != nil:
				return err
			case n > 0:
				rep.Blobs++
				rep.Bytes += n
			}
		}
	}
	return nil
}

// layerKey is a layer record's object name.
func (r *Remote) layerKey(bucket, ws string, key []byte, perWorkspace bool) string {
	if perWorkspace {
		return r.key("layers", bucket, ws, hex.EncodeToString(key))
	}
	return r.key("layers", bucket, hex.EncodeToString(key))
}
