package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
)

// ctx seq lives in internal/cmd/seqcmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "seq")
	commands["seq"] = func(ios *IO) *cobra.Command { return seqcmd.NewCmd(ios, runcmd.Env) }
}
