package cargotest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// TestRecordedNextest holds issue 10's nextest findings on outputs nextest
// itself printed (cargo-nextest cannot be installed here; the fixtures and
// their sources are in testdata/realrun/README.md): a failing test is
// counted once though nextest names it in the run and again under Summary,
// and the libtest "test result:" line inside each failing test's captured
// output (one per test process, "13 filtered out") is not a binary's
// summary.
func TestRecordedNextest(t *testing.T) {
	for _, c := range []struct {
		name, fail, msg, left, right string
		passed                       int
	}{
		{"nextest-replay-fail", "nextest-tests::basic|test_failure_assert", "", "", "", 0},
		{"nextest-issue460", "server::organization|test_authorization", "assertion `left == right` failed", "200", "401", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "realrun", c.name)
			read := func(f string) []byte {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				return b
			}
			exit, err := strconv.Atoi(strings.TrimSpace(string(read("exit"))))
			if err != nil {
				t.Fatal(err)
			}
			g := parse(t, strings.Fields(string(read("cmd"))), exit, read("stdout"), read("stderr"))
			if got := failing(g); len(got) != 1 || got[0] != c.fail {
				t.Errorf("failing %q, want [%s] once", got, c.fail)
			}
			passed := 0
			for _, it := range g.Items {
				switch it.Kind {
				case evidence.KindTest:
					if it.Outcome == evidence.OutcomePass {
						passed++
					}
					if it.Outcome == evidence.OutcomeFail && (it.Message != c.msg || it.Attrs["left"] != c.left || it.Attrs["right"] != c.right) {
						t.Errorf("%s: message %q left %q right %q, want %q %q %q", it.Name, it.Message, it.Attrs["left"], it.Attrs["right"], c.msg, c.left, c.right)
					}
				case evidence.KindSummary:
					if _, ok := it.Counts["filtered_out"]; ok {
						t.Errorf("a test process's libtest line became a summary: %s %v", it.Tool, it.Counts)
					}
				}
			}
			if passed != c.passed {
				t.Errorf("%d passing tests, want %d", passed, c.passed)
			}
		})
	}
}
