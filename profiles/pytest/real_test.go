package pytest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
)

// realPytest finds pytest on PATH (Debian's python3-pytest installs pytest
// and pytest-3); absent, the test is skipped (fails in CI).
func realPytest(t *testing.T) string {
	t.Helper()
	return testenv.Tool(t, "apt-get install python3-pytest", "pytest", "pytest-3")
}

// expectedFailure is one of the eight failures of testdata/suites/failing.
type expectedFailure struct {
	name    string
	outcome evidence.Outcome
	class   string
	file    string
	line    int
}

var failingSuite = []expectedFailure{
	{"test_basic.py::test_assertion_failure", evidence.OutcomeFail, "AssertionError", "test_basic.py", 13},
	{"test_basic.py::TestRatio::test_uncaught_exception", evidence.OutcomeFail, "ZeroDivisionError", "helpers.py", 2},
	{"test_fixtures.py::test_uses_broken_fixture", evidence.OutcomeError, "ConnectionError", "conftest.py", 9},
	{"test_import_error.py", evidence.OutcomeError, "ModuleNotFoundError", "test_import_error.py", 3},
	{"test_markers.py::test_strict_xpass", evidence.OutcomeFail, "XPASS(strict)", "", 0},
	{"test_params.py::test_square[4-15]", evidence.OutcomeFail, "AssertionError", "test_params.py", 9},
	{"test_output.py::test_failure_with_stdout", evidence.OutcomeFail, "AssertionError", "test_output.py", 14},
	{"test_slow.py::test_slow_failure", evidence.OutcomeFail, "AssertionError", "test_slow.py", 11},
}

var failingCounts = map[string]int{"failed": 6, "passed": 10, "skipped": 1, "xfailed": 1, "warnings": 1, "errors": 2}

// realMode is one way of running pytest and what its output can tell.
type realMode struct {
	name     string
	args     []string
	pty      bool
	counts   bool // pytest prints its counts line (not -qq)
	tb       bool // tracebacks are printed: class, file and line are recoverable
	passIDs  bool // passing tests are named (-v, -rA)
	lineMode bool // --tb=line: setup errors carry no location
}

var realModes = []realMode{
	{name: "plain", counts: true, tb: true},
	{name: "q", args: []string{"-q"}, counts: true, tb: true},
	{name: "qq", args: []string{"-qq"}, tb: true},
	{name: "v", args: []string{"-v"}, counts: true, tb: true, passIDs: true},
	{name: "vv", args: []string{"-vv"}, counts: true, tb: true, passIDs: true},
	{name: "rA", args: []string{"-rA"}, counts: true, tb: true, passIDs: true},
	{name: "ra", args: []string{"-ra"}, counts: true, tb: true},
	{name: "tb-short", args: []string{"--tb=short"}, counts: true, tb: true},
	{name: "tb-long", args: []string{"-q", "--tb=long"}, counts: true, tb: true},
	{name: "tb-line", args: []string{"-q", "--tb=line"}, counts: true, tb: true, lineMode: true},
	{name: "tb-no", args: []string{"-q", "--tb=no"}, counts: true},
	{name: "tb-native", args: []string{"--tb=native"}, counts: true, tb: true},
	{name: "color", args: []string{"-q", "--color=yes"}, counts: true, tb: true},
	{name: "color-v-rA", args: []string{"-v", "--color=yes", "-rA"}, counts: true, tb: true, passIDs: true},
	{name: "pty", pty: true, counts: true, tb: true},
	{name: "pty-v", args: []string{"-v"}, pty: true, counts: true, tb: true, passIDs: true},
}

// runPytest copies a suite to a temporary directory and runs the real pytest
// there, so that the paths it prints are relative and the source tree stays
// clean. It returns a Source as ctx would capture it.
func runPytest(t *testing.T, suite string, m realMode) *evidence.Source {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "suites", suite))); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{realPytest(t), "-p", "no:cacheprovider"}, m.args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LANG=C.UTF-8", "TERM=xterm-256color"}
	var stdout, stderr []byte
	var err error
	if m.pty {
		stdout, err = runInPty(cmd)
	} else {
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		stdout, stderr = o.Bytes(), e.Bytes()
	}
	exit := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		exit = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run pytest: %v", err)
	}
	return evidence.BytesSource(argv, exit, stdout, stderr)
}

func runInPty(cmd *exec.Cmd) ([]byte, error) {
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 160, Rows: 40})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out bytes.Buffer
	_, _ = io.Copy(&out, f) // ends with EIO once the child has exited
	return out.Bytes(), cmd.Wait()
}

// TestRealFailingSuite runs pytest on the failing suite in every mode and
// checks that every failing identity, class and file:line is recovered and
// that the counts match.
func TestRealFailingSuite(t *testing.T) {
	realPytest(t)
	for _, m := range realModes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			src := runPytest(t, "failing", m)
			g := parseSource(t, src)
			if src.Exit() != 1 {
				t.Errorf("exit %d, want 1", src.Exit())
			}
			if g.Verdict != "fail" {
				t.Errorf("verdict %q", g.Verdict)
			}
			checkCounts(t, g, m, failingCounts)
			got := map[string]*evidence.Item{}
			for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
				got[it.Name] = it
			}
			for _, want := range failingSuite {
				it := got[want.name]
				if it == nil {
					t.Errorf("%s not reported", want.name)
					continue
				}
				delete(got, want.name)
				if it.Outcome != want.outcome {
					t.Errorf("%s: outcome %s, want %s", want.name, it.Outcome, want.outcome)
				}
				if m.tb && it.Class != want.class {
					t.Errorf("%s: class %q, want %q", want.name, it.Class, want.class)
				}
				wantFile, wantLine := want.file, want.line
				if m.lineMode && want.outcome == evidence.OutcomeError && want.name != "test_import_error.py" {
					wantFile, wantLine = "", 0 // --tb=line prints only the error line of a setup error
				}
				if m.tb && (it.File != wantFile || it.Line != wantLine) {
					t.Errorf("%s: at %s:%d, want %s:%d", want.name, it.File, it.Line, wantFile, wantLine)
				}
				if m.tb && it.Message == "" && want.class != "" {
					t.Errorf("%s: no message", want.name)
				}
				if m.tb && it.Detail.IsZero() {
					t.Errorf("%s: no detail span", want.name)
				}
			}
			for name := range got {
				t.Errorf("unexpected failure %s", name)
			}
			if p := testByName(g, "test_output.py::test_passing_prints_failure_text"); p != nil && p.Outcome != evidence.OutcomePass {
				t.Errorf("the passing test that prints failure text is %s", p.Outcome)
			}
			if m.passIDs {
				if n := len(g.Tests(evidence.OutcomePass)); n != 10 {
					t.Errorf("%d passing tests named, want 10", n)
				}
			}
			rerun := parseSource(t, runPytest(t, "failing", m))
			if !m.pty && !bytes.Equal(graphJSON(t, g), graphJSON(t, rerun)) {
				t.Errorf("a rerun gives another graph:\n%s\n---\n%s", graphJSON(t, g), graphJSON(t, rerun))
			}
		})
	}
	t.Run("x", func(t *testing.T) {
		t.Parallel()
		g := parseSource(t, runPytest(t, "failing", realMode{args: []string{"-x"}}))
		if g.Verdict != "error" {
			t.Errorf("verdict %q: -x stops at the collection error", g.Verdict)
		}
		if f := failingNames(g); len(f) != 1 || f[0] != "test_import_error.py" {
			t.Errorf("failing %v", f)
		}
		checkCounts(t, g, realMode{counts: true}, map[string]int{"errors": 1})
	})
	t.Run("interrupted", func(t *testing.T) {
		t.Parallel()
		src := runPytest(t, "failing", realMode{args: []string{"-q", "-o", "addopts="}})
		g := parseSource(t, src)
		if src.Exit() != 2 || g.Verdict != "error" {
			t.Errorf("exit %d verdict %q: a collection error is never \"no tests\"", src.Exit(), g.Verdict)
		}
		if f := failingNames(g); len(f) != 1 || f[0] != "test_import_error.py" {
			t.Errorf("failing %v", f)
		}
	})
}

// TestRealPassingSuite runs pytest on the 500 passing tests in every mode.
func TestRealPassingSuite(t *testing.T) {
	realPytest(t)
	for _, m := range append(realModes, realMode{name: "x", args: []string{"-x", "-q"}, counts: true}) {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			src := runPytest(t, "passing", m)
			g := parseSource(t, src)
			if src.Exit() != 0 || g.Verdict != "pass" {
				t.Errorf("exit %d verdict %q", src.Exit(), g.Verdict)
			}
			checkCounts(t, g, m, map[string]int{"passed": 500})
			if f := failingNames(g); len(f) > 0 {
				t.Errorf("failures %v", f)
			}
			if m.passIDs {
				if n := len(g.Tests(evidence.OutcomePass)); n != 500 {
					t.Errorf("%d passing tests named, want 500", n)
				}
			}
			if m.counts && len(g.Losses) > 0 {
				t.Errorf("losses %v", g.Losses)
			}
		})
	}
}

func checkCounts(t *testing.T, g *evidence.Graph, m realMode, want map[string]int) {
	t.Helper()
	s := summaries(g)
	if !m.counts {
		if len(s) != 0 || !hasLoss(g, "partial-parse") {
			t.Errorf("-qq: summaries %v, losses %v", s, g.Losses)
		}
		return
	}
	if len(s) != 1 {
		t.Fatalf("%d summaries", len(s))
	}
	if !maps.Equal(s[0].Counts, want) {
		t.Errorf("counts %v, want %v", fmtCounts(s[0].Counts), fmtCounts(want))
	}
}

func fmtCounts(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}
