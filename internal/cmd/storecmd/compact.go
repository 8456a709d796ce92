package storecmd

import (
	"errors"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

// newCompactCmd is the background job ctx run starts after a flood.
func newCompactCmd(ios *cli.IO) *cobra.Command {
	return &cobra.Command{
		Use:    "compact",
		Short:  "Compress frames that a fast flood left stored raw",
		Hidden: true,
		Args:   cli.ExactArgs(0, "ctx compact"),
		RunE: func(cmd *cobra.Command, args []string) error {
			_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10)
			st, err := cli.OpenStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			_, _, err = st.Compact()
			if errors.Is(err, store.ErrBusy) {
				return nil // the gc or compaction running does the work
			}
			return err
		},
	}
}
