package main

import "github.com/ctxhq/ctx/internal/cmd/continuitycmd"

// ctx continuity lives in internal/cmd/continuitycmd; it registers here, so
// root.go's command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "continuity")
	commands["continuity"] = continuitycmd.NewCmd
}
