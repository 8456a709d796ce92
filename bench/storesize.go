package bench

import (
	"context"
	"fmt"
	"io"

	"github.com/ctxhq/ctx/digest"
)

// StoreSizeResult is what a log costs in the store.
type StoreSizeResult struct {
	Log         string  `json:"log"`
	RawBytes    int64   `json:"raw_bytes"`
	StoredBytes int64   `json:"stored_bytes"` // compressed frames of the stream
	DBBytes     int64   `json:"store_bytes"`  // the whole store directory after the run
	Ratio       float64 `json:"ratio"`        // stored / raw
	DBRatio     float64 `json:"db_ratio"`
}

// RunStoreSize stores a log and measures its stored size against its raw size.
func RunStoreSize(ctx context.Context, name string, log []byte) (*StoreSizeResult, error) {
	sc, err := NewScratch("")
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	res, err := sc.Digest(ctx, []string{"cat", "service.log"}, 0, log, nil, digest.Options{})
	if err != nil {
		return nil, err
	}
	b, err := sc.St.Blob(res.Run.Manifest.Stdout.Blob)
	if err != nil {
		return nil, err
	}
	r := &StoreSizeResult{Log: name, RawBytes: int64(len(log)), StoredBytes: b.StoredSize()}
	sc.St.Close()
	r.DBBytes = dirSize(sc.St.Dir())
	r.Ratio = float64(r.StoredBytes) / float64(r.RawBytes)
	r.DBRatio = float64(r.DBBytes) / float64(r.RawBytes)
	return r, nil
}

// WriteText prints the store size figures.
func (r *StoreSizeResult) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s: %.1f MiB raw, %.2f MiB stored (%.3f of raw); whole store %.2f MiB (%.3f)\n",
		r.Log, float64(r.RawBytes)/(1<<20), float64(r.StoredBytes)/(1<<20), r.Ratio, float64(r.DBBytes)/(1<<20), r.DBRatio)
	return err
}
