// Package app is ctx's command line as a program: the command tree built
// from a table of commands, signals, the pager, and handing a command to
// the helper binary that holds it (internal/helper). cmd/ctx runs it with
// the hot-path commands (Core); the helpers (cmd/ctx-mcp, cmd/ctx-remote)
// run it with those and their own.
package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/hostscmd"
	"github.com/ctxhq/ctx/internal/cmd/infocmd"
	"github.com/ctxhq/ctx/internal/helper"
)

// Commands is a binary's table of subcommands: their order in help and how
// each is built.
type Commands struct {
	Order []string
	New   map[string]func(*cli.IO) *cobra.Command
}

// Add appends commands to the table (a helper's own, after Core's).
func (c *Commands) Add(name string, build func(*cli.IO) *cobra.Command) {
	if _, ok := c.New[name]; !ok {
		c.Order = append(c.Order, name)
	}
	c.New[name] = build
}

// Main runs the program with the process's arguments and returns its exit
// status. A command in a helper binary replaces this process with it.
func Main(cmds *Commands) int {
	ios := cli.SystemIO()
	if code, ok := answerFast(ios, os.Args[1:]); ok {
		return code
	}
	return Run(ios, os.Args[1:], cmds, true)
}

// answerFast answers the command lines that are on a hot path without
// building the command tree, if args is one: the host hook runs before
// every shell command an agent issues, and ctx version (or --version) is
// how a script or an agent checks that ctx is there; neither needs the
// tree, the signal handler (a thread of its own) or the pager. The version
// line is the command's (TestAnswerFast).
func answerFast(ios *cli.IO, args []string) (int, bool) {
	switch {
	case len(args) == 3 && args[0] == "hook" && args[2] == "pre-tool-use" && (args[1] == "claude" || args[1] == "codex"):
		return hostscmd.RunHook(ios, args[1]), true
	case len(args) == 1 && (args[0] == "version" || args[0] == "--version"):
		return cli.Report(ios, infocmd.WriteVersion(ios.Out)), true
	}
	return 0, false
}

// Run runs one command line. With handOff, a command that needs a helper
// binary execs it with the same arguments (its status becomes ours); without
// (a test's buffered IO), the need is reported as an error.
func Run(ios *cli.IO, args []string, cmds *Commands, handOff bool) int {
	if name := helperCommand(args, cmds); name != "" && handOff {
		// A helper's command: hand it over before building anything.
		return cli.Report(ios, handTo(&helper.NeededError{Name: helper.Of[name], Why: "ctx " + name}, args, true))
	}
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
	root := NewRoot(ios, args, cmds)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.Err)
	err := root.ExecuteContext(ctx)
	if ferr := finish(); err == nil {
		err = ferr
	}
	var need *helper.NeededError
	if errors.As(err, &need) {
		err = handTo(need, args, handOff)
	}
	return cli.Report(ios, err)
}

// helperCommand is the helper's command args run, if cmds lacks it: named
// first, or after help or cobra's shell-completion request.
func helperCommand(args []string, cmds *Commands) string {
	if len(args) > 1 && (args[0] == "help" || args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		args = args[1:]
	}
	if len(args) == 0 {
		return ""
	}
	if _, ok := cmds.New[args[0]]; ok || helper.Of[args[0]] == "" {
		return ""
	}
	return args[0]
}

// handTo runs the helper a command needs in this process's place, or says
// why it cannot.
func handTo(need *helper.NeededError, args []string, handOff bool) error {
	if !handOff {
		return &cli.ExitError{Code: cli.ExitFailed, Err: need}
	}
	stopSignals()
	err := helper.Exec(need.Name, args)
	var miss *helper.MissingError
	if errors.As(err, &miss) {
		return &cli.ExitError{Code: cli.ExitFailed, Err: fmt.Errorf("%s needs the helper binary %s, which is neither in %s nor on PATH\n  hint: %s",
			need.Why, miss.Name, miss.Dir, helper.InstallHint)}
	}
	return &cli.ExitError{Code: cli.ExitFailed, Err: err}
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

// stopSignals gives the helper about to replace this process the default
// signal dispositions (exec keeps ignored ones).
func stopSignals() { signal.Reset(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP) }

// NewRoot is the command tree of cmds for args: only the command args names
// when it is one (cheaper), else all; the helpers' commands cmds lacks are
// stubs that hand the command line to their helper.
func NewRoot(ios *cli.IO, args []string, cmds *Commands) *cobra.Command {
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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &cli.UsageError{Err: err} })
	root.PersistentFlags().Bool("no-pager", false, "never page long output on a terminal")
	// Build only the command being run when it is named first: the whole
	// tree (every flag of every command) costs most of a millisecond, on the
	// path of every ctx run. Help, errors and anything else get the full tree.
	only := ""
	if len(args) > 0 && !slices.Contains(args, "--help") && !slices.Contains(args, "-h") {
		if _, ok := cmds.New[args[0]]; ok {
			only = args[0]
		} else if _, ok := helper.Of[args[0]]; ok {
			only = args[0]
		}
	}
	for _, name := range cmds.Order {
		if only == "" || name == only {
			root.AddCommand(cmds.New[name](ios))
		}
	}
	for _, name := range helperCommands {
		if _, ok := cmds.New[name]; !ok && (only == "" || name == only) {
			root.AddCommand(helperStub(name))
		}
	}
	// ctx --version prints what ctx version prints; ctx completion bash|zsh|
	// fish|powershell prints a shell completion script (cobra's).
	root.Version = cli.Version
	root.SetVersionTemplate(infocmd.VersionLine() + "\n")
	root.CompletionOptions.HiddenDefaultCmd = false
	// A command named first is not completion: no completion command to build.
	root.CompletionOptions.DisableDefaultCmd = only != ""
	// cobra adds its completion command when the tree runs; add it now so
	// that `ctx completion bsh` is refused like any other unknown word.
	root.InitDefaultCompletionCmd(args...)
	usageErrors(root)
	return root
}

// usageErrors makes c and every command group under it (a command
// with subcommands and nothing to run itself) refuse an argument that names
// no subcommand with a usage error (exit 2), and print its help when given
// none. Left to cobra, `ctx job bgo` printed the help and exited 0, so a
// script's typo passed as success, and `ctx bgo` exited 1 as if a handle
// were bad. Every command's argument check (cobra.MinimumNArgs and the
// like) reports a usage error too: `ctx pull` with no handle exited 1.
func usageErrors(c *cobra.Command) {
	if c.HasSubCommands() && !c.Runnable() {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if cmd.SuggestionsMinimumDistance <= 0 {
				cmd.SuggestionsMinimumDistance = 2 // cobra's own default, set only on its path
			}
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
			}
			return cli.Usagef("%s", msg)
		}
	}
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := check(cmd, args)
			var ue *cli.UsageError
			if err != nil && !errors.As(err, &ue) {
				return &cli.UsageError{Err: err}
			}
			return err
		}
	}
	for _, sub := range c.Commands() {
		usageErrors(sub)
	}
}
