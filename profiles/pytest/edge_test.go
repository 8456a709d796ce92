package pytest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
)

func parseText(t *testing.T, argv []string, exit int, stdout, stderr string) *evidence.Graph {
	t.Helper()
	return parseSource(t, evidence.BytesSource(argv, exit, []byte(stdout), []byte(stderr)))
}

func testByName(g *evidence.Graph, name string) *evidence.Item {
	for _, it := range g.Tests() {
		if it.Name == name {
			return it
		}
	}
	return nil
}

var pytestArgv = []string{"pytest"}

// sep80 draws a separator the way pytest's TerminalWriter.sep does at 80 columns.
func sep80(c, title string) string {
	n := max((80-len(title)-2)/2, 1)
	s := strings.Repeat(c, n) + " " + title + " " + strings.Repeat(c, n)
	if len(s)+1 <= 80 {
		s += c
	}
	return s
}

func banner80(title string) string { return sep80("=", title) }

func TestEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exit    int
		stdout  string
		stderr  string
		verdict string
		failing []string       // names of fail/error items, in order
		counts  map[string]int // of the single summary item; nil: no summary
		check   func(*testing.T, *evidence.Graph)
	}{
		{
			name: "ci-multiline-summary",
			exit: 1,
			stdout: banner80("short test summary info") + "\n" +
				"FAILED test_a.py::test_x - AssertionError: values differ\n" +
				"  assert 1 == 2\n" +
				"   +  where 1 = f()\n" +
				"FAILED test_a.py::test_y - ValueError: boom\n" +
				banner80("2 failed, 1 passed in 0.10s") + "\n",
			verdict: "fail",
			failing: []string{"test_a.py::test_x", "test_a.py::test_y"},
			counts:  map[string]int{"failed": 2, "passed": 1},
			check: func(t *testing.T, g *evidence.Graph) {
				if it := testByName(g, "test_a.py::test_x"); it.Class != "AssertionError" || it.Message != "AssertionError: values differ" {
					t.Errorf("test_x: %+v", it)
				}
			},
		},
		{
			name: "xdist-verbose",
			exit: 1,
			stdout: banner80("test session starts") + "\n" +
				"created: 2/2 workers\n" +
				"[gw0] [ 50%] PASSED test_a.py::test_ok \n" +
				"[gw1] [100%] FAILED test_a.py::test_bad \n" +
				"\n" + banner80("1 failed, 1 passed in 0.50s") + "\n",
			verdict: "fail",
			failing: []string{"test_a.py::test_bad"},
			counts:  map[string]int{"failed": 1, "passed": 1},
		},
		{
			name:    "old-duration-format",
			stdout:  banner80("test session starts") + "\n" + banner80("3 passed, 1 warnings in 0.12 seconds") + "\n",
			verdict: "pass",
			counts:  map[string]int{"passed": 3, "warnings": 1},
		},
		{
			name:    "long-session",
			stdout:  "....\n4 passed in 3725.51s (1:02:05)\n",
			verdict: "pass",
			counts:  map[string]int{"passed": 4},
		},
		{
			name:    "plugin-count-words",
			exit:    1,
			stdout:  "F..\n1 failed, 2 passed, 3 subtests passed, 1 rerun in 0.20s\n",
			verdict: "fail",
			counts:  map[string]int{"failed": 1, "passed": 2, "subtests passed": 3, "rerun": 1},
			check: func(t *testing.T, g *evidence.Graph) {
				if !hasLoss(g, "partial-parse") {
					t.Error("an unnamed failure must be labelled")
				}
			},
		},
		{
			name: "two-sessions",
			exit: 0, // sh -c "pytest a; pytest b": the shell's status is the last one's
			stdout: banner80("test session starts") + "\ncollected 2 items\n\na_test.py .F   [100%]\n\n" +
				banner80("short test summary info") + "\nFAILED a_test.py::test_two - assert 0\n" +
				banner80("1 failed, 1 passed in 0.01s") + "\n" +
				banner80("test session starts") + "\ncollected 1 item\n\nb_test.py .   [100%]\n\n" +
				banner80("1 passed in 0.01s") + "\n",
			verdict: "fail",
			failing: []string{"a_test.py::test_two"},
			check: func(t *testing.T, g *evidence.Graph) {
				s := summaries(g)
				if len(s) != 2 || s[0].Counts["failed"] != 1 || s[1].Counts["passed"] != 1 || s[0].Name != "session 1" {
					t.Errorf("summaries %+v", s)
				}
			},
		},
		{
			name: "rN-names-from-titles",
			exit: 1,
			stdout: "F.\n" + banner80("FAILURES") + "\n" +
				sep80("_", "TestC.test_x") + "\n\n" +
				"    def test_x(self):\n>       assert 1 == 2\nE       assert 1 == 2\n\ntests/test_c.py:3: AssertionError\n" +
				"1 failed, 1 passed in 0.01s\n",
			verdict: "fail",
			failing: []string{"tests/test_c.py::TestC::test_x"},
			counts:  map[string]int{"failed": 1, "passed": 1},
			check: func(t *testing.T, g *evidence.Graph) {
				it := testByName(g, "tests/test_c.py::TestC::test_x")
				if it.Attrs["name_from"] != "header" || it.File != "tests/test_c.py" || it.Line != 3 || it.Package != "tests/test_c.py" {
					t.Errorf("%+v", it)
				}
				if !hasLoss(g, "partial-parse") {
					t.Error("rebuilt names must be labelled")
				}
			},
		},
		{
			name: "long-message-clipped",
			exit: 1,
			stdout: "F\n" + banner80("FAILURES") + "\n" + sep80("_", "test_x") + "\n" +
				"E   AssertionError: " + strings.Repeat("é", 400) + "\n\ntest_a.py:3: AssertionError\n" +
				banner80("short test summary info") + "\nFAILED test_a.py::test_x - AssertionError: ééé...\n1 failed in 0.01s\n",
			verdict: "fail",
			failing: []string{"test_a.py::test_x"},
			counts:  map[string]int{"failed": 1},
			check: func(t *testing.T, g *evidence.Graph) {
				m := testByName(g, "test_a.py::test_x").Message
				if len(m) > maxMsg+len("…") || !strings.HasSuffix(m, "…") || !strings.HasPrefix(m, "AssertionError: é") {
					t.Errorf("message %d bytes: %q", len(m), m)
				}
			},
		},
		{
			name: "keyboard-interrupt-after-failure",
			exit: 2,
			stdout: "F.\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n" +
				"/w/test_k.py:6: KeyboardInterrupt\n(to show a full traceback on KeyboardInterrupt use --full-trace)\n" +
				banner80("short test summary info") + "\nFAILED test_k.py::test_a - assert 0\n1 failed, 1 passed in 0.20s\n",
			verdict: "fail",
			failing: []string{"test_k.py::test_a"},
			counts:  map[string]int{"failed": 1, "passed": 1},
		},
		{
			name:    "usage-error-ingested",
			stdout:  "ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\npytest: error: unrecognized arguments: --bogus\n",
			verdict: "error",
			check: func(t *testing.T, g *evidence.Graph) {
				if len(g.Items) != 1 || g.Items[0].Code != "usage-error" || g.Items[0].Message != "unrecognized arguments: --bogus" {
					t.Errorf("%+v", g.Items)
				}
			},
		},
		{
			name:    "conftest-exception",
			exit:    4,
			stderr:  "Traceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/_pytest/config/__init__.py\", line 1, in x\n_pytest.config.ConftestImportFailure: ValueError: bad setting (from /w/tests/conftest.py)\n",
			verdict: "error",
			failing: []string{"/w/tests/conftest.py"},
			check: func(t *testing.T, g *evidence.Graph) {
				it := g.Tests()[0]
				if it.Class != "ValueError" || it.Attrs["phase"] != "conftest" {
					t.Errorf("%+v", it)
				}
			},
		},
		{
			name: "s-mode-prints-in-progress",
			exit: 0,
			stdout: banner80("test session starts") + "\ncollected 1 item\n\n" +
				"test_p.py::test_prints FAILED test_fake.py::test_nope - boom\n" +
				"=== 7 failed in 1.00s ===\nPASSED\n\n" + banner80("1 passed in 0.01s") + "\n",
			verdict: "pass",
			counts:  map[string]int{"passed": 1},
		},
		{
			name:    "teardown-warnings-after-summary",
			exit:    0,
			stdout:  "..\n" + banner80("warnings summary") + "\ntest_a.py::test_x\n  /w/test_a.py:3: UserWarning: late\n\n-- Docs: https://docs.pytest.org/\n2 passed, 1 warning in 0.01s\n",
			verdict: "pass",
			counts:  map[string]int{"passed": 2, "warnings": 1},
			check: func(t *testing.T, g *evidence.Graph) {
				n := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindRegion && it.Why == "warnings" })
				if n != 1 {
					t.Errorf("%d warnings regions", n)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := parseText(t, pytestArgv, tc.exit, tc.stdout, tc.stderr)
			if g.Verdict != tc.verdict {
				t.Errorf("verdict %q, want %q", g.Verdict, tc.verdict)
			}
			var failing []string
			for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
				failing = append(failing, it.Name)
			}
			if fmt.Sprint(failing) != fmt.Sprint(tc.failing) {
				t.Errorf("failing %q, want %q", failing, tc.failing)
			}
			if tc.counts != nil {
				s := summaries(g)
				if len(s) != 1 || fmt.Sprint(s[0].Counts) != fmt.Sprint(tc.counts) {
					t.Errorf("summaries %+v, want counts %v", s, tc.counts)
				}
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

// TestItemCap: a run with more tests than the cap keeps the first 100,000,
// counts the rest as a loss, and still takes its counts from pytest's line.
func TestItemCap(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	var b strings.Builder
	b.WriteString(banner80("test session starts") + "\n")
	n := maxTests + 5
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "tests/test_big.py::test_case[%d] PASSED  [ 50%%]\n", i)
	}
	b.WriteString(banner80(fmt.Sprintf("%d passed in 9.00s", n)) + "\n")
	g := parseText(t, pytestArgv, 0, b.String(), "")
	if got := len(g.Tests()); got != maxTests {
		t.Errorf("%d test items, want %d", got, maxTests)
	}
	if !hasLoss(g, "item-cap") || g.Verdict != "pass" || summaries(g)[0].Counts["passed"] != n {
		t.Errorf("verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestUnrecognised(t *testing.T) {
	for _, out := range []string{
		"",
		"bash: pytest: command not found\n",
		"hello\nworld\n",
		".\n",
		"ok  \tgithub.com/x/y\t0.01s\n",
	} {
		_, err := Parse(t.Context(), evidence.BytesSource(pytestArgv, 127, []byte(out), nil))
		if !errors.Is(err, ErrUnrecognised) {
			t.Errorf("%q: err %v, want ErrUnrecognised", out, err)
		}
	}
}

func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"pytest", "-q"}, true},
		{[]string{"/usr/bin/pytest"}, true},
		{[]string{"py.test"}, true},
		{[]string{"pytest-3", "tests"}, true},
		{[]string{"python3", "-m", "pytest", "-x"}, true},
		{[]string{"/usr/bin/python3.11", "-X", "dev", "-m", "pytest"}, true},
		{[]string{"python", "-m", "pip", "install"}, false},
		{[]string{"python", "script.py", "-m", "pytest"}, false},
		{[]string{"uv", "run", "pytest", "-q"}, true},
		{[]string{"uv", "run", "--with", "x", "python", "-m", "pytest"}, true},
		{[]string{"poetry", "run", "pytest"}, true},
		{[]string{"coverage", "run", "-m", "pytest"}, true},
		{[]string{"uv", "run", "ruff"}, false},
		{[]string{"go", "test", "./..."}, false},
		{[]string{"pytestify"}, false},
		{nil, false},
	} {
		if got := matchArgv(tc.argv); got != tc.want {
			t.Errorf("matchArgv(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}

// TestContent: every real capture is recognised from its stream heads; the
// other tools' outputs in the shared corpus are not.
func TestContent(t *testing.T) {
	for _, c := range loadCaptures(t) {
		if !looksLikePytest(c.source()) {
			t.Errorf("%s not recognised", c.name)
		}
	}
	corpus := sharedCorpus(t)
	var files []string
	for _, pat := range []string{"gotest/*.txt", "diagnostics/*.in", "loghub2k/*/*.log"} {
		m, _ := filepath.Glob(filepath.Join(corpus, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		testenv.Missing(t, "files in the shared corpus")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := evidence.BytesSource([]string{"make", "test"}, 1, b, nil)
		if looksLikePytest(src) {
			t.Errorf("%s: judged pytest output", f)
		}
		if g, err := Parse(t.Context(), src); err == nil && len(g.Tests(evidence.OutcomeFail, evidence.OutcomeError)) > 0 {
			t.Errorf("%s: parsed failures from another tool's output", f)
		}
	}
}

// sharedCorpus finds shared/corpus from the repository root (the directory
// holding go.mod), skipping the test when it is absent.
func sharedCorpus(t *testing.T) string {
	t.Helper()
	return testenv.Corpus(t, "")
}
