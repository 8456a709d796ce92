package continuity

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Genesis is the chain value before the first row.
const Genesis = "genesis"

// Log is an append-only, hash-chained log of rows kept in a store bucket.
// Each row is a JSON object; its chain value is the first 32 hex digits of
// SHA-256(previous chain value + json.dumps(row, ensure_ascii=False,
// sort_keys=True)) — the row without its "chain" key, with Python's default
// separators — starting from "genesis" (arcaeon-ledger's recipe). A row is
// stored as that text with "chain" added, one JSON Lines line, so anyone can
// re-derive the chain from an export. Rows carry "seq" (1, 2, …), so a
// deleted row is named, not only detected.
type Log struct{ Bucket string }

// ContinuityLog holds seal, verify, checkpoint and drop-receipt rows.
var ContinuityLog = Log{Bucket: "continuity.log"}

// ChainValue computes a row's chain value from the previous one.
func ChainValue(prev string, row map[string]any) (string, error) {
	text, err := pythonDefault(row)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(prev), text...))
	return hex.EncodeToString(sum[:])[:32], nil
}

// Append adds a row (kind and fields; seq, ts and chain are stamped here, ts
// as the reference ledger stamps it) and returns the stored row. Appends from concurrent processes are serialised
// by the store's write transaction: none interleaves or is lost.
func (l Log) Append(st *store.Store, kind string, fields map[string]any, now time.Time) (map[string]any, error) {
	var out map[string]any
	_, err := st.AppendLayerRow(l.Bucket, func(last []byte, seq uint64) ([]byte, error) {
		row, text, err := l.chain(last, seq, kind, fields, now)
		out = row
		return text, err
	})
	return out, err
}

// chain builds row seq of the log from its fields, chained after last (the
// previous row's stored text, nil for the first), and returns it with the
// text to store.
func (l Log) chain(last []byte, seq uint64, kind string, fields map[string]any, now time.Time) (map[string]any, []byte, error) {
	prev := Genesis
	if last != nil {
		v, err := ParseJSON(last)
		m, ok := v.(map[string]any)
		c, ok2 := m["chain"].(string)
		if err != nil || !ok || !ok2 {
			return nil, nil, fmt.Errorf("%s row %d cannot be read, so no row can be chained after it (run ctx continuity log --verify): %w", l.Bucket, seq-1, store.ErrCorrupt)
		}
		prev = c
	}
	row := map[string]any{}
	for k, v := range fields {
		row[k] = v
	}
	row["kind"], row["seq"], row["ts"] = kind, int64(seq), now.UTC().Format("2006-01-02T15:04:05Z")
	c, err := ChainValue(prev, row)
	if err != nil {
		return nil, nil, err
	}
	row["chain"] = c
	text, err := pythonDefault(row)
	if err != nil {
		return nil, nil, err
	}
	return row, text, nil
}

// Rows returns the stored rows, in order, as their stored text.
func (l Log) Rows(st *store.Store) ([][]byte, error) {
	var rows [][]byte
	err := st.LayerRows(l.Bucket, func(_ uint64, row []byte) error {
		rows = append(rows, row)
		return nil
	})
	return rows, err
}

// Break is the first row of a log that does not re-derive.
type Break struct {
	Row    int    `json:"row"` // 1-based position in the log
	Seq    any    `json:"seq"` // the seq the row claims
	Reason string `json:"reason"`
}

// VerifyRows re-derives the chain over rows (their stored text) and returns
// the first row that does not match, or nil when every row does. A row with a
// duplicate key is a break: two honest readers would read it differently.
// Like every hash chain, it cannot see the newest rows cut off the end:
// publish the head (the last chain value) somewhere else to close that.
func VerifyRows(rows [][]byte) *Break {
	prev := Genesis
	for i, text := range rows {
		n := i + 1
		v, err := parseJSON(text, true)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			return &Break{Row: n, Reason: fmt.Sprintf("the row is not a JSON object with distinct keys (%v)", err)}
		}
		seq := m["seq"]
		claimed, ok := m["chain"].(string)
		if !ok {
			return &Break{Row: n, Seq: seq, Reason: "the row has no chain value"}
		}
		if seq != Int(fmt.Sprint(n)) {
			return &Break{Row: n, Seq: seq, Reason: fmt.Sprintf("row %d claims seq %v: a row before it was deleted or rows were reordered", n, seq)}
		}
		delete(m, "chain")
		want, err := ChainValue(prev, m)
		if err != nil {
			return &Break{Row: n, Seq: seq, Reason: err.Error()}
		}
		if want != claimed {
			return &Break{Row: n, Seq: seq, Reason: fmt.Sprintf("chain %s, but the row re-derives to %s: it or a row before it was edited", claimed, want)}
		}
		prev = claimed
	}
	return nil
}
