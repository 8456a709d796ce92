package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ctxhq/ctx/store"
)

// GCOptions control a remote gc.
type GCOptions struct {
	DryRun bool          // report, delete nothing
	Grace  time.Duration // objects younger than this are never deleted (a push in progress); 0: DefaultGrace
	Now    func() time.Time
}

// DefaultGrace is how old an unreferenced object must be before remote gc
// deletes it: longer than any push takes.
const DefaultGrace = 24 * time.Hour

// GCReport says what a remote gc marked and swept.
type GCReport struct {
	Workspaces   int      `json:"workspaces"`
	LiveRuns     int      `json:"live_runs"`
	MissingRuns  int      `json:"missing_runs"`  // runs an index names that the remote does not hold (reported, not fatal)
	LayerRecords int      `json:"layer_records"` // capsule, snapshot, drop and ledger records read in the mark phase
	LiveBlobs    int      `json:"live_blobs"`
	Deleted      []string `json:"deleted"` // keys deleted (or, with DryRun, that would be)
	DeletedBytes int64    `json:"deleted_bytes"`
	Kept         int      `json:"kept"` // unreferenced but younger than the grace period
}

// GC deletes blobs and runs that no workspace's index references. Mark: every
// workspace index (each entry checked against the run it names), every run
// or blob a layer record names, and every run younger than the grace period
// are live, and so is every blob a live
// run references. Sweep: blob objects (tables and data) and run records not
// marked and older than the grace period; data objects no table names. Local
// gc never calls this: deleting shared objects is always this explicit
// command.
func GC(ctx context.Context, r *Remote, opts GCOptions) (*GCReport, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Grace == 0 {
		opts.Grace = DefaultGrace
	}
	now := func() int64 { return opts.Now().Unix() }
	grace := int64(opts.Grace / time.Second)
	rep := &GCReport{}
	live, err := r.markRuns(ctx, rep)
	if err != nil {
		return nil, err
	}
	liveBlobs := map[store.ID]bool{}
	if err := r.markLayers(ctx, live, liveBlobs, rep); err != nil {
		return nil, err
	}
	runs, err := r.list(ctx, "runs/", now)
	if err != nil {
		return nil, err
	}
	var sweep []object
	for _, o := range runs {
		id, err := store.ParseID(strings.TrimPrefix(o.Key, "runs/"))
		if err != nil {
			continue
		}
		if !live[id] && o.Age < grace {
			live[id] = true
			rep.Kept++
		}
		if !live[id] {
			execs, err := r.list(ctx, "execs/"+id.String()+"/", nil)
			if err != nil {
				return nil, err
			}
			sweep = append(append(sweep, o), execs...)
			continue
		}
		run, err := r.GetRun(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("remote gc: %w (nothing was deleted)", err)
		}
		for _, b := range run.Blobs() {
			liveBlobs[b] = true
		}
		if err := r.markReceiptBlobs(ctx, id, liveBlobs); err != nil {
			return nil, fmt.Errorf("remote gc: %w (nothing was deleted)", err)
		}
	}
	rep.LiveRuns, rep.LiveBlobs = len(live), len(liveBlobs)
	blobs, err := r.sweepBlobs(ctx, liveBlobs, grace, now, rep)
	if err != nil {
		return nil, err
	}
	sweep = append(sweep, blobs...)
	for _, o := range sweep {
		rep.Deleted = append(rep.Deleted, o.Key)
		rep.DeletedBytes += o.Size
		if opts.DryRun {
			continue
		}
		if err := r.remove(ctx, r.key(o.Key)); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// markRuns reads every workspace index and returns the runs they name that
// the remote holds.
func (r *Remote) markRuns(ctx context.Context, rep *GCReport) (map[store.ID]bool, error) {
	idxs, err := r.list(ctx, "workspaces/", nil)
	if err != nil {
		return nil, err
	}
	live := map[store.ID]bool{}
	for _, o := range idxs {
		b, err := r.get(ctx, r.key(o.Key))
		if err == nil {
			b, err = r.seal.open("remote "+o.Key, b)
		}
		if err != nil {
			return nil, fmt.Errorf("remote gc: %w (nothing was deleted)", err)
		}
		var idx Index
		if err := json.Unmarshal(b, &idx); err != nil {
			return nil, fmt.Errorf("remote gc: %s is damaged: %v (nothing was deleted; remove it or push from that workspace to rebuild it)", o.Key, err)
		}
		rep.Workspaces++
		for _, id := range idx.Runs {
			ok, err := r.exists(ctx, r.key("runs", id.String()))
			if err != nil {
				return nil, err
			}
			if !ok {
				rep.MissingRuns++
				continue
			}
			live[id] = true
		}
	}
	return live, nil
}

// markLayers marks the runs and blobs that layer records (capsules,
// snapshots, drops, ledgers) name by full id, as ctx pull of such a record
// would fetch them: a capsule handed to another machine keeps what it cites
// even after every workspace index has forgotten the run. Layer records
// themselves are never swept.
func (r *Remote) markLayers(ctx context.Context, runs, blobs map[store.ID]bool, rep *GCReport) error {
	objs, err := r.list(ctx, "layers/", nil)
	if err != nil {
		return err
	}
	for _, o := range objs {
		b, err := r.get(ctx, r.key(o.Key))
		if err == nil {
			b, err = r.seal.open("remote "+o.Key, b)
		}
		if err != nil {
			return fmt.Errorf("remote gc: %w (nothing was deleted)", err)
		}
		rep.LayerRecords++
		for _, m := range runRefPattern().FindAllSubmatch(b, -1) {
			if id, err := store.ParseID(string(m[1])); err == nil {
				runs[id] = true
			}
		}
		for _, id := range blobRefs(b) {
			blobs[id] = true
		}
	}
	return nil
}

// sweepBlobs lists blob objects to delete: those of blobs no live run
// references, and data objects their table does not name, older than grace.
func (r *Remote) sweepBlobs(ctx context.Context, live map[store.ID]bool, grace int64, now func() int64, rep *GCReport) ([]object, error) {
	objs, err := r.list(ctx, "blobs/", now)
	if err != nil {
		return nil, err
	}
	var out []object
	for _, o := range objs {
		parts := strings.Split(o.Key, "/")
		if len(parts) != 3 {
			continue
		}
		id, err := store.ParseID(parts[1])
		if err != nil {
			continue
		}
		if o.Age < grace {
			if !live[id] {
				rep.Kept++
			}
			continue
		}
		if !live[id] {
			out = append(out, o)
			continue
		}
		if parts[2] != "table" {
			rb, err := r.table(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("remote gc: %w (nothing was deleted)", err)
			}
			if r.key(o.Key) != rb.data {
				out = append(out, o) // a losing concurrent push's data, or a crash's
			}
		}
	}
	return out, nil
}

// markReceiptBlobs marks the blobs named by the receipts of a live run's
// executions (digest texts, census lists).
func (r *Remote) markReceiptBlobs(ctx context.Context, run store.ID, live map[store.ID]bool) error {
	execs, err := r.list(ctx, "execs/"+run.String()+"/", nil)
	if err != nil {
		return err
	}
	for _, o := range execs {
		ex := &store.Exec{}
		if err := r.getRecord(ctx, r.key(o.Key), ex); err != nil {
			return err
		}
		if ex.Receipt.IsZero() {
			continue
		}
		b, err := r.get(ctx, r.key("receipts", ex.Receipt.String()))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err == nil {
			b, err = r.seal.open("remote receipt:"+ex.Receipt.Short(), b)
		}
		if err != nil {
			return err
		}
		for _, id := range blobRefs(b) {
			live[id] = true
		}
	}
	return nil
}
