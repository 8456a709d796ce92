package jest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

var update = flag.Bool("update", false, "rewrite the golden graphs in testdata")

// capture is one real run kept in testdata (see testdata/README.md).
type capture struct {
	stdout, stderr []byte
	exit           int
}

func load(t *testing.T, name string) capture {
	t.Helper()
	read := func(ext string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name+"."+ext))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	exit, err := strconv.Atoi(strings.TrimSpace(string(read("exit"))))
	if err != nil {
		t.Fatal(err)
	}
	return capture{read("stdout"), read("stderr"), exit}
}

func parse(t *testing.T, argv []string, exit int, stdout, stderr []byte) *evidence.Graph {
	t.Helper()
	return profiletest.Parse(t, Profile, argv, exit, stdout, stderr)
}

func graphJSON(t *testing.T, g *evidence.Graph) []byte { return profiletest.JSON(t, g) }

func failing(g *evidence.Graph) []string { return profiletest.Failing(g) }

func summary(g *evidence.Graph, name string) map[string]int {
	for _, it := range g.Items {
		if it.Kind == evidence.KindSummary && it.Name == name {
			return it.Counts
		}
	}
	return nil
}

func item(t *testing.T, g *evidence.Graph, pkg, name string) evidence.Item {
	t.Helper()
	for _, it := range g.Items {
		if it.Kind == evidence.KindTest && it.Package == pkg && it.Name == name {
			return it
		}
	}
	t.Fatalf("no test %s|%s", pkg, name)
	return evidence.Item{}
}

var (
	jestFailing = []string{
		"src/async.test.js|times out", "src/broken.test.js|Test suite failed to run",
		"src/math.test.js|math › mul › multiplies", "src/math.test.js|math › mul › multiplies by zero",
		"src/math.test.js|math › parses objects", "src/math.test.js|math › rejects numbers",
		"src/snap.test.js|renders a greeting",
	}
	vitestFailing = []string{
		"src/async.test.ts|times out", "src/broken.test.ts|Test suite failed to run",
		"src/math.test.ts|math > mul > multiplies", "src/math.test.ts|math > mul > multiplies by zero",
		"src/math.test.ts|math > parses objects", "src/math.test.ts|math > rejects numbers",
	}
	jestCounts   = map[string]int{"failed": 6, "passed": 6, "skipped": 1, "todo": 1, "total": 14}
	vitestCounts = map[string]int{"failed": 5, "passed": 6, "skipped": 1, "todo": 1, "total": 13}
)

func TestCaptures(t *testing.T) {
	mathOnly := []string{"src/math.test.js|math › mul › multiplies", "src/math.test.js|math › mul › multiplies by zero",
		"src/math.test.js|math › parses objects", "src/math.test.js|math › rejects numbers"}
	cases := []struct {
		name    string
		argv    []string
		tool    string
		verdict string
		failing []string
		tests   map[string]int // the Tests summary
		passes  int            // passing test items
		loss    bool
	}{
		{name: "jest-multi", verdict: "fail", failing: jestFailing, tests: jestCounts},
		{name: "jest-verbose", verdict: "fail", failing: jestFailing, tests: jestCounts, passes: 6},
		{name: "jest-single", verdict: "fail", failing: mathOnly, tests: map[string]int{"failed": 4, "passed": 3, "skipped": 1, "todo": 1, "total": 9}, passes: 3},
		{name: "jest-color", verdict: "fail", failing: jestFailing, tests: jestCounts},
		{name: "jest-pty", verdict: "fail", failing: jestFailing, tests: jestCounts},
		{name: "jest-pass", verdict: "pass", tests: map[string]int{"passed": 4, "total": 4}},
		{name: "jest-pass-verbose", verdict: "pass", tests: map[string]int{"passed": 4, "total": 4}, passes: 4},
		{name: "npm-test-jest", argv: []string{"npm", "test"}, verdict: "fail", failing: jestFailing, tests: jestCounts},
		{name: "jest-merged", verdict: "fail", failing: jestFailing, tests: jestCounts},
		{name: "jest-broken-only", verdict: "error", failing: []string{"src/broken.test.js|Test suite failed to run"}, tests: map[string]int{"total": 0}},
		{name: "jest-no-tests", verdict: "error"},
		{name: "jest-ts", verdict: "fail", failing: []string{"src/calc.test.ts|Test suite failed to run"}, tests: map[string]int{"passed": 1, "total": 1}},
		{name: "jest-ts-config", verdict: "error", failing: []string{"src/calc.test.ts|Test suite failed to run", "src/ok.test.ts|Test suite failed to run"}, tests: map[string]int{"total": 0}},
		{name: "jest-killed", verdict: "fail", failing: []string{"src/a.test.js|a fails"}, loss: true},
		{name: "jest-killed-pass", verdict: "", loss: true},
		{name: "vitest-fail", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest-nocolor", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest-verbose", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts, passes: 6},
		{name: "vitest-pty", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest-pass", tool: "vitest", verdict: "pass", tests: map[string]int{"passed": 4, "total": 4}},
		{name: "npm-test-vitest", argv: []string{"npm", "test"}, tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest-merged", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest1-fail", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest1-color", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts},
		{name: "vitest1-verbose", tool: "vitest", verdict: "fail", failing: vitestFailing, tests: vitestCounts, passes: 6},
		{name: "vitest-killed", tool: "vitest", verdict: "fail", loss: true, failing: []string{"src/math.test.ts|multiplies",
			"src/math.test.ts|multiplies by zero", "src/math.test.ts|parses objects", "src/math.test.ts|rejects numbers"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := load(t, c.name)
			argv := c.argv
			if argv == nil {
				argv = []string{"jest"}
				if c.tool == "vitest" {
					argv = []string{"vitest", "run"}
				}
			}
			g := parse(t, argv, cp.exit, cp.stdout, cp.stderr)
			tool := c.tool
			if tool == "" {
				tool = "jest"
			}
			if g.Tool != tool {
				t.Errorf("tool %q, want %q", g.Tool, tool)
			}
			if g.Verdict != c.verdict {
				t.Errorf("verdict %q, want %q (losses %v)", g.Verdict, c.verdict, g.Losses)
			}
			if got := failing(g); !slices.Equal(got, c.failing) {
				t.Errorf("failing\n got %q\nwant %q", got, c.failing)
			}
			if got := summary(g, "Tests"); !mapsEqual(got, c.tests) {
				t.Errorf("Tests summary %v, want %v", got, c.tests)
			}
			if got := len(g.Tests(evidence.OutcomePass)); got != c.passes {
				t.Errorf("%d passing items, want %d", got, c.passes)
			}
			if got := len(g.Losses) > 0; got != c.loss {
				t.Errorf("losses %v, want some: %v", g.Losses, c.loss)
			}
			for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
				if it.Class == "" || it.File == "" || it.Span.IsZero() {
					t.Errorf("failing %s|%s lacks class, file or span: %+v", it.Package, it.Name, it)
				}
				if it.Attrs["named"] == "" && it.Detail.IsZero() {
					t.Errorf("failing %s|%s has no detail span", it.Package, it.Name)
				}
			}
			if len(g.Items) == 0 && c.name != "jest-killed-pass" { // one PASS line and no summary: text says it better
				t.Error("no items: the registry would fall back to text")
			}
			checkSpans(t, g, cp)
			golden(t, c.name, g)
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func golden(t *testing.T, name string, g *evidence.Graph) {
	t.Helper()
	got := graphJSON(t, g)
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("graph differs from %s (run with -update after checking the change)\n%s", path, got)
	}
}

func checkSpans(t *testing.T, g *evidence.Graph, cp capture) {
	t.Helper()
	lines := map[string]int{evidence.Stdout: evidence.CountLines(cp.stdout), evidence.Stderr: evidence.CountLines(cp.stderr)}
	for _, it := range g.Items {
		for _, sp := range []evidence.Span{it.Span, it.Detail} {
			if sp.IsZero() {
				continue
			}
			if sp.From < 1 || sp.To < sp.From || sp.To > lines[sp.Stream] {
				t.Errorf("%s %s|%s: span %s outside the stream (%d lines)", it.Kind, it.Package, it.Name, sp.Handle(), lines[sp.Stream])
			}
		}
	}
}

func TestFailureDetails(t *testing.T) {
	cp := load(t, "jest-multi")
	g := parse(t, []string{"jest"}, cp.exit, cp.stdout, cp.stderr)
	cases := []struct {
		pkg, name, class, message, file string
		line                            int
		attrs                           map[string]string
	}{
		{"src/math.test.js", "math › mul › multiplies", "AssertionError", "expect(received).toBe(expected) // Object.is equality",
			"src/math.test.js", 15, map[string]string{"expected": "6", "received": "7", "matcher": "toBe"}},
		// The innermost project frame: the source line that threw.
		{"src/math.test.js", "math › rejects numbers", "TypeError", "TypeError: parse expects a string", "src/math.js", 9, nil},
		// The first frame is in node_modules; the test's own line is in the Cause.
		{"src/async.test.js", "times out", "timeout", "Exceeded timeout of 200 ms for a test.", "src/async.test.js", 5, nil},
		{"src/snap.test.js", "renders a greeting", "AssertionError", "expect(received).toMatchSnapshot()", "src/snap.test.js", 2,
			map[string]string{"matcher": "toMatchSnapshot"}},
		{"src/broken.test.js", SuiteName, "SyntaxError", "SyntaxError: src/broken.test.js: Unexpected token (1:11)",
			"src/broken.test.js", 1, nil},
	}
	for _, c := range cases {
		it := item(t, g, c.pkg, c.name)
		if it.Class != c.class || it.Message != c.message || it.File != c.file || it.Line != c.line {
			t.Errorf("%s: got %q %q at %s:%d, want %q %q at %s:%d", c.name, it.Class, it.Message, it.File, it.Line,
				c.class, c.message, c.file, c.line)
		}
		for k, v := range c.attrs {
			if it.Attrs[k] != v {
				t.Errorf("%s: attr %s = %q, want %q", c.name, k, it.Attrs[k], v)
			}
		}
	}
	if it := item(t, g, "src/math.test.js", "math › mul › multiplies"); it.Span.Handle() != "run:test#stderr:L35" || it.Detail.Handle() != "run:test#stderr:L35-50" {
		t.Errorf("multiplies: span %s detail %s", it.Span.Handle(), it.Detail.Handle())
	}
	if it := item(t, g, "src/broken.test.js", SuiteName); it.Outcome != evidence.OutcomeError {
		t.Errorf("suite outcome %q, want error", it.Outcome)
	}

	// ts-jest: the type error is both the suite's failure and a diagnostic.
	ts := load(t, "jest-ts")
	g = parse(t, []string{"jest"}, ts.exit, ts.stdout, ts.stderr)
	if it := item(t, g, "src/calc.test.ts", SuiteName); it.Class != "build" || it.Line != 8 || it.Attrs["code"] != "TS2322" {
		t.Errorf("ts suite: %+v", it)
	}
	d := g.Count(func(it *evidence.Item) bool {
		return it.Kind == evidence.KindDiagnostic && it.Code == "TS2322" && it.File == "src/calc.test.ts" && it.Line == 8 && it.Col == 11
	})
	if d != 1 {
		t.Errorf("%d TS2322 diagnostics, want 1", d)
	}

	v := load(t, "vitest-nocolor")
	g = parse(t, []string{"vitest"}, v.exit, v.stdout, v.stderr)
	for _, c := range []struct {
		name, class, message, file string
		line                       int
	}{
		{"math > mul > multiplies", "AssertionError", "AssertionError: expected 7 to be 6 // Object.is equality", "src/math.test.ts", 16},
		{"math > rejects numbers", "TypeError", "TypeError: parse expects a string", "src/math.ts", 9},
	} {
		it := item(t, g, "src/math.test.ts", c.name)
		if it.Class != c.class || it.Message != c.message || it.File != c.file || it.Line != c.line {
			t.Errorf("%s: %+v", c.name, it)
		}
	}
	if it := item(t, g, "src/async.test.ts", "times out"); it.Class != "timeout" {
		t.Errorf("vitest timeout class %q", it.Class)
	}
	if it := item(t, g, "src/broken.test.ts", SuiteName); it.Outcome != evidence.OutcomeError || it.Line != 2 {
		t.Errorf("vitest suite: %+v", it)
	}
}

// Passing tests that print reporter-looking text ("FAIL src/fake.test.js",
// "● fake › test", "Tests: 9 failed, 9 total", vitest's " FAIL  … > …")
// change nothing.
func TestFailureLookingOutputInPassingTest(t *testing.T) {
	for _, name := range []string{"jest-verbose", "jest-multi", "jest-merged", "vitest-verbose", "vitest-merged", "vitest1-fail", "jest-pass-verbose"} {
		cp := load(t, name)
		g := parse(t, []string{"jest"}, cp.exit, cp.stdout, cp.stderr)
		for _, it := range g.Tests() {
			if strings.Contains(it.Package, "fake") || strings.Contains(it.Name, "fake") {
				t.Errorf("%s: test from console output: %s|%s", name, it.Package, it.Name)
			}
		}
		if c := summary(g, "Tests"); c["failed"] == 9 || c["total"] == 9 && name != "jest-single" || c["failed"] == 1 && name == "jest-pass-verbose" {
			t.Errorf("%s: summary from console output: %v", name, c)
		}
	}
	// A program's own write to stdout while jest reports on stderr.
	cp := load(t, "jest-pass")
	fake := []byte("PASS src/x.test.js\nFAIL src/fake.test.js\n  ● fake › test\n\n    boom\n\n")
	g := parse(t, []string{"jest"}, 0, fake, cp.stderr)
	if g.Verdict != "pass" || len(failing(g)) != 0 {
		t.Errorf("stdout noise: verdict %q failing %q", g.Verdict, failing(g))
	}
}

func TestExitStatusDisagrees(t *testing.T) {
	for _, name := range []string{"jest-pass", "vitest-pass"} {
		cp := load(t, name)
		g := parse(t, []string{"jest"}, 1, cp.stdout, cp.stderr)
		if g.Verdict != "" || len(g.Losses) == 0 {
			t.Errorf("%s with exit 1: verdict %q losses %v", name, g.Verdict, g.Losses)
		}
	}
	for _, name := range []string{"jest-multi", "vitest-fail"} {
		cp := load(t, name)
		if g := parse(t, []string{"jest"}, 0, cp.stdout, cp.stderr); g.Verdict != "fail" {
			t.Errorf("%s with exit 0: verdict %q, want fail", name, g.Verdict)
		}
	}
	// A failure report the summary does not count: no verdict either way.
	cp := load(t, "jest-pass")
	stderr := bytes.Replace(cp.stderr, []byte("Test Suites:"), []byte("FAIL src/x.test.js\n  ● x › y\n\n    boom\n\nTest Suites:"), 1)
	g := parse(t, []string{"jest"}, 0, cp.stdout, stderr)
	if g.Verdict != "" || len(g.Losses) == 0 {
		t.Errorf("failure the summary does not count: verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestColourAndPty(t *testing.T) {
	pairs := [][2]string{{"jest-color", "jest-multi"}, {"jest-pty", "jest-multi"}, {"vitest-fail", "vitest-nocolor"},
		{"vitest-pty", "vitest-nocolor"}, {"vitest1-color", "vitest1-fail"}}
	for _, pair := range pairs {
		a, b := load(t, pair[0]), load(t, pair[1])
		if !bytes.Contains(a.stdout, []byte("\x1b[")) && !bytes.Contains(a.stderr, []byte("\x1b[")) {
			t.Fatalf("%s holds no colour", pair[0])
		}
		ga := parse(t, []string{"jest"}, a.exit, a.stdout, a.stderr)
		gb := parse(t, []string{"jest"}, b.exit, b.stdout, b.stderr)
		if ga.Verdict != gb.Verdict || !slices.Equal(failing(ga), failing(gb)) || !mapsEqual(summary(ga, "Tests"), summary(gb, "Tests")) {
			t.Errorf("%s vs %s: verdict %q/%q failing %q/%q", pair[0], pair[1], ga.Verdict, gb.Verdict, failing(ga), failing(gb))
		}
		for i, it := range ga.Items {
			if it.Kind != evidence.KindTest {
				continue
			}
			if strings.ContainsRune(it.Message, 0x1b) || strings.ContainsRune(it.Name, 0x1b) {
				t.Errorf("terminal decoration left in %q / %q", it.Name, it.Message)
			}
			if i < len(gb.Items) && gb.Items[i].Kind == evidence.KindTest && (it.Message != gb.Items[i].Message || it.Line != gb.Items[i].Line) {
				t.Errorf("%s: %q at %d vs %q at %d", it.Name, it.Message, it.Line, gb.Items[i].Message, gb.Items[i].Line)
			}
		}
	}
	// The pty run redraws a live summary ("Tests 1 failed | 1 passed (2)")
	// many times; only the final one counts.
	cp := load(t, "vitest-pty")
	g := parse(t, []string{"vitest"}, cp.exit, cp.stdout, cp.stderr)
	if n := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindSummary && it.Name == "Tests" }); n != 1 {
		t.Errorf("%d Tests summaries", n)
	}
}

func TestCRLF(t *testing.T) {
	crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
	for _, name := range []string{"jest-verbose", "vitest-nocolor", "jest-ts"} {
		cp := load(t, name)
		a := parse(t, []string{"jest"}, cp.exit, cp.stdout, cp.stderr)
		b := parse(t, []string{"jest"}, cp.exit, crlf(cp.stdout), crlf(cp.stderr))
		if !bytes.Equal(graphJSON(t, a), graphJSON(t, b)) {
			t.Errorf("%s: CRLF changes the graph", name)
		}
	}
}

func TestTruncated(t *testing.T) {
	for _, name := range []string{"jest-pass-verbose", "jest-verbose", "vitest-verbose", "vitest-pass"} {
		cp := load(t, name)
		// jest reports on stderr, vitest's summary is on stdout.
		main, other := cp.stderr, cp.stdout
		if strings.HasPrefix(name, "vitest") {
			main, other = cp.stdout, cp.stderr
		}
		lines := bytes.SplitAfter(main, []byte("\n"))
		for cut := 0; cut < len(lines); cut++ {
			head := bytes.Join(lines[:cut], nil)
			if bytes.Contains(head, []byte("Tests:")) || bytes.Contains(head, []byte(" Tests ")) {
				break
			}
			var g *evidence.Graph
			if strings.HasPrefix(name, "vitest") {
				g = parse(t, []string{"vitest"}, 143, head, other)
			} else {
				g = parse(t, []string{"jest"}, 143, other, head)
			}
			if g.Verdict == "pass" {
				t.Fatalf("%s cut after %d lines: verdict pass", name, cut)
			}
			if len(g.Items) > 0 && len(g.Losses) == 0 && g.Verdict == "" {
				t.Errorf("%s cut after %d lines: items but no loss", name, cut)
			}
		}
	}
}

func TestItemCap(t *testing.T) {
	var b strings.Builder
	n := MaxItems + 5
	b.WriteString("PASS src/big.test.js\n")
	for i := range n {
		b.WriteString("  ✓ t" + strconv.Itoa(i) + " (1 ms)\n")
	}
	b.WriteString("\nTest Suites: 1 passed, 1 total\nTests:       " + strconv.Itoa(n) + " passed, " + strconv.Itoa(n) + " total\n")
	g := parse(t, []string{"jest"}, 0, nil, []byte(b.String()))
	if got := len(g.Tests()); got != MaxItems {
		t.Errorf("%d tests, want %d", got, MaxItems)
	}
	capped := false
	for _, l := range g.Losses {
		capped = capped || l.Code == "item-cap"
	}
	if !capped || g.Verdict != "pass" {
		t.Errorf("verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestArgv(t *testing.T) {
	cases := []struct {
		argv []string
		want bool
	}{
		{[]string{"jest"}, true},
		{[]string{"jest", "--ci", "src/a.test.js"}, true},
		{[]string{"vitest"}, true},
		{[]string{"vitest", "run"}, true},
		{[]string{"vitest", "--run", "src"}, true},
		{[]string{"vitest", "bench"}, false},
		{[]string{"react-scripts", "test", "--watchAll=false"}, true},
		{[]string{"react-scripts", "build"}, false},
		{[]string{"yarn", "jest"}, true},
		{[]string{"pnpm", "vitest", "run"}, true},
		{[]string{"yarn", "run", "jest"}, true},
		{[]string{"node", "node_modules/.bin/jest", "--ci"}, true},
		{[]string{"node", "node_modules/vitest/vitest.mjs", "run"}, true},
		{[]string{"node", "server.js"}, false},
		{[]string{"npm", "test"}, false}, // content decides
		{[]string{"mocha"}, false},
		{[]string{"cargo", "test"}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := Profile.Argv(c.argv); got != c.want {
			t.Errorf("Argv(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}

func TestContent(t *testing.T) {
	for _, name := range []string{"npm-test-jest", "npm-test-vitest", "jest-multi", "jest-pass", "vitest-pass", "vitest-pty", "jest-pty", "vitest1-fail"} {
		cp := load(t, name)
		if !Profile.Content(evidence.BytesSource([]string{"npm", "test"}, cp.exit, cp.stdout, cp.stderr)) {
			t.Errorf("%s: content not recognised", name)
		}
	}
	for _, text := range []string{"", "hello\n", "test result: ok. 1 passed; 0 failed\n", "=== RUN TestX\n--- PASS: TestX\n", "PASS\nok  \tx\t0.1s\n"} {
		if Profile.Content(evidence.BytesSource([]string{"make"}, 0, []byte(text), nil)) {
			t.Errorf("content %q recognised", text)
		}
	}
}

func TestDeterministic(t *testing.T) {
	cp := load(t, "vitest-verbose")
	a := graphJSON(t, parse(t, []string{"vitest"}, cp.exit, cp.stdout, cp.stderr))
	for range 3 {
		if b := graphJSON(t, parse(t, []string{"vitest"}, cp.exit, cp.stdout, cp.stderr)); !bytes.Equal(a, b) {
			t.Fatal("same input, different graph")
		}
	}
}

func TestCursorUps(t *testing.T) {
	for in, want := range map[string]int{"plain": 0, "\x1b[1A\x1b[K": 1, "\x1b[K\x1b[1A\x1b[K\x1b[1A": 2, "\x1b[3A": 3, "\x1b[A": 1, "\x1b[2K": 0} {
		if got := cursorUps([]byte(in)); got != want {
			t.Errorf("cursorUps(%q) = %d, want %d", in, got, want)
		}
	}
}
