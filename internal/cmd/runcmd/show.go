package runcmd

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
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
byte-identical to what was printed then. --json prints the receipt: the plan it
was rendered under and its coverage.

Exit status: 0 printed; 1 unknown, ambiguous or malformed handle; 125 the
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
	if strings.HasPrefix(o.handle, "seq:") {
		return seqcmd.Sequences.Show(ios, o.handle, o.json)
	}
	if strings.HasPrefix(o.handle, "py:") {
		if getcmd.Py == nil {
			return helper.Need(helper.MCP, "showing a py: handle")
		}
		return getcmd.Py.Show(ios, o.handle, o.json)
	}
	sh, err := ShowHandle(ctx, ios, o.handle)
	if err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, map[string]any{"receipt": "receipt:" + sh.ReceiptID.Short(), "id": sh.ReceiptID.String(), "body": sh.Receipt})
	}
	_, err = ios.Out.Write(sh.Text)
	return err
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
