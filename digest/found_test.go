package digest

import (
	"strings"
	"testing"
)

// TestFoundInIssue10 renders real runs behind each finding of issue 10 and
// requires the digest to state what the run did: the reason of every failing
// package, the failure (not a log line) as a test's message, an early stop,
// a census instead of an unbounded list.
func TestFoundInIssue10(t *testing.T) {
	want := map[string][]string{
		"gotest/pkgfail-json":  {"panic: in goroutine", "setup: database unreachable at localhost:5432", "got 1, want 2"},
		"gotest/pkgfail-v":     {"panic: in goroutine", "setup: database unreachable", "got 1, want 2", "exit 1"},
		"gotest/parallel-json": {"TestTable/alpha — alpha: value mismatch", "TestTable/gamma — gamma: value mismatch"},
		"pytest/exitfirst-v":   {"1 failed · 400 passed · stopped: stopping after 1 failures"},
		"pytest/collect-error": {"pytest: 2 errors · stopped: Interrupted: 2 errors during collection", "ModuleNotFoundError: No module named 'nosuchmodule'"},
		"pytest/maxfail":       {"stopping after 2 failures"},
		"cargotest/test":       {"two and two (left: 4, right: 5)", `(left: "1 2 ", right: "1 2")`},
		"text/stat-missing":    {"167 error-looking lines", "every one with its line: ctx get blob:"},
		// One real error line amid calm output stays in the digest (held out:
		// recorded after the anomaly rules; compileall's SyntaxError line was
		// missed until exception-class lines counted as error-level).
		"text/find-missing": {"L442: find: ‘/usr/local/go/src/nosuchpkg’: No such file or directory"},
		"text/compileall":   {"SyntaxError: invalid syntax"},
		// A linter failing on findings lists them and does not repeat its tail.
		"text/shellcheck-gcc": {"zdiff:138:31: error[SC1105]", "gettext.sh:31:5: warning[SC2034]"},
	}
	runs := map[string]goldenCase{}
	for _, c := range realRuns(t) {
		runs[c.name] = c
	}
	for name, subs := range want {
		t.Run(name, func(t *testing.T) {
			c, ok := runs[name]
			if !ok {
				t.Fatalf("no real-run fixture %s", name)
			}
			stdout, stderr := c.streams(t)
			res := digest(t, t.TempDir(), c, stdout, stderr, Options{})
			for _, s := range subs {
				if !strings.Contains(string(res.Digest.Text), s) {
					t.Errorf("the digest does not say %q:\n%s", s, res.Digest.Text)
				}
			}
			if strings.Contains(string(res.Digest.Text), "no failure was itemised") && len(res.Graph.Items) > 1 {
				t.Errorf("the digest itemises and then repeats the tail as if it had not:\n%s", res.Digest.Text)
			}
		})
	}
}

// TestClippedIsALoss: a line cut in an excerpt is labelled in place with its
// line and counted in the receipt's losses (issue 10: clipping must be
// labelled as a loss, with a handle), on a real go build -x whose compile and
// link command lines run past 240 bytes.
func TestClippedIsALoss(t *testing.T) {
	var c goldenCase
	for _, r := range realRuns(t) {
		if r.name == "text/go-build-x" {
			c = r
		}
	}
	if c.name == "" {
		t.Fatal("no real-run fixture text/go-build-x")
	}
	stdout, stderr := c.streams(t)
	res := digest(t, t.TempDir(), c, stdout, stderr, Options{})
	if !strings.Contains(string(res.Digest.Text), "… [+471 B clipped: L368]") {
		t.Errorf("the clipped link line is not labelled with its size and line:\n%s", res.Digest.Text)
	}
	found := false
	for _, l := range res.Digest.Coverage.Losses {
		found = found || l.Code == "clipped"
	}
	if !found {
		t.Errorf("the receipt lists no clipped loss: %+v", res.Digest.Coverage.Losses)
	}
}
