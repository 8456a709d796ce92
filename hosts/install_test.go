package hosts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestInstallClaudeNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	ch, err := InstallClaude(path, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Changed || !ch.Created || ch.Backup != "" {
		t.Errorf("change = %+v", ch)
	}
	want := `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "ctx hook claude pre-tool-use",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
`
	if got := readFile(t, path); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// existingSettings has unrelated keys around the hooks, another tool's Bash
// hook, a PostToolUse hook, and scalars spelled in ways a re-encoder would
// change.
const existingSettings = `{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(go test:*)", "Read"],
        "deny": []
    },
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "gofmt -w \"$CLAUDE_FILE\""}]}
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh", "timeout": 5}]}
        ]
    },
    "ratio": 1.50,
    "greeting": "caf\u00e9 <ok>",
    "env": {"FOO": "1"}
}
`

func TestInstallClaudeMergesAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, existingSettings, 0o600)

	ch, err := InstallClaude(path, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Changed || ch.Created || ch.Backup != path+BackupSuffix {
		t.Errorf("change = %+v", ch)
	}
	if got := readFile(t, ch.Backup); got != existingSettings {
		t.Errorf("backup does not hold the previous content:\n%s", got)
	}
	after := readFile(t, path)
	want := `{
    "model": "opus",
    "permissions": {
        "allow": [
            "Bash(go test:*)",
            "Read"
        ],
        "deny": []
    },
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Edit|Write",
                "hooks": [
                    {
                        "type": "command",
                        "command": "gofmt -w \"$CLAUDE_FILE\""
                    }
                ]
            }
        ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "~/bin/guard.sh",
                        "timeout": 5
                    }
                ]
            },
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "ctx hook claude pre-tool-use",
                        "timeout": 10
                    }
                ]
            }
        ]
    },
    "ratio": 1.50,
    "greeting": "caf\u00e9 <ok>",
    "env": {
        "FOO": "1"
    }
}
`
	if after != want {
		t.Errorf("got\n%s\nwant\n%s", after, want)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode not preserved: %v %v", info.Mode(), err)
	}

	// Again: nothing changes, not even the backup.
	os.Remove(ch.Backup)
	ch, err = InstallClaude(path, InstallOptions{})
	if err != nil || ch.Changed || ch.Backup != "" {
		t.Errorf("second install: %+v, %v", ch, err)
	}
	if readFile(t, path) != after {
		t.Error("second install changed the file")
	}
	if _, err := os.Stat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Error("second install wrote a backup")
	}

	// A new binary path replaces ctx's hook instead of adding a second one.
	if _, err := InstallClaude(path, InstallOptions{HookCommand: "/opt/ctx/bin/ctx hook claude pre-tool-use"}); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if strings.Count(got, "hook claude pre-tool-use") != 1 || !strings.Contains(got, "/opt/ctx/bin/ctx hook") {
		t.Errorf("reinstall with a new path:\n%s", got)
	}

	// Remove restores the original document (modulo layout).
	ch, err = RemoveClaude(path, InstallOptions{})
	if err != nil || !ch.Changed {
		t.Fatalf("remove: %+v, %v", ch, err)
	}
	orig, _ := parseJSON([]byte(existingSettings))
	now, err := parseJSON([]byte(readFile(t, path)))
	if err != nil || !now.equal(orig) {
		t.Errorf("after remove:\n%s", readFile(t, path))
	}
	ch, err = RemoveClaude(path, InstallOptions{})
	if err != nil || ch.Changed {
		t.Errorf("second remove: %+v, %v", ch, err)
	}
}

func TestRemoveClaudeDropsEmptyContainers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, `{"model":"opus"}`, 0o644)
	if _, err := InstallClaude(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveClaude(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != `{"model":"opus"}` {
		t.Errorf("got %q", got)
	}
	if _, err := os.Stat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Error("backup left behind after an exact restore")
	}
}

func TestInstallRefusesBadFiles(t *testing.T) {
	tests := []struct {
		name, content string
		want          error
	}{
		{"invalid json", `{"hooks": {`, ErrInvalidJSON},
		{"comments", "{\n  // a comment\n  \"model\": \"x\"\n}", ErrInvalidJSON},
		{"trailing data", `{} {}`, ErrInvalidJSON},
		{"not an object", `["hooks"]`, ErrInvalidJSON},
		{"hooks not an object", `{"hooks": []}`, ErrConflict},
		{"PreToolUse not an array", `{"hooks": {"PreToolUse": {}}}`, ErrConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			writeFile(t, path, tt.content, 0o644)
			_, err := InstallClaude(path, InstallOptions{})
			var fe *FileError
			if !errors.Is(err, tt.want) || !errors.As(err, &fe) || fe.Path != path || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want %v naming %s", err, tt.want, path)
			}
			if tt.want == ErrInvalidJSON && fe.Hint == "" {
				t.Error("no hint for invalid JSON")
			}
			if readFile(t, path) != tt.content {
				t.Error("file changed")
			}
			if _, err := os.Stat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Error("backup written for a refused file")
			}
		})
	}
}

func TestInstallReadOnly(t *testing.T) {
	// The refusal rests on the file's mode bits, not on EACCES, so it holds
	// for root too.
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, `{"model":"opus"}`, 0o444)
	_, err := InstallClaude(path, InstallOptions{})
	if !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v, want ErrReadOnly", err)
	}
	if readFile(t, path) != `{"model":"opus"}` {
		t.Error("read-only file changed")
	}
	// Nothing to change: a read-only file that already has the hook is fine.
	os.Chmod(path, 0o644)
	if _, err := InstallClaude(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o444)
	if ch, err := InstallClaude(path, InstallOptions{}); err != nil || ch.Changed {
		t.Errorf("no-op install on read-only file: %+v, %v", ch, err)
	}
}

func TestInstallReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: directory permissions do not stop writes; TestInstallReadOnly covers the mode-bit check")
	}
	dir := filepath.Join(t.TempDir(), "locked")
	os.MkdirAll(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	_, err := InstallClaude(filepath.Join(dir, "settings.json"), InstallOptions{})
	var fe *FileError
	if !errors.Is(err, os.ErrPermission) || !errors.As(err, &fe) || fe.Hint == "" {
		t.Fatalf("err = %v", err)
	}
}

func TestInstallFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude-settings.json")
	writeFile(t, target, `{"model":"opus"}`, 0o644)
	link := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallClaude(link, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("symlink replaced by a file")
	}
	if !strings.Contains(readFile(t, target), "ctx hook claude pre-tool-use") {
		t.Error("target not updated")
	}
}

func TestInstallBlankFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, "\n", 0o644)
	if _, err := InstallClaude(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readFile(t, path), "pre-tool-use") {
		t.Error("hook not installed into a blank file")
	}
}

func TestInstallCodex(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".codex", "hooks.json")
	writeFile(t, path, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"ctx hook claude pre-tool-use"}]}]}}`, 0o644)
	if _, err := InstallCodex(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if !strings.Contains(got, `"ctx hook codex pre-tool-use"`) || !strings.Contains(got, `"ctx hook claude pre-tool-use"`) {
		t.Errorf("codex install must add its hook and leave the claude one alone:\n%s", got)
	}
	if ch, _ := InstallCodex(path, InstallOptions{}); ch.Changed {
		t.Error("second codex install changed the file")
	}
	if _, err := RemoveCodex(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	got = readFile(t, path)
	if strings.Contains(got, "codex pre-tool-use") || !strings.Contains(got, "claude pre-tool-use") {
		t.Errorf("after codex remove:\n%s", got)
	}
}

func TestClaudeMCP(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	writeFile(t, path, `{"mcpServers":{"github":{"command":"npx","args":["-y","@modelcontextprotocol/server-github"]}}}`, 0o644)
	if _, err := InstallClaudeMCP(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	doc, _ := parseJSON([]byte(readFile(t, path)))
	ctx := doc.get("mcpServers").get("ctx")
	if ctx == nil || !isCtxMCP(ctx) || doc.get("mcpServers").get("github") == nil {
		t.Fatalf("after install:\n%s", readFile(t, path))
	}
	if ch, _ := InstallClaudeMCP(path, InstallOptions{}); ch.Changed {
		t.Error("second MCP install changed the file")
	}
	if ch, _ := InstallClaudeMCP(path, InstallOptions{CtxCommand: "/usr/local/bin/ctx"}); !ch.Changed {
		t.Error("MCP install with a new path did not update")
	}
	if _, err := RemoveClaudeMCP(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	doc, _ = parseJSON([]byte(readFile(t, path)))
	if doc.get("mcpServers").get("ctx") != nil || doc.get("mcpServers").get("github") == nil {
		t.Errorf("after remove:\n%s", readFile(t, path))
	}

	other := filepath.Join(t.TempDir(), ".mcp.json")
	writeFile(t, other, `{"mcpServers":{"ctx":{"command":"python","args":["ctx_server.py"]}}}`, 0o644)
	if _, err := InstallClaudeMCP(other, InstallOptions{}); !errors.Is(err, ErrConflict) {
		t.Errorf("foreign ctx server: err = %v", err)
	}
	if ch, err := RemoveClaudeMCP(other, InstallOptions{}); err != nil || ch.Changed {
		t.Errorf("remove touched a foreign ctx server: %+v %v", ch, err)
	}
}

func TestCodexMCP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	orig := "model = \"gpt-5\"\n\n[mcp_servers.github]\ncommand = \"npx\"\n"
	writeFile(t, path, orig, 0o644)
	if _, err := InstallCodexMCP(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	want := orig + "\n" + tomlBegin + "\n[mcp_servers.ctx]\ncommand = \"ctx\"\nargs = [\"mcp\"]\n" + tomlEnd + "\n"
	if got := readFile(t, path); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if ch, _ := InstallCodexMCP(path, InstallOptions{}); ch.Changed {
		t.Error("second install changed the file")
	}
	if _, err := RemoveCodexMCP(path); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != orig {
		t.Errorf("remove did not restore the file:\n%q", got)
	}
	writeFile(t, path, orig+"[mcp_servers.ctx]\ncommand = \"other\"\n", 0o644)
	if _, err := InstallCodexMCP(path, InstallOptions{}); !errors.Is(err, ErrConflict) {
		t.Errorf("hand-written table: err = %v", err)
	}
}

func TestGuide(t *testing.T) {
	for _, h := range []Host{HostClaude, HostCodex} {
		g := Guide(h)
		for _, must := range []string{"ctx run -- ", "ctx run --shell -- ", "ctx get HANDLE", "--lines A:B", "--grep RE",
			"124 timed out", "125 ctx itself failed", "126 not executable", "127 not found", "128+N"} {
			if !strings.Contains(g, must) {
				t.Errorf("%s guide lacks %q", h, must)
			}
		}
	}
	if !strings.Contains(Guide(HostCodex), "instruction, not enforcement") {
		t.Error("the Codex guide must say it is an instruction, not enforcement")
	}
}

func TestInstallGuide(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "CLAUDE.md")
	orig := "# Project\n\nUse tabs.\n"
	writeFile(t, path, orig, 0o644)
	if _, err := InstallGuide(path, HostClaude); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	want := orig + "\n" + GuideBegin + "\n" + Guide(HostClaude) + GuideEnd + "\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if ch, _ := InstallGuide(path, HostClaude); ch.Changed {
		t.Error("second install changed the file")
	}
	// A stale block in the middle is replaced in place; text after it stays.
	stale := orig + "\n" + GuideBegin + "\nold text\n" + GuideEnd + "\n\n## Later section\n"
	writeFile(t, path, stale, 0o644)
	if _, err := InstallGuide(path, HostClaude); err != nil {
		t.Fatal(err)
	}
	got = readFile(t, path)
	if strings.Contains(got, "old text") || !strings.HasSuffix(got, GuideEnd+"\n\n## Later section\n") {
		t.Errorf("stale block not replaced in place:\n%s", got)
	}
	if _, err := RemoveGuide(path); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != orig+"\n## Later section\n" {
		t.Errorf("after remove: %q", got)
	}

	// A file that held only the guide goes away with it.
	fresh := filepath.Join(dir, "AGENTS.md")
	if ch, err := InstallGuide(fresh, HostCodex); err != nil || !ch.Created {
		t.Fatalf("%+v %v", ch, err)
	}
	if ch, err := RemoveGuide(fresh); err != nil || !ch.Removed {
		t.Fatalf("%+v %v", ch, err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Error("empty guide file left behind")
	}
	if ch, err := RemoveGuide(fresh); err != nil || ch.Changed {
		t.Errorf("removing from a missing file: %+v %v", ch, err)
	}

	// Exact round trip without a trailing newline in the original.
	plain := filepath.Join(dir, "NOTES.md")
	writeFile(t, plain, "no newline at end", 0o644)
	InstallGuide(plain, HostCodex)
	RemoveGuide(plain)
	if got := readFile(t, plain); got != "no newline at end" {
		t.Errorf("round trip: %q", got)
	}

	broken := filepath.Join(dir, "BROKEN.md")
	writeFile(t, broken, "x\n"+GuideBegin+"\nno end marker\n", 0o644)
	if _, err := InstallGuide(broken, HostClaude); !errors.Is(err, ErrConflict) {
		t.Errorf("begin without end: err = %v", err)
	}
}

func TestPaths(t *testing.T) {
	p := ClaudePaths(ScopeProject, "/w", "/h", "")
	if p.Hooks != "/w/.claude/settings.json" || p.MCP != "/w/.mcp.json" || p.Guide != "/w/CLAUDE.md" {
		t.Errorf("%+v", p)
	}
	p = ClaudePaths(ScopeUser, "/w", "/h", "")
	if p.Hooks != "/h/.claude/settings.json" || p.MCP != "/h/.claude.json" || p.Guide != "/h/.claude/CLAUDE.md" {
		t.Errorf("%+v", p)
	}
	if p = ClaudePaths(ScopeUser, "/w", "/h", "/cfg"); p.Hooks != "/cfg/settings.json" {
		t.Errorf("%+v", p)
	}
	p = CodexPaths(ScopeProject, "/w", "/h", "")
	if p.Hooks != "/w/.codex/hooks.json" || p.MCP != "/w/.codex/config.toml" || p.Guide != "/w/AGENTS.md" {
		t.Errorf("%+v", p)
	}
	if p = CodexPaths(ScopeUser, "/w", "/h", "/ch"); p.Hooks != "/ch/hooks.json" || p.Guide != "/ch/AGENTS.md" {
		t.Errorf("%+v", p)
	}
}

func FuzzParseJSONRoundTrip(f *testing.F) {
	f.Add([]byte(existingSettings))
	f.Add([]byte(`{"a":[1,2.50,{"b":null}],"c":"\u00e9\n"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := parseJSON(data)
		if err != nil {
			return
		}
		out := formatJSON(n, data)
		m, err := parseJSON(out)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		if !m.equal(n) {
			t.Fatalf("round trip changed the document:\n%s\n%s", data, out)
		}
	})
}

// TestInstallRemoveLeavesNoTrace: in a fresh project, install then remove
// leaves no file, no "{}", no backup and no empty .claude/.codex directory;
// on existing files it puts back the user's exact bytes (layout included).
func TestInstallRemoveLeavesNoTrace(t *testing.T) {
	dir := t.TempDir()
	opts := InstallOptions{HookCommand: "/opt/tools/ctx-dev hook claude pre-tool-use", CtxCommand: "/opt/tools/ctx-dev"}
	for _, h := range []Host{HostClaude, HostCodex} {
		var p Paths
		if h == HostClaude {
			p = ClaudePaths(ScopeProject, dir, "", "")
		} else {
			p = CodexPaths(ScopeProject, dir, "", "")
			opts.HookCommand = "/opt/tools/ctx-dev hook codex pre-tool-use"
		}
		install := []func() (Change, error){
			func() (Change, error) { return installHook(p.Hooks, h, opts) },
			func() (Change, error) { return InstallGuide(p.Guide, h) },
			func() (Change, error) { return InstallClaudeMCP(p.MCP, opts) },
		}
		remove := []func() (Change, error){
			func() (Change, error) { return removeHook(p.Hooks, h, opts) },
			func() (Change, error) { return RemoveGuide(p.Guide) },
			func() (Change, error) { return RemoveClaudeMCP(p.MCP, opts) },
		}
		if h == HostCodex {
			install[2] = func() (Change, error) { return InstallCodexMCP(p.MCP, opts) }
			remove[2] = func() (Change, error) { return RemoveCodexMCP(p.MCP) }
		}
		for round := range 2 { // the second install finds the renamed binary's entries its own
			for _, f := range install {
				if _, err := f(); err != nil {
					t.Fatalf("%v install round %d: %v", h, round, err)
				}
			}
		}
		for _, f := range remove {
			ch, err := f()
			if err != nil || !ch.Removed {
				t.Fatalf("%v remove: %+v %v", h, ch, err)
			}
		}
	}
	var left []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if path != dir {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestRemoveRestoresUserBytes(t *testing.T) {
	dir := t.TempDir()
	// Layouts a re-encoder would change: tabs, one-line arrays, no final newline.
	files := map[string]string{
		"settings.json": "{\n\t\"model\": \"opus\", \"hooks\": {\"PostToolUse\": []},\n\t\"ratio\": 1.50\n}",
		".mcp.json":     `{"mcpServers": {"other": {"command": "x", "args": []}}}`,
		"CLAUDE.md":     "# Notes\n\nkeep   this\n\n\n",
		"config.toml":   "model = \"o3\"\n[mcp_servers.other]\ncommand = \"x\"",
	}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content, 0o600)
	}
	at := func(n string) string { return filepath.Join(dir, n) }
	steps := []struct{ install, remove func() (Change, error) }{
		{func() (Change, error) { return InstallClaude(at("settings.json"), InstallOptions{}) },
			func() (Change, error) { return RemoveClaude(at("settings.json"), InstallOptions{}) }},
		{func() (Change, error) { return InstallClaudeMCP(at(".mcp.json"), InstallOptions{}) },
			func() (Change, error) { return RemoveClaudeMCP(at(".mcp.json"), InstallOptions{}) }},
		{func() (Change, error) { return InstallGuide(at("CLAUDE.md"), HostClaude) },
			func() (Change, error) { return RemoveGuide(at("CLAUDE.md")) }},
		{func() (Change, error) { return InstallCodexMCP(at("config.toml"), InstallOptions{}) },
			func() (Change, error) { return RemoveCodexMCP(at("config.toml")) }},
	}
	for _, s := range steps {
		if ch, err := s.install(); err != nil || !ch.Changed || ch.Backup == "" {
			t.Fatalf("install: %+v %v", ch, err)
		}
		// A reinstall with another binary path keeps the first backup.
		if _, err := s.install(); err != nil {
			t.Fatal(err)
		}
		if ch, err := s.remove(); err != nil || !ch.Restored {
			t.Fatalf("remove: %+v %v", ch, err)
		}
	}
	for name, content := range files {
		if got := readFile(t, at(name)); got != content {
			t.Errorf("%s: got %q, want %q", name, got, content)
		}
		if _, err := os.Stat(at(name) + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: backup left behind", name)
		}
	}

	// The user changed the file while ctx was installed: their change stays,
	// ctx's entry goes, nothing is restored over it.
	path := at("settings.json")
	if _, err := InstallClaude(path, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	root, _ := parseJSON([]byte(readFile(t, path)))
	root.set("theme", jsonString("dark"))
	writeFile(t, path, string(formatJSON(root, nil)), 0o600)
	ch, err := RemoveClaude(path, InstallOptions{})
	if err != nil || ch.Restored || !ch.Changed {
		t.Fatalf("remove after a user edit: %+v %v", ch, err)
	}
	got := readFile(t, path)
	if !strings.Contains(got, `"theme": "dark"`) || strings.Contains(got, "pre-tool-use") {
		t.Errorf("after remove:\n%s", got)
	}
}

// TestRenamedBinaryEntriesAreOurs: entries naming a binary not called ctx are
// still recognised by their marker; an MCP server "ctx" without the marker
// running something else is still a conflict.
func TestRenamedBinaryEntriesAreOurs(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	opts := InstallOptions{CtxCommand: "/home/u/bin/ctx-1.2"}
	for range 2 {
		if _, err := InstallClaudeMCP(path, opts); err != nil {
			t.Fatalf("install: %v", err)
		}
	}
	if !strings.Contains(readFile(t, path), `"CTX_MANAGED_BY": "ctx init"`) {
		t.Errorf("no marker:\n%s", readFile(t, path))
	}
	if ch, err := RemoveClaudeMCP(path, opts); err != nil || !ch.Removed {
		t.Fatalf("remove: %+v %v", ch, err)
	}
	writeFile(t, path, `{"mcpServers": {"ctx": {"command": "/usr/bin/other-ctx-tool", "args": ["serve"]}}}`, 0o644)
	if _, err := InstallClaudeMCP(path, opts); !errors.Is(err, ErrConflict) {
		t.Errorf("foreign ctx server: err = %v", err)
	}
}
