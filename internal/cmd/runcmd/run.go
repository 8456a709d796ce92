// Package runcmd holds ctx run, ctx ingest and ctx show: the command-line face
// of the one capture path (package runner). It parses their flags, feeds the
// runner a Request (stdin, progress, the generation of the work tree) and
// prints the Result: the digest, its --json form, or the command passed
// through when nothing can be captured.
package runcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/internal/progress"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/runner"
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
	bg        bool
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

func (o *digestOpts) options(ios *cli.IO, st *store.Store) (digest.Options, error) {
	p, err := cli.Pressure(ios, o.pressure)
	if err != nil {
		return digest.Options{}, err
	}
	opts, err := runner.DigestOptions(st, o.budget, p, o.profile)
	if err != nil {
		return digest.Options{}, cli.Usagef("%v", err)
	}
	return opts, nil
}

const runHelpExit = `
Exit status: the command's own; 124 if it ran past --timeout; 125 if ctx itself
failed; 126 if the command cannot be executed; 127 if it was not found; 128+N if
it was killed by signal N; 128+N if ctx itself got signal N (130 Ctrl-C, 143
SIGTERM, 129 SIGHUP) and stopped it.`

func NewRunCmd(ios *cli.IO) *cobra.Command {
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
				return cli.Usagef("no command given: ctx run [flags] -- CMD [ARGS...]")
			}
			o.argv = args
			return cli.WithCode(cli.ExitFailed, runRun(cmd.Context(), ios, o))
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
	f.BoolVar(&o.bg, "bg", false, "run in the background: print a job: handle at once (ctx job tail|wait|kill)")
	o.digestOpts.register(c)
	c.Flags().SetInterspersed(false)
	return c
}

func runRun(ctx context.Context, ios *cli.IO, o *runOptions) error {
	capBytes, err := cli.ParseSize(o.maxOutput)
	if err != nil {
		return cli.Usagef("--max-output: %v", err)
	}
	if o.timeout < 0 || o.grace < 0 {
		// A negative --timeout ran the command with no limit at all.
		return cli.Usagef("--timeout %v --grace %v: want durations of 0 or more (--timeout 0: no limit)", o.timeout, o.grace)
	}
	argv := o.argv
	if o.shell {
		argv = []string{"sh", "-c", strings.Join(o.argv, " ")}
	}
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	dir, err := runner.ResolveDir(cwd, o.cwd)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if o.bg {
		return startJob(ios, o, argv, dir, capBytes)
	}
	gen := startGeneration(ctx, ios, dir) // while the store opens and the command runs
	st, err := cli.OpenStore(ios, true)
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
	req := &runner.Request{Argv: argv, Dir: dir, Session: ios.Getenv("CTX_SESSION"), Digest: opts,
		Pipe: o.pipe, Timeout: o.timeout, Grace: o.grace, Cap: capBytes, Generation: gen}
	switch o.stdin {
	case "":
		if stdinIsData(ios.In) {
			// Piped or redirected: forward it and keep it with the run.
			req.Stdin = runner.Input{R: ios.In, Lazy: true}
		}
	case "-":
		req.Stdin = runner.Input{R: ios.In}
	default:
		f, err := os.Open(o.stdin)
		if err != nil {
			return cli.Usagef("--stdin: %v", err)
		}
		defer f.Close()
		req.Stdin = runner.Input{R: f, Whole: true}
	}
	if prog := progress.Start(ios); prog != nil { // a person watches stderr
		req.Watch = prog
	}
	res, err := runner.Capture(ctx, Env(ios, st), req)
	var nc *runner.NoCaptureError
	var se *capture.StartError
	switch {
	case errors.As(err, &nc):
		return passThrough(ctx, ios, argv, dir, o, nc.Err)
	case errors.As(err, &se):
		// The message quotes the command word, which the agent reads: redact it.
		fmt.Fprintf(ios.Err, "ctx: %s\n  hint: %s\n", secrets.String(se.Error()), runner.StartHint(se))
		return &cli.ExitError{Code: se.Exit}
	case err != nil:
		return err
	}
	if res.Note != "" {
		fmt.Fprintf(ios.Err, "ctx: note: %s\n", res.Note)
	}
	return showRun(ios, st, res, o.json)
}

// Env is what the runner reads from this process: its store, clock,
// environment and host facts.
func Env(ios *cli.IO, st *store.Store) *runner.Env {
	return &runner.Env{Store: st, Now: time.Now, Environ: os.Environ(), Host: hostname(), PID: os.Getpid(),
		Version: cli.Version, Trace: tracer(ios), Defer: deferLate(st), DeferAtStart: lateBefore(st)}
}

// showRun prints a stored run's digest (or its --json form) and exits with the
// run's status. A run stored without a digest says so and how to read it.
func showRun(ios *cli.IO, st *store.Store, res *runner.Result, asJSON bool) error {
	if res.Raw {
		cli.StartCompaction(ios)
	}
	getcmd.StartPush(ios, st)
	if res.DigestErr != nil {
		h := res.Handle()
		hint := fmt.Sprintf("read it with `ctx get %s`", h)
		if fix := contract.FixHint(res.DigestErr); fix != "" {
			hint = fix + "; " + hint
		}
		fmt.Fprintf(ios.Err, "ctx: the output is stored as %s, but no digest could be made: %v\n  hint: %s\n", h, res.DigestErr, hint)
		return &cli.ExitError{Code: res.Exit}
	}
	if asJSON {
		if err := writeRunJSON(ios.Out, st, res.Run, res.Digest); err != nil {
			return err
		}
	} else if _, err := ios.Out.Write(cli.ColourDigest(ios, res.Text())); err != nil {
		return err
	}
	return &cli.ExitError{Code: res.Exit}
}

func hostname() string {
	h, _ := os.Hostname()
	return h + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// writeRunJSON prints the --json form of a run. Its items hold text derived
// from the output (log templates, messages) that may carry part of a secret
// without the context that made it one (the last line of a key block as a
// template): every value the stream's redaction found is replaced there too.
func writeRunJSON(w io.Writer, st *store.Store, run *store.Run, res *digest.Result) error {
	var buf bytes.Buffer
	if err := cli.WriteJSON(&buf, runJSON(run, res)); err != nil {
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
func runJSON(run *store.Run, res *digest.Result) map[string]any {
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
func tracer(ios *cli.IO) func(phase string) {
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

// passThrough runs the command with ctx's own stdio when nothing can be
// captured (the store cannot be created or written): ctx failing must not stop
// the command an agent (or a hook on its behalf) asked for. It says so on
// stderr and exits with the command's status.
func passThrough(ctx context.Context, ios *cli.IO, argv []string, dir string, o *runOptions, why error) error {
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
	cmd.Dir, cmd.Env = dir, runner.ChildEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = ios.Out, ios.Err
	if o.stdin == "-" || o.stdin == "" && stdinIsData(ios.In) {
		cmd.Stdin = ios.In
	} else if o.stdin != "" {
		f, err := os.Open(o.stdin)
		if err != nil {
			return cli.Usagef("--stdin: %v", err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return &cli.ExitError{Code: 0}
	case errors.As(err, &ee):
		if ctx.Err() == context.DeadlineExceeded {
			return &cli.ExitError{Code: capture.ExitTimeout}
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &cli.ExitError{Code: 128 + int(ws.Signal())}
		}
		return &cli.ExitError{Code: ee.ExitCode()}
	case errors.Is(err, exec.ErrNotFound):
		fmt.Fprintf(ios.Err, "ctx: %s: command not found\n", argv[0])
		return &cli.ExitError{Code: capture.ExitNotFound}
	}
	fmt.Fprintf(ios.Err, "ctx: %s: %v\n", argv[0], err)
	return &cli.ExitError{Code: capture.ExitNotExecutable}
}

// startJob is ctx run --bg: the capture continues in a detached supervisor.
func startJob(ios *cli.IO, o *runOptions, argv []string, dir string, capBytes int64) error {
	if o.stdin != "" {
		return cli.Usagef("--bg takes no --stdin: a background job's stdin is /dev/null")
	}
	if o.json {
		return cli.Usagef("--bg prints the job handle; ctx job wait job:ID prints the digest (ctx job show --json the record)")
	}
	p, err := cli.Pressure(ios, o.pressure)
	if err != nil {
		return err
	}
	return jobcmd.Start(ios, job.Spec{Argv: argv, Dir: dir, Timeout: o.timeout, Grace: o.grace, Pipe: o.pipe, Cap: capBytes,
		Budget: o.budget, Pressure: p, Profile: o.profile, Session: ios.Getenv("CTX_SESSION")})
}
