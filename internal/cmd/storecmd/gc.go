package storecmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

func newGCCmd(ios *cli.IO) *cobra.Command {
	var (
		dryRun    bool
		keep      time.Duration
		asJSON    bool
		noCompact bool
	)
	c := &cobra.Command{
		Use:   "gc",
		Short: "Delete old executions and the output only they referenced",
		Long: `Mark everything reachable from executions newer than --keep, from pins and from
standalone receipts, and delete the rest. Pinned runs (ctx pin) are always kept.

Exit status: 0 done; 125 the store is locked or damaged.`,
		Example: "  ctx gc --dry-run\n  ctx gc --keep 168h",
		Args:    cli.ExactArgs(0, "ctx gc"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cli.OpenStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			rep, err := st.GC(store.GCOptions{Keep: keep, DryRun: dryRun, Compact: !noCompact})
			if err != nil {
				return err
			}
			if asJSON {
				return cli.WriteJSON(ios.Out, rep)
			}
			verb := "deleted"
			if dryRun {
				verb = "would delete"
			}
			fmt.Fprintf(ios.Out, "%s %d executions, %d runs, %d receipts, %d blobs (%d frames, %d pack files, %s stored); kept %d runs, %d blobs\n",
				verb, rep.Execs, rep.Runs, rep.Receipts, rep.Blobs, rep.Frames, rep.Packs, contract.Size(rep.Bytes), rep.Kept.Runs, rep.Kept.Blobs)
			if rep.Compacted > 0 {
				fmt.Fprintf(ios.Out, "compressed the frames a flood had stored raw in %d blobs, saving %s\n", rep.Compacted, contract.Size(rep.CompactedBytes))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&dryRun, "dry-run", false, "report what would be deleted, delete nothing")
	c.Flags().BoolVar(&noCompact, "no-compact", false, "do not compress frames that a fast flood left stored raw")
	c.Flags().DurationVar(&keep, "keep", 30*24*time.Hour, "keep executions younger than this (0 keeps all)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
