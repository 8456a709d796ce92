package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/secrets"
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
		Args:              exactArgs(1, "ctx show HANDLE"),
		ValidArgsFunction: completeHandles(ios),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runShow(cmd.Context(), ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the receipt as JSON")
	return c
}

func runShow(ctx context.Context, ios *IO, o *showOptions) error {
	h, err := store.ParseHandle(o.handle)
	if err != nil {
		return err
	}
	st, t, err := resolveAnywhere(ios, h, o.handle)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, remote := remoteOpeners.Load(t); remote {
		return &store.Error{Err: fmt.Errorf("%s is in the remote, too large to cache for ctx show", o.handle),
			Hint: fmt.Sprintf("copy it with `ctx pull %s`, then show it; ctx get reads its lines in place", t.Handle())}
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
			// A run stored without a digest (recovered after a crash): make one.
			opts, err := (&digestOpts{}).options(ios, st)
			if err != nil {
				return err
			}
			res, err := receipts.Make(ctx, st, t.Run, opts)
			if err != nil {
				return err
			}
			if err := receipts.Save(st, res); err != nil {
				return err
			}
			if err := recordShown(st, t.Run, res); err != nil {
				return err
			}
			data, err = json.Marshal(res.Receipt)
			if err != nil {
				return err
			}
			id = res.ReceiptID
			break
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
	// Digests are redacted when rendered; one stored before redaction
	// existed is redacted here.
	text, _ = secrets.Text(text)
	_, err = ios.Out.Write(text)
	return err
}

// printReceipt prints a receipt named by `ctx get receipt:…`.
func printReceipt(ios *IO, t *store.Target) error {
	return writeJSON(ios.Out, json.RawMessage(t.Receipt))
}
