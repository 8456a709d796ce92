package main

import "github.com/ctxhq/ctx/internal/cmd/qcmd"

// ctx q lives in internal/cmd/qcmd; it registers here, so root.go's command
// list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "q")
	commands["q"] = qcmd.NewQCmd
}
