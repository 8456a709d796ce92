package hosts

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ctxhq/ctx/internal/lines"
)

// Markers delimiting the blocks ctx manages inside files it does not own.
// Everything between a begin and an end marker is ctx's; everything outside
// is left byte for byte as it was.
const (
	GuideBegin = "<!-- ctx:begin (managed by `ctx init`; edits inside this block are replaced) -->"
	GuideEnd   = "<!-- ctx:end -->"
	tomlBegin  = "# >>> ctx (managed by `ctx init codex --mcp`; edits inside this block are replaced) >>>"
	tomlEnd    = "# <<< ctx <<<"
)

// Guide returns the agent usage guide for a host's instruction file, without
// markers. The Claude Code guide can say that a hook rewrites commands; the
// Codex guide says plainly that the file is an instruction, and that only
// the hook, when installed and trusted, enforces anything.
func Guide(h Host) string {
	var b strings.Builder
	b.WriteString("## Command output: use ctx\n\n")
	b.WriteString("Long command output (tests, builds, linters, installs, logs, recursive searches) goes through\n")
	b.WriteString("ctx, which stores every byte and shows you a short digest with handles to the rest.\n\n")
	b.WriteString("- Run a noisy command as `ctx run -- <cmd> [args]`. For pipes, redirections or other shell\n")
	b.WriteString("  syntax use `ctx run --shell -- '<shell string>'`. Short, quiet commands need no wrapping.\n")
	switch h {
	case HostClaude:
		b.WriteString("- A ctx hook rewrites common noisy commands to `ctx run` before they run, so a digest may come\n")
		b.WriteString("  back where you expected raw output. That is expected; the full output is stored.\n")
	case HostCodex:
		b.WriteString("- This section is an instruction, not enforcement. If the ctx hook is installed and trusted\n")
		b.WriteString("  (`.codex/hooks.json`), it rewrites common noisy commands; otherwise nothing does, so wrap\n")
		b.WriteString("  them yourself.\n")
	}
	b.WriteString("- A digest says what ran and its exit status, the findings that matter (failing tests, errors),\n")
	b.WriteString("  a coverage line (what was shown, what was left out) and handles such as\n")
	b.WriteString("  `run:ba3d1020ee8f#stdout:L40-52` for everything else.\n")
	b.WriteString("- `ctx get HANDLE` prints the output as a pipe would have carried it (colour codes and\n")
	b.WriteString("  progress redraws removed; `--raw` for the exact stored bytes). Narrow it with `--lines A:B`, `--grep RE`\n")
	b.WriteString("  (with `--around N` for context) or `--bytes A:B`. A large region comes back as a smaller\n")
	b.WriteString("  digest with narrower handles: follow them instead of asking for everything.\n")
	b.WriteString("- The exit status is the command's own. ctx adds: 124 timed out, 125 ctx itself failed\n")
	b.WriteString("  (rerun the command without ctx), 126 not executable, 127 not found, 128+N killed by signal N.\n")
	b.WriteString("- Cite handles in your replies rather than pasting long output.\n")
	b.WriteString("- Working on a ledger task (`task:ID`) as a sub-agent: claim it (`ctx task claim task:ID --by NAME`),\n")
	b.WriteString("  save progress with `ctx task renew task:ID --by NAME --checkpoint REF`, and always end with a\n")
	b.WriteString("  typed handback: `ctx task handback task:ID --kind done|failed|blocked|over_budget|over_turns|low_confidence\n")
	b.WriteString("  [--failure-kind K] --checkpoint REF --turns N --evidence run:ID`. done is not proof: run the\n")
	b.WriteString("  acceptance command with `ctx run`, then `ctx task verdict task:ID --pass|--fail --run run:ID`.\n")
	b.WriteString("  Picking a task up again: `ctx task resume task:ID` (checkpoint, last handback, next action).\n")
	b.WriteString("- Handing work to the next session: write goal, state, next_action, evidence (handles), rejected\n")
	b.WriteString("  approaches and constraints to a TOML file and run `ctx capsule capture FILE`; give the printed\n")
	b.WriteString("  `capsule:ID` to whoever continues. Starting from one: `ctx capsule render capsule:ID` to read it,\n")
	b.WriteString("  `ctx capsule inspect capsule:ID` to see whether its conditions still hold on this checkout.\n")
	return b.String()
}

// InstallGuide puts the host's usage guide between ctx's markers in an
// instruction file (CLAUDE.md, AGENTS.md), creating the file if needed,
// replacing a previous block in place, or appending one. Idempotent.
func InstallGuide(path string, h Host) (Change, error) {
	block := GuideBegin + "\n" + Guide(h) + GuideEnd + "\n"
	return editFile(path, "install", textKind(GuideBegin), func(old []byte, exists bool) ([]byte, bool, error) {
		out, err := putBlock(old, block, GuideBegin, GuideEnd)
		return out, err == nil, err
	})
}

// RemoveGuide deletes ctx's block from an instruction file, and the file
// itself if nothing else is left in it.
func RemoveGuide(path string) (Change, error) {
	return editFile(path, "remove", textKind(GuideBegin), func(old []byte, exists bool) ([]byte, bool, error) {
		return dropBlock(old, GuideBegin, GuideEnd)
	})
}

// InstallCodexMCP registers `ctx mcp` as the MCP server "ctx" in a Codex
// config.toml ([mcp_servers.ctx]), inside ctx's marked block at the end of
// the file. A [mcp_servers.ctx] table outside the block is an ErrConflict.
func InstallCodexMCP(configPath string, opts InstallOptions) (Change, error) {
	block := fmt.Sprintf("%s\n[mcp_servers.ctx]\ncommand = %s\nargs = [\"mcp\"]\n%s\n",
		tomlBegin, tomlString(opts.ctxCommand()), tomlEnd)
	return editFile(configPath, "install", textKind(tomlBegin), func(old []byte, exists bool) ([]byte, bool, error) {
		outside, _, _ := cutBlock(old, tomlBegin, tomlEnd)
		if tomlCtxTable.Match(outside) {
			return nil, false, &conflict{what: "config.toml already has an [mcp_servers.ctx] table",
				fix: "rename or delete that table (outside ctx's marked block) and run the command again, or leave it and run ctx init codex without --mcp; this file is unchanged"}
		}
		out, err := putBlock(old, block, tomlBegin, tomlEnd)
		return out, err == nil, err
	})
}

// RemoveCodexMCP deletes ctx's block from a Codex config.toml.
func RemoveCodexMCP(configPath string) (Change, error) {
	return editFile(configPath, "remove", textKind(tomlBegin), func(old []byte, exists bool) ([]byte, bool, error) {
		return dropBlock(old, tomlBegin, tomlEnd)
	})
}

var tomlCtxTable = lines.Lazy(`(?m)^\s*\[\s*mcp_servers\s*\.\s*(ctx|"ctx"|'ctx')\s*\]`)

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b bytes.Buffer
	writeJSONString(&b, s) // JSON string escapes are valid TOML basic-string escapes
	return b.String()
}

// cutBlock splits data around the first begin…end block (markers on their
// own lines). found is false when there is no complete block.
func cutBlock(data []byte, begin, end string) (outside []byte, at int, found bool) {
	i := lineIndex(data, begin, 0)
	if i < 0 {
		return data, -1, false
	}
	j := lineIndex(data, end, i)
	if j < 0 {
		return data, -1, false
	}
	stop := j + len(end)
	if stop < len(data) && data[stop] == '\n' {
		stop++
	}
	outside = append(append([]byte(nil), data[:i]...), data[stop:]...)
	return outside, i, true
}

// lineIndex finds marker at the start of a line, at or after from.
func lineIndex(data []byte, marker string, from int) int {
	for off := from; off < len(data); {
		k := bytes.Index(data[off:], []byte(marker))
		if k < 0 {
			return -1
		}
		k += off
		if k == 0 || data[k-1] == '\n' {
			return k
		}
		off = k + 1
	}
	return -1
}

// putBlock replaces the existing block with block, or appends block after a
// blank line.
func putBlock(old []byte, block, begin, end string) ([]byte, error) {
	if bytes.Count(old, []byte(begin)) > 1 {
		return nil, markerConflict("more than one ctx block", begin, end)
	}
	if outside, at, found := cutBlock(old, begin, end); found {
		out := append([]byte(nil), outside[:at]...)
		out = append(out, block...)
		return append(out, outside[at:]...), nil
	}
	if bytes.Contains(old, []byte(begin)) {
		return nil, markerConflict("a ctx begin marker without its end marker", begin, end)
	}
	out := append([]byte(nil), old...)
	if len(out) > 0 {
		if out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		if !bytes.HasSuffix(out, []byte("\n\n")) {
			out = append(out, '\n')
		}
	}
	return append(out, block...), nil
}

// dropBlock removes the block and the blank line putBlock added before it;
// nil content with changed true means the file is left empty and should go.
func dropBlock(old []byte, begin, end string) ([]byte, bool, error) {
	outside, at, found := cutBlock(old, begin, end)
	if !found {
		return nil, false, nil
	}
	// Drop the blank line that separated the block from the text before it,
	// unless the text after the block needs it as its own separator.
	if bytes.HasSuffix(outside[:at], []byte("\n\n")) && (at == len(outside) || outside[at] == '\n') {
		outside = append(outside[:at-1], outside[at:]...)
	}
	if len(bytes.TrimSpace(outside)) == 0 {
		return nil, true, nil
	}
	return outside, true, nil
}

// Scope says whether a host integration is for one project or for the user.
type Scope uint8

const (
	ScopeProject Scope = iota // files inside the project, shared through version control
	ScopeUser                 // files in the user's home, for every project
)

// Paths are the files `ctx init` touches for one host and scope.
type Paths struct {
	Hooks string // Claude Code settings.json or Codex hooks.json
	MCP   string // Claude Code .mcp.json / ~/.claude.json, or Codex config.toml
	Guide string // CLAUDE.md or AGENTS.md
}

// ClaudePaths returns Claude Code's files. configDir is $CLAUDE_CONFIG_DIR
// when set, else empty for ~/.claude.
func ClaudePaths(s Scope, projectDir, home, configDir string) Paths {
	if s == ScopeProject {
		return Paths{
			Hooks: filepath.Join(projectDir, ".claude", "settings.json"),
			MCP:   filepath.Join(projectDir, ".mcp.json"),
			Guide: filepath.Join(projectDir, "CLAUDE.md"),
		}
	}
	if configDir == "" {
		configDir = filepath.Join(home, ".claude")
	}
	return Paths{
		Hooks: filepath.Join(configDir, "settings.json"),
		MCP:   filepath.Join(home, ".claude.json"),
		Guide: filepath.Join(configDir, "CLAUDE.md"),
	}
}

// CodexPaths returns Codex's files. codexHome is $CODEX_HOME when set, else
// empty for ~/.codex.
func CodexPaths(s Scope, projectDir, home, codexHome string) Paths {
	if s == ScopeProject {
		return Paths{
			Hooks: filepath.Join(projectDir, ".codex", "hooks.json"),
			MCP:   filepath.Join(projectDir, ".codex", "config.toml"),
			Guide: filepath.Join(projectDir, "AGENTS.md"),
		}
	}
	if codexHome == "" {
		codexHome = filepath.Join(home, ".codex")
	}
	return Paths{
		Hooks: filepath.Join(codexHome, "hooks.json"),
		MCP:   filepath.Join(codexHome, "config.toml"),
		Guide: filepath.Join(codexHome, "AGENTS.md"),
	}
}
