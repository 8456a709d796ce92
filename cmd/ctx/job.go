package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
)

// ctx job lives in internal/cmd/jobcmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "job")
	commands["job"] = func(ios *IO) *cobra.Command { return jobcmd.NewCmd(ios, runcmd.Env) }
}
