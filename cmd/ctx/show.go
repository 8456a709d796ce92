package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/store"
)

type showOptions struct {
	handle string
	json   bool
}

func newShowCmd(ios *IO) *cobra.Command {
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
		Args: exactArgs(1, "ctx show HANDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runShow(ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the receipt as JSON")
	return c
}

func runShow(ios *IO, o *showOptions) error {
	h, err := store.ParseHandle(o.handle)
	if err != nil {
		return err
	}
	st, err := openStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := st.Resolve(h)
	if err != nil {
		return err
	}
	var data []byte
	var id store.ID
	switch t.Kind {
	case "receipt":
		data, id = t.Receipt, t.ID
	case "run":
		execs, err := st.Execs(1, func(e *store.Exec) bool { return e.Run == t.ID && !e.Receipt.IsZero() })
		if err != nil {
			return err
		}
		if len(execs) == 0 {
			return fmt.Errorf("%s has no stored digest: %w", t.Run.Handle(), store.ErrNotFound)
		}
		id = execs[0].Receipt
		if data, err = st.Receipt(id); err != nil {
			return err
		}
	default:
		return usagef("%s is a %s; show takes a run or receipt handle (use ctx get for blobs)", o.handle, t.Kind)
	}
	r, err := receipts.Decode(data)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(ios.Out, map[string]any{"receipt": "receipt:" + id.Short(), "id": id.String(), "body": r})
	}
	text, err := receipts.DigestText(st, r)
	if err != nil {
		return err
	}
	_, err = ios.Out.Write(text)
	return err
}

// printReceipt prints a receipt named by `ctx get receipt:…`.
func printReceipt(ios *IO, t *store.Target) error {
	return writeJSON(ios.Out, json.RawMessage(t.Receipt))
}
