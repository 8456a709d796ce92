package runner

import (
	"fmt"
	"sync"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Batch holds finished captures whose runs are stored together, in one
// transaction and one fsync (store.CommitBatch), instead of one each: ctx
// seq's steps. A held capture's spool stays locked, so until Commit nothing
// else recovers it; Keep saves its result in the spool before anything
// else runs, so that if this process dies first, the next ctx command
// recovers it with its real exit status, as any unfinished run. (Not
// flushed: like the held output itself, which is durable from its commit,
// as a ctx run's is.) Its
// Result (run id, digest, receipt) is final when held; ctx get reads the
// run once Commit has returned.
type Batch struct {
	st   *store.Store
	mu   sync.Mutex // guards held against a commit FlushAfter started
	held []heldRun
}

type heldRun struct {
	sp     *store.Spool
	m      store.Manifest
	commit store.Commit
	kept   bool // its result is saved in its spool
}

// NewBatch is an empty batch for runs of st.
func NewBatch(st *store.Store) *Batch { return &Batch{st: st} }

// hold keeps a prepared run for Commit. Its result is saved in the spool
// by Keep, or not at all when Commit comes first: a run committed straight
// after its capture, like ctx run's, needs none.
func (b *Batch) hold(sp *store.Spool, m store.Manifest, c store.Commit) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held = append(b.held, heldRun{sp: sp, m: m, commit: c})
}

// Keep saves the result of every held run in its spool: call it
// before running anything more (the next step), so a held run outlives
// this process with its exit status.
func (b *Batch) Keep() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.held {
		h := &b.held[i]
		if h.kept {
			continue
		}
		if err := h.sp.KeepResult(h.m); err != nil {
			return fmt.Errorf("save the result in spool %s: %w", h.sp.Dir(), err)
		}
		h.kept = true
	}
	return nil
}

// Len is how many runs the batch holds.
func (b *Batch) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.held)
}

// FlushAfter commits the held runs after d unless the returned wait is
// called first, so that a step that takes longer than d does not keep the
// finished steps before it unreadable to other ctx processes: steps that
// follow each other quickly still share one transaction. wait stops the
// timer, or waits for the commit it started, and returns that commit's
// error; call it before holding another run.
func (b *Batch) FlushAfter(d time.Duration) (wait func() error) {
	done := make(chan error, 1)
	t := time.AfterFunc(d, func() { done <- b.Commit() })
	return func() error {
		if t.Stop() {
			return nil
		}
		return <-done
	}
}

// Commit stores every held run in one transaction. On failure each spool is
// unlocked and kept, with its result, for the next ctx command to recover;
// the error says so.
func (b *Batch) Commit() error {
	_, err := b.CommitWith()
	return err
}

// CommitWith is Commit with layer records stored in the same transaction
// (a sequence's record with its last steps). stored is false when the
// batch held no run, so nothing was stored: the caller stores them itself.
func (b *Batch) CommitWith(layers ...store.LayerPut) (stored bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.held) == 0 {
		return false, nil
	}
	commits := make([]store.Commit, len(b.held))
	for i, h := range b.held {
		commits[i] = h.commit
	}
	if len(layers) > 0 {
		last := &commits[len(commits)-1]
		extra := store.Extra{}
		if last.Extra != nil {
			extra = *last.Extra
		}
		extra.Layers = append(extra.Layers, layers...)
		last.Extra = &extra
	}
	held := b.held
	b.held = nil
	if _, err := b.st.CommitBatch(commits); err != nil {
		for _, h := range held {
			if !h.kept {
				_ = h.sp.SaveResult(h.m)
			}
			h.sp.Unlock()
		}
		return false, fmt.Errorf("store %d runs: %w (their output is kept in %s's spools; the next ctx command stores it)", len(held), err, b.st.Dir())
	}
	return true, nil
}
