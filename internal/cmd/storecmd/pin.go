package storecmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

func newPinCmd(ios *cli.IO) *cobra.Command {
	var note string
	var asJSON bool
	c := &cobra.Command{
		Use:     "pin HANDLE",
		Short:   "Keep a run, blob or receipt through gc",
		Example: "  ctx pin run:ba3d1020ee8f --note 'baseline before the refactor'",
		Args:    cli.ExactArgs(1, "ctx pin HANDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, t, err := resolveArg(ios, args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			p, err := st.PutPin(t, note)
			if err != nil {
				return err
			}
			if asJSON {
				return cli.WriteJSON(ios.Out, p)
			}
			fmt.Fprintf(ios.Out, "pinned %s\n", p.Handle)
			return nil
		},
	}
	c.Flags().StringVar(&note, "note", "", "why it is pinned")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func newUnpinCmd(ios *cli.IO) *cobra.Command {
	return &cobra.Command{
		Use:     "unpin HANDLE",
		Short:   "Let gc collect a pinned record again",
		Example: "  ctx unpin run:ba3d1020ee8f",
		Args:    cli.ExactArgs(1, "ctx unpin HANDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, t, err := resolveArg(ios, args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			found, err := st.DeletePin(t.ID)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("%s:%s is not pinned: %w", t.Kind, t.ID.Short(), store.ErrNotFound)
			}
			fmt.Fprintf(ios.Out, "unpinned %s:%s\n", t.Kind, t.ID.Short())
			return nil
		},
	}
}

func resolveArg(ios *cli.IO, arg string) (*store.Store, *store.Target, error) {
	h, err := store.ParseHandle(arg)
	if err != nil {
		return nil, nil, err
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return nil, nil, err
	}
	t, err := st.Resolve(h)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, t, nil
}
