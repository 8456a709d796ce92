package remote

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxhq/ctx/store"
)

// Found is what a handle names in the remote.
type Found struct {
	Kind store.Kind // run, blob, receipt or span
	ID   store.ID
}

// kindDirs maps handle schemes to the remote's directories.
var kindDirs = map[store.Kind]string{store.KindRun: "runs", store.KindBlob: "blobs", store.KindReceipt: "receipts", store.KindSpan: "spans"}

// Resolve finds what a handle's id prefix names in the remote: one LIST per
// kind searched. No match wraps store.ErrNotFound; several are a
// *store.AmbiguousError.
func (r *Remote) Resolve(ctx context.Context, h store.Handle) (Found, error) {
	kinds := []store.Kind{h.Scheme}
	if h.Scheme == "" {
		kinds = []store.Kind{store.KindRun, store.KindBlob, store.KindReceipt}
	}
	var found []Found
	for _, kind := range kinds {
		objs, err := r.list(ctx, kindDirs[kind]+"/"+h.Prefix, nil)
		if err != nil {
			return Found{}, err
		}
		seen := map[store.ID]bool{}
		for _, o := range objs {
			name, _, _ := strings.Cut(strings.TrimPrefix(o.Key, kindDirs[kind]+"/"), "/")
			id, err := store.ParseID(name)
			if err != nil || seen[id] || kind == "blob" && !strings.HasSuffix(o.Key, "/table") {
				continue
			}
			seen[id] = true
			found = append(found, Found{kind, id})
		}
	}
	switch len(found) {
	case 0:
		return Found{}, fmt.Errorf("%s: not in the remote s3://%s/%s either: %w", h, r.cfg.Bucket, r.prefix, store.ErrNotFound)
	case 1:
		return found[0], nil
	}
	var names []string
	for _, f := range found {
		names = append(names, string(f.Kind)+":"+f.ID.String()[:len(h.Prefix)+2])
	}
	slices.Sort(names)
	return Found{}, &store.AmbiguousError{Prefix: h.Prefix, Candidates: names}
}

// GetRun reads a run record and checks that it hashes to its id.
func (r *Remote) GetRun(ctx context.Context, id store.ID) (*store.Run, error) {
	run := &store.Run{}
	if err := r.getRecord(ctx, r.key("runs", id.String()), run); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("run:%s is not in the remote: %w", id.Short(), store.ErrNotFound)
		}
		return nil, err
	}
	if run.ID != id || run.Manifest.ID() != id {
		return nil, fmt.Errorf("remote run:%s record does not hash to its id: %w", id.Short(), store.ErrCorrupt)
	}
	return run, nil
}

// PullReport says what a pull copied.
type PullReport struct {
	Runs  int   `json:"runs"`
	Execs int   `json:"execs"`
	Blobs int   `json:"blobs"`
	Bytes int64 `json:"bytes"`
	// Records counts layer records and ledger rows stored; Missing the runs
	// and blobs a record names that the remote does not hold.
	Records int `json:"records,omitempty"`
	Missing int `json:"missing,omitempty"`
}

// Pull copies what a handle names, and everything it references, into the
// local store, verifying each piece on the way in: a run brings its blobs,
// its execution records (from every workspace) and their receipts; a span
// its run; a blob or receipt itself. It returns what the handle named.
func Pull(ctx context.Context, st *store.Store, r *Remote, h store.Handle) (Found, *PullReport, error) {
	f, err := r.Resolve(ctx, h)
	if err != nil {
		return f, nil, err
	}
	rep := &PullReport{}
	switch f.Kind {
	case "run":
		err = r.pullRun(ctx, st, f.ID, rep)
	case "blob":
		var n int64
		n, err = r.pullBlob(ctx, st, f.ID)
		rep.Bytes += n
		if n > 0 {
			rep.Blobs++
		}
	case "receipt":
		err = r.pullReceipt(ctx, st, f.ID)
	case "span":
		err = r.pullSpan(ctx, st, f.ID, rep)
	}
	return f, rep, err
}

func (r *Remote) pullRun(ctx context.Context, st *store.Store, id store.ID, rep *PullReport) error {
	run, err := r.GetRun(ctx, id)
	if err != nil {
		return err
	}
	for _, b := range run.Blobs() {
		n, err := r.pullBlob(ctx, st, b)
		if err != nil {
			return fmt.Errorf("pull %s: %w", run.Handle(), err)
		}
		rep.Bytes += n
		if n > 0 {
			rep.Blobs++
		}
	}
	if err := st.PutRun(run); err != nil {
		return fmt.Errorf("pull %s: %w", run.Handle(), err)
	}
	rep.Runs++
	execs, err := r.execs(ctx, id)
	if err != nil {
		return fmt.Errorf("pull %s: %w", run.Handle(), err)
	}
	for _, ex := range execs {
		if !ex.Receipt.IsZero() {
			if err := r.pullReceipt(ctx, st, ex.Receipt); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		if err := st.PutExecIfAbsent(ex); err != nil {
			return fmt.Errorf("pull %s: %w", run.Handle(), err)
		}
		rep.Execs++
	}
	return nil
}

// execs reads the execution records of run id, from every workspace, each
// checked to name the run and the key it is stored under.
func (r *Remote) execs(ctx context.Context, id store.ID) ([]*store.Exec, error) {
	objs, err := r.list(ctx, "execs/"+id.String()+"/", nil)
	if err != nil {
		return nil, err
	}
	var out []*store.Exec
	for _, o := range objs {
		ex := &store.Exec{}
		if err := r.getRecord(ctx, r.key(o.Key), ex); err != nil {
			return nil, err
		}
		if ex.Run != id || "execs/"+id.String()+"/"+ex.Key != o.Key {
			return nil, fmt.Errorf("remote %s names another run or key: %w", o.Key, store.ErrCorrupt)
		}
		out = append(out, ex)
	}
	return out, nil
}

// PullReceiptOf copies the receipt of run id's newest execution that has one,
// with the blobs it names (the digest's text), into the local store, and
// returns it as a receipt target: what ctx show of a run too large to cache
// reads, without copying its outputs.
func PullReceiptOf(ctx context.Context, st *store.Store, r *Remote, id store.ID) (*store.Target, error) {
	execs, err := r.execs(ctx, id)
	if err != nil {
		return nil, err
	}
	var newest *store.Exec
	for _, ex := range execs {
		if !ex.Receipt.IsZero() && (newest == nil || ex.Start.After(newest.Start)) {
			newest = ex
		}
	}
	if newest == nil {
		return nil, fmt.Errorf("run:%s: no execution in the remote recorded a digest: %w", id.Short(), store.ErrNotFound)
	}
	if err := r.pullReceipt(ctx, st, newest.Receipt); err != nil {
		return nil, fmt.Errorf("pull receipt of run:%s: %w", id.Short(), err)
	}
	data, err := st.Receipt(newest.Receipt)
	if err != nil {
		return nil, err
	}
	return &store.Target{Kind: store.KindReceipt, ID: newest.Receipt, Receipt: data}, nil
}

func (r *Remote) pullReceipt(ctx context.Context, st *store.Store, id store.ID) error {
	if _, err := st.Receipt(id); err == nil {
		return nil
	}
	b, err := r.get(ctx, r.key("receipts", id.String()))
	if err != nil {
		return err
	}
	if b, err = r.seal.open("remote receipt:"+id.Short(), b); err != nil {
		return err
	}
	if store.ReceiptID(b) != id {
		return fmt.Errorf("remote receipt:%s does not hash to its id: %w", id.Short(), store.ErrCorrupt)
	}
	for _, ref := range blobRefs(b) {
		if _, err := r.pullBlob(ctx, st, ref); err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("pull receipt:%s: %w", id.Short(), err)
		}
	}
	_, err = st.PutReceipt(b)
	return err
}

func (r *Remote) pullSpan(ctx context.Context, st *store.Store, tok store.ID, rep *PullReport) error {
	var sp store.Span
	if err := r.getRecord(ctx, r.key("spans", tok.String()), &sp); err != nil {
		return err
	}
	if err := r.pullRun(ctx, st, sp.Run, rep); err != nil {
		return err
	}
	return st.PutSpanRecord(tok, sp)
}
