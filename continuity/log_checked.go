package continuity

import (
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
		var last []byte
		if n := len(rows); n > 0 {
			last = rows[n-1]
		}
		kind, fields, err := build(rows, seq)
		if err != nil {
			return nil, err
		}
		row, text, err := l.chain(last, seq, kind, fields, now)
		out = row
		return text, err
	})
	return out, err
}
