// Command ctx runs commands for coding agents: it keeps every byte of their
// output in a local content-addressed store and prints a small, deterministic
// digest with a coverage receipt and handles that return any omitted span.
//
// This binary holds the hot path (run, get, show, ls, the hook, version and
// the store's commands); commands with heavy dependencies are in the helper
// binaries ctx-mcp and ctx-remote beside it (internal/helper), which it runs
// in its place.
package main

import (
	"os"

	"github.com/ctxhq/ctx/internal/app"
)

func main() { os.Exit(Main()) }

// Main runs ctx with the process's arguments and returns its exit status.
func Main() int { return app.Main(app.Core()) }
