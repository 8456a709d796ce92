// Command ctx-mcp is the helper binary ctx runs for ctx mcp and the commands
// whose packages serve MCP tools or link Starlark (internal/ctxmcp). It is
// not meant to be run by hand: `ctx mcp` runs it.
package main

import (
	"os"

	"github.com/ctxhq/ctx/internal/ctxmcp"
)

func main() { os.Exit(ctxmcp.Main()) }
