package ctxmcp

import (
	"bytes"
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/capsulecmd"
	"github.com/ctxhq/ctx/internal/cmd/continuitycmd"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/lscmd"
	"github.com/ctxhq/ctx/internal/cmd/qcmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/cmd/taskcmd"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

func newMCPCmd(ios *cli.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve ctx's tools over the Model Context Protocol (stdio)",
		Long: `Serve the Model Context Protocol on stdin/stdout. The tools: ctx_run (run a
command, return its digest), ctx_get (exact bytes of a handle, bounded),
ctx_ls (recent runs), ctx_show (a digest again); ctx_seq, ctx_py and
ctx_job_start/tail/wait/kill (the capture ladder); ctx_q (a bounded
question across runs); ctx_capsule_capture/inspect/render and
ctx_continuity_seal/verify (handoffs); ctx_task_claim/handback/resume/
show/verdict and ctx_steward (the task ledger). Every result is bounded: a
large region comes back as a zoom view with narrower handles. A failed call
is a tool error naming the problem and the fix; the server keeps serving.

Register it with ctx init claude --mcp (or codex), or by hand:
  {"mcpServers": {"ctx": {"type": "stdio", "command": "ctx", "args": ["mcp"]}}}

Exit status: 0 the client closed stdin; 1 the transport failed.`,
		Example: "  ctx mcp",
		Args:    cli.ExactArgs(0, "ctx mcp"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return NewServer(ios).Run(cmd.Context(), hostsmcp.DrainTransport{Transport: hostsmcp.LineTransport{In: ios.In, Out: ios.Out}})
		},
	}
}

// NewServer is the MCP server with this process as its surroundings: the
// workspace store, the environment, and CTX_SESSION (or a fresh session) as
// the agent session. Tools of the command packages outside hosts/mcp
// (continuity, task, q, capsule) are added here.
func NewServer(ios *cli.IO) *mcp.Server {
	session := ios.Getenv("CTX_SESSION")
	if session == "" {
		session = hostsmcp.NewSession()
	}
	return hostsmcp.New(&hostsmcp.Deps{
		Version: cli.Version, Session: session, Getwd: ios.Getwd, Getenv: ios.Getenv,
		Open: func(create bool) (*store.Store, error) { return cli.OpenStore(ios, create) },
		Resolve: func(h store.Handle, raw string) (*store.Store, *store.Target, error) {
			return getcmd.ResolveAnywhere(ios, h, raw)
		},
		Env: func(st *store.Store) *runner.Env { return runcmd.Env(ios, st) },
		List: func(w io.Writer, n int) error {
			var errb bytes.Buffer
			return lscmd.List(cli.Buffered(ios, w, &errb), n)
		},
		Record: func(w io.Writer, handle string, show bool) (string, bool, error) {
			var errb bytes.Buffer
			if show {
				return runcmd.ShowRecord(cli.Buffered(ios, w, &errb), handle, false)
			}
			return getcmd.GetRecord(cli.Buffered(ios, w, &errb), handle)
		},
		Repo: func(ctx context.Context, w io.Writer, handle string) error {
			var errb bytes.Buffer
			return getcmd.Repo(ctx, cli.Buffered(ios, w, &errb), handle)
		},
		Compact: func() { cli.StartCompaction(ios) },
		Extra: func(s *mcp.Server) {
			continuitycmd.AddTools(s, ios)
			taskcmd.AddTools(s, ios)
			qcmd.AddTools(s, ios)
			capsulecmd.AddTools(s, ios)
		},
	})
}
