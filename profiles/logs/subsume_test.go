package logs

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// hexIDs returns n distinct random 8-digit hex ids that each hold a digit,
// as almost all random ids do.
func hexIDs(n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	seen := map[string]bool{}
	var ids []string
	for len(ids) < n {
		id := fmt.Sprintf("%08x", r.Uint32())
		if !strings.ContainsAny(id, "0123456789") || seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids
}

// jobLines returns n busy "job <id> finished" lines with ids that hold
// digits, in the format of a log framework.
func jobLines(n int) []string {
	var lines []string
	for i, id := range hexIDs(n, 1) {
		lines = append(lines, fmt.Sprintf("2024-05-01 12:%02d:%02d INFO [worker-%d] job %s finished after %ds", i/60%60, i%60, i%4, id, i%90))
	}
	return lines
}

// rareJob is a job line whose id happens to have no digit.
func rareJob(id string) string {
	return "2024-05-01 13:00:00 INFO [worker-1] job " + id + " finished after 60s"
}

func TestMinerSubsume(t *testing.T) {
	busy := jobLines(200)
	// INFO is the same on every line and a thread with a digit follows it:
	// both are header (RuleFrameConstants), masked with the stamps.
	const jobT = "<*> job <*> finished after <*>"
	classes := []string{
		"Registering class org.apache.mapreduce.v2.JobEventType for class org.apache.mapreduce.v2.JobDispatcher",
		"Registering class org.apache.mapreduce.v2.TaskEventType for class org.apache.mapreduce.v2.TaskDispatcher",
		"Registering class org.apache.mapreduce.v3.TaskEventType for class org.apache.mapreduce.v2.TaskDispatcher",
	}
	plainClass := "Registering class org.apache.mapreduce.jobhistory.EventType for class org.apache.mapreduce.jobhistory.Handler"
	const classT = "Registering class <*> for class <*>"
	tests := []struct {
		name  string
		lines []string
		want  []Template
	}{
		{
			name:  "specific after general",
			lines: append(slices.Clone(busy), rareJob("fbaaafda"), rareJob("DEADBEEF"), busy[0]),
			want:  []Template{{ID: 0, Text: jobT, Count: 203, FirstLine: 1}},
		},
		{
			name:  "specific before general",
			lines: append([]string{rareJob("fbaaafda"), rareJob("cafebabe"), rareJob("fbaaafda")}, busy...),
			want:  []Template{{ID: 0, Text: jobT, Count: 203, FirstLine: 1}},
		},
		{
			name:  "specific between general lines",
			lines: append(append(slices.Clone(busy[:3]), rareJob("xKqZtWbR")), busy[3:]...),
			want:  []Template{{ID: 0, Text: jobT, Count: 201, FirstLine: 1}},
		},
		{
			// Two positions at once, and the specific line first, as
			// loghub's Hadoop log has it.
			name:  "two positions, specific first",
			lines: append([]string{plainClass}, classes...),
			want:  []Template{{ID: 0, Text: classT, Count: 4, FirstLine: 1}},
		},
		{
			name:  "two positions, general first",
			lines: append(slices.Clone(classes), plainClass),
			want:  []Template{{ID: 0, Text: classT, Count: 4, FirstLine: 1}},
		},
		{
			// The Wildcard keeps its punctuation or key; the id fills it.
			name: "decorated wildcards",
			lines: []string{
				"lease (a1b2c3) renewed for tenant acme-corp",
				"lease (fbaaafda) renewed for tenant acme-corp",
				"session id=7f3a released by pool main today",
				"session id=deadbeef released by pool main today",
			},
			want: []Template{
				{ID: 0, Text: "lease (<*>) renewed for tenant acme-corp", Count: 2, FirstLine: 1},
				{ID: 1, Text: "session id=<*> released by pool main today", Count: 2, FirstLine: 3},
			},
		},
		{
			// Plain words where another line has a Wildcard are an
			// enumeration that tells events apart: they stay.
			name: "enumeration stays apart",
			lines: []string{
				"VM 3 (Lifecycle Event) for instance 42",
				"VM Paused (Lifecycle Event) for instance 42",
				"VM RESUMED (Lifecycle Event) for instance 42",
				"task moved to state 7 by the scheduler",
				"task moved to state SUCCESS_CONTAINER_CLEANUP by the scheduler",
				"task moved to state read-only by the scheduler",
				"task moved to state stopped by the scheduler",
			},
			want: []Template{
				{ID: 0, Text: "VM <*> (Lifecycle Event) for instance <*>", Count: 1, FirstLine: 1},
				{ID: 1, Text: "VM Paused (Lifecycle Event) for instance <*>", Count: 1, FirstLine: 2},
				{ID: 2, Text: "VM RESUMED (Lifecycle Event) for instance <*>", Count: 1, FirstLine: 3},
				{ID: 3, Text: "task moved to state <*> by the scheduler", Count: 1, FirstLine: 4},
				{ID: 4, Text: "task moved to state SUCCESS_CONTAINER_CLEANUP by the scheduler", Count: 1, FirstLine: 5},
				{ID: 5, Text: "task moved to state read-only by the scheduler", Count: 1, FirstLine: 6},
				{ID: 6, Text: "task moved to state stopped by the scheduler", Count: 1, FirstLine: 7},
			},
		},
		{
			// Too few constant words to tell a value from another message,
			// in either order.
			name: "short templates stay apart",
			lines: []string{
				"job 3fa9c1e2 done", "job fbaaafda done", "fbaaafda started", "3fa9c1e2 started",
				"<*>", "getStepCounterStatus",
			},
			want: []Template{
				{ID: 0, Text: "job <*> done", Count: 1, FirstLine: 1},
				{ID: 1, Text: "job fbaaafda done", Count: 1, FirstLine: 2},
				{ID: 2, Text: "fbaaafda started", Count: 1, FirstLine: 3},
				{ID: 3, Text: "<*> started", Count: 1, FirstLine: 4},
				{ID: 4, Text: "<*>", Count: 1, FirstLine: 5},
				{ID: 5, Text: "getStepCounterStatus", Count: 1, FirstLine: 6},
			},
		},
		{
			// Only a Wildcard subsumes: a template with a different word
			// there, or with a Wildcard where the general one has a word,
			// stays apart.
			name: "no wildcard to fill",
			lines: []string{
				"copy job 3fa9c1e2 finished on node alpha",
				"copy job fbaaafda finished on node beta",
				"copy job fbaaafda finished on node 7",
				"copy job fbaaafda 10.0.0.1 finished on node alpha",
			},
			want: []Template{
				{ID: 0, Text: "copy job <*> finished on node alpha", Count: 1, FirstLine: 1},
				{ID: 1, Text: "copy job fbaaafda finished on node beta", Count: 1, FirstLine: 2},
				{ID: 2, Text: "copy job fbaaafda finished on node <*>", Count: 1, FirstLine: 3},
				{ID: 3, Text: "copy job fbaaafda <*> finished on node alpha", Count: 1, FirstLine: 4},
			},
		},
		{
			// Once a word position has merged, the general template it
			// became is a key like any other.
			name: "general template after a merge",
			lines: append(func() []string {
				var l []string
				for _, u := range []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"} {
					l = append(l, "Invalid user "+u+" from 10.0.0.1 port 22")
				}
				return l
			}(), "Invalid user admin2 from 10.0.0.9 port 22", "Invalid user fbaaafda from 10.0.0.9 port 22"),
			want: []Template{{ID: 0, Text: "Invalid user <*> from <*> port <*>", Count: 10, FirstLine: 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMiner(Options{Off: RuleCluster})
			ids := addAll(m, tc.lines)
			if got := m.Templates(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Templates() =\n%+v\nwant\n%+v", got, tc.want)
			}
			for i, id := range ids {
				if r := m.Resolve(id); r > id {
					t.Errorf("line %d: Resolve(%d) = %d", i+1, id, r)
				}
			}
		})
	}
}

// TestMinerSubsumeNoNewGroup checks that a subsumed line joins the general
// group as it arrives, without making a group of its own.
func TestMinerSubsumeNoNewGroup(t *testing.T) {
	m := NewMiner(Options{Off: RuleCluster})
	addAll(m, jobLines(50))
	for _, id := range []string{"fbaaafda", "FACADE", "kQzTbWxa", "xkqzbtwr", "fbaaafda"} {
		if got := m.Add([]byte(rareJob(id))); got != 0 {
			t.Errorf("job %s: group %d, want 0", id, got)
		}
	}
	if len(m.groups) != 1 {
		t.Errorf("%d groups, want 1", len(m.groups))
	}
}

// TestMinerSubsumeDeterministic checks that subsumption gives the same ids
// and templates on every run, and the same grouping in any line order.
func TestMinerSubsumeDeterministic(t *testing.T) {
	var lines []string
	lines = append(lines, rareJob("fbaaafda"), rareJob("abcdef"))
	lines = append(lines, jobLines(300)...)
	lines = append(lines, rareJob("DEADBEEF"))
	for i, id := range hexIDs(40, 2) {
		lines = append(lines, fmt.Sprintf("lease (%s) renewed for tenant %c", id, 'a'+i%3))
	}
	lines = append(lines, "lease (fbaaafda) renewed for tenant b", "lease (fbaaafda) renewed for tenant q")
	run := func() ([]int, []Template) {
		m := NewMiner(Options{Off: RuleCluster})
		ids := addAll(m, lines)
		for i := range ids {
			ids[i] = m.Resolve(ids[i])
		}
		return ids, m.Templates()
	}
	ids1, t1 := run()
	for i := 0; i < 3; i++ {
		if ids2, t2 := run(); !slices.Equal(ids1, ids2) || !reflect.DeepEqual(t1, t2) {
			t.Fatal("two runs over the same lines differ")
		}
	}
	var texts []string
	for _, tm := range t1 {
		texts = append(texts, tm.Text)
	}
	want := []string{jobT(), "lease (<*>) renewed for tenant a", "lease (<*>) renewed for tenant b",
		"lease (<*>) renewed for tenant c", "lease (fbaaafda) renewed for tenant q"}
	if !slices.Equal(texts, want) {
		t.Errorf("templates %q, want %q", texts, want)
	}
	b := make([][]byte, len(lines))
	for i, l := range lines {
		b[i] = []byte(l)
	}
	testOrderIndependent(t, b)
}

func jobT() string { return "<*> INFO [<*>] job <*> finished after <*>" }

func TestIDLike(t *testing.T) {
	for w, want := range map[string]bool{
		// Ids without a digit.
		"fbaaafda": true, "DEADBEEF": true, "DeadBeef": true, "abcdeF": true, "xkqzbt": true,
		"BCDFGH": true, "kQzTbWxa": true, "aBc_DeF": true,
		// Names: mixed case and qualified.
		"JobEventType": true, "getUser": true, "macOS": true, "org.apache.EventType": true,
		"Outer$Inner": true, "std::vector": true,
		"org.apache.hadoop.mapreduce.jobhistory.JobHistoryEventHandler": true,
		// Words and enumerations.
		"added": false, "https": false, "Started": false, "VMs": false, "RUNNING": false,
		"alice": false, "LOAD_MESSAGE": false, "block_id": false, "Step_LSC": false,
		"non-blocking": false, "iOS": false, "Ab": false, "ABCDEFs": false,
		// Malformed joins.
		"a:b": false, "_x": false, "x.": false, "a..b": false, "abcdef_": false, "a::": false,
	} {
		if got := idLike(w); got != want {
			t.Errorf("idLike(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestProfileSubsumedNotRare checks the logs profile end to end: a job line
// whose id has no digit is no rare-template needle, in either order, while
// a line of another event still is.
func TestProfileSubsumedNotRare(t *testing.T) {
	busy := jobLines(400)
	needle := "2024-05-01 13:00:01 INFO [worker-2] scheduler lost its lease on queue default"
	for _, order := range []string{"general first", "specific first"} {
		var lines []string
		if order == "general first" {
			lines = append(append(slices.Clone(busy), rareJob("fbaaafda"), needle), busy[:10]...)
		} else {
			lines = append(append([]string{rareJob("fbaaafda"), needle}, busy...), rareJob("cafebabe"))
		}
		src := evidence.BytesSource([]string{"cat", "app.log"}, 0, []byte(strings.Join(lines, "\n")+"\n"), nil)
		g, err := Parse(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		var rare []string
		for _, it := range g.Items {
			if it.Why == "rare-template" {
				rare = append(rare, it.Text)
			}
		}
		if !slices.Equal(rare, []string{needle}) {
			t.Errorf("%s: rare templates %q, want only the needle", order, rare)
		}
	}
}
