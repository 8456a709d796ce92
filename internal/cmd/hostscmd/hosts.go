package hostscmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/hosts"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/store"
)

func newHookCmd(ios *cli.IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "hook HOST pre-tool-use",
		Short: "Agent host hook: rewrite flooding shell commands to go through ctx",
		Long: `Read a host's PreToolUse hook payload on stdin and, for a shell command that can
flood the transcript (test runners, builds, linters, package managers, git
log/diff, recursive searches…), answer with the command rewritten to run
through ctx run. Anything else — and any error — leaves the command alone:
the hook always exits 0 and never blocks the agent. ctx init installs it.

HOST is claude or codex. See docs/hosts.md for the protocol.`,
		Example: `  echo '{"tool_name":"Bash","tool_input":{"command":"go test ./..."}}' | ctx hook claude pre-tool-use`,
		Args:    cli.ExactArgs(2, "ctx hook claude|codex pre-tool-use"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[1] != "pre-tool-use" {
				return cli.Usagef("unknown hook event %q (want pre-tool-use)", args[1])
			}
			if args[0] != "claude" && args[0] != "codex" {
				return cli.Usagef("unknown host %q (want claude or codex)", args[0])
			}
			runHook(ios, args[0])
			return nil // never block the agent
		},
	}
	return c
}

// runHook answers one PreToolUse call. It always succeeds: any error leaves
// the agent's command unchanged.
func runHook(ios *cli.IO, host string) int {
	self, err := os.Executable()
	if err != nil {
		self = "ctx"
	}
	self = helper.Ctx(self)
	if host == "codex" {
		err = hosts.CodexPreToolUse(ios.In, ios.Out, self)
	} else {
		err = hosts.ClaudePreToolUse(ios.In, ios.Out, self)
	}
	if err != nil && ios.Getenv("CTX_HOOK_DEBUG") != "" {
		fmt.Fprintf(ios.Err, "ctx hook: %v (the command runs unchanged)\n", err)
	}
	return 0
}

type initOptions struct {
	host    string
	user    bool
	remove  bool
	mcp     bool
	noGuide bool
	json    bool
}

func newInitCmd(ios *cli.IO) *cobra.Command {
	o := &initOptions{}
	c := &cobra.Command{
		Use:   "init claude|codex [--project|--user] [--remove] [--mcp]",
		Short: "Install ctx's hook, usage guide and MCP server into an agent host",
		Long: `Install, for Claude Code or the Codex CLI:

  - the PreToolUse hook that rewrites flooding shell commands to ctx run
    (merged into the host's settings; other hooks and keys are kept; a backup
    of the previous file is written beside it as *.ctx-backup), naming this
    binary by its absolute path, since the host's PATH need not hold ctx;
  - a short usage guide for the agent between marked lines in CLAUDE.md or
    AGENTS.md (an instruction to the agent, not enforcement);
  - with --mcp, the ctx MCP server registration.

--project (the default) writes the project's files, --user the user's.
--remove undoes all of it: a file ctx created is deleted, and a file whose
only change was ctx's gets its previous bytes back (the backup goes too).
ctx's entries are recognised by a marker, whatever the binary is called.
Running init twice changes nothing the second time.
Codex asks the user to review and trust a new hook before it runs.

Exit status: 0 done; 1 a file is invalid, holds a conflicting entry or is
not writable (named, with the fix; that file is unchanged, and the files
written before it are listed); 2 usage error.`,
		Example: `  ctx init claude
  ctx init claude --user --mcp
  ctx init codex --project
  ctx init claude --remove`,
		Args: cli.ExactArgs(1, "ctx init claude|codex"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.host = args[0]
			return runInit(ios, o)
		},
	}
	c.Flags().Bool("project", true, "install into the project's files (the default)")
	c.Flags().BoolVar(&o.user, "user", false, "install into the user's files, for every project")
	c.Flags().BoolVar(&o.remove, "remove", false, "remove what init installed")
	c.Flags().BoolVar(&o.mcp, "mcp", false, "also register the ctx MCP server")
	c.Flags().BoolVar(&o.noGuide, "no-guide", false, "do not write the usage guide into CLAUDE.md / AGENTS.md")
	c.Flags().BoolVar(&o.json, "json", false, "print the changes as JSON")
	return c
}

func runInit(ios *cli.IO, o *initOptions) error {
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	loc, err := store.Locate(cwd)
	if err != nil {
		return err
	}
	home, _ := os.UserHomeDir()
	scope := hosts.ScopeProject
	if o.user {
		scope = hosts.ScopeUser
	}
	self, err := selfPath()
	if err != nil && !o.remove {
		return fmt.Errorf("find the ctx binary to name in the hooks: %w", err)
	}
	// The host runs hooks with its own PATH, which need not hold ctx: name
	// this binary by its absolute path.
	opts := hosts.InstallOptions{CtxCommand: self,
		HookCommand: fmt.Sprintf("%s hook %s pre-tool-use", shellWord(self), o.host)}
	var steps []initStep
	switch o.host {
	case "claude":
		p := hosts.ClaudePaths(scope, loc.Root, home, ios.Getenv("CLAUDE_CONFIG_DIR"))
		if o.remove {
			steps = append(steps, initStep{"hook", func() (hosts.Change, error) { return hosts.RemoveClaude(p.Hooks, opts) }})
		} else {
			steps = append(steps, initStep{"hook", func() (hosts.Change, error) { return hosts.InstallClaude(p.Hooks, opts) }})
		}
		if !o.noGuide {
			steps = append(steps, guideStep(p.Guide, hosts.HostClaude, o.remove))
		}
		if o.mcp || o.remove {
			if o.remove {
				steps = append(steps, initStep{"mcp", func() (hosts.Change, error) { return hosts.RemoveClaudeMCP(p.MCP, opts) }})
			} else {
				steps = append(steps, initStep{"mcp", func() (hosts.Change, error) { return hosts.InstallClaudeMCP(p.MCP, opts) }})
			}
		}
	case "codex":
		p := hosts.CodexPaths(scope, loc.Root, home, ios.Getenv("CODEX_HOME"))
		if o.remove {
			steps = append(steps, initStep{"hook", func() (hosts.Change, error) { return hosts.RemoveCodex(p.Hooks, opts) }})
		} else {
			steps = append(steps, initStep{"hook", func() (hosts.Change, error) { return hosts.InstallCodex(p.Hooks, opts) }})
		}
		if !o.noGuide {
			steps = append(steps, guideStep(p.Guide, hosts.HostCodex, o.remove))
		}
		if o.mcp || o.remove {
			if o.remove {
				steps = append(steps, initStep{"mcp", func() (hosts.Change, error) { return hosts.RemoveCodexMCP(p.MCP) }})
			} else {
				steps = append(steps, initStep{"mcp", func() (hosts.Change, error) { return hosts.InstallCodexMCP(p.MCP, opts) }})
			}
		}
	default:
		return cli.Usagef("unknown host %q (want claude or codex)", o.host)
	}
	rows, err := runSteps(steps, self, o.remove)
	if err != nil {
		// The files before the one that failed are written: say so.
		if len(rows) > 0 {
			_ = printRows(ios, o, rows)
		}
		return err
	}
	return printInit(ios, o, rows, self)
}

// runSteps does each step in turn and stops at the first that fails,
// returning the rows of those done (their files are written).
func runSteps(steps []initStep, self string, remove bool) ([]initRow, error) {
	var rows []initRow
	for _, s := range steps {
		ch, err := s.do()
		if err != nil {
			var fe *hosts.FileError
			if errors.As(err, &fe) && fe.Hint != "" {
				return rows, &store.Error{Err: err, Hint: fe.Hint}
			}
			return rows, err
		}
		r := initRow{What: s.what, Change: ch}
		if s.what != "guide" && !remove {
			r.Binary = self
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// initStep is one file init installs into or removes from.
type initStep struct {
	what string
	do   func() (hosts.Change, error)
}

func guideStep(path string, h hosts.Host, remove bool) initStep {
	if remove {
		return initStep{"guide", func() (hosts.Change, error) { return hosts.RemoveGuide(path) }}
	}
	return initStep{"guide", func() (hosts.Change, error) { return hosts.InstallGuide(path, h) }}
}

// selfPath is the absolute path to name this binary by in a host's config:
// the "ctx" found on PATH when that is this binary (so a symlinked install,
// /usr/local/bin/ctx → a versioned file, keeps working across upgrades),
// else the running executable.
func selfPath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	self = helper.Ctx(self)
	if p := onPath(self); p != "" {
		return p, nil
	}
	return filepath.Abs(self)
}

// onPath returns the absolute path of the "ctx" on PATH if it is the file
// self, else "".
func onPath(self string) string {
	b, err := os.Stat(self)
	if err != nil {
		return ""
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		p, err := filepath.Abs(filepath.Join(d, "ctx"))
		if err != nil {
			continue
		}
		if a, err := os.Stat(p); err == nil && os.SameFile(a, b) {
			return p
		}
	}
	return ""
}

func shellWord(s string) string { return cli.QuoteArgs([]string{s}) }

// initRow is one file ctx init touched, as printed.
type initRow struct {
	What string `json:"what"`
	hosts.Change
	Binary string `json:"binary,omitempty"`
}

// printInit says what ctx init did to each file, and what the person must do
// next.
func printInit(ios *cli.IO, o *initOptions, rows []initRow, self string) error {
	if err := printRows(ios, o, rows); err != nil || o.json {
		return err
	}
	if !o.remove {
		fmt.Fprintf(ios.Out, "The hook and MCP entries run %s (this binary, by absolute path); run ctx init again if you move it.\n", self)
	}
	if o.host == "codex" && !o.remove {
		fmt.Fprintln(ios.Out, "Codex runs a new hook only after you review and trust it: open Codex and approve the ctx hook.")
	}
	return nil
}

// printRows says what ctx init did to each file, one line each (or JSON).
func printRows(ios *cli.IO, o *initOptions, rows []initRow) error {
	if o.json {
		return cli.WriteJSON(ios.Out, rows)
	}
	for _, r := range rows {
		state := "unchanged"
		switch {
		case r.Restored:
			state = "restored to its content before ctx"
		case r.Removed:
			state = "removed (it held only ctx's part)"
		case r.Created:
			state = "created"
		case r.Changed:
			state = "updated"
		}
		line := fmt.Sprintf("%-5s %s: %s", r.What, r.Path, state)
		if r.Backup != "" {
			line += " (previous content in " + r.Backup + ")"
		}
		fmt.Fprintln(ios.Out, line)
	}
	return nil
}
