package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// Shown is a digest read back: byte for byte what was printed, and the
// receipt it was printed under.
type Shown struct {
	ReceiptID store.ID
	Receipt   *receipts.Receipt
	Text      []byte
}

// ErrNotShowable is returned by Show for a handle that names neither a run
// nor a receipt.
var ErrNotShowable = errors.New("not a run or receipt")

// Show returns the digest a receipt names, or the latest one shown for a run.
// A run stored without a digest (recovered after a crash) gets one now,
// rendered under the options opts returns (called only then), stored and
// recorded as shown.
func Show(ctx context.Context, st *store.Store, t *store.Target, opts func() (digest.Options, error)) (*Shown, error) {
	var data []byte
	var id store.ID
	switch t.Kind {
	case "receipt":
		data, id = t.Receipt, t.ID
	case "run":
		execs, err := st.Execs(1, func(e *store.Exec) bool { return e.Run == t.ID && !e.Receipt.IsZero() })
		if err != nil {
			return nil, err
		}
		if len(execs) == 0 {
			o, err := opts()
			if err != nil {
				return nil, err
			}
			res, err := Redigest(ctx, st, t.Run, o)
			if err != nil {
				return nil, err
			}
			data, id = res.ReceiptJSON, res.ReceiptID
			break
		}
		id = execs[0].Receipt
		if data, err = st.Receipt(id); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s: %w", t.Kind, ErrNotShowable)
	}
	r, err := receipts.Decode(data)
	if err != nil {
		return nil, err
	}
	text, err := receipts.DigestText(st, r)
	if err != nil {
		return nil, err
	}
	// Digests are redacted when rendered; one stored before redaction
	// existed is redacted here.
	text, _ = secrets.Text(text)
	return &Shown{ReceiptID: id, Receipt: r, Text: text}, nil
}

// Redigest renders a fresh digest of a stored run, stores it with its
// receipt, and records it on the run's newest execution.
// Failure locations get repo: handles against the directory the run ran
// in, as when it was captured.
func Redigest(ctx context.Context, st *store.Store, run *store.Run, opts digest.Options) (*digest.Result, error) {
	execs, err := st.Execs(1, func(e *store.Exec) bool { return e.Run == run.ID })
	if err != nil {
		return nil, err
	}
	var ex *store.Exec
	if len(execs) > 0 {
		ex = execs[0]
	}
	res, err := digest.Make(ctx, st, run, withAnchors(opts, ranIn(st, run, ex)))
	if err != nil {
		return nil, err
	}
	if err := digest.Save(st, res); err != nil {
		return nil, err
	}
	if ex == nil {
		return res, nil
	}
	noteDigest(ex, res)
	return res, st.UpdateExec(ex)
}
