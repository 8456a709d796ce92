package continuitycmd

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
)

// NewCmd is the ctx continuity command group.
func NewCmd(ios *cli.IO) *cobra.Command { return newContinuityCmd(ios) }

// AddTools registers the continuity MCP tools (seal, verify).
func AddTools(s *mcp.Server, ios *cli.IO) { addContinuityTools(s, ios) }
