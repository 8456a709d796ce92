package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// Request is one command to capture, or output to ingest, and how to digest
// it. Argv and Dir are required; the rest have defaults.
type Request struct {
	Argv []string
	// Dir is the absolute directory the command runs in (for an ingest:
	// the directory it ran in). Its path relative to the workspace root is
	// what the run records.
	Dir string
	// Where, when set, is the directory the run records instead (a
	// benchmark running a copied fixture records ".").
	Where string
	// Session names the agent session (CTX_SESSION, or the MCP session): a
	// rerun with the same result in one session is shown in more detail.
	Session string
	Digest  digest.Options

	// Capture only.
	Stdin   Input
	Pipe    bool          // plain pipes instead of pseudo-terminals
	Timeout time.Duration // 0: no limit
	Grace   time.Duration // between SIGTERM and SIGKILL
	Cap     int64         // per-stream byte cap (0: 1 GiB)
	// Watch, when set, sees the output as it arrives and is stopped when
	// the command has ended (a live status line).
	Watch Watcher
	// Generation, when set, is the work tree's generation being computed
	// while the command runs; the execution records it if it is ready in
	// time (see generationWait).
	Generation *source.Pending
	// Generations, when set, shares generations among the captures of one
	// sequence (see Generations); ignored when Generation is set.
	Generations *Generations
	// Batch, when set, holds the run for Batch.Commit instead of storing it
	// at once (see Batch).
	Batch *Batch

	// Ingest only.
	Stdout, Stderr io.Reader // nil: empty
	Exit           int       // the status the output ended with
	Note           string    // on the execution record ("ingested" when "")
}

// where is the directory the run records.
func (req *Request) where(st *store.Store) string {
	if req.Where != "" {
		return req.Where
	}
	return RelDir(st.Root(), req.Dir)
}

// Input is a captured command's standard input; the zero value is none
// (/dev/null). Whatever the command is given is stored with the run.
type Input struct {
	R io.Reader
	// Whole stores all of R before the command starts, so the run keeps it
	// even when the command reads only part (a file); R must then be an
	// io.Seeker, rewound after the copy.
	Whole bool
	// Lazy records no input at all when R turns out empty (ctx's own stdin
	// forwarded because it is a pipe), so the run equals one with /dev/null.
	Lazy bool
}

// Watcher observes a capture's output as it arrives.
type Watcher interface {
	Tap(w io.Writer) io.Writer
	Stop()
}

// defaultCap is the per-stream byte cap when a request gives none.
const defaultCap = 1 << 30

// Capture runs req.Argv, stores every byte it prints and the digest of it,
// and returns the stored run. The command's own failure is no error: its
// exit status is in Result.Exit. Errors are ctx's: *capture.StartError (the
// command could not be started; nothing is stored), *NoCaptureError (no
// spool: the caller may run the command without ctx), *StoreError (it ran,
// but storing failed: the output is kept for the next command to recover).
// After an interrupt (ctx cancelled) what was captured is still digested and
// stored.
func Capture(ctx context.Context, env *Env, req *Request) (*Result, error) {
	st := env.Store
	dir := req.where(st)
	mode := "pty"
	if req.Pipe {
		mode = "pipe"
	}
	capBytes := req.Cap
	if capBytes <= 0 {
		capBytes = defaultCap
	}
	sp, err := st.NewSpool(store.SpoolMeta{Argv: req.Argv, Dir: dir, Mode: mode,
		Started: env.now(), PID: env.PID, Session: req.Session, Cap: capBytes})
	if err != nil {
		return nil, &NoCaptureError{Err: err}
	}
	committed, started := false, false
	defer func() {
		switch {
		case committed:
		case started:
			// Keep what was captured: the spool stays and the next ctx
			// command recovers it.
			sp.Unlock()
		default:
			sp.Abort()
		}
	}()
	outW, err := sp.Stream("stdout")
	if err != nil {
		return nil, err
	}
	errW, err := sp.Stream("stderr")
	if err != nil {
		return nil, err
	}
	stdin, err := req.Stdin.reader(sp)
	if err != nil {
		return nil, err
	}
	// The output is parsed while it is captured (see digest.Live).
	live := digest.NewLive(req.Argv, req.Digest.Profile, capBytes)
	defer live.Abandon()
	started = true
	gen, genNote := startGeneration(ctx, env, req, sp.Meta.Exec)
	watch := req.Watch
	if watch == nil {
		watch = noWatch{}
	}
	res, err := capture.Run(ctx, capture.Options{
		Argv: req.Argv, Dir: req.Dir, Env: ChildEnv(env.Environ), Stdin: stdin, Pipe: req.Pipe,
		Timeout: req.Timeout, Grace: req.Grace, Stdout: watch.Tap(live.Tap(0, outW)), Stderr: watch.Tap(live.Tap(1, errW)), Cols: 200, Rows: 50,
	})
	watch.Stop()
	var se *capture.StartError
	if errors.As(err, &se) {
		sp.Abort()
		committed = true
		return nil, se
	}
	if err != nil {
		return nil, err
	}
	m := store.Manifest{Argv: req.Argv, Dir: dir, Mode: mode, Exit: res.Exit, Status: res.Status, Signal: res.Signal}
	if res.SinkErr != nil {
		// The spool keeps how the command ended (in room taken when it was
		// created), so the recovered run has the real exit status and counts
		// the bytes that did not fit.
		_ = sp.SaveResult(m)
		return nil, &StoreError{Exit: res.Exit, Spool: sp.Dir(), Spooling: true, Err: res.SinkErr}
	}
	genRec, late := execGeneration(gen, generationWait(env, res.Duration)+req.Generations.extraWait())
	ex := store.Exec{Argv: req.Argv, Start: res.Start.UTC(), Duration: res.Duration, Host: env.Host, PID: env.PID,
		Version: env.Version, Session: req.Session, Cwd: req.Dir, Generation: genRec, Key: sp.Meta.Exec}
	if res.Detached {
		ex.Note = "a background process kept the output open after the command exited; its later output was not captured"
		if res.Unread > 0 {
			ex.Note += fmt.Sprintf("; %d bytes written before then were still unread when ctx stopped waiting for its sink, and are not captured either", res.Unread)
		}
	}
	shown := ex.Note
	if late {
		genNote = req.Generations.handOff(env, Deferral{Exec: ex.Key, Root: gen.Root()})
	}
	ex.Note = joinNote(ex.Note, genNote)
	env.trace("capture")
	// The digest and the commit happen even after an interrupt: what was
	// captured is kept and summarised.
	out, err := finish(context.WithoutCancel(ctx), env, sp, m, ex, req.digestOptions(), req.Batch, live)
	if err != nil {
		_ = sp.SaveResult(m)
		return nil, &StoreError{Exit: res.Exit, Spool: sp.Dir(), Err: err}
	}
	committed = true
	out.Note = shown
	return out, nil
}

// StartHint is the advice for a command that could not be started.
func StartHint(se *capture.StartError) string {
	if se.Exit == capture.ExitNotExecutable {
		if fi, err := os.Stat(se.Argv0); err == nil && fi.IsDir() {
			return "it is a directory: name the program to run, or give the directory with --cwd"
		}
		return "make it executable (chmod +x) or run it through its interpreter"
	}
	return "check the spelling, or use --shell for shell builtins, aliases and pipelines"
}

// reader is the command's stdin, teed into the spool.
func (in Input) reader(sp *store.Spool) (io.Reader, error) {
	switch {
	case in.R == nil:
		return nil, nil
	case in.Lazy:
		return io.TeeReader(in.R, &lazyStream{sp: sp}), nil
	case in.Whole:
		seeker, ok := in.R.(io.Seeker)
		if !ok {
			return nil, errors.New("runner: a whole stdin must be seekable")
		}
		if err := copyInto(sp, "stdin", in.R); err != nil {
			return nil, err
		}
		if _, err := seeker.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return in.R, nil
	}
	w, err := sp.Stream("stdin")
	if err != nil {
		return nil, err
	}
	return io.TeeReader(in.R, w), nil
}

// lazyStream opens the spool's stdin stream at the first byte, so a forwarded
// input that turns out empty is recorded as no input at all: the run is the
// same as with /dev/null (same run id, same digest).
type lazyStream struct {
	sp *store.Spool
	w  io.Writer
}

func (l *lazyStream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if l.w == nil {
		w, err := l.sp.Stream("stdin")
		if err != nil {
			return 0, err
		}
		l.w = w
	}
	return l.w.Write(p)
}

type noWatch struct{}

func (noWatch) Tap(w io.Writer) io.Writer { return w }
func (noWatch) Stop()                     {}

// Ingest stores output that already exists as a run of req.Argv ended with
// req.Exit, and its digest. Errors are ctx's (the store, reading the inputs);
// nothing is stored when one occurs.
func Ingest(ctx context.Context, env *Env, req *Request) (*Result, error) {
	st := env.Store
	dir := req.where(st)
	sp, err := st.NewSpool(store.SpoolMeta{Argv: req.Argv, Dir: dir, Mode: "ingest", Started: env.now(), PID: env.PID, Cap: 1 << 62})
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			sp.Abort()
		}
	}()
	if err := copyInto(sp, "stdout", req.Stdout); err != nil {
		return nil, err
	}
	if err := copyInto(sp, "stderr", req.Stderr); err != nil {
		return nil, err
	}
	note := req.Note
	if note == "" {
		note = "ingested"
	}
	m := store.Manifest{Argv: req.Argv, Dir: dir, Mode: "ingest", Exit: req.Exit, Status: store.StatusIngested}
	// An ingest is no agent's rerun: it never escalates a session.
	ex := store.Exec{Argv: req.Argv, Start: env.now(), Host: env.Host, PID: env.PID, Version: env.Version,
		Cwd: req.Dir, Note: note}
	out, err := finish(ctx, env, sp, m, ex, req.digestOptions(), nil, nil)
	if err != nil {
		return nil, err
	}
	done = true
	return out, nil
}
