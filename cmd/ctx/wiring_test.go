package main

import (
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/benchcmd"
	"github.com/ctxhq/ctx/internal/ctxmcp"
)

// The tests drive ctx in this process with every command linked: the core
// and the helpers' (ctx-mcp's table holds them all).
type IO = cli.IO

// Version is the ctx release.
const Version = cli.Version

func run(ios *IO, args []string) int { return ctxmcp.Run(ios, args) }

var newMCPServer = ctxmcp.NewServer

// benchProgram is ctx in this process for the bench's secrets suite.
var benchProgram = benchcmd.Program{Run: run, MCP: newMCPServer}
