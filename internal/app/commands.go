package app

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/hostscmd"
	"github.com/ctxhq/ctx/internal/cmd/infocmd"
	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/internal/cmd/lscmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
	"github.com/ctxhq/ctx/internal/cmd/statscmd"
	"github.com/ctxhq/ctx/internal/cmd/storecmd"
	"github.com/ctxhq/ctx/internal/helper"
)

// Core is the table of the commands in ctx itself: the hot path (run, get,
// show, ls, the hook, version) and every command whose packages are no
// heavier than those. The rest are in the helpers (helper.Of).
func Core() *Commands {
	c := &Commands{New: map[string]func(*cli.IO) *cobra.Command{
		"run": runcmd.NewRunCmd, "get": getcmd.NewCmd, "show": runcmd.NewShowCmd, "ls": lscmd.NewCmd, "ingest": runcmd.NewIngestCmd,
		"gc": storecmd.NewGCCmd, "pin": storecmd.NewPinCmd, "unpin": storecmd.NewUnpinCmd, "rm": storecmd.NewRmCmd, "receipts": storecmd.NewReceiptsCmd,
		"contract": storecmd.NewContractCmd, "templates": infocmd.NewTemplatesCmd, "hook": hostscmd.NewHookCmd,
		"init": hostscmd.NewInitCmd, "doctor": hostscmd.NewDoctorCmd, "stats": statscmd.NewCmd, "compact": storecmd.NewCompactCmd, "check": storecmd.NewCheckCmd,
		"version": infocmd.NewVersionCmd, "glossary": infocmd.NewGlossaryTopic,
		"seq":          func(ios *cli.IO) *cobra.Command { return seqcmd.NewCmd(ios, runcmd.Env) },
		"job":          func(ios *cli.IO) *cobra.Command { return jobcmd.NewCmd(ios, runcmd.Env) },
		runcmd.LateCmd: runcmd.NewLateCmd,
	}}
	c.Order = []string{"run", "get", "show", "ls", "ingest", "gc", "pin", "unpin", "rm", "receipts", "contract",
		"templates", "hook", "init", "doctor", "stats", "check", "compact", "version", "glossary", "seq", "job", runcmd.LateCmd}
	return c
}

// helperCommands are the helpers' commands in the order help lists them, and
// helperShort what help says of each in a binary that does not hold it: the
// command's own Short (cmd/ctx's TestHelperCommandsAreWhereCtxSends holds them equal).
var (
	helperCommands = []string{"bench", "mcp", "ui", "push", "pull", "remote", "py", "outline", "q", "task", "steward", "continuity", "capsule", "relay"}
	helperShort    = map[string]string{
		"bench":      "Measure ctx: template mining, profile recall, digest size, capture speed, determinism",
		"mcp":        "Serve ctx's tools over the Model Context Protocol (stdio)",
		"ui":         "Browse runs in a web page on this machine: digests, coloured output, search, failures",
		"push":       "Copy this workspace's runs to the shared remote",
		"pull":       "Copy a run (and all it references) from the shared remote",
		"remote":     "The shared remote: gc",
		"py":         "Run a bounded Starlark script that composes captures, with one digest",
		"outline":    "List the declarations of source files, with repo: handles",
		"q":          "Ask a bounded question across runs, tests, failures and source",
		"task":       "The task ledger: tasks, claims, typed handbacks, verdicts, approvals, inbox",
		"steward":    "Classify why a task's node stopped and record the decision (deterministic, not a model)",
		"continuity": "Seal what an agent must keep across a compaction, and verify it after",
		"capsule":    "Leave a handoff for the next agent session, and check one you were left",
		"relay":      "Serve a capsule relay",
	}
)

// helperStub is a command of a helper binary in ctx's tree: it takes every
// argument as given and hands the command line to the helper.
func helperStub(name string) *cobra.Command {
	h := helper.Of[name]
	return &cobra.Command{
		Use:                name,
		Short:              helperShort[name],
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return helper.Need(h, "ctx "+name)
		},
	}
}
