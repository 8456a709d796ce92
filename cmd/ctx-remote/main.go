// Command ctx-remote is the helper binary ctx runs for the shared remote
// tier: ctx push, pull, remote, and get/show of a handle only the remote
// holds (internal/ctxremote). It is not meant to be run by hand: `ctx push`
// runs it.
package main

import (
	"os"

	"github.com/ctxhq/ctx/internal/ctxremote"
)

func main() { os.Exit(ctxremote.Main()) }
