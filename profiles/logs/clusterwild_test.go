package logs

import (
	"fmt"
	"testing"
)

// TestMinerClusterWild: a message that names its client by a name on some
// lines and by an address on others is one group, in either order; a short
// message whose word and number differ ("VM Paused", "VM 7") is not, nor
// are two with the rule off.
func TestMinerClusterWild(t *testing.T) {
	long := []string{
		"(12) Login OK: [ann] (from client localhost port 1812 cli 02)",
		"(13) Login OK: [bob] (from client 10.0.0.7 port 1812 cli 02)",
	}
	short := []string{"VM Paused", "VM 7"}
	for _, tc := range []struct {
		name  string
		off   Rules
		lines []string
		same  bool
	}{
		{"name first", 0, long, true},
		{"address first", 0, []string{long[1], long[0]}, true},
		{"short", 0, short, false},
		{"off", RuleClusterWild, long, false},
	} {
		m := NewMiner(Options{Off: tc.off})
		a, b := m.Add([]byte(tc.lines[0])), m.Add([]byte(tc.lines[1]))
		if same := m.Resolve(a) == m.Resolve(b); same != tc.same {
			t.Errorf("%s: one group = %v, want %v", tc.name, same, tc.same)
		}
	}
}

// TestMinerClusterShort: short records that differ in one word whose
// values the log names after other words too ("<*> get page:home", "<*>
// set page:home") become one group per command, at similarity one half;
// with the rule off each key keeps its own group.
func TestMinerClusterShort(t *testing.T) {
	keys := []string{"page-home", "user-bob", "queue-mail", "rate-api", "token-ci"}
	var lines []string
	for i := 0; i < 40; i++ {
		for _, cmd := range []string{"get", "delete"} {
			lines = append(lines, fmt.Sprintf("<%d %s %s", 20+i%7, cmd, keys[(i*3)%len(keys)]))
		}
	}
	for _, tc := range []struct {
		off  Rules
		want int
	}{{0, 2}, {RuleClusterShort, 2 * len(keys)}} {
		if _, n := groupsOf(lines, Options{Off: tc.off}); n != tc.want {
			t.Errorf("off=%v: %d groups, want %d", tc.off, n, tc.want)
		}
	}
}
