package app

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/cli"
)

// TestMissingHelper: a command of a helper that is nowhere fails with exit
// 125 and an error naming the helper, where it was looked for and the fix —
// whether named first or met later (a py: handle read by ctx get).
func TestMissingHelper(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"push"}, "ctx push needs the helper binary ctx-remote"},
		{[]string{"mcp", "--help"}, "ctx mcp needs the helper binary ctx-mcp"},
		{[]string{"get", "py:0123456789ab"}, "reading a py: handle needs the helper binary ctx-mcp"},
	} {
		var out, errb bytes.Buffer
		ios := &cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getwd: func() (string, error) { return t.TempDir(), nil },
			Getenv: func(string) string { return "" }}
		code := Run(ios, tc.args, Core(), true)
		if code != cli.ExitFailed || !strings.Contains(errb.String(), tc.want) || !strings.Contains(errb.String(), "nor on PATH") ||
			!strings.Contains(errb.String(), "go install") {
			t.Errorf("ctx %s: exit %d, stderr %q; want 125 and %q with the fix", strings.Join(tc.args, " "), code, errb.String(), tc.want)
		}
	}
}

// TestAnswerFast: ctx version and ctx --version answered without the tree
// print what the version command prints, and other command lines are left
// to the tree.
func TestAnswerFast(t *testing.T) {
	newIO := func(out *bytes.Buffer) *cli.IO {
		return &cli.IO{In: strings.NewReader(""), Out: out, Err: out, Getwd: func() (string, error) { return t.TempDir(), nil },
			Getenv: func(string) string { return "" }}
	}
	var viaTree bytes.Buffer
	if code := Run(newIO(&viaTree), []string{"version"}, Core(), false); code != 0 || !strings.HasPrefix(viaTree.String(), "ctx ") {
		t.Fatalf("ctx version through the tree: exit %d, %q", code, viaTree.String())
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out bytes.Buffer
		code, ok := answerFast(newIO(&out), args)
		if !ok || code != 0 || out.String() != viaTree.String() {
			t.Errorf("ctx %s answered fast: %v, exit %d, %q; want the tree's %q", args[0], ok, code, out.String(), viaTree.String())
		}
	}
	for _, args := range [][]string{{"version", "--json"}, {"run", "--", "true"}, {"hook", "claude"}, {}} {
		if _, ok := answerFast(newIO(&bytes.Buffer{}), args); ok {
			t.Errorf("ctx %q was answered without the tree", args)
		}
	}
}

// TestCtxLinksNoHeavyPackages: every package linked into ctx runs its init
// on every ctx run, so the ones only helpers need, net/http and
// klauspost/cpuid (whose init traps to the hypervisor on a VM) stay out.
func TestCtxLinksNoHeavyPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/ctxhq/ctx/cmd/ctx").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list printed %d packages: not ctx's dependencies", len(deps))
	}
	for _, p := range deps {
		if p == "net/http" || strings.HasPrefix(p, "crypto/tls") || strings.HasPrefix(p, "github.com/klauspost/cpuid") ||
			strings.Contains(p, "minio") || strings.Contains(p, "starlark") || strings.Contains(p, "modelcontextprotocol") {
			t.Errorf("ctx links %s", p)
		}
	}
}

// TestUnknownSubcommand: a word that names no command, at the top or under
// a command group, is a usage error (exit 2) that names it and prints
// nothing on stdout; a group given no word prints its help and succeeds.
func TestUnknownSubcommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bgo"}, cli.ExitUsage, `unknown command "bgo" for "ctx"`},
		{[]string{"job", "tial"}, cli.ExitUsage, `unknown command "tial" for "ctx job" (did you mean`},
		{[]string{"contract", "shwo", "pytest"}, cli.ExitUsage, `unknown command "shwo" for "ctx contract"`},
		{[]string{"job"}, 0, ""},
		{[]string{"completion", "bsh"}, cli.ExitUsage, `unknown command "bsh" for "ctx completion" (did you mean bash`},
		{[]string{"ingest", "a", "b"}, cli.ExitUsage, "accepts at most 1 arg(s)"},
		{[]string{"templates", "a", "b"}, cli.ExitUsage, "accepts at most 1 arg(s)"},
	} {
		var out, errb bytes.Buffer
		ios := &cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getwd: func() (string, error) { return t.TempDir(), nil },
			Getenv: func(string) string { return "" }}
		code := Run(ios, tc.args, Core(), false)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("ctx %s: exit %d, stderr %q; want %d and %q", strings.Join(tc.args, " "), code, errb.String(), tc.code, tc.want)
		}
		if (code == 0) != (out.Len() > 0) {
			t.Errorf("ctx %s: exit %d with stdout %q", strings.Join(tc.args, " "), code, out.String())
		}
	}
}
