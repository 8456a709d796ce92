package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

type runOptions struct {
	argv      []string
	shell     bool
	cwd       string
	timeout   time.Duration
	grace     time.Duration
	stdin     string
	pipe      bool
	maxOutput string
	json      bool
	digestOpts
}

// digestOpts are the flags that shape a digest (run, ingest, show).
type digestOpts struct {
	budget   int
	pressure string
	profile  string
}

func (o *digestOpts) register(c *cobra.Command) {
	c.Flags().IntVar(&o.budget, "budget", 0, "token budget for the digest (default: the contract's ceiling for the outcome)")
	c.Flags().StringVar(&o.pressure, "pressure", "", "context pressure: low, normal, high, or the fraction of the context in use (default $CTX_PRESSURE)")
	c.Flags().StringVar(&o.profile, "profile", "", "use the profile `NAME` instead of detecting one ("+strings.Join(profiles.Names(), ", ")+"; see ctx contract show NAME)")
}

func (o *digestOpts) options(ios *IO, st *store.Store) (receipts.Options, error) {
	p := o.pressure
	if p == "" {
		p = ios.Getenv("CTX_PRESSURE")
	}
	pressure, err := plan.ParsePressure(p)
	if err != nil {
		return receipts.Options{}, usagef("%v", err)
	}
	if o.budget < 0 {
		return receipts.Options{}, usagef("--budget %d: want a positive number of tokens", o.budget)
	}
	return receipts.Options{Budget: o.budget, Pressure: pressure, Profile: o.profile,
		ContractDir: filepath.Join(st.Dir(), "contracts")}, nil
}

const runHelpExit = `
Exit status: the command's own; 124 if it ran past --timeout; 125 if ctx itself
failed; 126 if the command cannot be executed; 127 if it was not found; 128+N if
it was killed by signal N; 128+N if ctx itself got signal N (130 Ctrl-C, 143
SIGTERM, 129 SIGHUP) and stopped it.`

func newRunCmd(ios *IO) *cobra.Command {
	o := &runOptions{}
	c := &cobra.Command{
		Use:   "run [flags] -- CMD [ARGS...]",
		Short: "Run a command, store all its output, print a digest",
		Long: `Run a command with its stdout and stderr each on its own pseudo-terminal (so it
sees a terminal and line-buffers), store every byte, and print a digest: what
ran, the findings that matter, a coverage receipt, and handles to the rest.

The command runs in its own process group with PAGER=cat and GIT_PAGER=cat.
Its stdin is ctx's own when that is a pipe or a file (echo y | ctx run -- cat),
stored with the run; /dev/null when it is a terminal; or --stdin FILE. On
timeout or Ctrl-C the group gets SIGTERM, a grace period, then SIGKILL; the
output so far is kept.

When ctx's stderr is a terminal, a status line there shows the elapsed time,
the bytes and lines captured and the last line of output while the command
runs, and is erased before the digest (CTX_PROGRESS=0 turns it off). It is
never drawn when stderr is not a terminal, and never stored.
` + runHelpExit,
		Example: `  ctx run -- pytest -q
  ctx run --timeout 2m -- go test ./...
  ctx run --shell -- 'npm test 2>&1 | tee test.log'
  ctx run --json -- cargo test     # run record, evidence items and receipt
  ctx run --stdin input.txt -- ./filter`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("no command given: ctx run [flags] -- CMD [ARGS...]")
			}
			o.argv = args
			return withCode(exitFailed, runRun(cmd.Context(), ios, o))
		},
	}
	f := c.Flags()
	f.BoolVar(&o.shell, "shell", false, "run the arguments as one shell command line with sh -c (pipelines, redirections)")
	f.StringVar(&o.cwd, "cwd", "", "run the command in this directory")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "stop the command after this long (0 for no limit)")
	f.DurationVar(&o.grace, "grace", 2*time.Second, "time between SIGTERM and SIGKILL when stopping the command")
	f.StringVar(&o.stdin, "stdin", "", "feed this file to the command's stdin (- for ctx's own stdin; default: ctx's stdin when piped or redirected, else /dev/null)")
	f.BoolVar(&o.pipe, "pipe", false, "use plain pipes instead of pseudo-terminals")
	f.StringVar(&o.maxOutput, "max-output", "1G", "per-stream byte cap; beyond it the head and tail are kept and the rest counted")
	f.BoolVar(&o.json, "json", false, "print the run record, evidence items and receipt as JSON instead of the digest")
	o.digestOpts.register(c)
	c.Flags().SetInterspersed(false)
	return c
}

// parseSize reads "1G", "512M", "64k", "1000".
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, optionally with K, M or G", s)
	}
	return n * mult, nil
}

func runRun(ctx context.Context, ios *IO, o *runOptions) error {
	capBytes, err := parseSize(o.maxOutput)
	if err != nil {
		return usagef("--max-output: %v", err)
	}
	argv := o.argv
	if o.shell {
		argv = []string{"sh", "-c", strings.Join(o.argv, " ")}
	}
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	dir := cwd
	if o.cwd != "" {
		dir = o.cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return usagef("--cwd %s: not a directory", o.cwd)
		}
	}
	gen := startGeneration(ctx, ios, dir) // while the store opens and the command runs
	st, err := openStore(ios, true)
	if err == nil {
		if err = st.CheckDB(); err != nil {
			st.Close()
		}
	}
	if err != nil {
		return passThrough(ctx, ios, argv, dir, o, err)
	}
	defer st.Close()
	opts, err := o.digestOpts.options(ios, st)
	if err != nil {
		return err
	}
	opts.Repo, opts.Dir = repoRoot(dir), dir
	session := ios.Getenv("CTX_SESSION")
	sp, err := st.NewSpool(store.SpoolMeta{Argv: argv, Dir: relDir(st.Root(), dir), Mode: mode(o.pipe),
		Started: time.Now().UTC(), PID: os.Getpid(), Session: session, Cap: capBytes})
	if err != nil {
		return passThrough(ctx, ios, argv, dir, o, err)
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
		return err
	}
	errW, err := sp.Stream("stderr")
	if err != nil {
		return err
	}
	var stdin io.Reader
	switch o.stdin {
	case "":
		if stdinIsData(ios.In) {
			// Piped or redirected: forward it and keep it with the run.
			stdin = io.TeeReader(ios.In, &lazyStream{sp: sp})
		}
	case "-":
		inW, err := sp.Stream("stdin")
		if err != nil {
			return err
		}
		stdin = io.TeeReader(ios.In, inW)
	default:
		f, err := os.Open(o.stdin)
		if err != nil {
			return usagef("--stdin: %v", err)
		}
		defer f.Close()
		inW, err := sp.Stream("stdin")
		if err != nil {
			return err
		}
		if _, err := io.Copy(inW, f); err != nil {
			return err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		stdin = f
	}
	started = true
	trace := tracer(ios)
	prog := startProgress(ios) // nil unless a person watches stderr
	res, err := capture.Run(ctx, capture.Options{
		Argv: argv, Dir: dir, Env: childEnv(os.Environ()), Stdin: stdin, Pipe: o.pipe,
		Timeout: o.timeout, Grace: o.grace, Stdout: prog.tap(outW), Stderr: prog.tap(errW), Cols: 200, Rows: 50,
	})
	prog.Stop()
	var se *capture.StartError
	if errors.As(err, &se) {
		sp.Abort()
		committed = true
		hint := "check the spelling, or use --shell for shell builtins, aliases and pipelines"
		if se.Exit == capture.ExitNotExecutable {
			hint = "make it executable (chmod +x) or run it through its interpreter"
		}
		fmt.Fprintf(ios.Err, "ctx: %v\n  hint: %s\n", se, hint)
		return &exitError{code: se.Exit}
	}
	if err != nil {
		return err
	}
	m := store.Manifest{Argv: argv, Dir: relDir(st.Root(), dir), Mode: mode(o.pipe), Exit: res.Exit, Status: res.Status, Signal: res.Signal}
	if res.SinkErr != nil {
		// The spool keeps how the command ended (in room taken when it was
		// created), so the recovered run has the real exit status and counts
		// the bytes that did not fit.
		_ = sp.SaveResult(m)
		return fmt.Errorf("the command finished with exit %d, but its output could not all be spooled: %w (what was spooled is kept in %s and recovered by the next ctx command)", res.Exit, res.SinkErr, sp.Dir())
	}
	ex := store.Exec{Argv: argv, Start: res.Start.UTC(), Duration: res.Duration, Host: hostname(), PID: os.Getpid(),
		Version: Version, Session: session, Cwd: dir, Generation: execGeneration(gen, res.Duration)}
	if res.Detached {
		ex.Note = "a background process kept the output open after the command exited; its later output was not captured"
		fmt.Fprintf(ios.Err, "ctx: note: %s\n", ex.Note)
	}
	trace("capture")
	// The digest and the commit happen even after an interrupt: what was
	// captured is kept and summarised.
	err = finishRun(context.WithoutCancel(ctx), ios, st, sp, m, ex, opts, o.json)
	committed = isExit(err)
	if !committed {
		_ = sp.SaveResult(m)
		return fmt.Errorf("the command finished with exit %d, but the run could not be stored: %w (its output is kept in %s; the next ctx command stores it)", res.Exit, err, sp.Dir())
	}
	return err
}

func isExit(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.err == nil
}

// finishRun renders the digest of a finished capture from its spool, stores
// the run with its digest and receipt in one transaction, prints the digest,
// and exits with the run's status. A run whose digest cannot be made is still
// stored.
func finishRun(ctx context.Context, ios *IO, st *store.Store, sp *store.Spool, m store.Manifest, ex store.Exec, opts receipts.Options, asJSON bool) error {
	trace := tracer(ios)
	p, err := st.Prepare(sp, m)
	if err != nil {
		return err
	}
	trace("prepare")
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
	res, derr := receipts.Make(ctx, p, run, opts)
	trace("digest")
	if err := <-stored; err != nil {
		return err
	}
	trace("frames")
	var extra *store.Extra
	if derr == nil {
		extra = res.Extra()
		noteDigest(&ex, res)
		if ex.Session != "" {
			extra.Session = &store.SessionUpdate{Session: ex.Session, Command: key,
				Record: store.Session{Run: run.ID, Level: opts.Level, Count: sess.Count + 1}}
		}
	}
	if _, err := st.Commit(p, ex, extra); err != nil {
		return err
	}
	trace("commit")
	if p.HasRaw() {
		startCompaction(ios)
	}
	startPush(ios, st)
	exit := run.Manifest.Exit
	if derr != nil {
		fmt.Fprintf(ios.Err, "ctx: the output is stored as %s, but no digest could be made: %v\n  hint: read it with `ctx get %s`\n", run.Handle(), derr, run.Handle())
		return &exitError{code: exit}
	}
	if asJSON {
		if err := writeRunJSON(ios.Out, st, run, res); err != nil {
			return err
		}
	} else if _, err := ios.Out.Write(colourDigest(ios, res.Digest.Text)); err != nil {
		return err
	}
	return &exitError{code: exit}
}

// recordShown attaches the receipt and the shown/raw accounting to the newest
// execution record of the run.
func recordShown(st *store.Store, run *store.Run, res *receipts.Result) error {
	execs, err := st.Execs(1, func(e *store.Exec) bool { return e.Run == run.ID })
	if err != nil || len(execs) == 0 {
		return err
	}
	noteDigest(execs[0], res)
	return st.UpdateExec(execs[0])
}

// noteDigest records on an execution the digest it was shown.
func noteDigest(ex *store.Exec, res *receipts.Result) {
	ex.Receipt = res.ReceiptID
	ex.ShownBytes = int64(len(res.Digest.Text))
	ex.Profile = res.Plan.Profile
}

func commandKey(argv []string, dir string) string {
	return store.Sum([]byte(strings.Join(argv, "\x00") + "\x00\x00" + dir)).String()
}

func mode(pipe bool) string {
	if pipe {
		return "pipe"
	}
	return "pty"
}

// relDir is dir relative to the workspace root, "." at the root. A directory
// outside the workspace is recorded by its base name only, so absolute paths
// (temporary directories above all) never reach an id.
func relDir(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "(outside)/" + filepath.Base(dir)
	}
	return filepath.ToSlash(rel)
}

// childEnv is ctx's environment with pagers disabled.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if strings.HasPrefix(kv, "PAGER=") || strings.HasPrefix(kv, "GIT_PAGER=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PAGER=cat", "GIT_PAGER=cat")
}

func hostname() string {
	h, _ := os.Hostname()
	return h + " " + runtime.GOOS + "/" + runtime.GOARCH
}

func quoteArgs(argv []string) string {
	var parts []string
	for _, a := range argv {
		if strings.ContainsAny(a, " \t\n'\"$`\\|&;<>()*?[]{}") || a == "" {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// writeRunJSON prints the --json form of a run. Its items hold text derived
// from the output (log templates, messages) that may carry part of a secret
// without the context that made it one (the last line of a key block as a
// template): every value the stream's redaction found is replaced there too.
func writeRunJSON(w io.Writer, st *store.Store, run *store.Run, res *receipts.Result) error {
	var buf bytes.Buffer
	if err := writeJSON(&buf, runJSON(run, res)); err != nil {
		return err
	}
	known := map[string]string{}
	for _, name := range []string{"stdout", "stderr"} {
		ref, ok := run.StreamBlob(name)
		if !ok {
			continue
		}
		b, err := st.Blob(ref.Blob)
		if err != nil {
			return err
		}
		k, err := secrets.Collect(b.Reader())
		if err != nil {
			return err
		}
		maps.Copy(known, k)
	}
	_, err := w.Write(secrets.ReplaceKnown(buf.Bytes(), known))
	return err
}

// runJSON is the --json form of a run: the record, the evidence and the receipt.
func runJSON(run *store.Run, res *receipts.Result) map[string]any {
	// writeJSON redacts line by line; a secret in the word after its flag
	// (--password VALUE) is a line of its own there, so argv goes first.
	m := run.Manifest
	m.Argv = secrets.Argv(m.Argv)
	return map[string]any{
		"run":      run.Handle(),
		"id":       run.ID.String(),
		"argv":     m.Argv,
		"exit":     run.Manifest.Exit,
		"status":   run.Manifest.Status,
		"manifest": m,
		"profile":  res.Plan.Profile,
		"verdict":  res.Graph.Verdict,
		"items":    res.Graph.Items,
		"losses":   res.Graph.Losses,
		"plan":     res.Plan,
		"coverage": res.Digest.Coverage,
		"receipt":  res.Handle(),
		"digest":   string(res.Digest.Text),
	}
}

// tracer returns a function that prints the time since the previous call when
// CTX_TRACE is set: a developer aid for the run path's phases.
func tracer(ios *IO) func(phase string) {
	if ios.Getenv("CTX_TRACE") == "" {
		return func(string) {}
	}
	last := time.Now()
	return func(phase string) {
		now := time.Now()
		fmt.Fprintf(ios.Err, "ctx: trace %-8s %7.1f ms\n", phase, float64(now.Sub(last).Microseconds())/1000)
		last = now
	}
}

// startCompaction starts `ctx compact` in the background, detached, at low
// priority: a flood outran the compressor and some frames were stored raw.
// The agent reads its digest meanwhile; nothing waits for it.
// CTX_NO_COMPACT=1 turns it off (benchmarks that time runs back to back).
func startCompaction(ios *IO) {
	if ios.Getenv("CTX_NO_COMPACT") != "" {
		return
	}
	startDetached(ios, "compact")
}

// startDetached starts ctx with args in a session of its own, not waited
// for: it outlives this command.
func startDetached(ios *IO, args ...string) {
	self, err := exec.LookPath(os.Args[0])
	if err != nil {
		return
	}
	cmd := exec.Command(self, args...)
	cmd.Env = os.Environ()
	if cwd, err := ios.Getwd(); err == nil {
		cmd.Dir = cwd
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// passThrough runs the command with ctx's own stdio when nothing can be
// captured (the store cannot be created or written): ctx failing must not stop
// the command an agent (or a hook on its behalf) asked for. It says so on
// stderr and exits with the command's status.
func passThrough(ctx context.Context, ios *IO, argv []string, dir string, o *runOptions, why error) error {
	fmt.Fprintf(ios.Err, "ctx: cannot capture (%v); running the command without ctx\n", why)
	var se *store.Error
	if errors.As(why, &se) && se.Hint != "" {
		fmt.Fprintf(ios.Err, "  hint: %s\n", se.Hint)
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, childEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = ios.Out, ios.Err
	if o.stdin == "-" || o.stdin == "" && stdinIsData(ios.In) {
		cmd.Stdin = ios.In
	} else if o.stdin != "" {
		f, err := os.Open(o.stdin)
		if err != nil {
			return usagef("--stdin: %v", err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return &exitError{code: 0}
	case errors.As(err, &ee):
		if ctx.Err() == context.DeadlineExceeded {
			return &exitError{code: capture.ExitTimeout}
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &exitError{code: 128 + int(ws.Signal())}
		}
		return &exitError{code: ee.ExitCode()}
	case errors.Is(err, exec.ErrNotFound):
		fmt.Fprintf(ios.Err, "ctx: %s: command not found\n", argv[0])
		return &exitError{code: capture.ExitNotFound}
	}
	fmt.Fprintf(ios.Err, "ctx: %s: %v\n", argv[0], err)
	return &exitError{code: capture.ExitNotExecutable}
}
