// Package seqcmd is the ctx seq command: it reads the steps (arguments, a
// steps file, or stdin), runs them through package seq, stores the record
// and prints its digest. It also reads seq: handles back for ctx get and ctx
// show.
package seqcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
)

// EnvFunc is what a capture reads from this process (cmd/ctx's runEnv).
type EnvFunc func(ios *cli.IO, st *store.Store) *runner.Env

type options struct {
	args      []string
	file      string
	keepGoing bool
	cwd       string
	timeout   time.Duration
	grace     time.Duration
	pipe      bool
	json      bool
	budget    int
	pressure  string
}

const help = `Run a declared sequence of steps, each captured as its own run, and print one
digest: a line per step (#N, its outcome, a duration bucket when it took a
second or more, its name, its headline finding), the failing steps' findings
under their rows, sharing one budget, and one coverage receipt over all
steps (none when every byte is shown: the header says whole output). A row's
#N is its run's handle relative to the sequence's, as the header's seq:ID
[#N] says: ctx get seq:ID#2 is step 2's output. A step's default name, its
command, is cut to the words that tell it from the other steps (go test…).

Steps come from the arguments, one per group between --: a group of one word
is a shell command line (sh -c), a longer group an argv. Or from a file
(-f steps.toml, - for stdin), [[step]] tables with name, argv or shell, cwd,
env, timeout and continue_on_failure; an unknown field is an error. Or, with
no arguments, from stdin: one shell command line per line (# comments).

The sequence stops at the first failing step unless that step has
continue_on_failure (or --keep-going); later steps are listed as skipped. The
sequence is stored as seq:ID: ctx show seq:ID prints its digest again, ctx get
seq:ID#2 is step 2's output (seq:ID#2#stderr:L1-20 as for a run).

Exit status: the first failing step's (0 when all passed); 2 bad steps or
flags; 125 ctx itself failed.`

// NewCmd is ctx seq; env builds a capture's surroundings.
func NewCmd(ios *cli.IO, env EnvFunc) *cobra.Command {
	o := &options{}
	c := &cobra.Command{
		Use:   "seq [flags] [-- STEP [-- STEP...]]",
		Short: "Run a sequence of steps, each captured, with one digest",
		Long:  help,
		Example: `  ctx seq -- 'go build ./...' -- 'go test ./...' -- 'go vet ./...'
  ctx seq -f steps.toml
  printf 'make\nmake test\n' | ctx seq`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.args = args
			return ctxFailed(runSeq(cmd.Context(), ios, env, o))
		},
	}
	f := c.Flags()
	f.StringVarP(&o.file, "file", "f", "", "read the steps from this TOML file (- for stdin)")
	f.BoolVar(&o.keepGoing, "keep-going", false, "run every step even after one fails")
	f.StringVar(&o.cwd, "cwd", "", "run the steps in this directory (a step's cwd is relative to it)")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "a step's timeout unless it gives one (0 for no limit)")
	f.DurationVar(&o.grace, "grace", 2*time.Second, "time between SIGTERM and SIGKILL when stopping a step")
	f.BoolVar(&o.pipe, "pipe", false, "use plain pipes instead of pseudo-terminals")
	f.BoolVar(&o.json, "json", false, "print the sequence record as JSON instead of the digest")
	f.IntVar(&o.budget, "budget", 0, "token budget the failing steps' findings share (default: the contract's ceiling)")
	f.StringVar(&o.pressure, "pressure", "", "context pressure: low, normal, high, or a fraction (default $CTX_PRESSURE)")
	c.Flags().SetInterspersed(false)
	return c
}

// ctxFailed gives ctx's own failures exit status 125; usage errors keep
// theirs.
func ctxFailed(err error) error {
	var ue *cli.UsageError
	if errors.As(err, &ue) {
		return err
	}
	return cli.WithCode(cli.ExitFailed, err)
}

// readSteps reads the steps from wherever the command line says.
func readSteps(ios *cli.IO, o *options) ([]seq.Step, error) {
	switch {
	case o.file != "" && len(o.args) > 0:
		return nil, cli.Usagef("give steps as arguments or with -f, not both")
	case o.file == "-":
		data, err := cli.ReadAllMax(ios.In, maxSteps, "the steps on stdin")
		if err != nil {
			return nil, err
		}
		return seq.FromTOML(data)
	case o.file != "":
		data, err := os.ReadFile(o.file)
		if err != nil {
			return nil, cli.Usagef("-f: %v", err)
		}
		steps, err := seq.FromTOML(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.file, err)
		}
		return steps, nil
	case len(o.args) > 0:
		return seq.FromArgs(o.args)
	case isTerminal(ios.In):
		return nil, seq.ErrEmpty
	}
	data, err := cli.ReadAllMax(ios.In, maxSteps, "the steps on stdin")
	if err != nil {
		return nil, err
	}
	return seq.FromLines(bytes.NewReader(data))
}

// stepsFrom names the steps file, for errors about a step's fields ("" for
// steps given as arguments or lines): its base name, since the error is
// part of the record, whose id must not depend on where the file is.
func stepsFrom(file string) string {
	switch file {
	case "":
		return ""
	case "-":
		return "the steps file on stdin"
	}
	return filepath.Base(file)
}

// maxSteps bounds the steps read from stdin.
const maxSteps = 1 << 20

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func runSeq(ctx context.Context, ios *cli.IO, env EnvFunc, o *options) error {
	if err := cli.NonNegative("--timeout", o.timeout, "--grace", o.grace); err != nil {
		return err
	}
	steps, err := readSteps(ios, o)
	var se *seq.StepError
	if errors.Is(err, seq.ErrEmpty) {
		return cli.Usagef("%v: give steps as ctx seq -- 'go build ./...' -- 'go test ./...', with -f steps.toml, or one per line on stdin", err)
	} else if errors.As(err, &se) {
		return cli.Usagef("%v", err)
	} else if err != nil {
		return err
	}
	w, err := OpenWorkspace(ios, o.cwd, o.budget, o.pressure)
	if err != nil {
		return err
	}
	defer w.Store.Close()
	st, dir, dopts := w.Store, w.Dir, w.Digest
	rec, err := seq.Run(ctx, env(ios, st), steps, seq.Options{Dir: dir, Session: ios.Getenv("CTX_SESSION"),
		Digest: dopts, Timeout: o.timeout, Grace: o.grace, Pipe: o.pipe, KeepGoing: o.keepGoing, From: stepsFrom(o.file)})
	if err != nil {
		return err
	}
	if _, err := seq.Save(st, rec); err != nil {
		return err
	}
	if o.json {
		if err := cli.WriteJSON(ios.Out, Sequences.JSON(rec)); err != nil {
			return err
		}
	} else if _, err := io.WriteString(ios.Out, rec.Digest); err != nil {
		return err
	}
	return &cli.ExitError{Code: rec.Exit}
}

// Workspace is what a ladder command captures into: the store, the
// directory commands run in, and the digest options.
type Workspace struct {
	Store  *store.Store
	Dir    string
	Digest digest.Options
}

// OpenWorkspace resolves --cwd against the working directory, opens (or
// creates) the store and checks the digest flags (pressure defaults to
// $CTX_PRESSURE). The caller closes the store.
func OpenWorkspace(ios *cli.IO, cwdFlag string, budget int, pressure string) (*Workspace, error) {
	cwd, err := ios.Getwd()
	if err != nil {
		return nil, err
	}
	dir, err := runner.ResolveDir(cwd, cwdFlag)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return nil, err
	}
	if pressure, err = cli.Pressure(ios, pressure); err != nil {
		st.Close()
		return nil, err
	}
	dopts, err := runner.DigestOptions(st, budget, pressure, "")
	if err != nil {
		st.Close()
		return nil, cli.Usagef("%v", err)
	}
	return &Workspace{Store: st, Dir: dir, Digest: dopts}, nil
}

// Stepped is a stored record whose numbered steps are runs: a seq:
// sequence or a py: execution.
type Stepped interface {
	Handle() string
	ID() store.ID
	Text() string
	StepHandle(ref seq.Ref) (string, error)
}

// Kind reads one kind of stepped record back for ctx show and ctx get.
type Kind struct {
	Scheme string // "seq", "py"
	Load   func(st *store.Store, ref seq.Ref) (Stepped, error)
}

// Sequences are ctx seq's records.
var Sequences = Kind{Scheme: "seq", Load: func(st *store.Store, ref seq.Ref) (Stepped, error) { return seq.Load(st, ref) }}

func (k Kind) lookup(ios *cli.IO, handle string) (Stepped, seq.Ref, error) {
	ref, err := seq.ParseRefOf(k.Scheme, handle)
	if err != nil {
		return nil, ref, err
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return nil, ref, err
	}
	defer st.Close()
	rec, err := k.Load(st, ref)
	return rec, ref, err
}

// JSON is a record's --json form.
func (k Kind) JSON(rec Stepped) map[string]any {
	return map[string]any{k.Scheme: rec.Handle(), "id": rec.ID().String(), "record": rec}
}

// Show prints a record's digest again, byte for byte (ctx show seq:ID).
func (k Kind) Show(ios *cli.IO, handle string, asJSON bool) error {
	rec, ref, err := k.lookup(ios, handle)
	if err != nil {
		return err
	}
	if ref.Step > 0 {
		return cli.Usagef("ctx show %s: show takes the whole record (%s:ID); ctx get %s reads step %d's run", handle, k.Scheme, handle, ref.Step)
	}
	if asJSON {
		return cli.WriteJSON(ios.Out, k.JSON(rec))
	}
	_, err = io.WriteString(ios.Out, rec.Text())
	return err
}

// Get is what ctx get prints for a handle of this kind: ID#N stands for
// step N's run (returned for ctx get to read); the record alone is printed
// as JSON (done).
func (k Kind) Get(ios *cli.IO, handle string) (run string, done bool, err error) {
	rec, ref, err := k.lookup(ios, handle)
	if err != nil {
		return "", true, err
	}
	if ref.Step == 0 {
		return "", true, cli.WriteJSON(ios.Out, k.JSON(rec))
	}
	run, err = rec.StepHandle(ref)
	return run, err != nil, err
}
