package main

import "github.com/ctxhq/ctx/internal/cmd/qcmd"

// ctx outline lives in internal/cmd/qcmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "outline")
	commands["outline"] = qcmd.NewOutlineCmd
}
