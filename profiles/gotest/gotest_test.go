package gotest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// parse runs the profile over in-memory streams and seals the graph.
func parse(t testing.TB, argv []string, exit int, stdout, stderr string) *evidence.Graph {
	t.Helper()
	g, err := Parse(context.Background(), evidence.BytesSource(argv, exit, []byte(stdout), []byte(stderr)))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	g.Seal("run:test")
	return g
}

var goTest = []string{"go", "test"}

// readCase reads a testdata case and its exit status from cases.txt.
func readCase(t *testing.T, name string) (stdout, stderr string, exit int) {
	t.Helper()
	out, err := os.ReadFile(filepath.Join("testdata", name+".stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errb, err := os.ReadFile(filepath.Join("testdata", name+".stderr"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadFile(filepath.Join("testdata", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	exit = -1
	for _, l := range strings.Split(string(cases), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == name {
			exit, _ = strconv.Atoi(f[1])
		}
	}
	if exit < 0 {
		t.Fatalf("case %s not in cases.txt", name)
	}
	return string(out), string(errb), exit
}

func caseNames(t *testing.T) []string {
	t.Helper()
	cases, err := os.ReadFile(filepath.Join("testdata", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(cases)), "\n") {
		names = append(names, strings.Fields(l)[0])
	}
	return names
}

// failing indexes the failing tests by "package name".
func failing(g *evidence.Graph) map[string]*evidence.Item {
	m := map[string]*evidence.Item{}
	for _, it := range g.Tests(evidence.OutcomeFail) {
		m[it.Package+" "+it.Name] = it
	}
	return m
}

func summaries(g *evidence.Graph) map[string]*evidence.Item {
	m := map[string]*evidence.Item{}
	for i := range g.Items {
		it := &g.Items[i]
		if it.Kind == evidence.KindSummary && it.Name == "" {
			m[it.Package] = it
		}
	}
	return m
}

// fail describes one expected failing test: file is matched as a suffix
// (goroutine traces print absolute paths), msg as a prefix.
type fail struct {
	name, class, file string
	line              int
	msg               string
}

// pkg describes an expected package summary.
type pkg struct {
	outcome evidence.Outcome
	class   string
	counts  map[string]int // nil: not checked
}

const m = "example.com/m/"

func TestRealOutputs(t *testing.T) {
	failSub := []fail{
		// The headline is the failure (t.Errorf), not the log line before it.
		{"fail TestOne", "fail", "fail_test.go", 7, "got 1, want 2"},
		{"fail TestSub", "fail", "", 0, ""},
		{"fail TestSub/bad", "fail", "fail_test.go", 13, "sub failed:"},
		{"fail TestSub/nested", "fail", "", 0, ""},
		{"fail TestSub/nested/deep", "fail", "fail_test.go", 16, "deep fail"},
		{"fail TestParallelA", "fail", "fail_test.go", 22, "parallel A fails"},
		{"fuzzpkg FuzzRev", "fail", "", 0, ""},
		{"fuzzpkg FuzzRev/seed#0", "fail", "f_test.go", 10, `bad input "abc"`},
		{"example ExampleBad", "fail", "", 0, "got: hello; want: bye"},
		{"panicpkg TestPanic", "panic", "/panicpkg/p_test.go", 9, "panic: assignment to entry in nil map"},
		{"timeout TestSlow", "timeout", "/timeout/t_test.go", 11, "panic: test timed out after 5s"},
	}
	verboseOnly := []fail{
		{"gopanic TestGo", "panic", "/gopanic/g_test.go", 9, "panic: in goroutine"},
		{"exitpkg TestExit", "exit", "", 0, ""}, // go test printed no reason; the class says the binary exited
	}
	allPkgs := func(verbose bool) map[string]pkg {
		ps := map[string]pkg{
			"setup":      {evidence.OutcomeFail, "build", map[string]int{"setup_failed": 1}},
			"build":      {evidence.OutcomeFail, "build", map[string]int{"build_failed": 1}},
			"vetpkg":     {evidence.OutcomeFail, "build", map[string]int{"build_failed": 1}},
			"initpanic":  {evidence.OutcomeFail, "panic", nil},
			"notests":    {evidence.OutcomeSkip, "", map[string]int{"no_test_files": 1}},
			"panicpkg":   {evidence.OutcomeFail, "panic", nil},
			"timeout":    {evidence.OutcomeFail, "timeout", nil},
			"pass":       {evidence.OutcomePass, "", nil},
			"fail":       {evidence.OutcomeFail, "fail", nil},
			"noruntests": {evidence.OutcomePass, "", nil},
			"race":       {evidence.OutcomePass, "", nil},
			"bench":      {evidence.OutcomePass, "", nil},
			"example":    {evidence.OutcomeFail, "fail", nil},
			"fuzzpkg":    {evidence.OutcomeFail, "fail", nil},
		}
		if verbose {
			ps["pass"] = pkg{evidence.OutcomePass, "", map[string]int{"pass": 5, "skip": 1}}
			ps["fail"] = pkg{evidence.OutcomeFail, "fail", map[string]int{"pass": 2, "fail": 6}}
			ps["gopanic"] = pkg{evidence.OutcomeFail, "panic", map[string]int{"fail": 1}}
			ps["exitpkg"] = pkg{evidence.OutcomeFail, "exit", map[string]int{"pass": 1, "fail": 1}}
		} else {
			ps["fail"] = pkg{evidence.OutcomeFail, "fail", map[string]int{"fail": 6}}
			ps["gopanic"] = pkg{evidence.OutcomeFail, "panic", nil}
			ps["exitpkg"] = pkg{evidence.OutcomeFail, "exit", nil}
		}
		return ps
	}
	for _, tc := range []struct {
		name    string
		verdict string
		fails   []fail
		pkgs    map[string]pkg
		diags   int // error diagnostics
	}{
		{"plain", "fail", failSub, allPkgs(false), 6},
		{"verbose", "fail", append(failSub, verboseOnly...), allPkgs(true), 6},
		{"json", "fail", append(failSub, verboseOnly...), allPkgs(true), 6},
		{"race", "fail", []fail{{"race TestRace", "race", "/race/race_test.go", 0, "race detected during execution of test"}},
			map[string]pkg{"race": {evidence.OutcomeFail, "race", map[string]int{"fail": 1}}}, 0},
		{"race-v", "fail", []fail{{"race TestRace", "race", "/race/race_test.go", 0, "race detected during execution of test"}},
			map[string]pkg{"race": {evidence.OutcomeFail, "race", map[string]int{"fail": 1, "pass": 1}}}, 0},
		{"race-json", "fail", []fail{{"race TestRace", "race", "/race/race_test.go", 0, "race detected during execution of test"}},
			map[string]pkg{"race": {evidence.OutcomeFail, "race", map[string]int{"fail": 1, "pass": 1}}}, 0},
		{"timeout", "fail", []fail{{"timeout TestSlow", "timeout", "/timeout/t_test.go", 11, "panic: test timed out after 2s"}},
			map[string]pkg{"timeout": {evidence.OutcomeFail, "timeout", map[string]int{"fail": 1}}}, 0},
		{"timeout-v", "fail", []fail{{"timeout TestSlow", "timeout", "/timeout/t_test.go", 11, "panic: test timed out after 2s"}},
			map[string]pkg{"timeout": {evidence.OutcomeFail, "timeout", map[string]int{"fail": 1, "pass": 1}}}, 0},
		{"timeout-json", "fail", []fail{{"timeout TestSlow", "timeout", "/timeout/t_test.go", 11, "panic: test timed out after 2s"}},
			map[string]pkg{"timeout": {evidence.OutcomeFail, "timeout", map[string]int{"fail": 1, "pass": 1}}}, 0},
		{"bench", "fail", []fail{{"bench BenchmarkFails", "fail", "b_test.go", 20, "bench broke"}},
			map[string]pkg{"bench": {evidence.OutcomeFail, "fail", map[string]int{"pass": 2, "bench": 3, "fail": 1}}}, 0},
		{"bench-v", "fail", []fail{{"bench BenchmarkFails", "fail", "b_test.go", 20, "bench broke"}},
			map[string]pkg{"bench": {evidence.OutcomeFail, "fail", map[string]int{"pass": 3, "bench": 3, "fail": 1}}}, 0},
		{"bench-json", "fail", []fail{{"bench BenchmarkFails", "fail", "b_test.go", 20, "bench broke"}},
			map[string]pkg{"bench": {evidence.OutcomeFail, "fail", map[string]int{"pass": 3, "bench": 3, "fail": 1}}}, 0},
		{"cached", "pass", nil, map[string]pkg{
			"pass":       {evidence.OutcomePass, "", nil},
			"notests":    {evidence.OutcomeSkip, "", map[string]int{"no_test_files": 1}},
			"noruntests": {evidence.OutcomePass, "", nil},
		}, 0},
		{"notorun", "pass", nil, map[string]pkg{"noruntests": {evidence.OutcomePass, "", nil}}, 0},
		{"count", "fail", nil, map[string]pkg{"fail": {evidence.OutcomeFail, "fail", map[string]int{"pass": 4, "fail": 12}}}, 0},
		{"pattern", "error", nil, nil, 1},
		{"nomodule", "error", nil, nil, 1},
		{"nomodule-json", "error", nil, nil, 1},
		{"gocmd", "error", nil, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, exit := readCase(t, tc.name)
			g := parse(t, goTest, exit, stdout, stderr)
			if g.Verdict != tc.verdict {
				t.Errorf("verdict %q, want %q", g.Verdict, tc.verdict)
			}
			got := failing(g)
			if tc.name != "count" {
				for _, f := range tc.fails {
					it := got[m+f.name]
					if it == nil {
						t.Errorf("failing test %s missing", f.name)
						continue
					}
					if it.Class != f.class || !strings.HasSuffix(it.File, f.file) || (f.line != 0 && it.Line != f.line) || !strings.HasPrefix(it.Message, f.msg) {
						t.Errorf("%s: class %q at %s:%d %q, want %q at …%s:%d %q", f.name, it.Class, it.File, it.Line, it.Message, f.class, f.file, f.line, f.msg)
					}
					if f.file != "" && it.Line == 0 {
						t.Errorf("%s: no line", f.name)
					}
					if it.Detail.IsZero() || it.Span.IsZero() {
						t.Errorf("%s: span %v detail %v", f.name, it.Span, it.Detail)
					}
					delete(got, m+f.name)
				}
				for k := range got {
					t.Errorf("unexpected failing test %s", k)
				}
			}
			sums := summaries(g)
			for name, want := range tc.pkgs {
				s := sums[m+name]
				if s == nil {
					t.Errorf("package %s: no summary", name)
					continue
				}
				if s.Outcome != want.outcome || s.Class != want.class {
					t.Errorf("package %s: %s/%s, want %s/%s", name, s.Outcome, s.Class, want.outcome, want.class)
				}
				if want.counts != nil && fmt.Sprint(s.Counts) != fmt.Sprint(want.counts) {
					t.Errorf("package %s: counts %v, want %v", name, s.Counts, want.counts)
				}
			}
			if tc.pkgs != nil && len(sums) != len(tc.pkgs) {
				t.Errorf("%d package summaries, want %d", len(sums), len(tc.pkgs))
			}
			errs := g.Count(func(it *evidence.Item) bool {
				return it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError
			})
			if errs != tc.diags {
				t.Errorf("%d error diagnostics, want %d", errs, tc.diags)
			}
			for _, l := range g.Losses {
				t.Errorf("unexpected loss %s: %s", l.Code, l.Detail)
			}
		})
	}
}

// TestBuildFailureCarriesDiagnostics checks that a package that does not
// compile is a failing summary of class build whose compiler errors (read
// from stderr) are diagnostics related to it.
func TestBuildFailureCarriesDiagnostics(t *testing.T) {
	for _, name := range []string{"plain", "json"} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, exit := readCase(t, name)
			g := parse(t, goTest, exit, stdout, stderr)
			s := summaries(g)[m+"build"]
			if s == nil || s.Outcome != evidence.OutcomeFail || s.Class != "build" {
				t.Fatalf("build summary %+v", s)
			}
			if s.File != "build/b_test.go" || s.Line != 6 || s.Col != 2 {
				t.Errorf("summary location %s:%d:%d", s.File, s.Line, s.Col)
			}
			var msgs []string
			for _, it := range g.Items {
				if it.Kind != evidence.KindDiagnostic || it.Package != m+"build" {
					continue
				}
				if len(it.Rel) != 1 || it.Rel[0].Type != "part-of" || it.Rel[0].To != s.ID {
					t.Errorf("diagnostic %s:%d: relations %v, want part-of %s", it.File, it.Line, it.Rel, s.ID)
				}
				if it.Tool != "go build" || it.Severity != evidence.SeverityError {
					t.Errorf("diagnostic %+v", it)
				}
				msgs = append(msgs, fmt.Sprintf("%s:%d:%d: %s", it.File, it.Line, it.Col, it.Message))
			}
			want := []string{
				"build/b_test.go:6:2: declared and not used: y",
				"build/b_test.go:6:7: undefined: undefinedThing",
				"build/b_test.go:7:6: declared and not used: z",
				`build/b_test.go:7:14: cannot use "s" (untyped string constant) as int value in variable declaration`,
			}
			if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
			}
			vet := g.Count(func(it *evidence.Item) bool {
				return it.Kind == evidence.KindDiagnostic && it.Tool == "go vet" && it.Package == m+"vetpkg"
			})
			if vet != 1 {
				t.Errorf("%d vet diagnostics, want 1", vet)
			}
		})
	}
}

// TestGolden compares each case's sealed graph with testdata/golden.
func TestGolden(t *testing.T) {
	for _, name := range caseNames(t) {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, exit := readCase(t, name)
			g := parse(t, goTest, exit, stdout, stderr)
			got := marshal(t, g)
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("graph differs from %s (run with -update to accept):\n%s", path, firstDiff(got, want))
			}
		})
	}
}

func marshal(t testing.TB, g *evidence.Graph) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, x, y)
		}
	}
	return ""
}

// TestFailureTextInPassingOutput: a passing test that prints "--- FAIL",
// "FAILED", "Traceback" and "panic:" stays a pass, in every format.
func TestFailureTextInPassingOutput(t *testing.T) {
	for _, name := range []string{"verbose", "json"} {
		stdout, stderr, exit := readCase(t, name)
		g := parse(t, goTest, exit, stdout, stderr)
		for _, it := range g.Tests() {
			if it.Package == m+"pass" && it.Outcome.Failed() {
				t.Errorf("%s: %s %s %s", name, it.Package, it.Name, it.Outcome)
			}
			if it.Name == "TestFake" {
				t.Errorf("%s: TestFake, printed by a passing test, became a test", name)
			}
		}
		if s := summaries(g)[m+"pass"]; s == nil || s.Outcome != evidence.OutcomePass {
			t.Errorf("%s: pass summary %+v", name, s)
		}
	}

	// Without -v nothing marks a printed "--- FAIL" as output; the package
	// line settles it, and the reading is labelled.
	out := "--- FAIL: TestFake (0.00s)\n    fake_test.go:1: printed\nTraceback (most recent call last):\npanic: printed\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:3 +0x1\nok  \texample.com/p\t0.01s\n"
	g := parse(t, goTest, 0, out, "")
	if g.Verdict != "pass" || len(g.Tests(evidence.OutcomeFail)) != 0 {
		t.Errorf("verdict %q, failing %d", g.Verdict, len(g.Tests(evidence.OutcomeFail)))
	}
	if s := summaries(g)["example.com/p"]; s == nil || s.Outcome != evidence.OutcomePass || s.Counts["fail"] != 0 {
		t.Errorf("summary %+v", s)
	}
	if !hasLoss(g, "partial-parse", "read as test output") {
		t.Errorf("losses %v", g.Losses)
	}

	// With -v, a result line for a test that is not running is output.
	out = "=== RUN   TestA\n--- FAIL: TestB (0.00s)\nFAIL something\n--- PASS: TestA (0.00s)\nPASS\nok  \tp\t0.01s\n"
	g = parse(t, goTest, 0, out, "")
	if g.Verdict != "pass" || len(g.Tests()) != 1 || len(g.Losses) != 0 {
		t.Errorf("verdict %q, tests %d, losses %v", g.Verdict, len(g.Tests()), g.Losses)
	}
}

func hasLoss(g *evidence.Graph, code, text string) bool {
	for _, l := range g.Losses {
		if l.Code == code && strings.Contains(l.Detail, text) {
			return true
		}
	}
	return false
}

// TestExitDisagrees: the text is the tool's own account; a non-zero exit
// status never lets a run pass, and a zero status never hides a failure.
func TestExitDisagrees(t *testing.T) {
	stdout, stderr, _ := readCase(t, "cached")
	g := parse(t, goTest, 1, stdout, stderr)
	if g.Verdict != "" || !hasLoss(g, "partial-parse", "exit status is 1") {
		t.Errorf("passing text, exit 1: verdict %q, losses %v", g.Verdict, g.Losses)
	}
	stdout, stderr, _ = readCase(t, "plain")
	g = parse(t, goTest, 0, stdout, stderr)
	if g.Verdict != "fail" {
		t.Errorf("failing text, exit 0: verdict %q", g.Verdict)
	}
	g = parse(t, goTest, 137, "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \tp\t0.1s\n", "")
	if g.Verdict == "pass" {
		t.Error("killed run (exit 137) claimed a pass")
	}
}

// TestTruncated cuts real outputs at every line inside the last package: the
// graph never claims a pass, and says what it lost.
func TestTruncated(t *testing.T) {
	for _, name := range []string{"race-v", "timeout-v", "bench-v", "race-json", "timeout-json", "notorun"} {
		stdout, _, _ := readCase(t, name)
		lines := strings.SplitAfter(stdout, "\n")
		for n := 1; n < len(lines)-1; n++ {
			cut := strings.Join(lines[:n], "")
			g := parse(t, goTest, 0, cut, "")
			if g.Verdict == "pass" {
				t.Errorf("%s cut after %d lines: verdict pass", name, n)
			}
			if g.Verdict == "" && len(g.Losses) == 0 {
				t.Errorf("%s cut after %d lines: no verdict and no loss", name, n)
			}
			for _, it := range g.Tests(evidence.OutcomeFail) {
				if it.Package == "" && !strings.HasSuffix(name, "json") && !strings.Contains(cut, "--- FAIL") {
					t.Errorf("%s cut after %d lines: failure %s without a FAIL line", name, n, it.Name)
				}
			}
		}
	}
	// A killed -v run: tests finished, one running, no package line.
	g := parse(t, goTest, 0, "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:3: working\n", "")
	if g.Verdict != "" || !hasLoss(g, "partial-parse", "cut short") || !hasLoss(g, "partial-parse", "1 tests started") {
		t.Errorf("verdict %q, losses %v", g.Verdict, g.Losses)
	}
	if len(g.Tests(evidence.OutcomePass)) != 1 || len(g.Tests(evidence.OutcomeFail)) != 0 {
		t.Errorf("tests %d pass, %d fail", len(g.Tests(evidence.OutcomePass)), len(g.Tests(evidence.OutcomeFail)))
	}
	// Cut after a failure: the failure stands.
	g = parse(t, goTest, 0, "=== RUN   TestA\n    a_test.go:3: boom\n--- FAIL: TestA (0.00s)\n=== RUN   TestB\n", "")
	if g.Verdict != "fail" || len(g.Tests(evidence.OutcomeFail)) != 1 || !hasLoss(g, "partial-parse", "cut short") {
		t.Errorf("verdict %q, losses %v", g.Verdict, g.Losses)
	}
}

// TestEncodings: colour and CRLF line ends do not change the graph.
func TestEncodings(t *testing.T) {
	color := strings.NewReplacer(
		"--- FAIL", "\x1b[31m--- FAIL\x1b[0m",
		"--- PASS", "\x1b[32m--- PASS\x1b[0m",
		"=== RUN", "\x1b[1m=== RUN\x1b[0m",
		"ok  \t", "\x1b[32mok\x1b[0m  \t",
		"FAIL\t", "\x1b[31mFAIL\x1b[0m\t",
		"panic: ", "\x1b[31mpanic: \x1b[0m",
	)
	crlf := strings.NewReplacer("\n", "\r\n")
	for _, name := range []string{"plain", "verbose", "json", "race-v"} {
		stdout, stderr, exit := readCase(t, name)
		want := marshal(t, parse(t, goTest, exit, stdout, stderr))
		for variant, r := range map[string]*strings.Replacer{"ansi": color, "crlf": crlf} {
			got := marshal(t, parse(t, goTest, exit, r.Replace(stdout), r.Replace(stderr)))
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: graph differs:\n%s", name, variant, firstDiff(got, want))
			}
		}
	}
}

// TestSplitStreams: the output may sit in one stream (an ingested file) or
// be split; the facts are the same.
func TestSplitStreams(t *testing.T) {
	stdout, stderr, exit := readCase(t, "plain")
	split := parse(t, goTest, exit, stdout, stderr)
	merged := parse(t, goTest, exit, stderr+stdout, "")
	key := func(g *evidence.Graph) string {
		var b strings.Builder
		for _, it := range g.Items {
			fmt.Fprintf(&b, "%s %s %s %s %s %s:%d %s\n", it.Kind, it.Package, it.Name, it.Outcome, it.Class, it.File, it.Line, it.Message)
		}
		return b.String() + g.Verdict
	}
	if key(split) != key(merged) {
		t.Errorf("split and merged differ:\n%s\n---\n%s", key(split), key(merged))
	}
}

func TestCases(t *testing.T) {
	for _, tc := range []struct {
		name, out, err string
		argv           []string
		verdict        string
		check          func(t *testing.T, g *evidence.Graph)
	}{
		{name: "legacy logs after result", verdict: "fail",
			out: "=== RUN TestOne\n--- FAIL: TestOne (0.02 seconds)\n\tfile_test.go:11: Error message\n\tfile_test.go:11: Longer\n\t\terror\n=== RUN TestTwo\n--- PASS: TestTwo (0.13 seconds)\nFAIL\nexit status 1\nFAIL\tpackage/name 0.151s\n",
			check: func(t *testing.T, g *evidence.Graph) {
				it := failing(g)["package/name TestOne"]
				if it == nil || it.File != "file_test.go" || it.Line != 11 || it.Message != "Error message" || it.Detail.To != 5 {
					t.Errorf("%+v", it)
				}
			}},
		{name: "test binary run directly", verdict: "fail", argv: []string{"./p.test", "-test.v"},
			out: "=== RUN   TestA\n    a_test.go:9: nope\n--- FAIL: TestA (0.00s)\nFAIL\n",
			check: func(t *testing.T, g *evidence.Graph) {
				s := summaries(g)[""]
				if s == nil || s.Outcome != evidence.OutcomeFail || s.Attrs["binary"] != "true" || failing(g)[" TestA"] == nil {
					t.Errorf("summary %+v, failing %v", s, failing(g))
				}
			}},
		{name: "test binary output under go test is cut short", verdict: "",
			out: "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n",
			check: func(t *testing.T, g *evidence.Graph) {
				if len(summaries(g)) != 0 || !hasLoss(g, "partial-parse", "cut short") {
					t.Errorf("summaries %v, losses %v", summaries(g), g.Losses)
				}
			}},
		{name: "panic in init", verdict: "fail",
			out: "panic: init\n\ngoroutine 1 [running]:\npackage/name/panic.init.0()\n\t/src/package/name/panic/main_test.go:6 +0x27\nexit status 2\nFAIL\tpackage/name/panic\t0.003s\n",
			check: func(t *testing.T, g *evidence.Graph) {
				s := summaries(g)["package/name/panic"]
				if s == nil || s.Class != "panic" || s.Message != "panic: init" || s.Line != 6 || !strings.HasSuffix(s.File, "main_test.go") {
					t.Errorf("%+v", s)
				}
			}},
		{name: "nil dereference in source", verdict: "fail",
			out: "=== RUN   TestNil\n--- FAIL: TestNil (0.00s)\npanic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\tpanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4f]\n\ngoroutine 7 [running]:\ntesting.tRunner.func1.2({0x5, 0x6})\n\t/usr/local/go/src/testing/testing.go:1545 +0x238\npanic({0x5, 0x6})\n\t/usr/local/go/src/runtime/panic.go:914 +0x21f\nexample.com/x.(*T).Get(...)\n\t/home/u/x/t.go:12\nexample.com/x.TestNil(0x0?)\n\t/home/u/x/t_test.go:8 +0x1d\ntesting.tRunner(0xc0, 0x5)\n\t/usr/local/go/src/testing/testing.go:1595 +0xff\nexit status 2\nFAIL\texample.com/x\t0.005s\n",
			check: func(t *testing.T, g *evidence.Graph) {
				it := failing(g)["example.com/x TestNil"]
				if it == nil || it.Class != "panic" || it.File != "/home/u/x/t.go" || it.Line != 12 {
					t.Errorf("%+v", it)
				}
			}},
		{name: "cached and coverage", verdict: "pass",
			out: "ok  \texample.com/a\t(cached)\tcoverage: 80.0% of statements\n?   \texample.com/b\t[no test files]\n",
			check: func(t *testing.T, g *evidence.Graph) {
				s := summaries(g)["example.com/a"]
				if s == nil || s.Attrs["cached"] != "true" || s.Attrs["coverage"] != "80.0% of statements" {
					t.Errorf("%+v", s)
				}
				if s := summaries(g)["example.com/b"]; s == nil || s.Outcome != evidence.OutcomeSkip {
					t.Errorf("%+v", s)
				}
			}},
		{name: "go command error", verdict: "error",
			err: "go: downloading example.com/z v1.0.0\ngo: example.com/z@v1.0.0: missing go.sum entry for go.mod file; to add it:\n\tgo mod download example.com/z\n",
			check: func(t *testing.T, g *evidence.Graph) {
				if len(g.Items) != 1 || g.Items[0].Tool != "go" || !strings.HasPrefix(g.Items[0].Message, "example.com/z@v1.0.0: missing go.sum") || g.Items[0].Detail.To != 3 {
					t.Errorf("%+v", g.Items)
				}
			}},
		{name: "json race outside any test", verdict: "fail",
			out: `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"=== CONT  \n"}
{"Action":"output","Package":"p","Output":"    testing.go:1312: race detected during execution of test\n"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.005s\n"}
{"Action":"fail","Package":"p"}
`,
			check: func(t *testing.T, g *evidence.Graph) {
				s := summaries(g)["p"]
				if s == nil || s.Class != "race" || s.Outcome != evidence.OutcomeFail || s.Counts["pass"] != 1 || len(failing(g)) != 0 {
					t.Errorf("summary %+v, failing %v", s, failing(g))
				}
			}},
		{name: "go warnings beside passing packages", verdict: "pass",
			err: "go: warning: \"./old/...\" matched no packages\n",
			out: "ok  \texample.com/a\t0.01s\n",
			check: func(t *testing.T, g *evidence.Graph) {
				if g.Count(func(it *evidence.Item) bool { return it.Severity == evidence.SeverityWarning }) != 1 {
					t.Errorf("%+v", g.Items)
				}
			}},
		{name: "subtest names and rerun", verdict: "fail",
			out: "=== RUN   TestT\n=== RUN   TestT/a_b#01\n    t_test.go:4: x\n--- FAIL: TestT (0.00s)\n    --- FAIL: TestT/a_b#01 (0.00s)\n=== RUN   TestT\n=== RUN   TestT/a_b#01\n--- PASS: TestT (0.00s)\n    --- PASS: TestT/a_b#01 (0.00s)\nFAIL\nFAIL\tp\t0.1s\n",
			check: func(t *testing.T, g *evidence.Graph) {
				s := summaries(g)["p"]
				if s.Counts["fail"] != 2 || s.Counts["pass"] != 2 || len(g.Tests()) != 4 {
					t.Errorf("counts %v, %d tests", s.Counts, len(g.Tests()))
				}
				sub := failing(g)["p TestT/a_b#01"]
				parent := failing(g)["p TestT"]
				if sub == nil || parent == nil || len(sub.Rel) != 1 || sub.Rel[0].To != parent.ID || parent.Attrs["failed_subtests"] != "1" {
					t.Errorf("sub %+v parent %+v", sub, parent)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv := tc.argv
			if argv == nil {
				argv = goTest
			}
			g := parse(t, argv, 0, tc.out, tc.err)
			if g.Verdict != tc.verdict {
				t.Errorf("verdict %q, want %q", g.Verdict, tc.verdict)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func TestUnrecognised(t *testing.T) {
	_, err := Parse(context.Background(), evidence.BytesSource(goTest, 1, []byte("something else entirely\n"), nil))
	if !errors.Is(err, ErrUnrecognised) {
		t.Errorf("err %v, want ErrUnrecognised", err)
	}
	g := parse(t, goTest, 0, "", "")
	if g.Verdict != "" || len(g.Items) != 0 || len(g.Losses) != 1 {
		t.Errorf("empty output: %+v", g)
	}
}

func TestMatchArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"go", "test", "./..."}, true},
		{[]string{"go", "-C", "sub", "test", "-run", "X"}, true},
		{[]string{"/usr/local/go/bin/go", "test"}, true},
		{[]string{"go", "tool", "test2json", "-t", "./x.test"}, true},
		{[]string{"./store.test", "-test.v"}, true},
		{[]string{"go", "build", "./..."}, false},
		{[]string{"go", "vet"}, false},
		{[]string{"gotest"}, false},
		{[]string{"pytest", "-q"}, false},
		{[]string{".test"}, false},
		{nil, false},
	} {
		if got := MatchArgv(tc.argv); got != tc.want {
			t.Errorf("MatchArgv(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}

func TestMatchContent(t *testing.T) {
	for _, name := range caseNames(t) {
		stdout, stderr, exit := readCase(t, name)
		if !MatchContent(evidence.BytesSource(nil, exit, []byte(stdout), []byte(stderr))) {
			if name != "gocmd" && name != "pattern" && name != "nomodule" {
				t.Errorf("%s: not recognised", name)
			}
		}
	}
	if dir := testenv.Corpus(t, "gotest"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if !MatchContent(evidence.BytesSource(nil, 0, b, nil)) && !strings.Contains(f, "empty.txt") {
				t.Errorf("%s: not recognised", filepath.Base(f))
			}
		}
	}
	for _, other := range []string{
		"============================= test session starts ==============================\ntests/test_a.py::test_x FAILED\n",
		"running 3 tests\ntest tests::a ... ok\ntest result: ok. 3 passed; 0 failed\n",
		"PASS  src/a.test.js\n  ✓ works (3 ms)\n",
		"ok\nFAIL\nsome log line\n",
		`{"level":"info","msg":"started"}` + "\n",
	} {
		if MatchContent(evidence.BytesSource(nil, 0, []byte(other), nil)) {
			t.Errorf("recognised as go test: %q", other)
		}
	}
}

// TestCaps: past the cap tests are counted, not itemised, and the loss says so.
func TestCaps(t *testing.T) {
	var b strings.Builder
	n := MaxTests + 5
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "--- PASS: TestP%d (0.00s)\n", i)
	}
	b.WriteString("--- FAIL: TestLast (0.00s)\n    last_test.go:1: the failure\nFAIL\nFAIL\tp\t1.0s\n")
	g := parse(t, goTest, 1, b.String(), "")
	if got := len(g.Tests(evidence.OutcomePass)); got != MaxTests {
		t.Errorf("%d passing items, want %d", got, MaxTests)
	}
	if f := failing(g)["p TestLast"]; f == nil || f.Message != "the failure" {
		t.Errorf("failure past the pass cap lost: %+v", f)
	}
	if s := summaries(g)["p"]; s.Counts["pass"] != n || s.Counts["fail"] != 1 {
		t.Errorf("counts %v", s.Counts)
	}
	if !hasLoss(g, "item-cap", "5 tests") {
		t.Errorf("losses %v", g.Losses)
	}
	long := "--- FAIL: TestL (0.00s)\n    l_test.go:1: " + strings.Repeat("x", 10_000) + "\nFAIL\tp\t0.1s\n"
	g = parse(t, goTest, 1, long, "")
	if f := failing(g)["p TestL"]; f == nil || len(f.Message) > maxMessage+len("…") {
		t.Errorf("message not bounded: %d bytes", len(f.Message))
	}
}

func TestDeterministic(t *testing.T) {
	for _, name := range caseNames(t) {
		stdout, stderr, exit := readCase(t, name)
		a := marshal(t, parse(t, goTest, exit, stdout, stderr))
		b := marshal(t, parse(t, goTest, exit, stdout, stderr))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two parses differ", name)
		}
	}
}
