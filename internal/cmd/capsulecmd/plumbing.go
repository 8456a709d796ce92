package capsulecmd

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
)

// NewCapsuleCmd is the ctx capsule command group.
func NewCapsuleCmd(ios *cli.IO) *cobra.Command { return newCapsuleCmd(ios) }

// NewRelayCmd is ctx relay.
func NewRelayCmd(ios *cli.IO) *cobra.Command { return newRelayCmd(ios) }

// AddTools registers the capsule MCP tools (capture, inspect, render).
func AddTools(s *mcp.Server, ios *cli.IO) { addCapsuleTools(s, ios) }
