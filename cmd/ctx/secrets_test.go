package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/benchcmd"
)

// TestRedactionMatrix plants generated credentials in realistic outputs and
// reads them back on every agent-facing path: the digest, run --json, get
// (whole, line pages, byte windows, grep, plain, JSON), show, show --json,
// the MCP tools ctx_run/ctx_get/ctx_show/ctx_ls, and ls/stats for secrets in
// argv. No path may print a planted secret, and real look-alikes (git SHAs,
// go.sum, UUIDs, hashes, public keys, handles) must come through untouched.
// `ctx bench secrets` is the full form of the same run.
func TestRedactionMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ctx a few hundred times")
	}
	res, err := benchcmd.Secrets(context.Background(), benchProgram, 3, 9)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"digest", "run --json", "get", "get --full", "get --json", "get --grep", "get --plain", "get line page",
		"get byte page", "show", "show --json", "mcp ctx_run", "mcp ctx_get", "mcp ctx_show",
		"argv: digest header", "argv: ls", "argv: ls --json", "argv: stats --json", "argv: mcp ctx_ls"}
	got := map[string]benchcmd.SecretPath{}
	for _, p := range res.Paths {
		got[p.Path] = p
	}
	for _, w := range want {
		if got[w].Planted == 0 {
			t.Errorf("path %q was not exercised", w)
		}
	}
	for _, m := range res.Misses {
		t.Errorf("leaked: %s", m)
	}
	for _, f := range res.FalsePos {
		t.Errorf("look-alike redacted: %s", f)
	}
	if res.Documents < 10 {
		t.Errorf("only %d documents", res.Documents)
	}
}

// --reveal prints exact bytes to a terminal only; anywhere else it is refused
// and nothing of the secret is printed.
func TestRevealTerminalOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".ctx"), 0o700); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CTX_NO_COMPACT": "1"}
	secret := "ghp_" + "R8x2Lq0VnT4wKz7YbP1cJ9mH3sD6fG5aE0uN" // a fake, shaped like a GitHub token
	file := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(file, []byte("cloning with "+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	call := func(tty bool, args ...string) (int, string) {
		var out, errb bytes.Buffer
		ios := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, IsTTY: tty,
			Getwd: func() (string, error) { return dir, nil }, Getenv: func(k string) string { return env[k] }}
		code := run(ios, args)
		return code, out.String() + errb.String()
	}
	_, digest := call(false, "run", "--", "cat", file)
	h := regexp.MustCompile(`run:[0-9a-f]{12}`).FindString(digest)
	if strings.Contains(digest, secret) || !strings.Contains(digest, "[REDACTED:github-pat:") || !strings.Contains(digest, "! 1 secret redacted (github-pat 1)") {
		t.Fatalf("digest:\n%s", digest)
	}
	code, out := call(false, "get", h, "--reveal")
	if code != cli.ExitUsage || strings.Contains(out, secret) || !strings.Contains(out, "not a terminal") {
		t.Errorf("get --reveal to a pipe: exit %d\n%s", code, out)
	}
	code, out = call(true, "get", h, "--reveal")
	if code != 0 || !strings.Contains(out, secret) {
		t.Errorf("get --reveal at a terminal: exit %d\n%s", code, out)
	}
	if _, out = call(true, "get", h); strings.Contains(out, secret) {
		t.Errorf("get at a terminal without --reveal printed the secret:\n%s", out)
	}
}
