package app

import (
	"slices"

	"github.com/ctxhq/ctx/display"
	"github.com/ctxhq/ctx/internal/cli"
)

// pagedCommands are the reading commands whose stdout may go to a pager on
// a terminal, and whether their lines are digest lines to colour. ctx run
// never pages (a pager after a build would stall `ctx run -- make && …`);
// its digest is coloured where it is written (cli.ColourDigest).
var pagedCommands = map[string]bool{"show": true, "get": false, "ls": false}

// startDisplay puts a pager (and, for digests, colour) in front of ios.Out
// for a reading command on a terminal, and returns what finishes it. Piped,
// ios.Out is untouched.
func startDisplay(ios *cli.IO, args []string) (finish func() error) {
	name, noPager, asJSON := "", false, false
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "--no-pager":
			noPager = true
		case a == "--json":
			asJSON = true
		case name == "" && len(a) > 0 && a[0] != '-':
			name = a
		}
	}
	digest, ok := pagedCommands[name]
	if !ok || !ios.IsTTY || slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		return func() error { return nil }
	}
	var colour func([]byte) []byte
	if digest && !asJSON {
		colour = display.Digest
	}
	out := display.New(ios.Out, ios.Err, cli.DisplaySettings(ios, noPager), colour)
	ios.Out = out
	return func() error { return display.Close(out) }
}
