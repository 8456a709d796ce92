package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// Version is the ctx release.
const Version = "0.1.0"

// IO is where commands read and write; tests replace it with buffers.
type IO struct {
	In    io.Reader
	Out   io.Writer
	Err   io.Writer
	IsTTY bool
	// ErrTTY: Err is a terminal, so a person is watching (live progress).
	ErrTTY bool
	Getwd  func() (string, error)
	Getenv func(string) string
}

func systemIO() *IO {
	return &IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, IsTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Getwd:  os.Getwd, Getenv: os.Getenv}
}

// Exit statuses of ctx's own commands (ctx run and ctx ingest pass the
// command's status through instead; see their help).
const (
	exitOK     = 0
	exitBad    = 1 // the thing asked for does not exist, or the input is bad
	exitUsage  = 2 // the command line is wrong
	exitFailed = 125
)

// exitError carries an exit status out of a command. A nil err means the status
// was already explained (ctx run passes the child's status through).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: code, err: err}
}

// usageError marks an error in the command line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return &usageError{fmt.Errorf(format, args...)} }

// Main runs ctx with the process's arguments and returns its exit status.
func Main() int {
	// The host hook runs before every shell command an agent issues: answer it
	// without building the command tree.
	if a := os.Args[1:]; len(a) == 3 && a[0] == "hook" && a[2] == "pre-tool-use" && (a[1] == "claude" || a[1] == "codex") {
		return runHook(systemIO(), a[1])
	}
	return run(systemIO(), os.Args[1:])
}

func run(ios *IO, args []string) int {
	if path := ios.Getenv("CTX_CPUPROFILE"); path != "" {
		// A developer aid: profile one ctx command.
		if f, err := os.Create(path); err == nil {
			defer f.Close()
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	ctx, stop := signalContext()
	defer stop()
	finish := startDisplay(ios, args)
	root := newRoot(ios, args)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.Err)
	err := root.ExecuteContext(ctx)
	if ferr := finish(); err == nil {
		err = ferr
	}
	return report(ios, err)
}

// signalContext is cancelled when ctx receives SIGINT, SIGTERM or SIGHUP,
// with the signal as its cause, so ctx run exits 128+N for signal N.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			n, _ := sig.(syscall.Signal)
			cancel(&capture.Interrupt{Signal: n})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// report prints an error with its hint and returns the exit status.
func report(ios *IO, err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	code := exitBad
	if errors.As(err, &ee) {
		code = ee.code
		if ee.err == nil {
			return code
		}
	} else {
		code = classify(err)
	}
	fmt.Fprintf(ios.Err, "ctx: %v\n", err)
	var se *store.Error
	if errors.As(err, &se) && se.Hint != "" {
		fmt.Fprintf(ios.Err, "  hint: %s\n", se.Hint)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(ios.Err, "  run `ctx help` or `ctx COMMAND --help` for usage")
	}
	return code
}

// classify maps an error to ctx's exit statuses.
func classify(err error) int {
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, store.ErrLocked), errors.Is(err, store.ErrCorrupt), errors.Is(err, store.ErrUnsafe), errors.Is(err, store.ErrBusy):
		return exitFailed
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrAmbiguous), errors.Is(err, store.ErrBadHandle), errors.Is(err, store.ErrRange):
		return exitBad
	}
	return exitBad
}

func newRoot(ios *IO, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "ctx",
		Short: "Run commands for coding agents: every byte kept, a small digest shown",
		Long: `ctx runs a command, keeps every byte of its output in a local content-addressed
store (.ctx/ at the top of the git repository, else one per-user store, or
$CTX_STORE), and prints a small,
deterministic digest: what ran, the findings that matter, a coverage receipt of
what was shown and left out, and handles that return any omitted span.`,
		Example: `  ctx run -- go test ./...
  ctx run --shell -- 'make build 2>&1 | tee build.log'
  ctx get run:ba3d1020ee8f#stdout:L40-52
  ctx ls`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{err} })
	root.PersistentFlags().Bool("no-pager", false, "never page long output on a terminal")
	// Build only the command being run when it is named first: the whole
	// tree (every flag of every command) costs most of a millisecond, on the
	// path of every ctx run. Help, errors and anything else get the full tree.
	only := ""
	if len(args) > 0 {
		if _, ok := commands[args[0]]; ok && !slices.Contains(args, "--help") && !slices.Contains(args, "-h") {
			only = args[0]
		}
	}
	for _, name := range commandOrder {
		if only == "" || name == only {
			root.AddCommand(commands[name](ios))
		}
	}
	// ctx --version prints what ctx version prints; ctx completion bash|zsh|
	// fish|powershell prints a shell completion script (cobra's).
	root.Version = Version
	root.SetVersionTemplate(versionLine() + "\n")
	root.CompletionOptions.HiddenDefaultCmd = false
	return root
}

// commands are ctx's subcommands by name, in the order help lists them.
var (
	commandOrder = []string{"run", "get", "show", "ls", "ingest", "gc", "pin", "unpin", "rm", "receipts", "contract",
		"templates", "bench", "hook", "init", "doctor", "mcp", "ui", "stats", "check", "compact", "push", "pull", "remote", "version", "glossary"}
	commands = map[string]func(*IO) *cobra.Command{
		"run": newRunCmd, "get": newGetCmd, "show": newShowCmd, "ls": newLsCmd, "ingest": newIngestCmd,
		"gc": newGCCmd, "pin": newPinCmd, "unpin": newUnpinCmd, "rm": newRmCmd, "receipts": newReceiptsCmd,
		"contract": newContractCmd, "templates": newTemplatesCmd, "bench": newBenchCmd, "hook": newHookCmd,
		"init": newInitCmd, "doctor": newDoctorCmd, "mcp": newMCPCmd, "ui": newUICmd, "stats": newStatsCmd, "compact": newCompactCmd, "check": newCheckCmd,
		"push": newPushCmd, "pull": newPullCmd, "remote": newRemoteCmd, "version": newVersionCmd, "glossary": newGlossaryTopic,
	}
)

// openStore finds the workspace's store. create makes it if missing.
func openStore(ios *IO, create bool) (*store.Store, error) {
	cwd, err := ios.Getwd()
	if err != nil {
		return nil, err
	}
	loc, err := store.Locate(cwd)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(loc, create)
	if err != nil {
		return nil, err
	}
	if create {
		_ = st.Register() // best effort: the index only helps find the store from elsewhere
	}
	for _, r := range st.Recover() {
		switch {
		case r.Run != nil && r.Run.Manifest.Status == store.StatusRecovered:
			fmt.Fprintf(ios.Err, "ctx: recovered the output of an interrupted capture (%s) as %s\n", quoteArgs(secrets.Argv(r.Argv)), r.Run.Handle())
		case r.Run != nil:
			fmt.Fprintf(ios.Err, "ctx: stored a finished capture that could not be stored earlier (%s) as %s\n", quoteArgs(secrets.Argv(r.Argv)), r.Run.Handle())
		case r.Quarantined != "":
			fmt.Fprintf(ios.Err, "ctx: %v\n", r.Err)
			var se *store.Error
			if errors.As(r.Err, &se) && se.Hint != "" {
				fmt.Fprintf(ios.Err, "  hint: %s\n", se.Hint)
			}
		case r.Err != nil:
			fmt.Fprintf(ios.Err, "ctx: could not recover the interrupted capture in %s: %v\n", r.Spool, r.Err)
		}
	}
	return st, nil
}

// writeJSON prints v as indented JSON with secrets redacted: every JSON form
// ctx prints reaches agents as much as its text does.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out, _ := secrets.Text(buf.Bytes())
	_, err := w.Write(out)
	return err
}
