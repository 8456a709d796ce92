package bench

import (
	"context"
	"fmt"
	"io"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/store"
)

// ReplayResult is the determinism gate: every stored digest receipt
// re-rendered from its stored evidence.
type ReplayResult struct {
	Receipts   int      `json:"receipts"`
	Matched    int      `json:"matched"`
	Mismatched []string `json:"mismatched,omitempty"`
	Skipped    int      `json:"skipped"` // benchmark receipts (not digests)
}

// RunReplay re-renders every digest receipt in the store.
func RunReplay(ctx context.Context, st *store.Store, contractDir string) (*ReplayResult, error) {
	res := &ReplayResult{}
	err := st.ForEachReceipt(func(id store.ID, data []byte) error {
		r, err := receipts.Decode(data)
		if err != nil || r.Kind != "digest" {
			res.Skipped++
			return nil
		}
		res.Receipts++
		rep := digest.Replay(ctx, st, id, data, contractDir)
		if rep.Match {
			res.Matched++
		} else {
			res.Mismatched = append(res.Mismatched, fmt.Sprintf("receipt:%s (%s): %s", id.Short(), rep.Run, rep.Why))
		}
		return ctx.Err()
	})
	return res, err
}

// WriteText prints the replay figures.
func (r *ReplayResult) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "replayed %d digest receipts: %d byte-identical, %d different (%d benchmark receipts skipped)\n",
		r.Receipts, r.Matched, len(r.Mismatched), r.Skipped)
	for _, m := range r.Mismatched {
		fmt.Fprintf(w, "  %s\n", m)
	}
	return nil
}
