// Package ctxmcp is the ctx-mcp helper binary's program: ctx's core commands
// and the remote tier's (internal/ctxremote), with the commands whose
// packages link the MCP SDK or Starlark: mcp, bench, py, q, outline, task,
// steward, continuity, capsule, relay and ui.
package ctxmcp

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/app"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/benchcmd"
	"github.com/ctxhq/ctx/internal/cmd/capsulecmd"
	"github.com/ctxhq/ctx/internal/cmd/continuitycmd"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/pycmd"
	"github.com/ctxhq/ctx/internal/cmd/qcmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/cmd/taskcmd"
	"github.com/ctxhq/ctx/internal/cmd/uicmd"
	"github.com/ctxhq/ctx/internal/ctxremote"
)

// Main runs ctx-mcp with the process's arguments.
func Main() int { return app.Main(Commands()) }

// Commands is every command of ctx: the core, the remote tier's and this
// helper's own, with py: handles and the remote linked into get and show.
func Commands() *app.Commands {
	getcmd.Py = &pycmd.Executions
	c := ctxremote.Commands()
	c.Add("bench", func(ios *cli.IO) *cobra.Command {
		return benchcmd.NewCmd(ios, benchcmd.Program{Run: Run, MCP: NewServer})
	})
	c.Add("mcp", newMCPCmd)
	c.Add("ui", uicmd.NewCmd)
	c.Add("py", func(ios *cli.IO) *cobra.Command { return pycmd.NewCmd(ios, runcmd.Env) })
	c.Add("outline", qcmd.NewOutlineCmd)
	c.Add("q", qcmd.NewQCmd)
	c.Add("task", taskcmd.NewTaskCmd)
	c.Add("steward", taskcmd.NewStewardCmd)
	c.Add("continuity", continuitycmd.NewCmd)
	c.Add("capsule", capsulecmd.NewCapsuleCmd)
	c.Add("relay", capsulecmd.NewRelayCmd)
	return c
}

// Run runs one command line in this process, every command linked (the
// bench's secrets suite and the tests drive ctx this way).
func Run(ios *cli.IO, args []string) int { return app.Run(ios, args, Commands(), false) }
