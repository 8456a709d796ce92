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
		"cargotest/test":       {"two and two (left: 4, right: 5)", `(left: "1 2 ", right: "1 2")`},
		"text/stat-missing":    {"167 error-looking lines", "every one with its line: ctx get blob:"},
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
		})
	}
}
