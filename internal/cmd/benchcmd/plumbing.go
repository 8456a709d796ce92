package benchcmd

import "github.com/ctxhq/ctx/internal/cli"

// The shared plumbing under the names the command files use.
type (
	// IO is where commands read and write.
	IO        = cli.IO
	exitError = cli.ExitError
)

const (
	// Version is the ctx release the receipts record.
	Version = cli.Version
	exitBad = cli.ExitBad
)

var (
	usagef    = cli.Usagef
	exactArgs = cli.ExactArgs
	openStore = cli.OpenStore
	writeJSON = cli.WriteJSON
	parseSize = cli.ParseSize
)
