package runcmd

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/runner"
)

type ingestOptions struct {
	as     string
	exit   int
	stderr string
	file   string
	json   bool
	digestOpts
}

func NewIngestCmd(ios *cli.IO) *cobra.Command {
	o := &ingestOptions{}
	c := &cobra.Command{
		Use:   "ingest [--as CMD] [--exit N] [FILE|-]",
		Short: "Store existing output as a run and print its digest",
		Long: `Store output that already exists (a log file, or stdin) as a run, as if CMD had
produced it with exit status N, and print its digest. Hooks use it to store
output a command already printed; tests and benchmarks use it to digest saved
outputs. --as picks the profile the way the command line would.

Exit status: the --exit value (default 0), so scripts can pass a status
through; 1 the file cannot be read; 2 usage error; 125 the store is locked or
damaged.`,
		Example: `  ctx ingest --as "pytest -q" --exit 1 pytest.log
  go test ./... 2>&1 | ctx ingest --as "go test ./..." -
  ctx ingest --as "make" --stderr build.err build.out`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = "-"
			if len(args) == 1 {
				o.file = args[0]
			}
			return runIngest(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.as, "as", "", "the command line that produced the output (shell words)")
	c.Flags().IntVar(&o.exit, "exit", 0, "the exit status it ended with")
	c.Flags().StringVar(&o.stderr, "stderr", "", "a file holding the command's stderr")
	c.Flags().BoolVar(&o.json, "json", false, "print the run record, evidence items and receipt as JSON")
	o.digestOpts.register(c)
	return c
}

func runIngest(ctx context.Context, ios *cli.IO, o *ingestOptions) error {
	var argv []string
	if o.as != "" {
		words, err := cmdline.Split(o.as)
		if err != nil {
			return cli.Usagef("--as %q: %v", o.as, err)
		}
		argv = words
	}
	if o.exit < 0 || o.exit > 255 {
		return cli.Usagef("--exit %d: want 0-255", o.exit)
	}
	in := ios.In
	if o.file != "-" {
		f, err := os.Open(o.file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	var errIn io.Reader
	if o.stderr != "" {
		f, err := os.Open(o.stderr)
		if err != nil {
			return err
		}
		defer f.Close()
		errIn = f
	}
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return cli.WithCode(cli.ExitFailed, err)
	}
	defer st.Close()
	opts, err := o.digestOpts.options(ios, st)
	if err != nil {
		return err
	}
	cwd, _ := ios.Getwd()
	res, err := runner.Ingest(ctx, Env(ios, st), &runner.Request{Argv: argv, Dir: cwd, Digest: opts,
		Stdout: in, Stderr: errIn, Exit: o.exit})
	if err != nil {
		return cli.WithCode(cli.ExitFailed, err)
	}
	return showRun(ios, st, res, o.json)
}
