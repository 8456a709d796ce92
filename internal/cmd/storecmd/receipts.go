package storecmd

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/store"
)

func newReceiptsCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	var n int
	c := &cobra.Command{
		Use:   "receipts",
		Short: "List stored receipts",
		Long: `List the receipts of recent digests: the run, the plan (profile, outcome, mode,
budget) and the coverage each digest achieved.

Exit status: 0 listed; 125 the store is locked or damaged.`,
		Example: "  ctx receipts\n  ctx receipts --json",
		Args:    cli.ExactArgs(0, "ctx receipts"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cli.OpenStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			execs, err := st.Execs(0, func(e *store.Exec) bool { return !e.Receipt.IsZero() })
			if err != nil {
				return err
			}
			type row struct {
				Receipt string            `json:"receipt"`
				Run     string            `json:"run"`
				Start   time.Time         `json:"start"`
				Body    *receipts.Receipt `json:"body"`
			}
			var rows []row
			seen := map[store.ID]bool{}
			for _, ex := range execs {
				if seen[ex.Receipt] || (n > 0 && len(rows) >= n) {
					continue
				}
				seen[ex.Receipt] = true
				data, err := st.Receipt(ex.Receipt)
				if err != nil {
					continue
				}
				r, err := receipts.Decode(data)
				if err != nil {
					continue
				}
				rows = append(rows, row{"receipt:" + ex.Receipt.Short(), ex.Handle(), ex.Start, r})
			}
			if asJSON {
				if rows == nil {
					rows = []row{}
				}
				return cli.WriteJSON(ios.Out, rows)
			}
			tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RECEIPT\tRUN\tPROFILE\tOUTCOME\tMODE\tCOVERAGE")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Receipt, r.Run, r.Body.Plan.Profile, r.Body.Plan.Outcome, r.Body.Plan.Mode, r.Body.Coverage.String())
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().IntVarP(&n, "number", "n", 20, "how many receipts (0 for all)")
	return c
}
