package taskcmd

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
	IO         = cli.IO
	exitError  = cli.ExitError
	usageError = cli.UsageError
)

const (
	exitBad         = cli.ExitBad
	exitFailed      = cli.ExitFailed
	exitNotFaithful = continuitycmd.ExitNotFaithful
)

var (
	usagef    = cli.Usagef
	withCode  = cli.WithCode
	exactArgs = cli.ExactArgs
	openStore = cli.OpenStore
	writeJSON = cli.WriteJSON
	mcpIO     = cli.Buffered
	head      = continuitycmd.Head
)

func textResult(s string) *mcp.CallToolResult { return hostsmcp.Text(s) }

func toolError(err error, stderr string) *mcp.CallToolResult { return hostsmcp.Error(err, stderr) }

// NewTaskCmd is the ctx task command group.
func NewTaskCmd(ios *cli.IO) *cobra.Command { return newTaskCmd(ios) }

// NewStewardCmd is ctx steward.
func NewStewardCmd(ios *cli.IO) *cobra.Command { return newStewardCmd(ios) }

// AddTools registers the task and steward MCP tools.
func AddTools(s *mcp.Server, ios *cli.IO) { addLedgerTools(s, ios) }
