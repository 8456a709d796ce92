package hosts

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestConflictsSayHowToFix: every conflicting entry init meets is refused
// with the file named, the file unchanged, and a hint that names the thing
// in the way and how to clear it (before, the hint was empty: the person
// was told what was wrong and left to guess the fix).
func TestConflictsSayHowToFix(t *testing.T) {
	tests := []struct {
		name, file, content string
		install             func(path string) error
		hint                []string // what the hint must name
	}{
		{"hooks not an object", "settings.json", `{"hooks": []}`,
			func(p string) error { _, err := InstallClaude(p, InstallOptions{}); return err },
			[]string{`make "hooks" an object`, `"PreToolUse"`, "move the file away"}},
		{"PreToolUse not an array", "hooks.json", `{"hooks": {"PreToolUse": {}}}`,
			func(p string) error { _, err := InstallCodex(p, InstallOptions{}); return err },
			[]string{`make "hooks.PreToolUse" an array`, `"matcher": "Bash"`}},
		{"mcpServers not an object", ".mcp.json", `{"mcpServers": 3}`,
			func(p string) error { _, err := InstallClaudeMCP(p, InstallOptions{}); return err },
			[]string{`make "mcpServers" an object`}},
		{"foreign ctx server", ".mcp.json", `{"mcpServers":{"ctx":{"command":"python","args":["ctx_server.py"]}}}`,
			func(p string) error { _, err := InstallClaudeMCP(p, InstallOptions{}); return err },
			[]string{"rename or delete that entry", "without --mcp"}},
		{"codex table", "config.toml", "[mcp_servers.ctx]\ncommand = \"other\"\n",
			func(p string) error { _, err := InstallCodexMCP(p, InstallOptions{}); return err },
			[]string{"rename or delete that table", "without --mcp"}},
		{"begin without end", "CLAUDE.md", "x\n" + GuideBegin + "\nno end\n",
			func(p string) error { _, err := InstallGuide(p, HostClaude); return err },
			[]string{GuideBegin, GuideEnd}},
		{"two blocks", "AGENTS.md", GuideBegin + "\n" + GuideEnd + "\n" + GuideBegin + "\n" + GuideEnd + "\n",
			func(p string) error { _, err := InstallGuide(p, HostCodex); return err },
			[]string{"at most one block", GuideBegin}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			writeFile(t, path, tt.content, 0o644)
			err := tt.install(path)
			var fe *FileError
			if !errors.Is(err, ErrConflict) || !errors.As(err, &fe) || fe.Path != path {
				t.Fatalf("err = %v, want a conflict naming %s", err, path)
			}
			for _, w := range append(tt.hint, "run the command again", "this file is unchanged") {
				if !strings.Contains(fe.Hint, w) {
					t.Errorf("hint %q does not say %q", fe.Hint, w)
				}
			}
			if readFile(t, path) != tt.content {
				t.Error("file changed")
			}
		})
	}
}
