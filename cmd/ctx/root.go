package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/infocmd"
	"github.com/ctxhq/ctx/internal/cmd/lscmd"
	"github.com/ctxhq/ctx/internal/cmd/remotecmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/cmd/statscmd"
	"github.com/ctxhq/ctx/internal/cmd/uicmd"
)

// Version is the ctx release.
const Version = cli.Version

// IO is where commands read and write (internal/cli); tests replace it
// with buffers.
type IO = cli.IO

// Main runs ctx with the process's arguments and returns its exit status.
func Main() int {
	// The host hook runs before every shell command an agent issues: answer it
	// without building the command tree.
	if a := os.Args[1:]; len(a) == 3 && a[0] == "hook" && a[2] == "pre-tool-use" && (a[1] == "claude" || a[1] == "codex") {
		return runHook(cli.SystemIO(), a[1])
	}
	return run(cli.SystemIO(), os.Args[1:])
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
	return cli.Report(ios, err)
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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &cli.UsageError{Err: err} })
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
	root.SetVersionTemplate(infocmd.VersionLine() + "\n")
	root.CompletionOptions.HiddenDefaultCmd = false
	return root
}

// commands are ctx's subcommands by name, in the order help lists them.
var (
	commandOrder = []string{"run", "get", "show", "ls", "ingest", "gc", "pin", "unpin", "rm", "receipts", "contract",
		"templates", "bench", "hook", "init", "doctor", "mcp", "ui", "stats", "check", "compact", "push", "pull", "remote", "version", "glossary"}
	commands = map[string]func(*IO) *cobra.Command{
		"run": runcmd.NewRunCmd, "get": getcmd.NewCmd, "show": runcmd.NewShowCmd, "ls": lscmd.NewCmd, "ingest": runcmd.NewIngestCmd,
		"gc": newGCCmd, "pin": newPinCmd, "unpin": newUnpinCmd, "rm": newRmCmd, "receipts": newReceiptsCmd,
		"contract": newContractCmd, "templates": infocmd.NewTemplatesCmd, "bench": newBenchCmd, "hook": newHookCmd,
		"init": newInitCmd, "doctor": newDoctorCmd, "mcp": newMCPCmd, "ui": uicmd.NewCmd, "stats": statscmd.NewCmd, "compact": newCompactCmd, "check": newCheckCmd,
		"push": remotecmd.NewPushCmd, "pull": remotecmd.NewPullCmd, "remote": remotecmd.NewRemoteCmd, "version": infocmd.NewVersionCmd, "glossary": infocmd.NewGlossaryTopic,
	}
)
