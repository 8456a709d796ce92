package continuity

import (
	"fmt"
	"time"

	"github.com/ctxhq/ctx/store"
)

// AppendChecked is Append for a row that depends on the whole log: build
// receives every stored row (its text, oldest first) and the new row's seq,
// inside the store's write transaction, and returns the new row's kind and
// fields, or an error that appends nothing. Two processes can therefore never
// both pass a check that only one of them may pass (the task ledger's claims).
func (l Log) AppendChecked(st *store.Store, build func(rows [][]byte, seq uint64) (string, map[string]any, error), now time.Time) (map[string]any, error) {
	var out map[string]any
	_, err := st.AppendLayerRowChecked(l.Bucket, func(rows [][]byte, seq uint64) ([]byte, error) {
		prev := Genesis
		if n := len(rows); n > 0 {
			v, err := ParseJSON(rows[n-1])
			m, ok := v.(map[string]any)
			c, ok2 := m["chain"].(string)
			if err != nil || !ok || !ok2 {
				return nil, fmt.Errorf("%s row %d cannot be read, so no row can be chained after it: %w", l.Bucket, n, store.ErrCorrupt)
			}
			prev = c
		}
		kind, fields, err := build(rows, seq)
		if err != nil {
			return nil, err
		}
		row := map[string]any{}
		for k, v := range fields {
			row[k] = v
		}
		row["kind"], row["seq"], row["ts"] = kind, int64(seq), now.UTC().Format("2006-01-02T15:04:05Z")
		c, err := ChainValue(prev, row)
		if err != nil {
			return nil, err
		}
		row["chain"] = c
		out = row
		return pythonDefault(row)
	})
	return out, err
}
