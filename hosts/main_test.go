package hosts

import (
	"fmt"
	"os"
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

// The test binary doubles as two helper programs, selected by environment:
//
//   - hookHelperEnv: behave like `ctx hook claude pre-tool-use` (stdin to
//     stdout, always exit 0), for measuring per-process latency;
//   - shimEnv: behave like `ctx run -- CMD...` but print the exact stored
//     stdout instead of a digest; see equiv_test.go.
const (
	hookHelperEnv = "CTX_HOSTS_TEST_HOOK"
	shimEnv       = "CTX_HOSTS_TEST_SHIM"
)

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(hookHelperEnv) == "1":
		if err := ClaudePreToolUse(os.Stdin, os.Stdout, "/usr/local/bin/ctx"); err != nil {
			fmt.Fprintln(os.Stderr, "ctx hook:", err)
		}
		os.Exit(0) // a hook never fails the host's command
	case os.Getenv(shimEnv) != "":
		os.Exit(shimMain(os.Getenv(shimEnv), os.Args[1:]))
	}
	cleanup := testenv.IsolateState() // no test store in the developer's index
	code := m.Run()
	cleanup()
	os.Exit(code)
}
