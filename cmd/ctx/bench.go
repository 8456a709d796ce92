package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/benchcmd"
)

// benchProgram is ctx itself for the secrets suite, set in init: the bench is
// one of the commands run dispatches to.
var benchProgram benchcmd.Program

func init() { benchProgram = benchcmd.Program{Run: run, MCP: newMCPServer} }

// newBenchCmd is ctx bench (internal/cmd/benchcmd).
func newBenchCmd(ios *IO) *cobra.Command { return benchcmd.NewCmd(ios, benchProgram) }
