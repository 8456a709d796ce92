package hosts

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRenamedBinaryHooksAreOurs: hooks written by a ctx installed under
// another name are recognised by their marker (the hook subcommand): a
// second install replaces rather than duplicates, an install by a binary at
// another path replaces the old entry, and --remove takes them out, for
// both hosts.
func TestRenamedBinaryHooksAreOurs(t *testing.T) {
	for _, h := range []struct {
		name            string
		install, remove func(string, InstallOptions) (Change, error)
		sub             string
	}{
		{"claude", InstallClaude, RemoveClaude, "hook claude pre-tool-use"},
		{"codex", InstallCodex, RemoveCodex, "hook codex pre-tool-use"},
	} {
		path := filepath.Join(t.TempDir(), "settings.json")
		writeFile(t, path, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-own-hook"}]}]}}`+"\n", 0o644)
		old := InstallOptions{HookCommand: "/opt/tools/ctx-1.2 " + h.sub}
		for range 2 {
			if _, err := h.install(path, old); err != nil {
				t.Fatalf("%s install: %v", h.name, err)
			}
		}
		if n := strings.Count(readFile(t, path), h.sub); n != 1 {
			t.Fatalf("%s: %d ctx hooks after two installs:\n%s", h.name, n, readFile(t, path))
		}
		moved := InstallOptions{HookCommand: "/home/u/bin/agentctx " + h.sub}
		if _, err := h.install(path, moved); err != nil {
			t.Fatal(err)
		}
		got := readFile(t, path)
		if strings.Contains(got, "ctx-1.2") || strings.Count(got, h.sub) != 1 || !strings.Contains(got, "agentctx") {
			t.Fatalf("%s: install from another path did not replace the old entry:\n%s", h.name, got)
		}
		if ch, err := h.remove(path, moved); err != nil || !ch.Changed {
			t.Fatalf("%s remove: %+v %v", h.name, ch, err)
		}
		got = readFile(t, path)
		if strings.Contains(got, h.sub) || !strings.Contains(got, "my-own-hook") {
			t.Errorf("%s: after remove:\n%s", h.name, got)
		}
	}
}
