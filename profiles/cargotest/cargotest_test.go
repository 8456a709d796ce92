package cargotest

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

// sumCounts adds a key over the summary items.
func sumCounts(g *evidence.Graph, key string) int {
	n := 0
	for _, it := range g.Items {
		if it.Kind == evidence.KindSummary {
			n += it.Counts[key]
		}
	}
	return n
}

func outcome(g *evidence.Graph, pkg, name string) evidence.Outcome {
	for _, it := range g.Items {
		if it.Kind == evidence.KindTest && it.Package == pkg && it.Name == name {
			return it.Outcome
		}
	}
	return ""
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

var calcLibFailures = []string{
	"calc|tests::adds_wrong", "calc|tests::checks_positive", "calc|tests::div_does_not_panic",
	"calc|tests::div_wrong_message", "calc|tests::nested::deep_unwrap", "calc|tests::returns_err",
}

func TestCaptures(t *testing.T) {
	all := append(append([]string{}, calcLibFailures...), "calc|src/lib.rs - sub (line 14)", "it|integration_strings")
	slices.Sort(all)
	quiet := []string{"|integration_strings", "|src/lib.rs - sub (line 14)", "|tests::adds_wrong", "|tests::checks_positive",
		"|tests::div_does_not_panic", "|tests::div_wrong_message", "|tests::nested::deep_unwrap", "|tests::returns_err"}
	cases := []struct {
		name     string
		verdict  string
		failing  []string
		passed   int // summed over the summaries
		failed   int
		loss     bool
		diagErrs int // diagnostics of severity error
	}{
		{name: "pass", verdict: "pass", passed: 6},
		{name: "pass-pty", verdict: "pass", passed: 6},
		{name: "fail", verdict: "fail", failing: calcLibFailures, passed: 4, failed: 6},
		{name: "fail-backtrace", verdict: "fail", failing: calcLibFailures, passed: 4, failed: 6},
		{name: "fail-pty", verdict: "fail", failing: all, passed: 7, failed: 8},
		{name: "no-fail-fast", verdict: "fail", failing: all, passed: 7, failed: 8},
		{name: "merged", verdict: "fail", failing: all, passed: 7, failed: 8},
		{name: "quiet", verdict: "fail", failing: quiet, passed: 7, failed: 8},
		{name: "nocapture", verdict: "fail", failing: calcLibFailures, passed: 4, failed: 6},
		{name: "show-output", verdict: "fail", failing: calcLibFailures, passed: 4, failed: 6},
		{name: "filtered", verdict: "fail", failing: []string{"calc|tests::adds_wrong"}, passed: 1, failed: 1},
		{name: "compile-error", verdict: "error", failing: []string{"broken|build"}, diagErrs: 2},
		{name: "compile-error-pty", verdict: "error", failing: []string{"broken|build"}, diagErrs: 2},
		{name: "compile-error-test", verdict: "error", failing: []string{"brokentest|build"}, diagErrs: 1},
		{name: "workspace", verdict: "fail", failing: []string{"core_a|tests::triples_neg", "edge|edge_odd", "util_b|util_b/src/lib.rs - half (line 3)"}, passed: 4, failed: 3},
		{name: "crash", verdict: "fail", loss: true, diagErrs: 1},
		{name: "resolve-error", verdict: "error", diagErrs: 1},
		{name: "killed", verdict: "", failing: []string{"slow|tests::hangs_forever"}, loss: true},
		{name: "nextest-fail", verdict: "fail", failing: []string{"calc::bin/calc|tests::crashes", "calc::it|integration_hangs", "calc|tests::adds_wrong"}, passed: 3, failed: 1},
		{name: "nextest-pass", verdict: "pass", passed: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := load(t, c.name)
			argv := []string{"cargo", "test"}
			if strings.HasPrefix(c.name, "nextest") {
				argv = []string{"cargo", "nextest", "run"}
			}
			g := parse(t, argv, cp.exit, cp.stdout, cp.stderr)
			if g.Verdict != c.verdict {
				t.Errorf("verdict %q, want %q (losses %v)", g.Verdict, c.verdict, g.Losses)
			}
			if got := failing(g); !slices.Equal(got, c.failing) {
				t.Errorf("failing\n got %q\nwant %q", got, c.failing)
			}
			if got := sumCounts(g, "passed"); got != c.passed {
				t.Errorf("passed %d, want %d", got, c.passed)
			}
			if got := sumCounts(g, "failed"); got != c.failed {
				t.Errorf("failed %d, want %d", got, c.failed)
			}
			if got := len(g.Losses) > 0; got != c.loss {
				t.Errorf("losses %v, want some: %v", g.Losses, c.loss)
			}
			errs := g.Count(func(it *evidence.Item) bool {
				return it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError
			})
			if errs != c.diagErrs {
				t.Errorf("%d error diagnostics, want %d", errs, c.diagErrs)
			}
			for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
				if it.Class == "" || it.Span.IsZero() {
					t.Errorf("failing %s|%s lacks class or span: %+v", it.Package, it.Name, it)
				}
			}
			checkSpans(t, g, cp)
			golden(t, c.name, g)
		})
	}
}

// golden compares the graph with testdata/NAME.golden.json.
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

// checkSpans verifies every span lies inside its stream.
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
	cp := load(t, "no-fail-fast")
	g := parse(t, []string{"cargo", "test", "--no-fail-fast"}, cp.exit, cp.stdout, cp.stderr)
	cases := []struct {
		pkg, name, class, message, file string
		line                            int
		attrs                           map[string]string
	}{
		{"calc", "tests::adds_wrong", "panic", "assertion `left == right` failed", "src/lib.rs", 40, map[string]string{"left": "3", "right": "4"}},
		{"calc", "tests::checks_positive", "panic", "expected positive, got -4", "src/lib.rs", 54, nil},
		{"calc", "tests::div_does_not_panic", "should_panic", "test did not panic as expected", "src/lib.rs", 65, nil},
		{"calc", "tests::div_wrong_message", "should_panic", "panic did not contain expected string", "src/lib.rs", 24,
			map[string]string{"panic": `"division by zero"`, "expected": `"overflow"`}},
		{"calc", "tests::nested::deep_unwrap", "panic", "called `Option::unwrap()` on a `None` value", "src/lib.rs", 99, nil},
		{"calc", "tests::returns_err", "error", `Error: "bad input"`, "", 0, nil},
		{"it", "integration_strings", "panic", "assertion `left == right` failed: strings differ for greeting", "tests/it.rs", 10,
			map[string]string{"left": `"hello\nworld"`, "right": `"hello\nWorld"`}},
		// The doc-test panicked in a temporary file; the location comes from its name.
		{"calc", "src/lib.rs - sub (line 14)", "panic", "assertion `left == right` failed", "src/lib.rs", 14, nil},
	}
	for _, c := range cases {
		it := item(t, g, c.pkg, c.name)
		if it.Class != c.class || it.Message != c.message || it.File != c.file || it.Line != c.line {
			t.Errorf("%s: got class %q message %q at %s:%d, want %q %q at %s:%d", c.name, it.Class, it.Message, it.File, it.Line,
				c.class, c.message, c.file, c.line)
		}
		for k, v := range c.attrs {
			if it.Attrs[k] != v {
				t.Errorf("%s: attr %s = %q, want %q", c.name, k, it.Attrs[k], v)
			}
		}
		if it.Detail.IsZero() {
			t.Errorf("%s: no detail span", c.name)
		}
	}
	// The failure block of adds_wrong is stdout lines 23-29 of this capture.
	if it := item(t, g, "calc", "tests::adds_wrong"); it.Detail.Handle() != "run:test#stdout:L23-29" || it.Span.Handle() != "run:test#stdout:L5" {
		t.Errorf("adds_wrong span %s detail %s", it.Span.Handle(), it.Detail.Handle())
	}
}

// A passing test that prints "test tests::adds ... FAILED", a panic line and
// a `test result: FAILED. 0 passed; 9 failed` must not change anything.
func TestFailureLookingOutputInPassingTest(t *testing.T) {
	for _, name := range []string{"nocapture", "show-output"} {
		t.Run(name, func(t *testing.T) {
			cp := load(t, name)
			g := parse(t, []string{"cargo", "test", "--lib"}, cp.exit, cp.stdout, cp.stderr)
			for _, n := range []string{"tests::adds", "tests::prints_failure_looking_text"} {
				if o := outcome(g, "calc", n); o != evidence.OutcomePass {
					t.Errorf("%s: outcome %q, want pass", n, o)
				}
			}
			if got := sumCounts(g, "failed"); got != 6 {
				t.Errorf("failed count %d, want 6 (from the real summary)", got)
			}
			if n := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindSummary }); n != 1 {
				t.Errorf("%d summaries, want 1", n)
			}
		})
	}
	// Under --nocapture the panics went to stderr; they still locate the failures.
	cp := load(t, "nocapture")
	g := parse(t, []string{"cargo", "test"}, cp.exit, cp.stdout, cp.stderr)
	if it := item(t, g, "calc", "tests::adds_wrong"); it.File != "src/lib.rs" || it.Line != 40 {
		t.Errorf("adds_wrong located at %s:%d", it.File, it.Line)
	}
}

func TestExitStatusDisagrees(t *testing.T) {
	pass := load(t, "pass")
	g := parse(t, []string{"cargo", "test"}, 101, pass.stdout, pass.stderr)
	if g.Verdict != "" || len(g.Losses) == 0 {
		t.Errorf("passing text with exit 101: verdict %q losses %v, want \"\" and a loss", g.Verdict, g.Losses)
	}
	fail := load(t, "no-fail-fast")
	g = parse(t, []string{"cargo", "test"}, 0, fail.stdout, fail.stderr)
	if g.Verdict != "fail" {
		t.Errorf("failing text with exit 0: verdict %q, want fail", g.Verdict)
	}
	// Killed after every binary reported: the text passed, the run did not finish.
	g = parse(t, []string{"cargo", "test"}, 137, pass.stdout, pass.stderr)
	if g.Verdict != "" || len(g.Losses) == 0 {
		t.Errorf("passing text with exit 137: verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestCRLF(t *testing.T) {
	for _, name := range []string{"no-fail-fast", "compile-error", "merged"} {
		cp := load(t, name)
		crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
		a := parse(t, []string{"cargo", "test"}, cp.exit, cp.stdout, cp.stderr)
		b := parse(t, []string{"cargo", "test"}, cp.exit, crlf(cp.stdout), crlf(cp.stderr))
		if !bytes.Equal(graphJSON(t, a), graphJSON(t, b)) {
			t.Errorf("%s: CRLF changes the graph", name)
		}
	}
}

// The pty captures are the pipe captures with colour: same identities.
func TestColour(t *testing.T) {
	for _, pair := range [][2]string{{"fail-pty", "no-fail-fast"}, {"pass-pty", "pass"}, {"compile-error-pty", "compile-error"}} {
		a, b := load(t, pair[0]), load(t, pair[1])
		if !bytes.Contains(a.stdout, []byte("\x1b[")) && !bytes.Contains(a.stderr, []byte("\x1b[")) {
			t.Fatalf("%s holds no colour", pair[0])
		}
		ga := parse(t, []string{"cargo", "test"}, a.exit, a.stdout, a.stderr)
		gb := parse(t, []string{"cargo", "test"}, b.exit, b.stdout, b.stderr)
		if ga.Verdict != gb.Verdict || !slices.Equal(failing(ga), failing(gb)) || len(ga.Items) != len(gb.Items) {
			t.Errorf("%s vs %s: verdict %q/%q, failing %q/%q, %d/%d items", pair[0], pair[1], ga.Verdict, gb.Verdict,
				failing(ga), failing(gb), len(ga.Items), len(gb.Items))
		}
		for _, it := range ga.Items {
			if strings.ContainsRune(it.Message, 0x1b) || strings.ContainsRune(it.Name, 0x1b) || strings.HasSuffix(it.Name, "B") {
				t.Errorf("terminal decoration left in %q / %q", it.Name, it.Message)
			}
		}
	}
}

func TestTruncated(t *testing.T) {
	cp := load(t, "pass")
	lines := bytes.SplitAfter(cp.stdout, []byte("\n"))
	for cut := 1; cut < len(lines); cut++ {
		out := bytes.Join(lines[:cut], nil)
		g := parse(t, []string{"cargo", "test"}, 137, out, cp.stderr)
		if g.Verdict == "pass" {
			t.Fatalf("cut after %d lines: verdict pass", cut)
		}
		// Cut inside the first binary: nothing says it passed.
		if cut < 6 && (len(g.Losses) == 0 || g.Verdict != "") {
			t.Errorf("cut after %d lines: verdict %q losses %v", cut, g.Verdict, g.Losses)
		}
	}
	// Cut in the middle of a failing binary's report: the FAILED lines stand.
	f := load(t, "no-fail-fast")
	out := bytes.Join(bytes.SplitAfter(f.stdout, []byte("\n"))[:20], nil)
	g := parse(t, []string{"cargo", "test"}, 124, out, f.stderr)
	if g.Verdict != "fail" || len(g.Losses) == 0 || len(failing(g)) != 6 {
		t.Errorf("cut failing run: verdict %q, %d failing, losses %v", g.Verdict, len(failing(g)), g.Losses)
	}
}

func TestOldPanicFormat(t *testing.T) {
	out := `
running 2 tests
test tests::a ... ok
test tests::b ... FAILED

failures:

---- tests::b stdout ----
thread 'tests::b' panicked at 'assertion failed: ` + "`(left == right)`" + `
  left: ` + "`1`" + `,
 right: ` + "`2`" + `', src/lib.rs:9:9
note: run with ` + "`RUST_BACKTRACE=1`" + ` environment variable to display a backtrace


failures:
    tests::b

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out

`
	g := parse(t, []string{"cargo", "test"}, 101, []byte(out), []byte("     Running target/debug/deps/old-0123456789abcdef\n"))
	it := item(t, g, "old", "tests::b")
	if g.Verdict != "fail" || it.File != "src/lib.rs" || it.Line != 9 || it.Class != "panic" {
		t.Errorf("verdict %q item %+v", g.Verdict, it)
	}
	// A one-line old panic message.
	out2 := strings.Replace(out, "thread 'tests::b' panicked at 'assertion failed: `(left == right)`\n  left: `1`,\n right: `2`', src/lib.rs:9:9",
		"thread 'tests::b' panicked at 'boom', src/lib.rs:3:5", 1)
	g = parse(t, []string{"cargo", "test"}, 101, []byte(out2), nil)
	if it := item(t, g, "", "tests::b"); it.Message != "boom" || it.Line != 3 {
		t.Errorf("old one-line panic: %+v", it)
	}
}

func TestItemCap(t *testing.T) {
	var b strings.Builder
	n := MaxItems + 10
	b.WriteString("\nrunning " + strconv.Itoa(n) + " tests\n")
	for i := range n {
		b.WriteString("test t" + strconv.Itoa(i) + " ... ok\n")
	}
	b.WriteString("\ntest result: ok. " + strconv.Itoa(n) + " passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.00s\n\n")
	g := parse(t, []string{"cargo", "test"}, 0, []byte(b.String()), nil)
	tests := len(g.Tests())
	if tests != MaxItems {
		t.Errorf("%d tests itemised, want %d", tests, MaxItems)
	}
	capped := false
	for _, l := range g.Losses {
		capped = capped || l.Code == "item-cap" && strings.Contains(l.Detail, "10 more")
	}
	if !capped || g.Verdict != "pass" || sumCounts(g, "passed") != n {
		t.Errorf("verdict %q losses %v passed %d", g.Verdict, g.Losses, sumCounts(g, "passed"))
	}
}

func TestLongMessageCapped(t *testing.T) {
	long := strings.Repeat("é", 1000)
	out := "\nrunning 1 test\ntest x ... FAILED\n\nfailures:\n\n---- x stdout ----\n\nthread 'x' panicked at src/lib.rs:1:1:\n" + long +
		"\n\n\nfailures:\n    x\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
	g := parse(t, []string{"cargo", "test"}, 101, []byte(out), nil)
	it := item(t, g, "", "x")
	if len(it.Message) > maxMessage+len("…") || !strings.HasPrefix(long, strings.TrimSuffix(it.Message, "…")) {
		t.Errorf("message not capped at a rune boundary: %d bytes", len(it.Message))
	}
}

func TestArgv(t *testing.T) {
	cases := []struct {
		argv []string
		want bool
	}{
		{[]string{"cargo", "test"}, true},
		{[]string{"cargo", "t", "-p", "x"}, true},
		{[]string{"cargo", "+nightly", "test"}, true},
		{[]string{"cargo", "--color", "always", "-q", "test", "--", "--nocapture"}, true},
		{[]string{"cargo", "nextest", "run"}, true},
		{[]string{"cargo", "nextest", "r", "--no-fail-fast"}, true},
		{[]string{"cargo-nextest", "nextest", "run"}, true},
		{[]string{"cargo", "llvm-cov", "nextest"}, true},
		{[]string{"cargo", "llvm-cov"}, true},
		{[]string{"cross", "test"}, true},
		{[]string{"cargo", "build"}, false},
		{[]string{"cargo", "nextest", "list"}, false},
		{[]string{"cargo", "clippy"}, false},
		{[]string{"cargo"}, false},
		{[]string{"go", "test"}, false},
		{[]string{"pytest"}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := Profile.Argv(c.argv); got != c.want {
			t.Errorf("Argv(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}

func TestContent(t *testing.T) {
	for _, name := range []string{"pass", "fail", "quiet", "merged", "nextest-pass", "killed"} {
		cp := load(t, name)
		if !Profile.Content(evidence.BytesSource([]string{"make", "test"}, cp.exit, cp.stdout, cp.stderr)) {
			t.Errorf("%s: content not recognised", name)
		}
	}
	for _, text := range []string{"", "hello\nworld\n", "ok  \tgithub.com/x/y\t0.01s\n", "error[E0308]: mismatched types\n --> src/lib.rs:1:1\n",
		"PASS src/a.test.js\nTests: 1 passed, 1 total\n"} {
		if Profile.Content(evidence.BytesSource([]string{"make"}, 0, []byte(text), nil)) {
			t.Errorf("content %q recognised", text)
		}
	}
}

func TestDeterministic(t *testing.T) {
	cp := load(t, "workspace")
	a := graphJSON(t, parse(t, []string{"cargo", "test"}, cp.exit, cp.stdout, cp.stderr))
	for range 3 {
		if b := graphJSON(t, parse(t, []string{"cargo", "test"}, cp.exit, cp.stdout, cp.stderr)); !bytes.Equal(a, b) {
			t.Fatal("same input, different graph")
		}
	}
}

func TestStripCharset(t *testing.T) {
	got := string(clean([]byte("test a ... \x1b[32mok\x1b(B\x1b[m")))
	if got != "test a ... ok" {
		t.Errorf("clean = %q", got)
	}
}
