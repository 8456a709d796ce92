package main

import "github.com/ctxhq/ctx/internal/cmd/taskcmd"

// ctx task and ctx steward live in internal/cmd/taskcmd; they register here,
// so root.go's command list stays untouched by them.
func init() {
	commandOrder = append(commandOrder, "task", "steward")
	commands["task"] = taskcmd.NewTaskCmd
	commands["steward"] = taskcmd.NewStewardCmd
}
