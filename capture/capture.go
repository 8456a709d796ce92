package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/ctxhq/ctx/internal/runstatus"
)

// Exit codes ctx reports, following timeout(1) and env(1) (defined in
// runstatus).
const (
	ExitTimeout       = runstatus.ExitTimeout
	ExitFailed        = runstatus.ExitFailed
	ExitNotExecutable = runstatus.ExitNotExecutable
	ExitNotFound      = runstatus.ExitNotFound
	ExitInterrupted   = runstatus.ExitInterrupted
)

// Status is how the command ended, as run manifests record it.
type Status = runstatus.Status

// The statuses a capture can end with.
const (
	StatusExited        = runstatus.Exited
	StatusSignaled      = runstatus.Signaled
	StatusTimeout       = runstatus.Timeout
	StatusInterrupted   = runstatus.Interrupted
	StatusNotFound      = runstatus.NotFound
	StatusNotExecutable = runstatus.NotExecutable
)

// Options describe one capture.
type Options struct {
	Argv []string
	Dir  string   // working directory; "" is the current one
	Env  []string // the child's whole environment
	// Stdin is the child's standard input; nil means /dev/null.
	Stdin io.Reader
	// Pipe uses plain pipes instead of pseudo-terminals.
	Pipe bool
	// Timeout stops the command after this long; zero means no limit.
	Timeout time.Duration
	// Grace is how long the process group has between SIGTERM and SIGKILL.
	Grace time.Duration
	// Drain is how long to keep reading after the command exits while some other
	// process (a background job it started) still holds its output open.
	Drain time.Duration
	// Stdout and Stderr receive the bytes as they arrive. A sink error does not
	// stop the capture (the command is drained so it does not block); it is
	// reported in Result.SinkErr.
	Stdout, Stderr io.Writer
	// Cols and Rows size the terminals (pty mode).
	Cols, Rows uint16
}

// Result says how the command ended.
type Result struct {
	Exit     int // the status ctx reports
	Status   Status
	Signal   int // the signal that ended the command, if one did
	Start    time.Time
	Duration time.Duration
	SinkErr  error // the first sink error (a full disk), if any
	// Detached is set when a background process kept the output open after the
	// command exited; output it wrote later was not captured.
	Detached bool
	// Unread counts bytes written before the drain period ended that ctx
	// gave up waiting for (its sink stalled); they are not captured.
	Unread int64
}

// Interrupt is the cause a caller gives the context it cancels when ctx
// itself receives a signal: the run then exits 128+Signal (143 for SIGTERM,
// 129 for SIGHUP, 130 for SIGINT), as a shell would report it.
type Interrupt struct {
	Signal syscall.Signal
}

func (i *Interrupt) Error() string { return "interrupted by " + i.Signal.String() }

// StartError is a command that could not be started; Exit is 126 or 127.
type StartError struct {
	Argv0  string
	Exit   int
	Status Status
	Err    error
}

func (e *StartError) Error() string {
	if e.Exit == ExitNotFound {
		return fmt.Sprintf("%s: command not found", e.Argv0)
	}
	return fmt.Sprintf("%s: cannot execute: %v", e.Argv0, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// Run runs the command to completion, or until ctx is cancelled (an interrupt)
// or the timeout passes; either way it returns what was captured.
func Run(ctx context.Context, o Options) (Result, error) {
	if len(o.Argv) == 0 {
		return Result{}, errors.New("no command to run")
	}
	if o.Grace <= 0 {
		o.Grace = 2 * time.Second
	}
	if o.Drain <= 0 {
		o.Drain = 250 * time.Millisecond
	}
	cmd, ends, err := prepare(o)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		for _, e := range ends {
			e.close()
		}
	}()
	in, err := connectStdin(cmd, o.Stdin)
	if err != nil {
		return Result{}, err
	}
	defer in.close()

	res := Result{Start: time.Now()}
	if cmd, err = start(cmd, o); err != nil {
		return Result{}, err
	}
	for _, e := range ends {
		e.child.Close()
		e.child = nil
	}
	in.started()
	readers := startReaders(ends, o.Stdout, o.Stderr)
	waitErr := wait(ctx, cmd, o, &res)
	res.Duration = time.Since(res.Start)
	res.Detached, res.Unread = readers.finish(ends, o.Drain)
	res.SinkErr = readers.sinkErr()
	in.finish(o.Drain)

	res.exitStatus(ctx, cmd.ProcessState)
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return res, waitErr
	}
	return res, nil
}

// prepare resolves the program and opens the two output channels, pipes or
// pseudo-terminals, with the child's ends connected to the command.
func prepare(o Options) (*exec.Cmd, []*end, error) {
	path, err := lookPath(o.Argv[0], o.Dir, o.Env)
	if err != nil {
		return nil, nil, err
	}
	cmd := &exec.Cmd{Path: path, Args: o.Argv, Dir: o.Dir, Env: o.Env}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	setDeathSignal(cmd.SysProcAttr)
	var ends []*end
	if o.Pipe {
		ends, err = pipes()
	} else {
		ends, err = ptys(o.Cols, o.Rows)
		if err == nil {
			cmd.SysProcAttr.Setctty = true
			cmd.SysProcAttr.Ctty = 1
		}
	}
	if err != nil {
		return nil, nil, err
	}
	cmd.Stdout, cmd.Stderr = ends[0].child, ends[1].child
	return cmd, ends, nil
}

// stdinFeed copies a reader that is not a file into the child's stdin pipe.
type stdinFeed struct {
	pr   *os.File      // the child's end, closed once the child has it
	done chan struct{} // closed when the copy ends
}

// connectStdin sets the child's stdin: /dev/null for nil, the file itself for
// a file, else a pipe fed from in.
func connectStdin(cmd *exec.Cmd, in io.Reader) (*stdinFeed, error) {
	switch in := in.(type) {
	case nil:
		cmd.Stdin = nil // /dev/null
		return &stdinFeed{}, nil
	case *os.File:
		cmd.Stdin = in
		return &stdinFeed{}, nil
	default:
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		cmd.Stdin = pr
		f := &stdinFeed{pr: pr, done: make(chan struct{})}
		go func() {
			defer close(f.done)
			_, _ = io.Copy(pw, in)
			pw.Close()
		}()
		return f, nil
	}
}

// started closes the parent's copy of the child's end.
func (f *stdinFeed) started() {
	if f.pr != nil {
		f.pr.Close()
	}
}

func (f *stdinFeed) close() {
	if f.pr != nil {
		f.pr.Close()
	}
}

// finish waits up to drain for the copy: it ends when the child's side of the
// pipe is gone, unless it is blocked reading our own input; do not wait for
// that.
func (f *stdinFeed) finish(drain time.Duration) {
	if f.done == nil {
		return
	}
	select {
	case <-f.done:
	case <-time.After(drain):
	}
}

// start starts the command; a script without a #! line runs with /bin/sh, as
// shells do.
func start(cmd *exec.Cmd, o Options) (*exec.Cmd, error) {
	err := cmd.Start()
	if errors.Is(err, syscall.ENOEXEC) {
		sh := &exec.Cmd{Path: "/bin/sh", Args: append([]string{"sh", cmd.Path}, o.Argv[1:]...), Dir: o.Dir, Env: o.Env,
			Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr, SysProcAttr: cmd.SysProcAttr}
		cmd, err = sh, sh.Start()
	}
	if err != nil {
		return nil, startError(o.Argv[0], err)
	}
	return cmd, nil
}

// readers drain the output channels into their sinks.
type readers struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	first error // the first sink error
}

func startReaders(ends []*end, stdout, stderr io.Writer) *readers {
	r := &readers{}
	sinks := []io.Writer{stdout, stderr}
	for i, e := range ends {
		e.gate.w = sinks[i]
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer e.ended.Store(true)
			if err := e.drain(&e.gate); err != nil && !e.gate.isShut() {
				r.mu.Lock()
				if r.first == nil {
					r.first = err
				}
				r.mu.Unlock()
			}
		}()
	}
	return r
}

// finish lets the readers finish what the command wrote; if something else
// keeps the output open, it stops reading after the drain period and reports
// the output detached. What was already in the channels or in a reader's
// hands when the period ended is still read and kept (settle): only what a
// background process writes after it is dropped. It returns how many bytes
// known to be written before then were still unread when it gave up (a sink
// stuck for residueWait).
func (r *readers) finish(ends []*end, drain time.Duration) (detached bool, unread int64) {
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return false, 0
	case <-time.After(drain):
	}
	ended, unread := settle(ends, done, residueWait)
	if ended {
		return false, 0
	}
	for _, e := range ends {
		e.interrupt()
	}
	// Pty readers return at once; a pipe reader may stay blocked until the
	// background process closes its end — its gate drops what it reads from
	// now on, so do not wait for it.
	select {
	case <-done:
	case <-time.After(50 * time.Millisecond):
	}
	return true, unread
}

// residueWait bounds how long a capture waits, after the drain period, for
// its readers to hand on what the command wrote before it: the time a sink
// (the spool's disk) may stall before ctx gives up on those bytes and says so.
const residueWait = 10 * time.Second

// settle waits until each reader has ended, or has handed on everything that
// was in its channel or its hands when settle began (or has nothing left to
// hand on) while some other process still holds the channel open, so
// whatever it reads later was written after the drain period. It reports
// whether the readers ended meanwhile, and how many of those bytes were not
// handed on when limit passed.
func settle(ends []*end, done <-chan struct{}, limit time.Duration) (ended bool, unread int64) {
	marks := make([]int64, len(ends))
	for i, e := range ends {
		// The channel is asked first: bytes a reader takes meanwhile are then
		// counted twice, which errs on keeping them.
		p := e.pending()
		marks[i] = e.read.Load() + p
	}
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(limit)
	idle := make([]int64, len(ends)) // the read count at the last idle look, -1 if none
	for i := range idle {
		idle[i] = -1
	}
	for {
		settled, allEnded := true, true
		unread = 0
		for i, e := range ends {
			allEnded = allEnded && e.ended.Load()
			if e.ended.Load() || !e.hungUp() && (e.gate.entered.Load() >= marks[i] || idleTwice(e, &idle[i])) {
				continue
			}
			settled = false
			unread += marks[i] - e.gate.entered.Load()
		}
		if allEnded {
			<-done // each reader has returned; the last is signalling it
			return true, 0
		}
		if settled {
			return false, 0
		}
		if time.Now().After(deadline) {
			return false, unread
		}
		select {
		case <-done:
			return true, 0
		case <-tick.C:
		}
	}
}

// idleTwice reports whether the reader holds no bytes and its channel is
// empty at two looks in a row with nothing read between them: the reader is
// then waiting for bytes that are not yet written. last keeps the read count
// of the previous idle look.
func idleTwice(e *end, last *int64) bool {
	read := e.read.Load()
	if read != e.gate.entered.Load() || e.pending() != 0 {
		*last = -1
		return false
	}
	twice := *last == read
	*last = read
	return twice
}

func (r *readers) sinkErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.first
}

// wait waits for the command to exit, stopping its process group on timeout
// or when ctx is cancelled (res.Status says which).
func wait(ctx context.Context, cmd *exec.Cmd, o Options, res *Result) error {
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var timeout <-chan time.Time
	if o.Timeout > 0 {
		t := time.NewTimer(o.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	pgid := cmd.Process.Pid
	select {
	case err := <-waited:
		return err
	case <-timeout:
		res.Status = StatusTimeout
	case <-ctx.Done():
		res.Status = StatusInterrupted
	}
	return stop(pgid, o.Grace, waited)
}

// exitStatus sets Exit, Status and Signal from how the command ended.
func (res *Result) exitStatus(ctx context.Context, state *os.ProcessState) {
	ws, _ := state.Sys().(syscall.WaitStatus)
	switch {
	case res.Status == StatusTimeout:
		res.Exit = ExitTimeout
		if ws.Signaled() {
			res.Signal = int(ws.Signal())
		}
	case res.Status == StatusInterrupted:
		res.Exit = ExitInterrupted
		var ic *Interrupt
		if errors.As(context.Cause(ctx), &ic) && ic.Signal > 0 {
			res.Exit = 128 + int(ic.Signal) // SIGTERM 143, SIGHUP 129, as a shell reports them
		}
		if ws.Signaled() {
			res.Signal = int(ws.Signal())
		}
	case ws.Signaled():
		res.Status, res.Signal, res.Exit = StatusSignaled, int(ws.Signal()), 128+int(ws.Signal())
	default:
		res.Status, res.Exit = StatusExited, state.ExitCode()
	}
}

// stop sends SIGTERM to the process group, waits up to grace for the command
// to exit, then sends SIGKILL.
func stop(pgid int, grace time.Duration, waited <-chan error) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case err := <-waited:
		// The leader is gone; make sure the rest of its group follows.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		return err
	case <-time.After(grace):
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return <-waited
}

// lookPath finds the program the way the child's PATH would.
func lookPath(argv0, dir string, env []string) (string, error) {
	path, err := findExecutable(argv0, dir, env)
	if err == nil {
		return path, nil
	}
	return "", startError(argv0, err)
}

func startError(argv0 string, err error) error {
	var se *StartError
	if errors.As(err, &se) {
		return se
	}
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return &StartError{Argv0: argv0, Exit: ExitNotFound, Status: StatusNotFound, Err: err}
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOEXEC), errors.Is(err, syscall.EISDIR):
		return &StartError{Argv0: argv0, Exit: ExitNotExecutable, Status: StatusNotExecutable, Err: err}
	}
	return fmt.Errorf("start %s: %w", argv0, err)
}
