package taskcmd

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
)

// NewTaskCmd is the ctx task command group.
func NewTaskCmd(ios *cli.IO) *cobra.Command { return newTaskCmd(ios) }

// NewStewardCmd is ctx steward.
func NewStewardCmd(ios *cli.IO) *cobra.Command { return newStewardCmd(ios) }

// AddTools registers the task and steward MCP tools.
func AddTools(s *mcp.Server, ios *cli.IO) { addLedgerTools(s, ios) }
