package logs

import "testing"

// TestMinerValueRun: a key that ends some lines with an empty value
// ("text=") takes the words after it as its value on other lines, so one
// event is one group whatever its text; a key never seen empty keeps the
// words after it, which are the message ("T=smtp defer …" against "T=smtp
// done"); and a numeric value ends with its token ("op=3 UNBIND").
func TestMinerValueRun(t *testing.T) {
	lines := []string{
		"conn=1 op=1 RESULT tag=97 err=0 text=",
		"conn=1 op=2 RESULT tag=97 err=34 text=invalid DN",
		"conn=2 op=1 RESULT tag=101 err=50 text=cannot delete the root DSE",
		"conn=2 op=3 UNBIND",
		"conn=3 op=4 UNBIND",
		"conn=3 op=5 ABANDON",
		"id=7 T=smtp defer (111): Connection refused",
		"id=8 T=smtp done",
	}
	for _, tc := range []struct {
		off  Rules
		same [][2]int // pairs of lines in one group
		diff [][2]int // pairs of lines in different groups
	}{
		{0, [][2]int{{0, 1}, {1, 2}, {3, 4}}, [][2]int{{4, 5}, {6, 7}}},
		{RuleValueRun, [][2]int{{3, 4}}, [][2]int{{0, 1}, {1, 2}, {4, 5}, {6, 7}}},
	} {
		m := NewMiner(Options{Off: tc.off})
		ids := make([]int, len(lines))
		for i, l := range lines {
			ids[i] = m.Add([]byte(l))
		}
		g := func(i int) int { return m.Resolve(ids[i]) }
		for _, p := range tc.same {
			if g(p[0]) != g(p[1]) {
				t.Errorf("off=%v: %q and %q in different groups", tc.off, lines[p[0]], lines[p[1]])
			}
		}
		for _, p := range tc.diff {
			if g(p[0]) == g(p[1]) {
				t.Errorf("off=%v: %q and %q in one group", tc.off, lines[p[0]], lines[p[1]])
			}
		}
	}
}
