package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
)

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func scratch(t *testing.T) *Scratch {
	t.Helper()
	sc, err := NewScratch(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sc.St.Close() })
	return sc
}

// TestRealPytest runs real pytest on a suite with eight failures of different
// kinds and on a passing suite of 500 tests, through ctx's capture, and
// measures the digests in real o200k_base tokens.
func TestRealPytest(t *testing.T) {
	pytest := testenv.Tool(t, "apt-get install python3-pytest", "pytest", "pytest-3")
	sc := scratch(t)
	ctx := context.Background()

	failing := copyDir(t, "../profiles/pytest/testdata/suites/failing")
	res, err := sc.RunCommand(ctx, []string{pytest, "-p", "no:cacheprovider"}, failing, digest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(res.Digest.Text)
	want := []struct{ name, class, loc string }{
		{"test_basic.py::test_assertion_failure", "AssertionError", "test_basic.py:13"},
		{"test_basic.py::TestRatio::test_uncaught_exception", "ZeroDivisionError", "helpers.py:2"},
		{"test_fixtures.py::test_uses_broken_fixture", "ConnectionError", "conftest.py:9"},
		{"test_import_error.py", "ModuleNotFoundError", "test_import_error.py:3"},
		{"test_markers.py::test_strict_xpass", "XPASS(strict)", ""},
		{"test_params.py::test_square[4-15]", "AssertionError", "test_params.py:9"},
		{"test_output.py::test_failure_with_stdout", "AssertionError", "test_output.py:14"},
		{"test_slow.py::test_slow_failure", "AssertionError", "test_slow.py:11"},
	}
	for _, w := range want {
		line := lineWith(text, w.name+" ")
		if line == "" {
			t.Errorf("the digest does not name %s", w.name)
			continue
		}
		if !strings.Contains(line, w.class) || !strings.Contains(line, w.loc) {
			t.Errorf("%s: the digest line lacks %s or %s: %q", w.name, w.class, w.loc, line)
		}
	}
	if n := len(res.Graph.Tests(evidence.OutcomeFail, evidence.OutcomeError)); n != 8 {
		t.Errorf("%d failing identities, want 8", n)
	}
	tokens, err := Tokens(res.Digest.Text)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("failing suite: %d digest tokens (%s)", tokens, res.Plan.Mode)
	if tokens >= 1500 {
		t.Errorf("failing suite digest is %d tokens, want under 1,500:\n%s", tokens, text)
	}

	passing := copyDir(t, "../profiles/pytest/testdata/suites/passing")
	for _, args := range [][]string{{"-p", "no:cacheprovider"}, {"-q", "-p", "no:cacheprovider"}, {"-v", "-p", "no:cacheprovider"}} {
		res, err := sc.RunCommand(ctx, append([]string{pytest}, args...), passing, digest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tokens, err := Tokens(res.Digest.Text)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("passing suite %v: %d digest tokens", args, tokens)
		if tokens >= 120 {
			t.Errorf("passing suite (%v) digest is %d tokens, want under 120:\n%s", args, tokens, res.Digest.Text)
		}
		if !strings.Contains(string(res.Digest.Text), "500 passed") {
			t.Errorf("the pass digest does not say 500 passed:\n%s", res.Digest.Text)
		}
	}
}

// TestRealGoTest runs real go test on a scratch module with a build failure,
// a panic, a failing subtest and a data race: each is a failure with its
// location in the digest.
func TestRealGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":              "module example.com/scratch\n\ngo 1.22\n",
		"build/build.go":      "package build\n\nfunc F() int { return undefinedName }\n",
		"build/build_test.go": "package build\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
		"boom/boom_test.go":   "package boom\n\nimport \"testing\"\n\nfunc TestPanics(t *testing.T) {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n",
		"sub/sub_test.go":     "package sub\n\nimport \"testing\"\n\nfunc TestTable(t *testing.T) {\n\tt.Run(\"ok\", func(t *testing.T) {})\n\tt.Run(\"bad\", func(t *testing.T) {\n\t\tt.Errorf(\"got %d, want %d\", 1, 2)\n\t})\n}\n",
		"race/race_test.go":   "package race\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n\nfunc TestRace(t *testing.T) {\n\tn := 0\n\tvar wg sync.WaitGroup\n\tfor i := 0; i < 2; i++ {\n\t\twg.Add(1)\n\t\tgo func() { defer wg.Done(); n++ }()\n\t}\n\twg.Wait()\n\t_ = n\n}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sc := scratch(t)
	for _, argv := range [][]string{{"go", "test", "-race", "-count=1", "./..."}, {"go", "test", "-race", "-count=1", "-json", "./..."}} {
		res, err := sc.RunCommand(context.Background(), argv, dir, digest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		text := string(res.Digest.Text)
		t.Logf("%v: %s\n%s", argv, res.Plan.Mode, text)
		for _, w := range []struct{ what, name, loc string }{
			{"build failure", "undefined: undefinedName", "build/build.go:3"},
			{"panic", "TestPanics", "boom_test.go:7"},
			{"failing subtest", "TestTable/bad", "sub_test.go:8"},
			{"race", "TestRace", "race_test.go"},
		} {
			line := lineWith(text, w.name)
			if res.Plan.Mode == "whole" {
				// The output itself, not larger than a digest of it, is
				// shown whole: the name and the location are in it.
				if line == "" || !strings.Contains(text, w.loc) {
					t.Errorf("%v: the %s (%s at %s) is not in the whole output", argv, w.what, w.name, w.loc)
				}
				continue
			}
			if line == "" || !strings.Contains(line, w.loc) {
				t.Errorf("%v: the %s (%s at %s) is not a failure with its location in the digest", argv, w.what, w.name, w.loc)
			}
		}
		if res.Plan.Outcome == "pass" {
			t.Errorf("%v: outcome pass", argv)
		}
	}
}

func lineWith(text, sub string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "  ┆") {
			return l
		}
	}
	return ""
}
