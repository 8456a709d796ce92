package capsulecmd

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/continuitycmd"
)

// The shared plumbing under the names the command files use.
type (
	// IO is where commands read and write.
	IO        = cli.IO
	exitError = cli.ExitError
)

var (
	usagef    = cli.Usagef
	exactArgs = cli.ExactArgs
	openStore = cli.OpenStore
	writeJSON = cli.WriteJSON
	quoteArgs = cli.QuoteArgs
	mcpIO     = cli.Buffered
	readInput = continuitycmd.ReadInput
	badInput  = continuitycmd.BadInput
	indent    = continuitycmd.Indent
)

func textResult(s string) *mcp.CallToolResult { return hostsmcp.Text(s) }

func toolError(err error, stderr string) *mcp.CallToolResult { return hostsmcp.Error(err, stderr) }

// NewCapsuleCmd is the ctx capsule command group.
func NewCapsuleCmd(ios *cli.IO) *cobra.Command { return newCapsuleCmd(ios) }

// NewRelayCmd is ctx relay.
func NewRelayCmd(ios *cli.IO) *cobra.Command { return newRelayCmd(ios) }

// AddTools registers the capsule MCP tools (capture, inspect, render).
func AddTools(s *mcp.Server, ios *cli.IO) { addCapsuleTools(s, ios) }
