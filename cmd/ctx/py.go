package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/pycmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
)

// ctx py lives in internal/cmd/pycmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "py")
	commands["py"] = func(ios *IO) *cobra.Command { return pycmd.NewCmd(ios, runcmd.Env) }
}
