// Package helper finds and runs ctx's helper binaries: the commands whose
// dependencies are too heavy to load on every ctx run (the MCP SDK, the S3
// client, Starlark) are built into ctx-mcp and ctx-remote, which ctx runs
// in its own place, git-style, with the same arguments, environment and
// exit status. A helper is looked for beside the running ctx first, then
// on PATH.
package helper

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// The helper binaries, by what they hold.
const (
	// MCP holds ctx mcp and the commands whose packages serve MCP tools or
	// link Starlark (bench, q, outline, py, task, steward, continuity,
	// capsule, relay, ui).
	MCP = "ctx-mcp"
	// Remote holds the shared tier: ctx push, pull, remote, and get/show of
	// a handle only the remote holds.
	Remote = "ctx-remote"
)

// Names lists every helper, in the order ctx doctor reports them.
var Names = []string{MCP, Remote}

// Of names the helper that holds each command the main ctx does not.
var Of = map[string]string{
	"mcp": MCP, "bench": MCP, "q": MCP, "outline": MCP, "py": MCP, "task": MCP, "steward": MCP,
	"continuity": MCP, "capsule": MCP, "relay": MCP, "ui": MCP,
	"push": Remote, "pull": Remote, "remote": Remote,
}

// InstallHint is how to install the helpers with ctx itself.
const InstallHint = "go install github.com/ctxhq/ctx/cmd/... (or `go install ./cmd/...` in a checkout) installs ctx with its helpers"

// Find returns the path of the helper name: beside the running executable,
// else on PATH.
func Find(name string) (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	dir := "ctx's directory"
	if self, err := os.Executable(); err == nil {
		dir = filepath.Dir(self)
	}
	return "", &MissingError{Name: name, Dir: dir}
}

// MissingError is a helper found neither beside ctx nor on PATH.
type MissingError struct{ Name, Dir string }

func (e *MissingError) Error() string {
	return fmt.Sprintf("the helper binary %s is neither in %s nor on PATH", e.Name, e.Dir)
}

// Exec replaces this process with the helper name run with args (the
// arguments after the program name), the same environment, stdio and
// working directory, so its exit status is ctx's. It returns only on
// failure.
func Exec(name string, args []string) error {
	path, err := Find(name)
	if err != nil {
		return err
	}
	if err := checkBuild(path); err != nil {
		return err
	}
	if err := syscall.Exec(path, append([]string{path}, args...), os.Environ()); err != nil {
		return fmt.Errorf("run helper %s: %w", path, err)
	}
	return nil
}

// NeededError asks for a command to be run again by a helper: the main ctx
// met something only the helper can do (a handle only the remote holds, a
// py: handle). Main execs the helper with the process's arguments.
type NeededError struct {
	Name string // the helper
	Why  string // what needs it, for the error when it cannot be run
}

func (e *NeededError) Error() string { return e.Why + " needs the helper " + e.Name }

// Need is the error that asks Main to hand the command to helper name.
func Need(name, why string) error { return &NeededError{Name: name, Why: why} }

// remoteConfigName is the remote tier's configuration file (remote.ConfigName).
const remoteConfigName = "remote.toml"

// RemoteConfigured reports whether a remote tier is configured for the store
// in storeDir: whether one of the files remote.ConfigPaths lists exists (the
// store's own remote.toml, then $XDG_CONFIG_HOME/ctx/remote.toml or
// ~/.config/ctx/remote.toml). It is the remote package's Configured without
// linking the S3 client into ctx; internal/ctxremote's tests hold the two
// to the same answer.
func RemoteConfigured(storeDir string) bool {
	var paths []string
	if storeDir != "" {
		paths = append(paths, filepath.Join(storeDir, remoteConfigName))
	}
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		paths = append(paths, filepath.Join(dir, "ctx", remoteConfigName))
	} else if home, err := os.UserHomeDir(); err == nil {
		paths = append(paths, filepath.Join(home, ".config", "ctx", remoteConfigName))
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// Ctx is the main ctx for a program at path self: self, unless self is a
// helper, then the ctx beside it, else the ctx on PATH. What names ctx to
// others (the hook's rewrite, ctx init's host entries, the benchmarks'
// subject) names ctx, never a helper that happens to be running.
func Ctx(self string) string {
	base := filepath.Base(self)
	for _, name := range Names {
		if base != name {
			continue
		}
		p := filepath.Join(filepath.Dir(self), "ctx")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		if p, err := exec.LookPath("ctx"); err == nil {
			return p
		}
	}
	return self
}
