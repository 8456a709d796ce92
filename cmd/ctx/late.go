package main

import "github.com/ctxhq/ctx/internal/cmd/runcmd"

// ctx late-generation (hidden) finishes a generation git status had not
// finished when ctx run returned; ctx starts it, detached.
func init() {
	commandOrder = append(commandOrder, runcmd.LateCmd)
	commands[runcmd.LateCmd] = runcmd.NewLateCmd
}
