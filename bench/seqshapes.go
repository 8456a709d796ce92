package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SeqShape is a scratch Go module for the sequence-digest token benchmark
// (ctx bench seq-tokens): its files and the three real steps run on it,
// each an argv. Holdout shapes were written before the digest was changed
// and not looked at while it was: they are reported apart.
type SeqShape struct {
	Name    string
	About   string
	Holdout bool
	Files   map[string]string
	Steps   [][]string
}

// Write writes the shape's module into dir.
func (s SeqShape) Write(dir string) error {
	for name, text := range s.Files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return fmt.Errorf("write shape %s: %w", s.Name, err)
		}
	}
	return nil
}

var (
	goBuild = []string{"go", "build", "./..."}
	goVet   = []string{"go", "vet", "./..."}
	goTestV = []string{"go", "test", "-count=1", "-v", "-vet=off", "./..."}
	goTest  = []string{"go", "test", "-count=1", "-vet=off", "./..."}
)

const goMod = "module example.com/m\n\ngo 1.22\n"

// sqTests are n table-free tests of Sq, each logging a line; the ones in
// wrong get a wrong expectation.
func sqTests(pkg string, n int, wrong ...int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport \"testing\"\n", pkg)
	for i := range n {
		want := i * i
		for _, w := range wrong {
			if w == i {
				want++
			}
		}
		fmt.Fprintf(&b, "\nfunc TestSq%d(t *testing.T) {\n\tt.Logf(\"checking %%d\", %d)\n\tif got := Sq(%d); got != %d {\n\t\tt.Errorf(\"Sq(%d) = %%d, want %d\", got)\n\t}\n}\n", i, i, i, want, i, want)
	}
	return b.String()
}

const sqGo = "package m\n\n// Sq squares.\nfunc Sq(x int) int { return x * x }\n"

// vetBad is a file go vet reports (a Printf verb of the wrong type) and the
// compiler accepts.
const vetBad = "package m\n\nimport \"fmt\"\n\n// Bad prints a number with %s.\nfunc Bad() { fmt.Printf(\"%s\\n\", 3) }\n"

// SeqShapes are the benchmark's module shapes: the design set first, then
// the held-out ones.
func SeqShapes() []SeqShape {
	bigLog := "package m\n\nimport \"testing\"\n\nfunc TestBigLog(t *testing.T) {\n\tfor i := range 400 {\n\t\tt.Logf(\"record %d: state=%d ok\", i, i*7%13)\n\t}\n\tt.Errorf(\"record 399: state 9, want 0\")\n}\n\nfunc TestMessage(t *testing.T) {\n\tt.Errorf(\"mismatch:\\n got: %v\\nwant: %v\", []int{1, 2, 3, 4, 5, 6}, []int{1, 2, 3, 4, 5, 7})\n}\n"
	shapes := []SeqShape{
		{Name: "census40", About: "40 tests, 2 failing, a vet error",
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "bad.go": vetBad, "m_test.go": sqTests("m", 40, 17, 31)},
			Steps: [][]string{goBuild, goTestV, goVet}},
		{Name: "small", About: "2 tests, 1 failing, a vet error; every output shown whole",
			Files: map[string]string{"go.mod": goMod, "m.go": "package m\n\nimport \"fmt\"\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\nfunc bad() { fmt.Printf(\"%d\\n\", \"x\") }\n",
				"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tfor i := range 3 {\n\t\tt.Logf(\"step %d\", i)\n\t}\n\tif got := Add(2, 2); got != 5 {\n\t\tt.Errorf(\"Add(2,2) = %d, want 5\", got)\n\t}\n}\n\nfunc TestOK(t *testing.T) { _ = bad }\n"},
			Steps: [][]string{goBuild, goTestV, goVet}},
		{Name: "allpass", About: "12 passing tests, nothing to vet",
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "m_test.go": sqTests("m", 12)},
			Steps: [][]string{goBuild, goTestV, goVet}},
		{Name: "fail-first", About: "a type error: build, test and vet all fail on it",
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo + "\nfunc Broken() string { return Sq(2) }\n", "m_test.go": sqTests("m", 5)},
			Steps: [][]string{goBuild, goTestV, goVet}},
		{Name: "fail-last", About: "build and 20 tests pass, vet fails",
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "bad.go": vetBad, "m_test.go": sqTests("m", 20)},
			Steps: [][]string{goBuild, goTest, goVet}},
		{Name: "bigfail", About: "a failing test that logs 400 lines, one with a multi-line message",
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "m_test.go": bigLog},
			Steps: [][]string{goBuild, goTestV, goVet}},
		{Name: "longpass", About: "150 passing tests under -v (a long passing output), vet fails",
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "bad.go": vetBad, "m_test.go": sqTests("m", 150)},
			Steps: [][]string{goBuild, goTestV, goVet}},
	}
	return append(shapes, holdoutShapes()...)
}

// holdoutShapes were fixed before the digest changes and their digests not
// read while making them.
func holdoutShapes() []SeqShape {
	pkgs := map[string]string{"go.mod": goMod}
	for i, p := range []string{"a", "b", "c"} {
		pkgs[p+"/"+p+".go"] = strings.Replace(sqGo, "package m", "package "+p, 1)
		var wrong []int
		if i > 0 {
			wrong = []int{i + 2}
		}
		pkgs[p+"/"+p+"_test.go"] = sqTests(p, 8, wrong...)
	}
	pkgs["c/panic_test.go"] = "package c\n\nimport \"testing\"\n\nfunc TestPanics(t *testing.T) {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n"
	shapes := []SeqShape{
		{Name: "multipkg", About: "3 packages, failures in 2 (one a panic), no -v", Holdout: true,
			Files: pkgs, Steps: [][]string{goBuild, goTest, goVet}},
		{Name: "testcompile", About: "a test file that does not compile: test and vet fail on it", Holdout: true,
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "m_test.go": sqTests("m", 6) + "\nfunc TestGone(t *testing.T) { _ = Cube(2) }\n"},
			Steps: [][]string{goBuild, goTestV, goVet}},
		{Name: "quietpass", About: "everything passes, no -v: short outputs", Holdout: true,
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "m_test.go": sqTests("m", 30)},
			Steps: [][]string{goBuild, goTest, goVet}},
	}
	return append(shapes, laterHoldoutShapes()...)
}

// laterHoldoutShapes were added, with their module and steps fixed, before
// the second round of digest changes (the row as a whole output's header)
// and not looked at while making it: two packages vet fails in, a passing
// step that prints a few warnings to stderr, a build broken in two
// packages.
func laterHoldoutShapes() []SeqShape {
	vetA := "package a\n\nimport \"fmt\"\n\n// Show prints n.\nfunc Show(n int) { fmt.Printf(\"%s\\n\", n) }\n\n// Sq squares.\nfunc Sq(x int) int { return x * x }\n"
	vetB := "package b\n\nimport \"fmt\"\n\n// Hello greets.\nfunc Hello() { fmt.Println(\"hello\\n\") }\n\n// Sq squares.\nfunc Sq(x int) int { return x * x }\n"
	gen := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Fprintln(os.Stderr, \"gen: warning: keys.csv: 2 duplicate keys (kept the first)\")\n\tfmt.Fprintln(os.Stderr, \"gen: warning: column rate is never read\")\n\tfmt.Fprintln(os.Stderr, \"gen: 14 tables checked, nothing written (dry run)\")\n}\n"
	return []SeqShape{
		{Name: "vetmulti", About: "build and tests (2 packages, no -v) pass, vet fails in both packages", Holdout: true,
			Files: map[string]string{"go.mod": goMod, "a/a.go": vetA, "b/b.go": vetB,
				"a/a_test.go": sqTests("a", 5), "b/b_test.go": sqTests("b", 3)},
			Steps: [][]string{goBuild, goTest, goVet}},
		{Name: "stderrnote", About: "a generator that passes with 3 warnings on stderr, 10 tests (-v) with 1 failing, vet passes", Holdout: true,
			Files: map[string]string{"go.mod": goMod, "m.go": sqGo, "m_test.go": sqTests("m", 10, 6), "tools/gen/main.go": gen},
			Steps: [][]string{{"go", "run", "./tools/gen"}, goTestV, goVet}},
		{Name: "buildmulti", About: "a build broken in two packages (a type error, an undefined name): all three fail", Holdout: true,
			Files: map[string]string{"go.mod": goMod,
				"a/a.go":      "package a\n\n// Name names n.\nfunc Name(n int) int { return \"n\" }\n",
				"b/b.go":      "package b\n\n// Twice doubles x.\nfunc Twice(x int) int { return dbl(x) }\n\n// Sq squares.\nfunc Sq(x int) int { return x * x }\n",
				"b/b_test.go": sqTests("b", 4)},
			Steps: [][]string{goBuild, goTest, goVet}},
	}
}

// SeqTokens is one shape's token counts over the repetitions: the separate
// ctx run digests of the three steps (summed), ctx seq --keep-going, ctx
// seq (stops at the first failure), and the separate digests of only the
// steps that sequence ran.
type SeqTokens struct {
	Shape   string   `json:"shape"`
	About   string   `json:"about"`
	Holdout bool     `json:"holdout"`
	Runs    []int    `json:"runs"`  // the three ctx run digests, summed
	Steps   [3][]int `json:"steps"` // each ctx run digest
	Keep    []int    `json:"seq_keep_going"`
	Stop    []int    `json:"seq"`
	RanOnly []int    `json:"runs_of_steps_seq_ran"`
	Ran     int      `json:"steps_seq_ran"`
}

// Spread is a sample's median and range.
type Spread struct{ Median, Min, Max float64 }

// SpreadOf is xs's median and range.
func SpreadOf(xs []int) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	m := float64(s[len(s)/2])
	if len(s)%2 == 0 {
		m = float64(s[len(s)/2-1]+s[len(s)/2]) / 2
	}
	return Spread{Median: m, Min: float64(s[0]), Max: float64(s[len(s)-1])}
}

func (s Spread) String() string {
	if s.Min == s.Max {
		return fmt.Sprintf("%g", s.Median)
	}
	return fmt.Sprintf("%g (%g–%g)", s.Median, s.Min, s.Max)
}
