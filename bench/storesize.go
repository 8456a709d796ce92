package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ctxhq/ctx/receipts"
)

// StoreSizeResult is what a repetitive log costs in the store.
type StoreSizeResult struct {
	RawBytes    int64   `json:"raw_bytes"`
	StoredBytes int64   `json:"stored_bytes"` // compressed frames of the stream
	DBBytes     int64   `json:"db_bytes"`     // the whole store.db file after the run
	Ratio       float64 `json:"ratio"`        // stored / raw
	DBRatio     float64 `json:"db_ratio"`
}

// RunStoreSize stores a repetitive log (the needle generator's busy lines) and
// measures its stored size against its raw size.
func RunStoreSize(ctx context.Context, lines int) (*StoreSizeResult, error) {
	log, _, _ := NeedleLog(42, lines)
	sc, err := NewScratch("")
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	res, err := sc.Digest(ctx, []string{"cat", "service.log"}, 0, log, nil, receipts.Options{})
	if err != nil {
		return nil, err
	}
	b, err := sc.St.Blob(res.Run.Manifest.Stdout.Blob)
	if err != nil {
		return nil, err
	}
	r := &StoreSizeResult{RawBytes: int64(len(log)), StoredBytes: b.StoredSize()}
	sc.St.Close()
	if fi, err := os.Stat(filepath.Join(sc.St.Dir(), "store.db")); err == nil {
		r.DBBytes = fi.Size()
	}
	r.Ratio = float64(r.StoredBytes) / float64(r.RawBytes)
	r.DBRatio = float64(r.DBBytes) / float64(r.RawBytes)
	return r, nil
}

// WriteText prints the store size figures.
func (r *StoreSizeResult) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "repetitive log: %.1f MiB raw, %.1f MiB stored (%.3f of raw); store.db %.1f MiB (%.3f)\n",
		float64(r.RawBytes)/(1<<20), float64(r.StoredBytes)/(1<<20), r.Ratio, float64(r.DBBytes)/(1<<20), r.DBRatio)
	return err
}
