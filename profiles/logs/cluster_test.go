package logs

import (
	"fmt"
	"math/rand"
	"testing"
)

// groupsOf mines lines with opts and returns each line's final group and
// the number of groups.
func groupsOf(lines []string, opts Options) ([]int, int) {
	m := NewMiner(opts)
	ids := make([]int, len(lines))
	for i, l := range lines {
		ids[i] = m.Add([]byte(l))
	}
	for i := range ids {
		ids[i] = m.Resolve(ids[i])
	}
	return ids, len(m.Templates())
}

// TestClusterWordValues checks that a word-valued variable with few values,
// which the log also names in another message, joins one group, in a long
// message and in a short one; that without clustering it does not (the
// failure clustering is for); and that without that other message the
// values, which then look like an enumeration, stay apart.
func TestClusterWordValues(t *testing.T) {
	users := []string{"alice", "bob", "carol", "dave"}
	var long, short []string
	for i := 0; i < 40; i++ {
		u := users[i%len(users)]
		long = append(long, fmt.Sprintf("Failed password for %s from 10.0.0.%d port %d ssh2", u, i, 4000+i))
		short = append(short, fmt.Sprintf("forwarded %s to 10.0.0.%d", u, i))
	}
	for name, lines := range map[string][]string{"long": long, "short": short} {
		if _, n := groupsOf(lines, Options{}); n != len(users) {
			t.Errorf("%s, values in one message only: %d groups, want %d", name, n, len(users))
		}
		if _, n := groupsOf(lines, Options{Off: RuleClusterShared}); n != 1 {
			t.Errorf("%s without cluster-shared: %d groups, want 1", name, n)
		}
		var named []string // each user also named by another message
		for i, l := range lines {
			named = append(named, "session opened for user "+users[i%len(users)], l)
		}
		if _, n := groupsOf(named, Options{}); n != 2 {
			t.Errorf("%s, values named elsewhere: %d groups, want 2", name, n)
		}
		// Named elsewhere only after the position took its words: the
		// waiting position is looked at again (recheck).
		late := append([]string(nil), lines...)
		for _, u := range users {
			late = append(late, "session opened for user "+u)
		}
		if _, n := groupsOf(late, Options{}); n != 2 {
			t.Errorf("%s, values named elsewhere later: %d groups, want 2", name, n)
		}
		if _, n := groupsOf(lines, Options{Off: RuleCluster}); n != len(users) {
			t.Errorf("%s without clustering: %d groups, want %d", name, n, len(users))
		}
	}
}

// TestClusterEnumeration checks that an enumeration (words that always
// follow the same word) stays apart below maxClusterValues words and is a
// variable at it, and that a word after a label needs no such evidence.
func TestClusterEnumeration(t *testing.T) {
	states := []string{"Started", "Paused", "Resumed", "Stopped", "Crashed", "Deleted", "Shelved", "Migrated"}
	var lines []string
	for _, s := range states[:4] {
		lines = append(lines, "[instance: 1f2e] VM "+s+" (Lifecycle Event)")
	}
	if _, n := groupsOf(lines, Options{}); n != 4 {
		t.Errorf("four states: %d groups, want 4", n)
	}
	lines = lines[:0]
	for _, s := range states {
		lines = append(lines, "[instance: 1f2e] VM "+s+" (Lifecycle Event)")
	}
	if _, n := groupsOf(lines, Options{}); n != 1 {
		t.Errorf("%d states: %d groups, want 1", len(states), n)
	}
	lines = lines[:0]
	for _, m := range []string{"GET", "HEAD", "POST"} {
		lines = append(lines, "open() failed, client: 10.0.0.1, request: "+m+" /index.html")
	}
	if _, n := groupsOf(lines, Options{}); n != 1 {
		t.Errorf("three words after a label: %d groups, want 1", n)
	}
}

// TestClusterEvidence checks what clustering does not merge: a position
// that takes fewer than ClusterValues words, two words that vary together
// (a pair of states), and elements that differ in punctuation or key.
func TestClusterEvidence(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  int
	}{
		{"two values", []string{"Connection closed by 10.0.0.1 port 22", "Connection reset by 10.0.0.2 port 22",
			"Connection closed by 10.0.0.3 port 22", "Connection reset by 10.0.0.4 port 22"}, 2},
		{"pairs of states", []string{"task moved from NEW to QUEUED", "task moved from QUEUED to RUNNING",
			"task moved from RUNNING to DONE", "task moved from DONE to ARCHIVED"}, 4},
		{"keys differ", []string{"request done status=ok", "request done result=ok", "request done code=ok"}, 3},
		{"three values", []string{"quota left for alice", "user alice logged in", "quota left for bob",
			"user bob logged in", "quota left for carol", "user carol logged in"}, 2},
	}
	for _, c := range cases {
		if _, n := groupsOf(c.lines, Options{}); n != c.want {
			t.Errorf("%s: %d groups, want %d", c.name, n, c.want)
		}
	}
	// A higher threshold keeps three values apart.
	if _, n := groupsOf(cases[3].lines, Options{ClusterValues: 4}); n != 6 {
		t.Errorf("three values at ClusterValues 4: %d groups, want 6", n)
	}
}

// TestClusterNamedFields checks that the word values of several key=value
// fields that vary together ("user=alice,db=shop") make them variables.
func TestClusterNamedFields(t *testing.T) {
	users := []string{"alice", "bob", "carol", "dave"}
	dbs := []string{"shop", "billing", "crm", "hr"}
	var lines []string
	for i := 0; i < 16; i++ {
		lines = append(lines, fmt.Sprintf("connection authorized: user=%s database=%s application_name=psql",
			users[i%4], dbs[(i/2)%4]))
	}
	if _, n := groupsOf(lines, Options{}); n != 1 {
		t.Errorf("%d groups, want 1", n)
	}
}

// TestClusterOrder measures how much clustering depends on line order: the
// loghub sample (or synthetic lines) mined in order and with all but the
// header sample shuffled must put at least 95% of lines in groups that hold
// the same lines. Drain-style clustering is order-dependent (which template
// is a cluster's base, which words were seen before a position turned
// variable); this bounds how much.
func TestClusterOrder(t *testing.T) {
	lines := sampleLines(t)
	run := func(order []int) []string {
		m := NewMiner(Options{})
		ids := make([]int, len(lines))
		for _, i := range order {
			ids[i] = m.Add(lines[i])
		}
		first := map[int]int{}
		out := make([]string, len(lines))
		for i := range lines {
			g := m.Resolve(ids[i])
			if _, ok := first[g]; !ok {
				first[g] = i
			}
			out[i] = fmt.Sprint(first[g])
		}
		return out
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	a := run(order)
	rest := order[min(frameSampleLines, len(order)):]
	rand.New(rand.NewSource(1)).Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	b := run(order)
	// The share of lines whose group holds the same lines in both runs.
	members := func(p []string) map[string][]int {
		g := map[string][]int{}
		for i, k := range p {
			g[k] = append(g[k], i)
		}
		return g
	}
	ga, gb := members(a), members(b)
	same := 0
	for i := range lines {
		x, y := ga[a[i]], gb[b[i]]
		if len(x) == len(y) && fmt.Sprint(x) == fmt.Sprint(y) {
			same++
		}
	}
	share := float64(same) / float64(len(lines))
	t.Logf("%d lines, %.4f in the same groups in both orders", len(lines), share)
	if share < 0.95 {
		t.Errorf("only %.4f of lines in the same groups when the order changes, want ≥ 0.95", share)
	}
}

// TestFrameAfterLoneNumber checks that a headerless log whose lines start
// with a counter does not take the message's first word (a verb) for a
// header field: the verbs stay part of the template.
func TestFrameAfterLoneNumber(t *testing.T) {
	verbs := []string{"get", "put", "delete", "list"}
	kinds := []string{"bucket", "object", "lock", "queue", "table", "index", "blob", "page"}
	var lines []string
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 400; i++ {
		lines = append(lines, fmt.Sprintf("%d %s %s %d", 20+r.Intn(40), verbs[r.Intn(len(verbs))], kinds[r.Intn(len(kinds))], r.Intn(500)))
	}
	_, n := groupsOf(lines, Options{Off: RuleCluster})
	if want := len(verbs) * len(kinds); n != want {
		t.Errorf("%d groups, want %d (one per verb and kind)", n, want)
	}
	// With the rule off, the verb is taken for a category field of the
	// header and made variable.
	if _, n := groupsOf(lines, Options{Off: RuleCluster | RuleFrameNumbers}); n >= len(verbs)*len(kinds) {
		t.Errorf("with frame-numbers off: %d groups, want fewer than %d (the verbs made variable)", n, len(verbs)*len(kinds))
	}
}

// TestClusterLabelValues checks that the value after a label may be a
// word, punctuation or a variable and still be one field, while lines with
// different labels stay apart.
func TestClusterLabelValues(t *testing.T) {
	var lines []string
	for i := 0; i < 12; i++ {
		v := []string{".git", ".", fmt.Sprintf("/tmp/repo%d/.git", i)}[i%3]
		lines = append(lines, "setup: git_dir: "+v, "setup: git_common_dir: "+v)
	}
	ids, n := groupsOf(lines, Options{})
	if n != 2 || ids[0] == ids[1] {
		t.Errorf("%d groups (first two lines in %d and %d), want 2 apart", n, ids[0], ids[1])
	}
	if _, n := groupsOf(lines, Options{Off: RuleLabelValues}); n <= 2 {
		t.Errorf("with label-values off: %d groups, want more than 2", n)
	}
}

// TestClusterCollapseJoin checks that a cluster position that turns
// variable beside another variable takes the lines whose value had a
// digit and ran into that variable ("as client7 (p2, c1)" renders "as
// <*>"), whichever came first.
func TestClusterCollapseJoin(t *testing.T) {
	names := []string{"kitchen", "garage", "porch", "attic"}
	var lines []string
	for i := 0; i < 40; i++ {
		id := names[i%len(names)]
		if i%5 == 0 {
			id = fmt.Sprintf("sensor%d", i)
		}
		lines = append(lines, "session opened for "+names[i%len(names)],
			fmt.Sprintf("New client connected from 10.0.0.%d as %s (p%d, c1, k60).", i, id, i%3))
	}
	if _, n := groupsOf(lines, Options{}); n != 2 {
		t.Errorf("%d groups, want 2", n)
	}
	if _, n := groupsOf(lines, Options{Off: RuleCollapseJoin}); n != 3 {
		t.Errorf("without collapse-join: %d groups, want 3", n)
	}
}

// TestClusterIDWords checks that a position whose words are qualified
// names, named in this one message only, turns variable at
// Options.ClusterValues words: id-like words name things.
func TestClusterIDWords(t *testing.T) {
	classes := []string{"com.example.notes.NoteActivity", "org.sample.mail.ui.Launcher", "net.demo.game.SplashActivity"}
	var lines []string
	for i := 0; i < 30; i++ {
		lines = append(lines, fmt.Sprintf("Resuming record of activity %s for task %d", classes[i%len(classes)], i))
	}
	if _, n := groupsOf(lines, Options{}); n != 1 {
		t.Errorf("%d groups, want 1", n)
	}
	if _, n := groupsOf(lines, Options{Off: RuleClusterIDs}); n != len(classes) {
		t.Errorf("with cluster-ids off: %d groups, want %d", n, len(classes))
	}
}
