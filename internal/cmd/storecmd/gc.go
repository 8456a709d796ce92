package storecmd

import (
	"fmt"
	"strconv"
	"strings"
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
		Example: "  ctx gc --dry-run\n  ctx gc --keep 7d",
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
			if rep.Unrecorded > 0 {
				fmt.Fprintf(ios.Out, "kept %d pack files that kept runs need but no blob record names: run `ctx check --repair` to re-link them\n", rep.Unrecorded)
			}
			if rep.Compacted > 0 {
				fmt.Fprintf(ios.Out, "compressed the frames a flood had stored raw in %d blobs, saving %s\n", rep.Compacted, contract.Size(rep.CompactedBytes))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&dryRun, "dry-run", false, "report what would be deleted, delete nothing")
	c.Flags().BoolVar(&noCompact, "no-compact", false, "do not compress frames that a fast flood left stored raw")
	keep = 30 * 24 * time.Hour
	c.Flags().Var(ageFlag{&keep}, "keep", "keep executions younger than this: 7d, 168h, 90m (0 keeps all)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// ageFlag is a flag holding an age: a Go duration or N days ("7d"), as
// ctx ls --since takes it. time.Duration alone refused "7d", the unit people
// keep runs by.
type ageFlag struct{ d *time.Duration }

func (a ageFlag) String() string {
	if a.d == nil {
		return ""
	}
	if day := 24 * time.Hour; *a.d%day == 0 && *a.d != 0 {
		return strconv.FormatInt(int64(*a.d/day), 10) + "d"
	}
	return a.d.String()
}

func (a ageFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if n, nerr := strconv.Atoi(strings.TrimSuffix(s, "d")); err != nil && nerr == nil && strings.HasSuffix(s, "d") {
		d, err = time.Duration(n)*24*time.Hour, nil
	}
	if err != nil || d < 0 {
		return fmt.Errorf("want an age like 7d, 168h or 90m (0 keeps all)")
	}
	*a.d = d
	return nil
}

func (ageFlag) Type() string { return "age" }
