package query

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ctxhq/ctx/store"
)

// LateBucket is the store's log of late generations: the relation
// run → generation for an execution whose git status outlasted the command,
// computed after ctx returned and recorded beside its execution record
// (which is never rewritten).
const LateBucket = "generations.late"

// Late is one row of LateBucket.
type Late struct {
	Exec       string           `json:"exec"` // the execution record's key
	Generation store.Generation `json:"generation"`
	// Observed is when git status and the hashing ended: the work tree
	// may have changed between the command's end and then.
	Observed time.Time `json:"observed"`
}

// PutLate records a late generation in one transaction: a reader sees the
// whole row or none. A second row for the same execution is ignored by
// readers (the first one wins).
func PutLate(st *store.Store, l Late) error {
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("late generation: %w", err)
	}
	_, err = st.AppendLayerRow(LateBucket, func([]byte, uint64) ([]byte, error) { return b, nil })
	if err != nil {
		return fmt.Errorf("record late generation of %s: %w", l.Exec, err)
	}
	return nil
}

// LateGenerations reads every late generation, by execution key.
func LateGenerations(st *store.Store) (map[string]Late, error) {
	out := map[string]Late{}
	err := st.LayerRows(LateBucket, func(_ uint64, row []byte) error {
		var l Late
		if err := json.Unmarshal(row, &l); err != nil {
			return fmt.Errorf("%s row: %v: %w", LateBucket, err, store.ErrCorrupt)
		}
		if _, ok := out[l.Exec]; !ok {
			out[l.Exec] = l
		}
		return nil
	})
	return out, err
}

// lateFill gives each execution without a generation its late one, if
// recorded in late (read by load, at most once, when one is needed), and
// returns the lag of each filled execution by key: how long after the
// command ended the late generation was observed (0 when it was observed
// before the command ended, as one handed off at the start can be).
func lateFill(execs []*store.Exec, load func() (map[string]Late, error)) (map[string]time.Duration, error) {
	lags := map[string]time.Duration{}
	var late map[string]Late
	for _, ex := range execs {
		if ex.Generation != nil {
			continue
		}
		if late == nil {
			var err error
			if late, err = load(); err != nil {
				return nil, err
			}
		}
		if l, ok := late[ex.Key]; ok {
			g := l.Generation
			ex.Generation, lags[ex.Key] = &g, max(l.Observed.Sub(ex.Start.Add(ex.Duration)), 0)
		}
	}
	return lags, nil
}
