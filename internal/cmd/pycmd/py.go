// Package pycmd is the ctx py command: it reads a Starlark script (a file,
// -c, or stdin), runs it through package script, stores the execution and
// prints its digest; and it reads py: handles back for ctx get and ctx show.
package pycmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/script"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
)

// EnvFunc is what a capture reads from this process (cmd/ctx's runEnv).
type EnvFunc func(ios *cli.IO, st *store.Store) *runner.Env

type options struct {
	code     string
	codeSet  bool // -c was given, even as -c ''
	cwd      string
	timeout  time.Duration
	grace    time.Duration
	pipe     bool
	json     bool
	budget   int
	pressure string
	limits   script.Limits
}

const help = `Run a Starlark script (a Python dialect: go.starlark.net) that composes
captures. Its builtins:

  run(cmd, cwd=None, timeout=None, env=None)  cmd: an argv list or a shell string;
      returns a result with exit, ok, status, handle, headline, counts (items by
      kind), items (dicts) and digest; a failing command is a result, not an error
  get(handle, grep=None, limit=240)  the text a handle names, as ctx get prints it
      (seq:ID#N and py:ID#N read step N's run, job:ID an ended job's run)
  items(handle, kind=None)           a run's evidence items as dicts
  emit(*parts, kind="finding")       a line for the final digest (print() too)
  fail(msg)                          stop the script; the digest lists what ran

A script cannot open files, use the network or load modules: only the
builtins reach outside. It is bounded by --max-steps (Starlark steps),
--max-runs and --wall; a limit reached stops it with an error saying which,
and the digest of what ran so far. The script is stored as a blob and the
execution as py:ID: ctx show py:ID prints its digest again, ctx get py:ID#2
is the second command's output.

Exit status: 0 the script finished; 1 it failed (fail(), an error, a limit);
2 a syntax error (line and column given; nothing ran) or bad flags; 125 ctx
itself failed.`

// NewCmd is ctx py; env builds a capture's surroundings.
func NewCmd(ios *cli.IO, env EnvFunc) *cobra.Command {
	o := &options{}
	c := &cobra.Command{
		Use:   "py [flags] SCRIPT.star | -c CODE",
		Short: "Run a bounded Starlark script that composes captures, with one digest",
		Long:  help,
		Example: `  ctx py ci.star
  ctx py -c 'r = run("go test ./..."); emit(r.headline)'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.codeSet = cmd.Flags().Changed("code")
			return ctxFailed(runPy(cmd.Context(), ios, env, o, args))
		},
	}
	f := c.Flags()
	f.StringVarP(&o.code, "code", "c", "", "run this code instead of a file")
	f.StringVar(&o.cwd, "cwd", "", "run commands in this directory (run's cwd is relative to it)")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "a command's timeout unless run() gives one")
	f.DurationVar(&o.grace, "grace", 2*time.Second, "time between SIGTERM and SIGKILL when stopping a command")
	f.BoolVar(&o.pipe, "pipe", false, "use plain pipes instead of pseudo-terminals")
	f.BoolVar(&o.json, "json", false, "print the execution record as JSON instead of the digest")
	f.IntVar(&o.budget, "budget", 0, "token budget of each command's digest (default: the contract's ceiling)")
	f.StringVar(&o.pressure, "pressure", "", "context pressure (default $CTX_PRESSURE)")
	f.Uint64Var(&o.limits.Steps, "max-steps", script.Defaults.Steps, "Starlark execution steps the script may take")
	f.IntVar(&o.limits.Runs, "max-runs", script.Defaults.Runs, "commands the script may run")
	f.DurationVar(&o.limits.Wall, "wall", script.Defaults.Wall, "how long the whole script may take")
	return c
}

func ctxFailed(err error) error {
	var ue *cli.UsageError
	var se *script.SyntaxError
	if errors.As(err, &ue) {
		return err
	}
	if errors.As(err, &se) {
		return &cli.UsageError{Err: err}
	}
	return cli.WithCode(cli.ExitFailed, err)
}

// source reads the script and the name messages give it.
func source(ios *cli.IO, o *options, args []string) ([]byte, string, error) {
	switch {
	case o.codeSet && len(args) > 0:
		return nil, "", cli.Usagef("give a script file or -c CODE, not both")
	case o.codeSet:
		return []byte(o.code), "-c", nil
	case len(args) != 1:
		return nil, "", cli.Usagef("want ctx py SCRIPT.star or ctx py -c CODE (got %d arguments)", len(args))
	case args[0] == "-":
		b, err := cli.ReadAllMax(ios.In, 1<<20, "the script on stdin")
		return b, "stdin", err
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return nil, "", cli.Usagef("read script: %v", err)
	}
	return b, args[0], nil
}

func runPy(ctx context.Context, ios *cli.IO, env EnvFunc, o *options, args []string) error {
	src, name, err := source(ios, o, args)
	if err != nil {
		return err
	}
	if err := script.Check(name, src); err != nil {
		return cli.Usagef("%v: give the code to run, e.g. ctx py -c 'r = run(\"go test ./...\"); emit(r.headline)', or a script file", err)
	}
	if o.limits.Steps == 0 || o.limits.Runs <= 0 || o.limits.Wall <= 0 {
		return cli.Usagef("--max-steps, --max-runs and --wall must be positive")
	}
	if err := cli.NonNegative("--timeout", o.timeout, "--grace", o.grace); err != nil {
		return err
	}
	w, err := seqcmd.OpenWorkspace(ios, o.cwd, o.budget, o.pressure)
	if err != nil {
		return err
	}
	defer w.Store.Close()
	st, dir, dopts := w.Store, w.Dir, w.Digest
	x, err := script.Run(ctx, env(ios, st), src, script.Options{Name: name, Dir: dir, Session: ios.Getenv("CTX_SESSION"),
		Digest: dopts, Timeout: o.timeout, Grace: o.grace, Pipe: o.pipe, Limits: o.limits})
	if err != nil {
		return err
	}
	if _, err := script.Save(st, x); err != nil {
		return err
	}
	if err := printExec(ios, x, o.json); err != nil {
		return err
	}
	if x.Error != "" {
		fmt.Fprintf(ios.Err, "ctx py: %s\n", script.Headline(x.Error))
	}
	return &cli.ExitError{Code: x.Exit}
}

func printExec(ios *cli.IO, x *script.Execution, asJSON bool) error {
	if asJSON {
		return cli.WriteJSON(ios.Out, Executions.JSON(x))
	}
	_, err := io.WriteString(ios.Out, x.Digest)
	return err
}

// Executions are ctx py's records.
var Executions = seqcmd.Kind{Scheme: "py", Load: func(st *store.Store, ref seq.Ref) (seqcmd.Stepped, error) { return script.Load(st, ref) }}
