package logs

import (
	"fmt"
	"testing"
)

// TestMinerRecurringValues: words that vary at one position of three
// different events (always after a variable, so no word before them tells
// they are shared) are values: each event becomes one group, and the
// events stay apart. Words that vary in two events only (a request's and
// its reply's vocabulary) stay apart. With cluster-recur off, each value
// is its own group.
func TestMinerRecurringValues(t *testing.T) {
	groups := func(off Rules, events []string) (static, dynamic map[int]bool) {
		m := NewMiner(Options{Off: off})
		static, dynamic = map[int]bool{}, map[int]bool{}
		ids := make([][]int, len(events))
		for i, v := range []string{"red", "green", "blue", "cyan"} {
			for e, ev := range events {
				ids[e] = append(ids[e], m.Add(fmt.Appendf(nil, "%s job %d %s colour applied", ev, i, v)))
			}
		}
		for _, id := range ids[0] {
			static[m.Resolve(id)] = true
		}
		for _, id := range ids[1] {
			dynamic[m.Resolve(id)] = true
		}
		return static, dynamic
	}
	three := []string{"static", "dynamic", "manual"}
	static, dynamic := groups(0, three)
	if len(static) != 1 || len(dynamic) != 1 {
		t.Fatalf("recurring values split an event: %d and %d groups, want 1 and 1", len(static), len(dynamic))
	}
	for g := range static {
		if dynamic[g] {
			t.Errorf("two events merged into group %d", g)
		}
	}
	if static, _ := groups(0, three[:2]); len(static) < 2 {
		t.Errorf("words varying in two events only: %d group(s), want them apart", len(static))
	}
	if static, _ := groups(RuleClusterRecur, three); len(static) < 2 {
		t.Errorf("with cluster-recur off, %d group(s); the test shows nothing", len(static))
	}
}
