package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRunStdinTerminalIsDevNull: with ctx's stdin on a terminal the command
// reads /dev/null: cat ends at once instead of waiting for the keyboard, and
// the run records no stdin blob (a zero id). (A piped stdin is forwarded:
// testdata/script/stdin_merged.txtar.)
func TestRunStdinTerminalIsDevNull(t *testing.T) {
	bin := ctxBinary(t)
	work := t.TempDir()
	env := append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "CTX_PROGRESS=0",
		"XDG_STATE_HOME="+filepath.Join(work, ".state"), "NO_COLOR=1")
	shown := onPty(t, bin, work, env, 24, "", "run", "--json", "--pipe", "--", "sh", "-c", "cat; echo cat-finished")
	if !strings.Contains(shown, "cat-finished") {
		t.Fatalf("the command did not finish reading stdin:\n%q", shown)
	}
	if regexp.MustCompile(`"stdin": "0*[1-9a-f]`).MatchString(shown) {
		t.Errorf("a terminal stdin was recorded as the run's stdin:\n%s", shown)
	}
}
