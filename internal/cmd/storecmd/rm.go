package storecmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

func newRmCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "rm HANDLE...",
		Short: "Delete runs: their records go now, their output at the next ctx gc",
		Long: `Delete one or more runs (run:ID, any unique prefix): the run record and every
execution of it go at once, so the run is no longer listed and its handles no
longer resolve. The stored output stays until ctx gc sweeps what no other run
shares. A pinned run is refused: ctx unpin it first.

Exit status: 0 removed; 1 a handle is malformed, unknown, ambiguous, not a
run, or pinned (nothing after it is removed); 2 usage error; 125 the store is
locked or damaged.`,
		Example: "  ctx rm run:ba3d1020ee8f\n  ctx rm run:ba3d10 run:77c0e1 && ctx gc",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.Usagef("want ctx rm HANDLE... (got no handle)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cli.OpenStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			type removed struct {
				Run   string `json:"run"`
				Execs int    `json:"execs"`
			}
			var done []removed
			for _, a := range args {
				h, err := store.ParseHandle(a)
				if err != nil {
					return err
				}
				if h.Scheme != "run" || h.Stream != "" || !h.Range.IsZero() {
					return fmt.Errorf("%s: ctx rm deletes whole runs; give run:ID: %w", a, store.ErrBadHandle)
				}
				t, err := st.Resolve(h)
				if err != nil {
					return err
				}
				n, err := st.RemoveRun(t.ID)
				if err != nil {
					return err
				}
				done = append(done, removed{"run:" + t.ID.Short(), n})
				if !asJSON {
					fmt.Fprintf(ios.Out, "removed run:%s (%d executions); ctx gc frees its output\n", t.ID.Short(), n)
				}
			}
			if asJSON {
				return cli.WriteJSON(ios.Out, done)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print what was removed as JSON")
	return c
}
