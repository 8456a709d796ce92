package ledger

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ctxhq/ctx/continuity"
	"github.com/ctxhq/ctx/store"
)

// Row is one ledger row as read back: the fields of every kind, flattened
// (a kind uses the ones its schema lists).
type Row struct {
	V     int    `json:"v"`
	Kind  string `json:"kind"`
	Seq   int64  `json:"seq"`
	TS    string `json:"ts"`
	Chain string `json:"chain"`
	Task  string `json:"task"`

	Title  string   `json:"title,omitempty"`
	Accept []string `json:"accept,omitempty"`
	Wall   string   `json:"wall,omitempty"`
	Dir    string   `json:"dir,omitempty"`

	By          string   `json:"by,omitempty"`
	At          string   `json:"at,omitempty"`
	LeaseUntil  string   `json:"lease_until,omitempty"`
	Handback    string   `json:"handback,omitempty"`
	FailureKind string   `json:"failure_kind,omitempty"`
	Checkpoint  string   `json:"checkpoint,omitempty"`
	Turns       int64    `json:"turns,omitempty"`
	Cost        float64  `json:"cost,omitempty"`
	Evidence    []string `json:"evidence,omitempty"`

	Pass     bool     `json:"pass,omitempty"`
	Run      string   `json:"run,omitempty"`
	Exec     string   `json:"exec,omitempty"`
	RunStart string   `json:"run_start,omitempty"`
	Argv     []string `json:"argv,omitempty"`
	Exit     int      `json:"exit,omitempty"`
	Proves   string   `json:"proves,omitempty"`

	Action         string   `json:"action,omitempty"`
	Classification string   `json:"classification,omitempty"`
	Reason         string   `json:"reason,omitempty"`
	Actions        []string `json:"actions,omitempty"`
	Basis          int64    `json:"basis,omitempty"`
	Approval       int64    `json:"approval,omitempty"`
	Decision       int64    `json:"decision,omitempty"`
	ExpiredLease   string   `json:"expired_lease,omitempty"`

	From string `json:"from,omitempty"`
	Text string `json:"text,omitempty"`

	raw []byte // the row as stored (or as appended)
}

// MarshalJSON writes the row as it is stored: exactly the fields of its kind,
// false and zero values included (a reader filtering on "pass" finds it).
func (r Row) MarshalJSON() ([]byte, error) {
	if r.raw == nil {
		type plain Row
		return json.Marshal(plain(r))
	}
	return r.raw, nil
}

func (r *Row) time(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// BreakError is a ledger whose chain or schema does not hold at a row.
type BreakError struct {
	Row    int // 1-based position in the log
	Reason string
}

func (e *BreakError) Error() string {
	return fmt.Sprintf("ledger row %d: %s (the ledger is not repaired: run ctx task check, and restore the store from a copy)", e.Row, e.Reason)
}

func (e *BreakError) Unwrap() error { return ErrMalformed }

// parseRows verifies the chain over the stored rows and validates and decodes
// each one. The first break stops the read: nothing after it is trusted.
func parseRows(texts [][]byte) ([]Row, error) {
	if b := continuity.VerifyRows(texts); b != nil {
		return nil, &BreakError{Row: b.Row, Reason: b.Reason}
	}
	rows := make([]Row, 0, len(texts))
	for i, text := range texts {
		v, err := continuity.ParseJSON(text)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			return nil, &BreakError{Row: i + 1, Reason: "not a JSON object"}
		}
		if err := validate(m, true); err != nil {
			return nil, &BreakError{Row: i + 1, Reason: err.Error()}
		}
		var r Row
		if err := json.Unmarshal(text, &r); err != nil {
			return nil, &BreakError{Row: i + 1, Reason: err.Error()}
		}
		r.raw = text
		rows = append(rows, r)
	}
	return rows, nil
}

// ReadRows returns every row of the ledger, chain-verified and validated.
func ReadRows(st *store.Store) ([]Row, error) {
	texts, err := Log.Rows(st)
	if err != nil {
		return nil, err
	}
	return parseRows(texts)
}

// RawRows returns the stored text of every row, unverified (for printing the
// log and for ctx task check).
func RawRows(st *store.Store) ([][]byte, error) { return Log.Rows(st) }

// Check verifies the chain and the schema of every row and returns the first
// break, or nil. It never changes the ledger.
func Check(st *store.Store) (rows int, err error) {
	texts, err := Log.Rows(st)
	if err != nil {
		return 0, err
	}
	_, err = parseRows(texts)
	return len(texts), err
}
