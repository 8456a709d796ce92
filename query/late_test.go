package query

import (
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/storetest"
)

// TestLateFill: an execution without a generation takes its late one (the
// first row for it; a second is ignored) with the lag from its command's
// end, clamped at 0 for one observed while the command ran; an execution
// with its own generation keeps it.
func TestLateFill(t *testing.T) {
	st, _ := storetest.Open(t)
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	own := &store.Generation{ID: "own0own0own0own0"}
	execs := []*store.Exec{
		{Key: "a", Start: start, Duration: time.Second},
		{Key: "b", Start: start, Duration: time.Second},
		{Key: "c", Start: start, Duration: time.Second, Generation: own},
		{Key: "d", Start: start, Duration: time.Second},
	}
	for _, l := range []Late{
		{Exec: "a", Generation: store.Generation{ID: "aaaaaaaaaaaaaaaa"}, Observed: start.Add(1250 * time.Millisecond)},
		{Exec: "a", Generation: store.Generation{ID: "a2a2a2a2a2a2a2a2"}, Observed: start.Add(5 * time.Second)},
		{Exec: "b", Generation: store.Generation{ID: "bbbbbbbbbbbbbbbb"}, Observed: start.Add(500 * time.Millisecond)},
		{Exec: "c", Generation: store.Generation{ID: "cccccccccccccccc"}, Observed: start.Add(3 * time.Second)},
	} {
		if err := PutLate(st, l); err != nil {
			t.Fatal(err)
		}
	}
	lags, err := lateFill(execs, func() (map[string]Late, error) { return LateGenerations(st) })
	if err != nil {
		t.Fatal(err)
	}
	gen := func(ex *store.Exec) string {
		if ex.Generation == nil {
			return ""
		}
		return ex.Generation.ID
	}
	if gen(execs[0]) != "aaaaaaaaaaaaaaaa" || lags["a"] != 250*time.Millisecond {
		t.Errorf("a: %q lag %v", gen(execs[0]), lags["a"])
	}
	if gen(execs[1]) != "bbbbbbbbbbbbbbbb" || lags["b"] != 0 {
		t.Errorf("b: %q lag %v", gen(execs[1]), lags["b"])
	}
	if execs[2].Generation != own || len(lags) != 2 || gen(execs[3]) != "" {
		t.Errorf("c %q, d %q, lags %v", gen(execs[2]), gen(execs[3]), lags)
	}
}
