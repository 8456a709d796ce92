package jsondoc

import (
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

var update = flag.Bool("update", false, "rewrite the golden graphs and digests in testdata/realrun")

// TestRealRuns digests real JSON outputs and compares graph and digest with
// their goldens; every REQUIRED item must be in the digest.
func TestRealRuns(t *testing.T) {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		t.Run(r.Name, func(t *testing.T) {
			g, d := r.Check(t, Profile, *update)
			for _, it := range g.Items {
				if it.Kind == evidence.KindRecord && it.Why == "minority-value" && !strings.Contains(string(d.Text), it.Text[:min(len(it.Text), 60)]) {
					t.Errorf("minority record %s not inline:\n%s", it.Name, d.Text)
				}
			}
		})
	}
}

// TestFieldValues: the array of 28 test results (what `gh … --json`-style
// output looks like) digests to value counts of its category field and the
// rare record inline, not to its key shape only.
func TestFieldValues(t *testing.T) {
	for _, name := range []string{"results-array", "results-jsonl"} {
		var r profiletest.RealRun
		for _, x := range profiletest.RealRuns(t, "testdata/realrun") {
			if x.Name == name {
				r = x
			}
		}
		g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
		var shapes, rare []string
		for _, it := range g.Items {
			switch {
			case it.Kind == evidence.KindShape && it.Attrs["field"] != "":
				shapes = append(shapes, it.Name)
			case it.Kind == evidence.KindRecord && it.Why == "minority-value":
				rare = append(rare, it.Attrs["field"]+"="+it.Attrs["value"]+" "+it.Text)
			}
		}
		// Package has 5 values over 28 records: a category too. Test names
		// are unique: no category.
		want := `values of Action: "pass" 17 · "fail" 10 · "skip" 1`
		if len(shapes) == 0 || shapes[0] != want {
			t.Errorf("%s: field shapes %q, want first %q", name, shapes, want)
		}
		for _, s := range shapes {
			if strings.Contains(s, "values of Test:") {
				t.Errorf("%s: unique test names taken for a category: %s", name, s)
			}
		}
		if len(rare) != 1 || !strings.HasPrefix(rare[0], `Action=skip {"Action":"skip"`) {
			t.Errorf("%s: rare records %q, want the one skip", name, rare)
		}
	}
}

// TestRareValueRule pins the two ways a value is rare: a handful (≤3 and ≤10%)
// next to anything, or up to a fifth next to a value covering two thirds (a
// status field: 5 CLOSED among 25 OPEN); and neither next to an event-type
// field with no dominant value.
func TestRareValueRule(t *testing.T) {
	doc := func(states map[string]int) []byte {
		var b strings.Builder
		b.WriteString("[")
		n := 0
		for _, s := range []string{"OPEN", "CLOSED", "MERGED", "DRAFT"} {
			for range states[s] {
				if n > 0 {
					b.WriteString(",")
				}
				n++
				b.WriteString(`{"number":` + strconv.Itoa(n) + `,"state":"` + s + `","title":"issue ` + strconv.Itoa(n) + `"}`)
			}
		}
		b.WriteString("]\n")
		return []byte(b.String())
	}
	for _, c := range []struct {
		states map[string]int
		want   string // rare states listed, with counts
	}{
		{map[string]int{"OPEN": 25, "CLOSED": 5}, "CLOSED×5"},
		{map[string]int{"OPEN": 27, "CLOSED": 2, "DRAFT": 1}, "CLOSED×2 DRAFT×1"},
		{map[string]int{"OPEN": 15, "CLOSED": 10, "MERGED": 5}, ""},
		{map[string]int{"OPEN": 18, "CLOSED": 12}, ""},
	} {
		g := profiletest.Parse(t, Profile, []string{"gh", "issue", "list", "--json", "number,state,title"}, 0, doc(c.states), nil)
		counts := map[string]int{}
		for _, it := range g.Items {
			if it.Kind == evidence.KindRecord && it.Why == "minority-value" {
				counts[it.Attrs["value"]]++
			}
		}
		var got []string
		for _, s := range []string{"OPEN", "CLOSED", "MERGED", "DRAFT"} {
			if counts[s] > 0 {
				got = append(got, s+"×"+strconv.Itoa(counts[s]))
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%v: rare %q, want %q", c.states, strings.Join(got, " "), c.want)
		}
	}
}
