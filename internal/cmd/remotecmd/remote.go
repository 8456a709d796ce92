// Package remotecmd holds the commands of the shared tier (docs/remote.md):
// ctx push, ctx pull, ctx remote gc, the background push after ctx run, and
// get/show falling back to the remote. The behaviour is package remote's.
package remotecmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/remote"
	"github.com/ctxhq/ctx/store"
)

func openRemote(st *store.Store) (*remote.Remote, error) {
	cfg, err := remote.LoadConfig(st.Dir())
	if err != nil {
		return nil, err
	}
	return remote.Open(cfg)
}

// unasked is the error of a handle in no local store when the remote, the
// only place left to look, could not be asked: without it, a broken
// remote.toml or an unreachable endpoint reads as the answer about the handle.
func unasked(raw string, err error) error {
	return fmt.Errorf("%s is in no local store, and the remote could not be asked: %w", raw, err)
}

// NewPushCmd is ctx push.
func NewPushCmd(ios *cli.IO) *cobra.Command {
	var background, asJSON bool
	c := &cobra.Command{
		Use:   "push",
		Short: "Copy this workspace's runs to the shared remote",
		Long: `Copy every run not yet pushed — its outputs, receipt, execution record and spans
— and the ledger, capsule and continuity records to the remote configured in
.ctx/remote.toml or ~/.config/ctx/remote.toml (docs/remote.md), then rewrite
this workspace's index there. Identical outputs are stored once in the bucket.
ctx run starts this in the background after each commit when a remote is
configured (push = "manual" turns that off).

Exit status: 0 pushed; 1 no remote is configured; 125 the remote failed or
refused (what was pushed stays; the next push finishes it).`,
		Example: "  ctx push\n  ctx push --json",
		Args:    cli.ExactArgs(0, "ctx push"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRemote(ios, false, func(st *store.Store, r *remote.Remote) error {
				if background {
					return backgroundPush(cmd.Context(), st, r)
				}
				return push(cmd.Context(), ios, st, r, asJSON)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the push report as JSON")
	c.Flags().BoolVar(&background, "background", false, "the detached push ctx run starts: one per workspace at a time, logged to .ctx/remote/push.log")
	_ = c.Flags().MarkHidden("background")
	return c
}

func push(ctx context.Context, ios *cli.IO, st *store.Store, r *remote.Remote, asJSON bool) error {
	rep, err := remote.Push(ctx, st, r)
	if rep != nil && asJSON {
		if jerr := cli.WriteJSON(ios.Out, rep); jerr != nil && err == nil {
			err = jerr
		}
	} else if rep != nil && err != nil {
		// What was pushed stays; the line must not read as a finished push.
		fmt.Fprintf(ios.Err, "ctx: push stopped after %d runs (%d blobs, %s) to s3://%s/%s; the next ctx push finishes it\n",
			rep.Runs, rep.Blobs, humanBytes(rep.Bytes), r.Config().Bucket, r.Config().Prefix)
	} else if rep != nil {
		fmt.Fprintf(ios.Out, "pushed %d runs (%d blobs, %s; %d blobs were there already; %d layer records) to s3://%s/%s as workspace %s\n",
			rep.Runs, rep.Blobs, humanBytes(rep.Bytes), rep.BlobsPresent, rep.Layers, r.Config().Bucket, r.Config().Prefix, rep.Workspace)
	}
	if err != nil {
		return &cli.ExitError{Code: cli.ExitFailed, Err: err}
	}
	return nil
}

// backgroundPush pushes while pushes are pending, holding the workspace's
// push lock; a second one exits at once (the holder sees the pending mark).
func backgroundPush(ctx context.Context, st *store.Store, r *remote.Remote) error {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10)
	for {
		unlock, ok, err := remote.LockPush(st)
		if err != nil || !ok {
			return err
		}
		for remote.TakePending(st) {
			pctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
			rep, err := remote.Push(pctx, st, r)
			cancel()
			logPush(st, rep, err)
			if err != nil {
				break
			}
		}
		unlock()
		if !remote.TakePending(st) {
			return nil
		}
		_ = remote.MarkPending(st)
	}
}

func logPush(st *store.Store, rep *remote.PushReport, err error) {
	f, ferr := os.OpenFile(st.Dir()+"/remote/push.log", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if ferr != nil {
		return
	}
	defer f.Close()
	line := time.Now().UTC().Format(time.RFC3339)
	if rep != nil {
		line += fmt.Sprintf(" runs=%d blobs=%d present=%d bytes=%d layers=%d", rep.Runs, rep.Blobs, rep.BlobsPresent, rep.Bytes, rep.Layers)
	}
	if err != nil {
		line += " error: " + err.Error()
	}
	fmt.Fprintln(f, line)
}

// StartPush starts a detached `ctx push --background` after a commit, when
// a remote is configured for background pushes. The run never waits on it.
func StartPush(ios *cli.IO, st *store.Store) {
	if !remote.Configured(st.Dir()) || ios.Getenv("CTX_NO_PUSH") != "" {
		return
	}
	if cfg, err := remote.LoadConfig(st.Dir()); err != nil || cfg.Push != "background" {
		return
	}
	if remote.MarkPending(st) != nil {
		return
	}
	cli.StartDetached(ios, "push", "--background")
}

// NewPullCmd is ctx pull.
func NewPullCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "pull HANDLE...",
		Short: "Copy a run (and all it references) from the shared remote",
		Long: `Copy what each handle names from the remote into this workspace's store: a run
with its outputs, execution records and receipts; a span with its run; a blob
or a receipt; a capsule (capsule:ID), a continuity snapshot (snap:ID) or drop
receipt (drop:ID) with the runs and blobs it names; another workspace's task
ledger (ledger:WORKSPACE, a prefix of the id ctx push prints; ledger: alone
when one other workspace pushed one), appended to this workspace's ledger,
which must be empty or a beginning of it. Everything is verified on the way in
(frame checksums, BLAKE3 ids, run and receipt hashes, record digests, the
ledger's chain): a damaged or altered object is refused.

Exit status: 0 pulled; 1 a handle names nothing there, or no remote is
configured; 125 an object is damaged (nothing of it is stored).`,
		Example: "  ctx pull run:ba3d1020ee8f\n  ctx pull capsule:3f2a9c01b7e4 snap:77a0c1d2e3f4\n  ctx pull ledger:",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRemote(ios, true, func(st *store.Store, r *remote.Remote) error { return pullAll(cmd.Context(), ios, st, r, args, asJSON) })
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print, as JSON, what each handle named and what was copied")
	return c
}

// pulled is one handle's line of ctx pull --json.
type pulled struct {
	Handle string             `json:"handle"`
	Report *remote.PullReport `json:"report"`
}

func pullAll(ctx context.Context, ios *cli.IO, st *store.Store, r *remote.Remote, args []string, asJSON bool) error {
	var all []pulled
	for _, a := range args {
		if name, rep, ok, err := remote.PullLayer(ctx, st, r, a); ok {
			if err != nil {
				return err
			}
			if asJSON {
				all = append(all, pulled{name, rep})
				continue
			}
			fmt.Fprintf(ios.Out, "pulled %s (%d records, %d runs, %d blobs, %s%s)\n", name, rep.Records, rep.Runs, rep.Blobs, humanBytes(rep.Bytes), missing(rep))
			continue
		}
		h, err := store.ParseHandle(a)
		if err != nil {
			return err
		}
		f, rep, err := remote.Pull(ctx, st, r, h)
		if err != nil {
			return err
		}
		if asJSON {
			all = append(all, pulled{string(f.Kind) + ":" + f.ID.Short(), rep})
			continue
		}
		fmt.Fprintf(ios.Out, "pulled %s:%s (%d runs, %d blobs, %s, %d execution records)\n",
			f.Kind, f.ID.Short(), rep.Runs, rep.Blobs, humanBytes(rep.Bytes), rep.Execs)
	}
	if asJSON {
		return cli.WriteJSON(ios.Out, all)
	}
	return nil
}

// missing notes the runs and blobs a record names that the remote lacks.
func missing(rep *remote.PullReport) string {
	if rep.Missing == 0 {
		return ""
	}
	return fmt.Sprintf("; %d it names are not in the remote", rep.Missing)
}

// withRemote opens the workspace's store and its configured remote for fn.
func withRemote(ios *cli.IO, create bool, fn func(*store.Store, *remote.Remote) error) error {
	st, err := cli.OpenStore(ios, create)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := openRemote(st)
	if err != nil {
		return err
	}
	return fn(st, r)
}

// NewRemoteCmd is ctx remote (gc).
func NewRemoteCmd(ios *cli.IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "remote",
		Short: "The shared remote: gc",
		Long:  "Commands on the shared remote as a whole (docs/remote.md).",
	}
	var dry, asJSON bool
	var grace time.Duration
	gc := &cobra.Command{
		Use:   "gc",
		Short: "Delete remote blobs and runs that no workspace's index references",
		Long: `Mark every run named by any workspace's index in the remote (each entry checked),
and every run pushed within the grace period; delete the blobs and runs nothing
marks. Local ctx gc never deletes remote objects: this command is the only one
that does. --dry-run lists what would go.

Exit status: 0 done; 1 no remote is configured; 125 the remote failed
(nothing is deleted when marking fails).`,
		Example: "  ctx remote gc --dry-run\n  ctx remote gc --grace 72h",
		Args:    cli.ExactArgs(0, "ctx remote gc"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRemote(ios, false, func(_ *store.Store, r *remote.Remote) error {
				return remoteGC(cmd.Context(), ios, r, dry, grace, asJSON)
			})
		},
	}
	gc.Flags().BoolVar(&asJSON, "json", false, "print the gc report (with every key deleted) as JSON")
	gc.Flags().BoolVar(&dry, "dry-run", false, "list what would be deleted; delete nothing")
	gc.Flags().DurationVar(&grace, "grace", remote.DefaultGrace, "never delete objects younger than this (0: the default)")
	c.AddCommand(gc)
	return c
}

func remoteGC(ctx context.Context, ios *cli.IO, r *remote.Remote, dry bool, grace time.Duration, asJSON bool) error {
	rep, err := remote.GC(ctx, r, remote.GCOptions{DryRun: dry, Grace: grace})
	if err != nil {
		return &cli.ExitError{Code: cli.ExitFailed, Err: err}
	}
	if asJSON {
		return cli.WriteJSON(ios.Out, rep)
	}
	verb := "deleted"
	if dry {
		verb = "would delete"
		for _, k := range rep.Deleted {
			fmt.Fprintln(ios.Out, k)
		}
	}
	fmt.Fprintf(ios.Out, "%d workspaces, %d live runs, %d live blobs; %s %d objects (%s); %d unreferenced kept (younger than %s); %d index entries name missing runs\n",
		rep.Workspaces, rep.LiveRuns, rep.LiveBlobs, verb, len(rep.Deleted), humanBytes(rep.DeletedBytes), rep.Kept, grace, rep.MissingRuns)
	return nil
}

// InPlace reports whether t was resolved from the remote without being
// copied (too large to cache), so only OpenBlob reads it.
func InPlace(t *store.Target) bool {
	_, ok := remoteOpeners.Load(t)
	return ok
}

// ShowTarget is what ctx show reads for t: t itself, or, for a run read in
// place from the remote (too large to cache), the receipt of its newest
// digest, copied into the local store with the digest's text — the outputs
// stay in the remote.
func ShowTarget(ctx context.Context, st *store.Store, t *store.Target) (*store.Target, error) {
	if !InPlace(t) || t.Kind != store.KindRun {
		return t, nil
	}
	r, err := openRemote(st)
	if err != nil {
		return nil, err
	}
	rt, err := remote.PullReceiptOf(ctx, st, r, t.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &store.Error{Err: err, Hint: fmt.Sprintf("copy the run with `ctx pull %s`; ctx show then renders a digest of it", t.Handle())}
	}
	return rt, err
}

// remoteOpeners holds, for a target resolved from the remote without being
// copied (too large to cache), how to open its blobs there.
var remoteOpeners sync.Map // *store.Target → func(store.ID) (*store.Blob, error)

// OpenBlob opens a target's blob: from the local store, else (a large remote
// run or blob) from the remote, frame by frame.
func OpenBlob(st *store.Store, t *store.Target, id store.ID) (*store.Blob, error) {
	b, err := st.Blob(id)
	if err != nil && errors.Is(err, store.ErrNotFound) {
		if open, ok := remoteOpeners.Load(t); ok {
			return open.(func(store.ID) (*store.Blob, error))(id)
		}
	}
	return b, err
}

// Resolve is the last resort of resolving a handle anywhere: the configured remote.
// What it fetches is cached in this workspace's store.
func Resolve(ios *cli.IO, h store.Handle, raw string) (*store.Store, *store.Target, error) {
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return nil, nil, err
	}
	r, err := openRemote(st)
	if err != nil {
		st.Close()
		return nil, nil, unasked(raw, err)
	}
	t, open, err := remote.Fallback(context.Background(), st, r, h)
	if err != nil {
		st.Close()
		if !errors.Is(err, store.ErrNotFound) {
			err = unasked(raw, err)
		}
		return nil, nil, err
	}
	how := "cached in this workspace's store"
	if open != nil {
		remoteOpeners.Store(t, open)
		how = "read in place: too large to cache; ctx pull copies it"
	}
	fmt.Fprintf(ios.Err, "ctx: %s is from the remote s3://%s/%s (%s)\n", raw, r.Config().Bucket, r.Config().Prefix, how)
	if ios.Getenv("CTX_TRACE") != "" {
		tracedRemote.Store(r)
	}
	return st, t, nil
}

// tracedRemote is the remote a command read from, when CTX_TRACE is set.
var tracedRemote atomic.Pointer[remote.Remote]

// Trace prints the requests a command made of the remote (CTX_TRACE).
func Trace(ios *cli.IO) {
	if r := tracedRemote.Load(); r != nil {
		q := &r.Requests
		fmt.Fprintf(ios.Err, "ctx: trace remote: %d GET, %d ranged GET, %d HEAD, %d LIST, %d PUT; %d bytes in\n",
			q.Gets.Load(), q.RangeGets.Load(), q.Heads.Load(), q.Lists.Load(), q.Puts.Load(), q.BytesIn.Load())
	}
}

// humanBytes prints a byte count in binary units.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
