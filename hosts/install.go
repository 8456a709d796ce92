package hosts

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Errors of the install and remove functions, wrapped in a *FileError.
var (
	// ErrInvalidJSON: the file exists but is not valid JSON (or its
	// top-level value is not an object). Nothing was changed.
	ErrInvalidJSON = errors.New("invalid JSON")
	// ErrReadOnly: the file's permissions say it must not be written
	// (no write bit), even when the process could write it anyway (root).
	ErrReadOnly = errors.New("file is read-only")
	// ErrConflict: the place ctx would write is taken by something that is
	// not ctx's (a "hooks" key that is not an object, an MCP server named
	// ctx that runs something else).
	ErrConflict = errors.New("conflicting entry")
)

// FileError says which file an install or remove step failed on.
type FileError struct {
	Op   string // "install", "remove", "read", "write", "backup"
	Path string
	Err  error
	// Hint is a suggestion for the user, kept out of the message.
	Hint string
}

func (e *FileError) Error() string { return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err) }
func (e *FileError) Unwrap() error { return e.Err }

// Change reports what an install or remove step did to one file. Every step
// is idempotent: repeating it reports Changed false and touches nothing.
type Change struct {
	Path    string `json:"path"`
	Changed bool   `json:"changed"` // the file's content changed
	Created bool   `json:"created"` // the file did not exist before
	Removed bool   `json:"removed"` // the file was deleted (it held only ctx's content)
	// Restored: a remove put back, byte for byte, the content the file had
	// before ctx's first install (ctx's entries were the only change), and
	// deleted the backup.
	Restored bool   `json:"restored"`
	Backup   string `json:"backup,omitempty"` // where the previous content was saved, if it changed
}

// BackupSuffix is appended to a file's path to name the copy of its content
// before ctx first changed it (and, on a remove that cannot restore it, the
// content before the remove). A remove that finds ctx's entries were the only
// change puts the backup back and deletes it.
const BackupSuffix = ".ctx-backup"

// Default hook commands and timeout written by the installers.
const (
	ClaudeHookCommand = "ctx hook claude pre-tool-use"
	CodexHookCommand  = "ctx hook codex pre-tool-use"
	// HookTimeoutSeconds bounds each hook call in the host's config; the
	// hook takes milliseconds, and a host kills a stuck hook and runs the
	// command unchanged.
	HookTimeoutSeconds = 10
)

// InstallOptions tune the installers. Zero values mean the defaults.
type InstallOptions struct {
	// HookCommand is the command the host runs for each Bash call; default
	// ClaudeHookCommand or CodexHookCommand.
	HookCommand string
	// Timeout is the hook timeout in seconds; default HookTimeoutSeconds.
	Timeout int
	// CtxCommand is how MCP server entries name the ctx binary; default "ctx".
	CtxCommand string
}

func (o InstallOptions) hookCommand(h Host) string {
	if o.HookCommand != "" {
		return o.HookCommand
	}
	if h == HostCodex {
		return CodexHookCommand
	}
	return ClaudeHookCommand
}

func (o InstallOptions) timeout() int {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return HookTimeoutSeconds
}

func (o InstallOptions) ctxCommand() string {
	if o.CtxCommand != "" {
		return o.CtxCommand
	}
	return "ctx"
}

// InstallClaude merges ctx's PreToolUse hook (matcher "Bash") into a Claude
// Code settings file, creating the file if needed. Other keys and other
// hooks are kept, in order; a previous ctx hook (say, with another binary
// path) is replaced rather than duplicated; installing twice changes the
// file once. The previous content is saved next to it (BackupSuffix).
func InstallClaude(settingsPath string, opts InstallOptions) (Change, error) {
	return installHook(settingsPath, HostClaude, opts)
}

// RemoveClaude removes ctx's hook from a Claude Code settings file, leaving
// everything else as it was.
func RemoveClaude(settingsPath string, opts InstallOptions) (Change, error) {
	return removeHook(settingsPath, HostClaude, opts)
}

// InstallCodex merges ctx's PreToolUse hook into a Codex hooks.json file;
// the format is the same as Claude Code's hooks key. Codex runs a new
// non-managed hook only after the user reviews and trusts it.
func InstallCodex(hooksPath string, opts InstallOptions) (Change, error) {
	return installHook(hooksPath, HostCodex, opts)
}

// RemoveCodex removes ctx's hook from a Codex hooks.json file.
func RemoveCodex(hooksPath string, opts InstallOptions) (Change, error) {
	return removeHook(hooksPath, HostCodex, opts)
}

// isCtxHook reports whether a hook handler object is one ctx installed for
// host h. The marker is ctx's hook subcommand at the end of the command —
// "PROGRAM hook <host> pre-tool-use" — whatever the binary is called or
// wherever it lives, so a renamed or moved ctx still finds (and replaces, and
// removes) its own entries.
func isCtxHook(n *jnode, h Host) bool {
	if t, _ := n.get("type").str(); t != "command" {
		return false
	}
	cmd, ok := n.get("command").str()
	if !ok {
		return false
	}
	f := strings.Fields(cmd)
	if len(f) < 4 {
		return false
	}
	return f[len(f)-3] == "hook" && f[len(f)-2] == h.String() && f[len(f)-1] == "pre-tool-use"
}

// hasCtxHook reports whether a settings document holds a ctx hook for h.
func hasCtxHook(root *jnode, h Host) bool {
	for _, g := range root.get("hooks").get("PreToolUse").arrayOrNil() {
		for _, hd := range g.get("hooks").arrayOrNil() {
			if isCtxHook(hd, h) {
				return true
			}
		}
	}
	return false
}

func ctxHookGroup(h Host, opts InstallOptions) *jnode {
	handler := newObject()
	handler.set("type", jsonString("command"))
	handler.set("command", jsonString(opts.hookCommand(h)))
	handler.set("timeout", jsonInt(opts.timeout()))
	hooks := newArray()
	hooks.arr = append(hooks.arr, handler)
	g := newObject()
	g.set("matcher", jsonString("Bash"))
	g.set("hooks", hooks)
	return g
}

func installHook(path string, h Host, opts InstallOptions) (Change, error) {
	ours := func(root *jnode) bool { return hasCtxHook(root, h) }
	return editJSON(path, "install", ours, func(root *jnode) (bool, error) {
		hooks := root.get("hooks")
		if hooks == nil {
			hooks = newObject()
			root.set("hooks", hooks)
		} else if hooks.kind != '{' {
			return false, notShaped("hooks", "an object", `"hooks": {"PreToolUse": [...]}`)
		}
		pre := hooks.get("PreToolUse")
		if pre == nil {
			pre = newArray()
			hooks.set("PreToolUse", pre)
		} else if pre.kind != '[' {
			return false, notShaped("hooks.PreToolUse", "an array", `"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]`)
		}
		want := ctxHookGroup(h, opts)
		// Already installed exactly once, as we would write it: nothing to do.
		found := 0
		exact := false
		for _, g := range pre.arr {
			for _, hd := range g.get("hooks").arrayOrNil() {
				if isCtxHook(hd, h) {
					found++
					exact = g.equal(want)
				}
			}
		}
		if found == 1 && exact {
			return false, nil
		}
		removeCtxHooks(pre, h)
		pre.arr = append(pre.arr, want)
		return true, nil
	})
}

func removeHook(path string, h Host, opts InstallOptions) (Change, error) {
	ours := func(root *jnode) bool { return hasCtxHook(root, h) }
	return editJSON(path, "remove", ours, func(root *jnode) (bool, error) {
		hooks := root.get("hooks")
		pre := hooks.get("PreToolUse")
		if pre == nil || pre.kind != '[' {
			return false, nil
		}
		if !removeCtxHooks(pre, h) {
			return false, nil
		}
		if len(pre.arr) == 0 {
			hooks.del("PreToolUse")
		}
		if len(hooks.obj) == 0 {
			root.del("hooks")
		}
		return true, nil
	})
}

// removeCtxHooks deletes ctx's handlers from every matcher group, and the
// groups they leave empty. It reports whether anything was removed.
func removeCtxHooks(pre *jnode, h Host) bool {
	removed := false
	groups := pre.arr[:0]
	for _, g := range pre.arr {
		hs := g.get("hooks")
		if hs == nil || hs.kind != '[' {
			groups = append(groups, g)
			continue
		}
		kept := hs.arr[:0]
		for _, hd := range hs.arr {
			if isCtxHook(hd, h) {
				removed = true
				continue
			}
			kept = append(kept, hd)
		}
		hs.arr = kept
		if len(kept) > 0 {
			groups = append(groups, g)
		}
	}
	pre.arr = groups
	return removed
}

func (n *jnode) arrayOrNil() []*jnode {
	if n == nil || n.kind != '[' {
		return nil
	}
	return n.arr
}

// InstallClaudeMCP registers `ctx mcp` as the stdio MCP server "ctx" in a
// Claude Code MCP file: the project's .mcp.json or the user's ~/.claude.json
// (top-level mcpServers). An existing "ctx" server that is not ctx's is an
// ErrConflict.
func InstallClaudeMCP(path string, opts InstallOptions) (Change, error) {
	return editJSON(path, "install", hasCtxMCP, func(root *jnode) (bool, error) {
		servers := root.get("mcpServers")
		if servers == nil {
			servers = newObject()
			root.set("mcpServers", servers)
		} else if servers.kind != '{' {
			return false, notShaped("mcpServers", "an object", `"mcpServers": {"name": {"command": "..."}}`)
		}
		want := newObject()
		want.set("type", jsonString("stdio"))
		want.set("command", jsonString(opts.ctxCommand()))
		args := newArray()
		args.arr = append(args.arr, jsonString("mcp"))
		want.set("args", args)
		env := newObject()
		env.set(mcpMarker, jsonString("ctx init"))
		want.set("env", env)
		if cur := servers.get("ctx"); cur != nil {
			if !isCtxMCP(cur) {
				cmd, _ := cur.get("command").str()
				return false, otherCtxServer(`"mcpServers"`, cmd)
			}
			if cur.equal(want) {
				return false, nil
			}
		}
		servers.set("ctx", want)
		return true, nil
	})
}

// RemoveClaudeMCP removes the "ctx" MCP server if it is ctx's.
func RemoveClaudeMCP(path string, opts InstallOptions) (Change, error) {
	return editJSON(path, "remove", hasCtxMCP, func(root *jnode) (bool, error) {
		servers := root.get("mcpServers")
		if cur := servers.get("ctx"); cur == nil || !isCtxMCP(cur) {
			return false, nil
		}
		servers.del("ctx")
		if len(servers.obj) == 0 {
			root.del("mcpServers")
		}
		return true, nil
	})
}

// mcpMarker is the environment variable ctx's MCP server entries carry
// ("CTX_MANAGED_BY": "ctx init"): it marks the entry as ctx's whatever the
// binary is called.
const mcpMarker = "CTX_MANAGED_BY"

// isCtxMCP reports whether an MCP server entry is ctx's: it carries ctx's
// marker, or (entries from before the marker) runs a binary named ctx with
// the single argument mcp.
func isCtxMCP(n *jnode) bool {
	if n.get("env").get(mcpMarker) != nil {
		return true
	}
	cmd, _ := n.get("command").str()
	args := n.get("args").arrayOrNil()
	if len(args) != 1 {
		return false
	}
	a, _ := args[0].str()
	return baseName(cmd) == "ctx" && a == "mcp"
}

func hasCtxMCP(root *jnode) bool {
	cur := root.get("mcpServers").get("ctx")
	return cur != nil && isCtxMCP(cur)
}

// parseSettings reads a JSON settings document; a blank file is an empty
// object.
func parseSettings(data []byte) (*jnode, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return newObject(), nil
	}
	root, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("%w: %v", ErrInvalidJSON, errNotObject)
	}
	return root, nil
}

// jsonKind is how editFile treats a JSON settings file; ours reports whether
// a document holds ctx's entries.
func jsonKind(ours func(*jnode) bool) fileKind {
	return fileKind{
		ours: func(data []byte) bool {
			root, err := parseSettings(data)
			return err == nil && ours(root)
		},
		same: func(a, b []byte) bool {
			x, errA := parseSettings(a)
			y, errB := parseSettings(b)
			return errA == nil && errB == nil && x.equal(y)
		},
	}
}

// editJSON applies edit to the JSON object in path (a missing or blank file
// is an empty object) and writes the result if edit reports a change. A
// remove that leaves an empty object deletes the file (or restores the
// backup, if the file existed before ctx).
func editJSON(path, op string, ours func(*jnode) bool, edit func(root *jnode) (bool, error)) (Change, error) {
	return editFile(path, op, jsonKind(ours), func(old []byte, exists bool) ([]byte, bool, error) {
		root, err := parseSettings(old)
		if err != nil {
			return nil, false, err
		}
		changed, err := edit(root)
		if err != nil || !changed {
			return nil, false, err
		}
		if op == "remove" && len(root.obj) == 0 {
			return nil, true, nil
		}
		return formatJSON(root, old), true, nil
	})
}

// fileKind tells editFile how to recognise ctx's part of a file.
type fileKind struct {
	// ours reports whether content holds any of ctx's entries.
	ours func(content []byte) bool
	// same reports whether two contents mean the same (nil is an empty file).
	same func(a, b []byte) bool
}

// textKind is a file where ctx owns a marked block (CLAUDE.md, config.toml).
func textKind(begin string) fileKind {
	return fileKind{
		ours: func(data []byte) bool { return bytes.Contains(data, []byte(begin)) },
		same: func(a, b []byte) bool { return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b)) },
	}
}

// editFile is the one place that writes host configuration. It reads path
// (following symlinks, so a dotfile manager's link keeps pointing at its
// target), lets edit compute new content, and when that differs: refuses
// read-only files, saves the previous content to path+BackupSuffix, and
// replaces the file atomically with the same permissions. New content nil
// with changed true deletes the file.
//
// The backup is the user's own content: an install writes it only when the
// file holds none of ctx's entries yet, so reinstalling (a new binary path)
// keeps the first backup. A remove whose result means the same as that
// backup writes the backup's bytes back and deletes it: install then remove
// leaves the user's file exactly as it was, and no backup behind.
func editFile(path, op string, k fileKind, edit func(old []byte, exists bool) (newContent []byte, changed bool, err error)) (Change, error) {
	ch := Change{Path: path}
	fail := func(op string, err error) (Change, error) {
		fe := &FileError{Op: op, Path: path, Err: err}
		var c *conflict
		switch {
		case errors.As(err, &c):
			fe.Hint = c.fix
		case errors.Is(err, ErrInvalidJSON):
			fe.Hint = "fix the file by hand (or move it away) and run the command again; this file is unchanged"
		case errors.Is(err, ErrReadOnly):
			fe.Hint = "the file is read-only, perhaps on purpose (a managed dotfile); make it writable or add ctx's entry by hand"
		case errors.Is(err, fs.ErrPermission):
			fe.Hint = "check the permissions of the file and its directory"
		}
		return Change{Path: path}, fe
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	old, err := os.ReadFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail("read", err)
	}
	var mode fs.FileMode = 0o644
	if exists {
		info, err := os.Stat(target)
		if err != nil {
			return fail("read", err)
		}
		mode = info.Mode().Perm()
	}
	content, changed, err := edit(old, exists)
	if err != nil {
		return fail(op, err)
	}
	if !changed || !exists && content == nil {
		return ch, nil
	}
	if exists && bytes.Equal(content, old) {
		return ch, nil
	}
	if exists && mode&0o222 == 0 {
		return fail(op, ErrReadOnly)
	}
	backup := path + BackupSuffix
	if op == "remove" {
		if prev, err := os.ReadFile(backup); err == nil && !k.ours(prev) && k.same(prev, content) {
			if err := writeAtomic(target, prev, mode); err != nil {
				return fail("write", err)
			}
			if err := os.Remove(backup); err != nil {
				return fail("backup", err)
			}
			ch.Changed, ch.Restored = true, true
			return ch, nil
		}
	}
	switch {
	case exists && op == "remove" && content == nil:
		// Nothing of the user's is left: no copy to keep.
	case exists && (op == "remove" || !k.ours(old)):
		if err := writeAtomic(backup, old, mode); err != nil {
			return fail("backup", err)
		}
		ch.Backup = backup
	case !exists:
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fail("write", err)
		}
	}
	if content == nil {
		if err := os.Remove(target); err != nil {
			return fail("write", err)
		}
		removeEmptyHostDir(filepath.Dir(target))
		ch.Changed, ch.Removed = true, true
		return ch, nil
	}
	if err := writeAtomic(target, content, mode); err != nil {
		return fail("write", err)
	}
	ch.Changed, ch.Created = true, !exists
	return ch, nil
}

// removeEmptyHostDir deletes a host's project directory (.claude, .codex)
// once the last file ctx put there is gone; a directory with anything else in
// it stays.
func removeEmptyHostDir(dir string) {
	if b := filepath.Base(dir); b == ".claude" || b == ".codex" {
		_ = os.Remove(dir) // fails, harmlessly, unless empty
	}
}

// writeAtomic writes data to a temporary file beside path and renames it
// into place, so a crash leaves either the old or the new content.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
