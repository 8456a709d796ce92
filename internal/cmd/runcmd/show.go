package runcmd

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

type showOptions struct {
	handle string
	json   bool
}

func NewShowCmd(ios *cli.IO) *cobra.Command {
	o := &showOptions{}
	c := &cobra.Command{
		Use:   "show HANDLE",
		Short: "Print a run's digest again, byte for byte",
		Long: `Print the digest of a run (the latest one ctx printed for it) or of a receipt,
byte-identical to what was printed then; of a sequence (seq:ID) or a script's
execution (py:ID); of the run a background job (job:ID) committed once it
ended (while it runs, ctx job tail shows its output so far). --json prints the receipt: the plan it
was rendered under and its coverage.

Exit status: 0 printed; 1 unknown, ambiguous or malformed handle, or a job
that has not committed a run (still running, or its supervisor died); 125 the
store is locked or damaged.`,
		Example: `  ctx show run:ba3d1020ee8f
  ctx show receipt:7d0c1e22aa01 --json`,
		Args:              cli.ExactArgs(1, "ctx show HANDLE"),
		ValidArgsFunction: getcmd.CompleteHandles(ios),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runShow(cmd.Context(), ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the receipt as JSON")
	return c
}

func runShow(ctx context.Context, ios *cli.IO, o *showOptions) error {
	handle, done, err := ShowRecord(ios, o.handle, o.json)
	if done {
		return err
	}
	sh, err := ShowHandle(ctx, ios, handle)
	if err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, map[string]any{"receipt": "receipt:" + sh.ReceiptID.Short(), "id": sh.ReceiptID.String(), "body": sh.Receipt})
	}
	_, err = ios.Out.Write(sh.Text)
	return err
}

// ShowRecord prints what ctx show prints for a record that is not a run:
// a seq: sequence's or a py: execution's digest (done). A job: handle
// stands for the run the job committed, returned as run for ShowHandle,
// as is any other handle. Shared by ctx show and the MCP server's ctx_show.
func ShowRecord(ios *cli.IO, handle string, asJSON bool) (run string, done bool, err error) {
	switch {
	case strings.HasPrefix(handle, "seq:"):
		return "", true, seqcmd.Sequences.Show(ios, handle, asJSON)
	case strings.HasPrefix(handle, "py:"):
		if getcmd.Py == nil {
			return "", true, helper.Need(helper.MCP, "showing a py: handle")
		}
		return "", true, getcmd.Py.Show(ios, handle, asJSON)
	case strings.HasPrefix(handle, "job:"):
		run, err := jobcmd.Run(ios, handle)
		return run, err != nil, err
	}
	return handle, false, nil
}

// ShowHandle reads back the digest a run or receipt handle names, from
// whichever known store holds it (ctx show, ctx ui, the MCP server).
func ShowHandle(ctx context.Context, ios *cli.IO, handle string) (*runner.Shown, error) {
	h, err := store.ParseHandle(handle)
	if err != nil {
		return nil, err
	}
	st, t, err := getcmd.ResolveAnywhere(ios, h, handle)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if getcmd.Tier != nil {
		if t, err = getcmd.Tier.ShowTarget(ctx, st, t); err != nil {
			return nil, err
		}
	}
	sh, err := runner.Show(ctx, st, t, func() (digest.Options, error) { return (&digestOpts{}).options(ios, st) })
	if errors.Is(err, runner.ErrNotShowable) {
		return nil, cli.Usagef("%s is a %s; show takes a run or receipt handle (use ctx get for blobs)", handle, t.Kind)
	}
	return sh, err
}
