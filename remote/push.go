package remote

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sync"

	"github.com/ctxhq/ctx/store"
)

// PushReport says what a push sent.
type PushReport struct {
	Runs          int    `json:"runs"`          // run records sent
	Execs         int    `json:"execs"`         // execution records sent
	Blobs         int    `json:"blobs"`         // blobs sent
	BlobsPresent  int    `json:"blobs_present"` // blobs the remote held already (identical output stored once)
	Bytes         int64  `json:"bytes"`         // bytes of blob data sent
	Layers        int    `json:"layers"`        // layer records sent
	Workspace     string `json:"workspace"`
	AlreadyPushed int    `json:"already_pushed"` // executions pushed before
}

// pushWorkers is how many runs are pushed at once.
const pushWorkers = 8

// Push copies every execution of the local store not yet pushed — its run,
// the run's blobs, its receipt and spans — then the layers' records, then
// rewrites this workspace's index from the local store. It is idempotent: an
// interrupted push is finished by the next.
func Push(ctx context.Context, st *store.Store, r *Remote) (*PushReport, error) {
	ws, err := WorkspaceID(st)
	if err != nil {
		return nil, err
	}
	rep := &PushReport{Workspace: ws}
	log, err := r.openPushed(st)
	if err != nil {
		return nil, err
	}
	execs, err := st.Execs(0, nil)
	if err != nil {
		return nil, err
	}
	slices.Reverse(execs) // oldest first
	var todo []*store.Exec
	for _, ex := range execs {
		if log.has("exec " + ex.Key) {
			rep.AlreadyPushed++
		} else {
			todo = append(todo, ex)
		}
	}
	perr := r.pushExecs(ctx, st, todo, log, rep)
	if perr == nil {
		perr = r.pushSpans(ctx, st, log)
	}
	if perr == nil {
		perr = r.pushLayers(ctx, st, ws, log, rep)
	}
	if err := log.close(); err != nil && perr == nil {
		perr = fmt.Errorf("remote state: %w", err)
	}
	if perr != nil {
		return rep, r.diagnose(ctx, "push", perr)
	}
	return rep, r.diagnose(ctx, "push", r.putIndex(ctx, ws, execs))
}

// pushExecs pushes executions in parallel, recording each one done.
func (r *Remote) pushExecs(ctx context.Context, st *store.Store, todo []*store.Exec, log *pushedLog, rep *PushReport) error {
	var mu sync.Mutex
	var first error
	jobs := make(chan *store.Exec)
	var wg sync.WaitGroup
	for range min(pushWorkers, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ex := range jobs {
				var one PushReport
				err := r.pushExec(ctx, st, ex, &one)
				mu.Lock()
				if err == nil {
					err = log.add("exec " + ex.Key)
				}
				if err != nil && first == nil {
					first = err
				}
				rep.Runs += one.Runs
				rep.Execs += one.Execs
				rep.Blobs += one.Blobs
				rep.BlobsPresent += one.BlobsPresent
				rep.Bytes += one.Bytes
				mu.Unlock()
			}
		}()
	}
	for _, ex := range todo {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		jobs <- ex
	}
	close(jobs)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// pushExec pushes one execution: blobs first, then the run record, then the
// receipt and the execution record, so an object that names another is
// written after it.
func (r *Remote) pushExec(ctx context.Context, st *store.Store, ex *store.Exec, rep *PushReport) error {
	run, err := st.GetRun(ex.Run)
	if err != nil {
		return fmt.Errorf("push %s: %w", ex.Handle(), err)
	}
	for _, id := range run.Blobs() {
		b, err := st.Blob(id)
		if err != nil {
			return fmt.Errorf("push %s: %w", ex.Handle(), err)
		}
		n, err := r.pushBlob(ctx, b)
		if err != nil {
			return fmt.Errorf("push %s: %w", ex.Handle(), err)
		}
		if n == 0 {
			rep.BlobsPresent++
		} else {
			rep.Blobs++
			rep.Bytes += n
		}
	}
	if err := r.putRecord(ctx, r.key("runs", run.ID.String()), run); err != nil {
		return fmt.Errorf("push %s: %w", ex.Handle(), err)
	}
	rep.Runs++
	if !ex.Receipt.IsZero() {
		if err := r.pushReceipt(ctx, st, ex.Receipt, rep); err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("push %s receipt: %w", ex.Handle(), err)
		}
	}
	if err := r.putRecord(ctx, r.key("execs", run.ID.String(), ex.Key), ex); err != nil {
		return fmt.Errorf("push %s: %w", ex.Handle(), err)
	}
	rep.Execs++
	return nil
}

// pushReceipt pushes a receipt after the blobs it names (its digest text,
// census lists).
func (r *Remote) pushReceipt(ctx context.Context, st *store.Store, id store.ID, rep *PushReport) error {
	data, err := st.Receipt(id)
	if err != nil {
		return err
	}
	for _, ref := range blobRefs(data) {
		b, err := st.Blob(ref)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		n, err := r.pushBlob(ctx, b)
		if err != nil {
			return err
		}
		if n == 0 {
			rep.BlobsPresent++
		} else {
			rep.Blobs++
			rep.Bytes += n
		}
	}
	return r.putSealed(ctx, r.key("receipts", id.String()), data)
}

// blobRefPattern finds the blobs a record names by full id (compiled on
// first use: nothing of the remote tier runs at ctx's start-up).
var blobRefPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`blob:[0-9a-f]{64}`) })

// blobRefs lists the blobs a record (a receipt) names as blob:<full id>,
// each once, in order.
func blobRefs(data []byte) []store.ID {
	var out []store.ID
	seen := map[store.ID]bool{}
	for _, m := range blobRefPattern().FindAll(data, -1) {
		id, err := store.ParseID(string(m[5:]))
		if err == nil && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// putRecord writes a JSON record that must not change once written.
func (r *Remote) putRecord(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return r.putSealed(ctx, key, b)
}

func (r *Remote) putSealed(ctx context.Context, key string, b []byte) error {
	b, err := r.seal.seal(b)
	if err != nil {
		return err
	}
	if err := r.putNew(ctx, key, b); err != nil && !errors.Is(err, errExists) {
		return err
	}
	return nil
}

// getRecord reads a record written by putRecord.
func (r *Remote) getRecord(ctx context.Context, key string, v any) error {
	b, err := r.get(ctx, key)
	if err != nil {
		return err
	}
	if b, err = r.seal.open("remote "+key, b); err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("remote %s: %v: %w", key, err, store.ErrCorrupt)
	}
	return nil
}

// pushSpans pushes the span records not pushed yet whose runs are pushed.
func (r *Remote) pushSpans(ctx context.Context, st *store.Store, log *pushedLog) error {
	spans, err := st.AllSpans()
	if err != nil {
		return err
	}
	for tok, sp := range spans {
		k := "span " + tok.String()
		if log.has(k) {
			continue
		}
		if err := r.putRecord(ctx, r.key("spans", tok.String()), sp); err != nil {
			return fmt.Errorf("push span:%s: %w", tok.Short(), err)
		}
		if err := log.add(k); err != nil {
			return err
		}
	}
	return nil
}

// Layer buckets pushed: content-addressed records are shared by every
// workspace; logs (numbered rows) are kept per workspace.
var (
	sharedLayers = []string{"continuity.snapshots", "continuity.drops", "capsule.records"}
	logLayers    = []string{"continuity.log", "ledger.log", "capsule.history", "capsule.deliveries"}
)

func (r *Remote) pushLayers(ctx context.Context, st *store.Store, ws string, log *pushedLog, rep *PushReport) error {
	for _, bucket := range append(slices.Clone(sharedLayers), logLayers...) {
		keys, err := st.LayerKeys(bucket, nil, 1<<30)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			return fmt.Errorf("push %s: %w", bucket, err)
		}
		for _, k := range keys {
			name := bucket + " " + hex.EncodeToString(k)
			if log.has(name) {
				continue
			}
			v, err := st.LayerRecord(bucket, k)
			if err != nil {
				return fmt.Errorf("push %s: %w", bucket, err)
			}
			key := r.layerKey(bucket, ws, k, slices.Contains(logLayers, bucket))
			if err := r.putSealed(ctx, key, v); err != nil {
				return fmt.Errorf("push %s: %w", bucket, err)
			}
			rep.Layers++
			if err := log.add(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Index is one workspace's index: the runs its store holds. It is rebuilt
// from the local store on every push, and readers (remote gc) check every
// entry against the objects it names.
type Index struct {
	Workspace string     `json:"workspace"`
	Runs      []store.ID `json:"runs"`
}

func (r *Remote) putIndex(ctx context.Context, ws string, execs []*store.Exec) error {
	idx := Index{Workspace: ws}
	seen := map[store.ID]bool{}
	for _, ex := range execs {
		if !seen[ex.Run] {
			seen[ex.Run] = true
			idx.Runs = append(idx.Runs, ex.Run)
		}
	}
	slices.SortFunc(idx.Runs, func(a, b store.ID) int { return slices.Compare(a[:], b[:]) })
	b, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	if b, err = r.seal.seal(b); err != nil {
		return err
	}
	return r.putOver(ctx, r.key("workspaces", ws), b)
}
