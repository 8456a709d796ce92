package hostscmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/hosts"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/store"
)

// A check is one thing ctx doctor looked at.
type check struct {
	Check  string `json:"check"`  // path, helper, store, hook, mcp, guide
	Status string `json:"status"` // ok, info (nothing to do), problem
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

func newDoctorCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check that ctx is installed and wired into agent hosts, and say what to fix",
		Long: `Check what a working ctx setup needs, and for each problem say how to fix it:

  - PATH: is there a ctx on PATH, and is it this binary;
  - helper: are the helper binaries ctx-mcp and ctx-remote (which hold
    ctx mcp, push, pull and the other commands with heavy dependencies)
    beside this binary or on PATH;
  - store: can this workspace's store be opened and read;
  - hook, mcp, guide: for Claude Code and Codex, project and user files: is
    ctx's hook installed, does the binary it names exist and run;

Nothing is changed.

Exit status: 0 no problem found (things not installed are not problems);
1 at least one problem; 2 usage error.`,
		Example: "  ctx doctor\n  ctx doctor --json",
		Args:    cli.ExactArgs(0, "ctx doctor"),
		RunE: func(cmd *cobra.Command, args []string) error {
			checks := runDoctor(ios)
			problems := 0
			for _, c := range checks {
				if c.Status == "problem" {
					problems++
				}
			}
			if asJSON {
				if err := cli.WriteJSON(ios.Out, struct {
					OK     bool    `json:"ok"`
					Checks []check `json:"checks"`
				}{problems == 0, checks}); err != nil {
					return err
				}
			} else {
				for _, c := range checks {
					fmt.Fprintf(ios.Out, "%-7s %-6s %s\n", c.Status, c.Check, c.Detail)
					if c.Fix != "" {
						fmt.Fprintf(ios.Out, "%15s fix: %s\n", "", c.Fix)
					}
				}
			}
			if problems > 0 {
				if !asJSON {
					fmt.Fprintf(ios.Out, "%d problem(s) found\n", problems)
				}
				return &cli.ExitError{Code: cli.ExitBad}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	return c
}

func runDoctor(ios *cli.IO) []check {
	var out []check
	self, selfErr := os.Executable()
	self = helper.Ctx(self)

	// PATH.
	onPathCtx, err := exec.LookPath("ctx")
	switch {
	case err != nil:
		out = append(out, check{"path", "problem", "no ctx on PATH",
			"add the directory holding ctx to PATH in your shell profile (e.g. export PATH=\"$(go env GOPATH)/bin:$PATH\" in ~/.profile); hooks written by ctx init name ctx by absolute path and work anyway"})
	case selfErr == nil && sameFile(onPathCtx, self):
		out = append(out, check{"path", "ok", "ctx on PATH is " + onPathCtx + " (this binary)", ""})
	default:
		out = append(out, check{"path", "info", fmt.Sprintf("ctx on PATH is %s, not this binary (%s)", onPathCtx, self), ""})
	}

	out = append(out, helperChecks()...)

	// Store.
	cwd, _ := ios.Getwd()
	if loc, err := store.Locate(cwd); err != nil {
		out = append(out, check{"store", "problem", err.Error(), "run ctx doctor from a readable directory"})
	} else if st, err := store.Open(loc, false); errors.Is(err, store.ErrNotFound) {
		out = append(out, check{"store", "info", "no store yet at " + loc.Dir + userStoreNote(loc) + " (the first ctx run creates it)", ""})
	} else if err != nil {
		out = append(out, storeProblem(loc.Dir, err))
	} else {
		execs, err := st.Execs(1, nil)
		st.Close()
		if err != nil {
			out = append(out, storeProblem(loc.Dir, err))
		} else {
			d := "store " + loc.Dir + userStoreNote(loc) + " opens and reads"
			if len(execs) > 0 {
				d += "; latest run " + execs[0].Handle()
			}
			out = append(out, check{"store", "ok", d, ""})
		}
	}

	// Hosts.
	root := cwd
	if loc, err := store.Locate(cwd); err == nil {
		root = loc.Root
	}
	home, _ := os.UserHomeDir()
	for _, h := range []hosts.Host{hosts.HostClaude, hosts.HostCodex} {
		for _, sc := range []hosts.Scope{hosts.ScopeProject, hosts.ScopeUser} {
			var p hosts.Paths
			scope, flag := "project", ""
			if sc == hosts.ScopeUser {
				scope, flag = "user", " --user"
			}
			if h == hosts.HostClaude {
				p = hosts.ClaudePaths(sc, root, home, ios.Getenv("CLAUDE_CONFIG_DIR"))
			} else {
				p = hosts.CodexPaths(sc, root, home, ios.Getenv("CODEX_HOME"))
			}
			name := fmt.Sprintf("%s (%s)", h, scope)
			reinstall := fmt.Sprintf("ctx init %s%s", h, flag)
			in, err := hosts.Inspect(p, h)
			if err != nil {
				fix := "fix the file by hand"
				var fe *hosts.FileError
				if errors.As(err, &fe) && fe.Hint != "" {
					fix = fe.Hint
				}
				out = append(out, check{"hook", "problem", name + ": " + err.Error(), fix})
				continue
			}
			switch {
			case len(in.Hooks) == 0:
				out = append(out, check{"hook", "info", name + ": not installed in " + p.Hooks, ""})
			case len(in.Hooks) > 1:
				out = append(out, check{"hook", "problem", fmt.Sprintf("%s: %d ctx hooks in %s (each command would be rewritten twice)", name, len(in.Hooks), p.Hooks), reinstall + " (it keeps one)"})
			default:
				out = append(out, binaryCheck("hook", name+": hook in "+p.Hooks, hosts.HookProgram(in.Hooks[0]), reinstall))
			}
			if in.MCP == "" {
				out = append(out, check{"mcp", "info", name + ": ctx MCP server not registered in " + p.MCP, ""})
			} else {
				out = append(out, binaryCheck("mcp", name+": MCP server in "+p.MCP, in.MCP, reinstall+" --mcp"))
			}
		}
	}
	return out
}

// binaryCheck checks that the program a host entry runs exists and runs.
func binaryCheck(what, where, prog, fix string) check {
	path := prog
	if !filepath.IsAbs(prog) {
		p, err := exec.LookPath(prog)
		if err != nil {
			return check{what, "problem", fmt.Sprintf("%s runs %q, which is not on this PATH (the host's PATH may differ)", where, prog),
				fix + " (it writes ctx's absolute path)"}
		}
		path = p
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return check{what, "problem", fmt.Sprintf("%s runs %s, which does not exist or is not executable", where, prog),
			fix + " (from the ctx you want the host to run)"}
	}
	return check{what, "ok", fmt.Sprintf("%s runs %s", where, prog), ""}
}

func storeProblem(dir string, err error) check {
	fix := "see the error; a locked store frees itself when the other ctx finishes"
	var se *store.Error
	if errors.As(err, &se) && se.Hint != "" {
		fix = se.Hint
	}
	return check{"store", "problem", fmt.Sprintf("store %s: %v", dir, err), fix}
}

func sameFile(a, b string) bool {
	x, err := os.Stat(a)
	if err != nil {
		return false
	}
	y, err := os.Stat(b)
	return err == nil && os.SameFile(x, y)
}

// userStoreNote says when a directory in no workspace uses the per-user store.
func userStoreNote(loc store.Location) string {
	if loc.Dir == store.UserStoreDir() {
		return " (the per-user store: this directory is in no git repository and has no .ctx of its own)"
	}
	return ""
}

// helperChecks finds the helper binaries that hold ctx's heavier commands
// (internal/helper): without one, its commands fail with the same fix.
func helperChecks() []check {
	var out []check
	for _, name := range helper.Names {
		p, err := helper.Find(name)
		if err != nil {
			out = append(out, check{"helper", "problem", err.Error(), helper.InstallHint})
			continue
		}
		out = append(out, check{"helper", "ok", name + " is " + p, ""})
	}
	return out
}
