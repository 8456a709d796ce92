package hosts

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/lines"
)

// Installed says what of ctx's one host's files hold, for `ctx doctor`.
type Installed struct {
	// Hooks are the commands of ctx's PreToolUse hook handlers (normally one).
	Hooks []string
	// MCP is the command ctx's MCP server entry runs; "" when there is none.
	MCP string
	// Guide reports whether the instruction file holds ctx's block.
	Guide bool
}

// Inspect reads a host's files and reports ctx's entries in them. A missing
// file holds nothing; an unreadable or invalid one is an error naming it.
func Inspect(p Paths, h Host) (Installed, error) {
	var in Installed
	root, err := readSettings(p.Hooks)
	if err != nil {
		return in, err
	}
	for _, g := range root.get("hooks").get("PreToolUse").arrayOrNil() {
		for _, hd := range g.get("hooks").arrayOrNil() {
			if isCtxHook(hd, h) {
				cmd, _ := hd.get("command").str()
				in.Hooks = append(in.Hooks, cmd)
			}
		}
	}
	if h == HostClaude {
		root, err := readSettings(p.MCP)
		if err != nil {
			return in, err
		}
		if cur := root.get("mcpServers").get("ctx"); cur != nil && isCtxMCP(cur) {
			in.MCP, _ = cur.get("command").str()
		}
	} else {
		data, err := readOptional(p.MCP)
		if err != nil {
			return in, err
		}
		if _, at, found := cutBlock(data, tomlBegin, tomlEnd); found {
			if m := tomlCommand.FindSubmatch(data[at:]); m != nil {
				_ = json.Unmarshal(m[1], &in.MCP) // written by tomlString: a JSON string
			}
		}
	}
	data, err := readOptional(p.Guide)
	if err != nil {
		return in, err
	}
	in.Guide = lineIndex(data, GuideBegin, 0) >= 0
	return in, nil
}

var tomlCommand = lines.Lazy(`(?m)^command = ("(?:[^"\\]|\\.)*")`)

// HookProgram returns the program a hook command runs: the command without
// ctx's hook subcommand, unquoted.
func HookProgram(command string) string {
	f, err := cmdline.Split(command)
	if err != nil || len(f) < 4 {
		return ""
	}
	return strings.Join(f[:len(f)-3], " ")
}

func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &FileError{Op: "read", Path: path, Err: err}
	}
	return data, nil
}

func readSettings(path string) (*jnode, error) {
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	root, err := parseSettings(data)
	if err != nil {
		return nil, &FileError{Op: "read", Path: path, Err: err,
			Hint: "fix the file by hand (or move it away); the host cannot read it either"}
	}
	return root, nil
}
