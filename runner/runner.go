// Package runner is the one path from a request to a stored, digested run:
// capture a command (Capture), store output that already exists (Ingest), or
// read back the digest a run was shown (Show). The CLI, the MCP server, the
// benchmarks and any later front end (a sequence of steps, a Starlark builtin,
// a background job) call it and get the run's handle, exit status, items,
// coverage and digest back as values; none of them prints on its behalf.
//
// Everything a run depends on is passed in — the store, the clock, the
// child's environment, the host facts recorded with an execution — and
// nothing is read from globals, so a caller (or a test) decides each of them.
// The runner never writes to a terminal: what a person should be told comes
// back in Result (Note) or as a typed error.
package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/store"
)

// Env is what a run reads from its surroundings. The zero value of each
// optional field is a safe default.
type Env struct {
	Store *store.Store
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Environ is the base environment of a captured command; pagers are
	// turned off on top of it (PAGER=cat, GIT_PAGER=cat).
	Environ []string
	// Host, PID and Version are recorded on each execution record.
	Host    string
	PID     int
	Version string
	// Defer, when set, takes over a generation git status had not finished
	// when the wait ended (see Deferral), so it is recorded after the
	// capture returns; its error says why it would not (the execution's
	// note keeps it). Nil: such an execution records no generation.
	Defer func(Deferral) error
	// DeferAtStart, when set, reports whether the generation of the work
	// tree at root should be handed to Defer as the command starts (its git
	// status was late before: a large tree), so this process runs no git
	// status and waits for none.
	DeferAtStart func(root string) bool
	// Trace, when set, is told each phase of the run as it ends (a
	// developer's timing aid).
	Trace func(phase string)
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now().UTC()
	}
	return e.Now().UTC()
}

func (e *Env) trace(phase string) {
	if e.Trace != nil {
		e.Trace(phase)
	}
}

// Result is a stored run and what it was shown as.
type Result struct {
	Run *store.Run
	// Exit is the status the command ended with (the --exit value of an
	// ingest); Status how it ended (exited, signaled, timeout, ingested…).
	Exit   int
	Status store.Status
	// Digest is the rendered digest with its graph, plan and receipt; nil
	// when no digest could be made (DigestErr says why). The run is stored
	// either way.
	Digest    *digest.Result
	DigestErr error
	// Note is something the person or agent should be told about the
	// capture (a background process kept the output open).
	Note string
	// Raw is set when some frames were stored uncompressed (a flood outran
	// the compressor) or large spool files were left to delete: the caller
	// may start a compaction, which does both.
	Raw bool
}

// Handle is the run's handle (run:<short id>).
func (r *Result) Handle() string { return r.Run.Handle() }

// Text is the digest's bytes (nil when there is no digest).
func (r *Result) Text() []byte {
	if r.Digest == nil {
		return nil
	}
	return r.Digest.Digest.Text
}

// Items are the evidence items the digest was made from.
func (r *Result) Items() []evidence.Item {
	if r.Digest == nil {
		return nil
	}
	return r.Digest.Graph.Items
}

// Receipt is the digest receipt's handle ("" when there is no digest).
func (r *Result) Receipt() string {
	if r.Digest == nil {
		return ""
	}
	return r.Digest.Handle()
}

// NoCaptureError is returned when nothing can be captured because the store
// cannot take a spool: the caller may still run the command without ctx.
type NoCaptureError struct{ Err error }

func (e *NoCaptureError) Error() string { return "cannot capture: " + e.Err.Error() }
func (e *NoCaptureError) Unwrap() error { return e.Err }

// StoreError is returned when the command ran but its run could not be
// stored; its output is kept in the spool and the next ctx command stores it.
type StoreError struct {
	Exit  int    // how the command ended
	Spool string // where its output is kept
	// Spooling is set when the output could not all be written to the
	// spool (a full disk): what was spooled is kept.
	Spooling bool
	Err      error
}

func (e *StoreError) Error() string {
	if e.Spooling {
		return fmt.Sprintf("the command finished with exit %d, but its output could not all be spooled: %v (what was spooled is kept in %s and recovered by the next ctx command)", e.Exit, e.Err, e.Spool)
	}
	return fmt.Sprintf("the command finished with exit %d, but the run could not be stored: %v (its output is kept in %s; the next ctx command stores it)", e.Exit, e.Err, e.Spool)
}
func (e *StoreError) Unwrap() error { return e.Err }

// DigestOptions are the options that shape a digest, checked: pressure is a
// level or a fraction ("" is normal), budget a non-negative token count, and
// the project's contract overrides are read from the store's contracts
// directory.
func DigestOptions(st *store.Store, budget int, pressure, profile string) (digest.Options, error) {
	p, err := plan.ParsePressure(pressure)
	if err != nil {
		return digest.Options{}, err
	}
	if budget < 0 {
		return digest.Options{}, fmt.Errorf("--budget %d: want a positive number of tokens", budget)
	}
	return digest.Options{Budget: budget, Pressure: p, Profile: profile,
		ContractDir: filepath.Join(st.Dir(), "contracts")}, nil
}

// finish renders the digest of a finished capture from its spool (from the
// parse that ran alongside the capture, when live is set and it counts) and
// stores the run with its digest and receipt in one transaction, or holds it
// in batch for Batch.Commit. A run whose digest cannot be made is still
// stored (Result.DigestErr). session names the agent session: the same
// result again in one session is shown at the next level.
func finish(ctx context.Context, env *Env, sp *store.Spool, m store.Manifest, ex store.Exec, opts digest.Options, batch *Batch, live *digest.Live) (*Result, error) {
	st := env.Store
	p, err := st.Prepare(sp, m)
	if err != nil {
		return nil, err
	}
	env.trace("prepare")
	if live != nil {
		live.Settle(p.Run.Manifest)
	}
	run := p.Run
	key := commandKey(run.Manifest.Argv, run.Manifest.Dir)
	var sess store.Session
	if ex.Session != "" {
		if s, err := st.GetSession(ex.Session, key); err == nil {
			sess = s
		}
		if sess.Run == run.ID {
			opts.Level = sess.Level + 1 // the same result again: the last digest was not enough
		}
	}
	// Large outputs' frames go into the store while the digest is rendered
	// from the spool.
	stored := make(chan error, 1)
	go func() { stored <- p.StoreLarge() }()
	var res *digest.Result
	var derr error
	if live != nil {
		res, derr = live.Make(ctx, p, run, opts)
	} else {
		res, derr = digest.Make(ctx, p, run, opts)
	}
	if live != nil && live.Counted() {
		env.trace("digest (parsed live)")
	} else {
		env.trace("digest")
	}
	if err := <-stored; err != nil {
		return nil, err
	}
	env.trace("frames")
	var extra *store.Extra
	if derr == nil {
		extra = res.Extra()
		noteDigest(&ex, res)
		if ex.Session != "" {
			extra.Session = &store.SessionUpdate{Session: ex.Session, Command: key,
				Record: store.Session{Run: run.ID, Level: opts.Level, Count: sess.Count + 1}}
		}
	}
	if batch != nil {
		batch.hold(sp, m, store.Commit{Pending: p, Exec: ex, Extra: extra})
	} else if _, err := st.Commit(p, ex, extra); err != nil {
		return nil, err
	}
	env.trace("commit")
	out := &Result{Run: run, Exit: run.Manifest.Exit, Status: run.Manifest.Status, Digest: res, Raw: p.HasRaw() || p.LeftTrash()}
	if derr != nil {
		out.Digest, out.DigestErr = nil, derr
	}
	return out, nil
}

// noteDigest records on an execution the digest it was shown.
func noteDigest(ex *store.Exec, res *digest.Result) {
	ex.Receipt = res.ReceiptID
	ex.ShownBytes = int64(len(res.Digest.Text))
	ex.Profile = res.Plan.Profile
}

// commandKey identifies "the same command in the same directory" for the
// session's escalation.
func commandKey(argv []string, dir string) string {
	return store.Sum([]byte(strings.Join(argv, "\x00") + "\x00\x00" + dir)).String()
}

// RelDir is dir relative to the workspace root, "." at the root. A directory
// outside the workspace is recorded by its base name only, so absolute paths
// (temporary directories above all) never reach an id.
func RelDir(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "(outside)/" + filepath.Base(dir)
	}
	return filepath.ToSlash(rel)
}

// ChildEnv is env with pagers disabled.
func ChildEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if strings.HasPrefix(kv, "PAGER=") || strings.HasPrefix(kv, "GIT_PAGER=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PAGER=cat", "GIT_PAGER=cat")
}

// copyInto copies r into the spool stream name.
func copyInto(sp *store.Spool, name string, r io.Reader) error {
	w, err := sp.Stream(name)
	if err != nil {
		return err
	}
	if r == nil {
		return nil
	}
	if _, err := io.Copy(w, r); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}

// ResolveDir is the directory a command given dir runs in: cwd when dir is
// "", dir relative to cwd unless absolute. It must be an existing directory.
func ResolveDir(cwd, dir string) (string, error) {
	if dir == "" {
		return cwd, nil
	}
	abs := dir
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("--cwd %s: not a directory", dir)
	}
	return abs, nil
}
