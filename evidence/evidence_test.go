package evidence

import (
	"encoding/json"
	"strings"
	"testing"
)

func testGraph() *Graph {
	g := &Graph{Profile: "pytest"}
	g.Add(Item{Kind: KindTest, Package: "tests/a.py", Name: "test_x", Outcome: OutcomeFail,
		Span: Span{Stream: Stdout, From: 3, To: 9}, Rel: []Relation{{To: (&Item{Kind: KindDiagnostic, Tool: "py", File: "a.py", Line: 4}).Key()}}})
	g.Add(Item{Kind: KindDiagnostic, Tool: "py", File: "a.py", Line: 4})
	g.Add(Item{Kind: KindTest, Package: "tests/a.py", Name: "test_x", Outcome: OutcomeFail}) // a second report of the same test
	g.Add(Item{Kind: KindTest, Package: "tests/a.py", Name: "test_y", Outcome: OutcomePass})
	return g
}

// TestSealIDs: ids are a function of each item's key, duplicates are
// numbered in order, relations point at ids and sealing twice changes nothing.
func TestSealIDs(t *testing.T) {
	g := testGraph()
	g.Seal("run:abc")
	a, d, dup, y := g.Items[0], g.Items[1], g.Items[2], g.Items[3]
	if a.ID == "" || dup.ID != a.ID+"-2" {
		t.Errorf("ids %q and %q: want the repeat numbered -2", a.ID, dup.ID)
	}
	if a.ID == y.ID || a.ID == d.ID {
		t.Errorf("different facts share an id: %q %q %q", a.ID, d.ID, y.ID)
	}
	if a.Rel[0].To != d.ID {
		t.Errorf("relation points at %q, want the diagnostic's id %q", a.Rel[0].To, d.ID)
	}
	if a.Span.Base != "run:abc" || y.Span.Base != "" {
		t.Errorf("span bases %q %q: only non-zero spans get the base", a.Span.Base, y.Span.Base)
	}
	before, _ := json.Marshal(g)
	g.Seal("run:abc")
	after, _ := json.Marshal(g)
	if string(before) != string(after) {
		t.Errorf("Seal is not idempotent:\n%s\n%s", before, after)
	}

	// The id survives reordering and other items appearing.
	h := testGraph()
	h.Items = append([]Item{{Kind: KindTest, Package: "tests/b.py", Name: "test_z", Outcome: OutcomePass}}, h.Items[3], h.Items[0])
	h.Seal("run:def")
	if h.Items[1].ID != y.ID || h.Items[2].ID != a.ID {
		t.Errorf("ids moved with the order: %q %q, want %q %q", h.Items[1].ID, h.Items[2].ID, y.ID, a.ID)
	}
}

func TestKeyDistinguishes(t *testing.T) {
	for _, pair := range [][2]Item{
		{{Kind: KindTest, Package: "p", Name: "a"}, {Kind: KindTest, Package: "q", Name: "a"}},
		{{Kind: KindDiagnostic, File: "f", Line: 1, Col: 2}, {Kind: KindDiagnostic, File: "f", Line: 12}},
		{{Kind: KindTemplate, Template: "a <*>"}, {Kind: KindTemplate, Template: "a <*> b"}},
		{{Kind: KindTest, Name: "a"}, {Kind: KindSummary, Name: "a"}},
	} {
		if pair[0].Key() == pair[1].Key() {
			t.Errorf("%+v and %+v have the same key", pair[0], pair[1])
		}
	}
	// An outcome is not part of a test's identity: a rerun that passes is the same test.
	a := Item{Kind: KindTest, Package: "p", Name: "a", Outcome: OutcomeFail}
	b := Item{Kind: KindTest, Package: "p", Name: "a", Outcome: OutcomePass}
	if a.Key() != b.Key() {
		t.Error("a test's key depends on its outcome")
	}
}

func TestSpanRoundTrip(t *testing.T) {
	for _, h := range []string{"run:ab#stdout:L3-9", "run:ab#stderr:L7", ""} {
		sp, err := ParseSpan(h)
		if err != nil || sp.Handle() != h {
			t.Errorf("ParseSpan(%q) = %+v, %v; renders %q", h, sp, err, sp.Handle())
		}
	}
	for _, bad := range []string{"run:ab", "run:ab#:L3", "run:ab#stdout:L0", "run:ab#stdout:L9-3", "run:ab#stdout:Lx"} {
		if _, err := ParseSpan(bad); err == nil {
			t.Errorf("ParseSpan(%q) accepted", bad)
		}
	}
	if n := (Span{Stream: Stdout, From: 3, To: 9}).Lines(); n != 7 {
		t.Errorf("L3-9 has %d lines, want 7", n)
	}
}

func TestCountLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2, "a\r\nb\r\n": 2} {
		if got := CountLines([]byte(in)); got != want {
			t.Errorf("CountLines(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestTestsAndCount(t *testing.T) {
	g := testGraph()
	if n := len(g.Tests(OutcomeFail)); n != 2 {
		t.Errorf("failing tests %d, want 2", n)
	}
	if n := len(g.Tests()); n != 3 {
		t.Errorf("all tests %d, want 3", n)
	}
	if n := g.Count(func(it *Item) bool { return it.Kind == KindDiagnostic }); n != 1 {
		t.Errorf("diagnostics %d, want 1", n)
	}
	if !OutcomeError.Failed() || OutcomeSkip.Failed() {
		t.Error("Failed: error fails, skip does not")
	}
}

// TestStamp: the registry gives a graph its profile's name, version, runner
// flag and noise cleanup, without overriding what the parser set.
func TestStamp(t *testing.T) {
	noise := func(l string, _ *Item) (string, bool) { return strings.ToUpper(l), true }
	p := Profile{Name: "gotest", Version: 3, Runner: true, Noise: noise}
	g := &Graph{}
	p.Stamp(g)
	if g.Profile != "gotest" || g.Version != 3 || !g.Runner || g.Noise == nil {
		t.Fatalf("stamped %+v", g)
	}
	if out, _ := g.Noise("x", nil); out != "X" {
		t.Errorf("the graph's noise is not the profile's: %q", out)
	}
	g = &Graph{Profile: "text", Version: 1}
	Profile{Name: "gotest", Version: 3}.Stamp(g)
	if g.Profile != "text" || g.Version != 1 || g.Runner {
		t.Errorf("Stamp overrode the parser's own name or version: %+v", g)
	}
	if b, _ := json.Marshal(g); strings.Contains(string(b), "unner") || strings.Contains(string(b), "oise") {
		t.Errorf("runner and noise reached the graph's JSON form: %s", b)
	}
}

func TestSplitLocation(t *testing.T) {
	for _, tc := range []struct {
		in        string
		file      string
		line, col int
		ok        bool
	}{
		{"src/lib.rs:40:9", "src/lib.rs", 40, 9, true},
		{" src/a.test.js:12 ", "src/a.test.js", 12, 0, true},
		{`C:\x\a.go:3:4`, `C:\x\a.go`, 3, 4, true},
		{"a.go:x:4", "a.go:x", 4, 0, true},
		{"a.go:", "", 0, 0, false},
		{":12", "", 0, 0, false},
		{"a.go", "", 0, 0, false},
	} {
		f, l, c, ok := SplitLocation(tc.in)
		if f != tc.file || l != tc.line || c != tc.col || ok != tc.ok {
			t.Errorf("SplitLocation(%q) = %q %d %d %v, want %q %d %d %v", tc.in, f, l, c, ok, tc.file, tc.line, tc.col, tc.ok)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 4, "abcd…"},
		{"aé", 2, "a…"}, // é is two bytes: the cut moves back to its start
		{"ééé", 3, "é…"},
	} {
		if got := Clip(tc.in, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
