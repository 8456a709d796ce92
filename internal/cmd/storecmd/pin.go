package storecmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

func newPinCmd(ios *cli.IO) *cobra.Command {
	var note string
	var asJSON bool
	c := &cobra.Command{
		Use:   "pin HANDLE",
		Short: "Keep a run, blob or receipt through gc",
		Long: `Keep a run (with all it references), a blob or a receipt through ctx gc,
whatever its age, until ctx unpin. --note says why, in one line of at most
200 bytes.

Exit status: 0 pinned; 1 the handle is malformed, unknown or ambiguous, or
the note is too long; 2 usage error; 125 the store is locked or damaged.`,
		Example: "  ctx pin run:ba3d1020ee8f --note 'baseline before the refactor'",
		Args:    cli.ExactArgs(1, "ctx pin HANDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkNote(note); err != nil {
				return err
			}
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
		Use:   "unpin HANDLE",
		Short: "Let gc collect a pinned record again",
		Long: `Remove the pin of a run, blob or receipt: ctx gc may collect it again once
it is old enough.

Exit status: 0 unpinned; 1 the handle is malformed, unknown or ambiguous, or
it is not pinned; 2 usage error; 125 the store is locked or damaged.`,
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

// maxNote bounds a pin's note: a reason in one line, not a document.
const maxNote = 200

// checkNote refuses a note longer than maxNote or with a control character.
func checkNote(note string) error {
	if len(note) > maxNote {
		return cli.WithCode(cli.ExitBad, &store.Error{Err: fmt.Errorf("--note is %d bytes, more than the limit of %d", len(note), maxNote),
			Hint: "say why in one line; put a longer reason in a file in the repository and name it in the note"})
	}
	if cmdline.Escape(note) != note {
		return cli.WithCode(cli.ExitBad, &store.Error{Err: fmt.Errorf("--note %s holds a control character or a byte that is not UTF-8", cmdline.Display([]string{note})),
			Hint: "a note is one line of text"})
	}
	return nil
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
