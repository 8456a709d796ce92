package main

import "github.com/ctxhq/ctx/internal/cmd/capsulecmd"

// ctx capsule and ctx relay live in internal/cmd/capsulecmd; they register
// here, so root.go's command list stays untouched by them.
func init() {
	commandOrder = append(commandOrder, "capsule", "relay")
	commands["capsule"] = capsulecmd.NewCapsuleCmd
	commands["relay"] = capsulecmd.NewRelayCmd
}
