package main

import (
	"os"
	"slices"

	"golang.org/x/term"

	"github.com/ctxhq/ctx/display"
)

// pagedCommands are the reading commands whose stdout may go to a pager on
// a terminal, and whether their lines are digest lines to colour. ctx run
// never pages (a pager after a build would stall `ctx run -- make && …`);
// its digest is coloured where it is written (colourDigest).
var pagedCommands = map[string]bool{"show": true, "get": false, "ls": false}

// displaySettings reads the terminal facts for ios.
func displaySettings(ios *IO, noPager bool) display.Settings {
	s := display.Settings{OutTTY: ios.IsTTY, NoPager: noPager, Getenv: ios.Getenv}
	if f, ok := ios.In.(*os.File); ok {
		s.InTTY = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := ios.Out.(*os.File); ok && s.OutTTY {
		if _, rows, err := term.GetSize(int(f.Fd())); err == nil {
			s.Rows = rows
		}
	}
	return s
}

// startDisplay puts a pager (and, for digests, colour) in front of ios.Out
// for a reading command on a terminal, and returns what finishes it. Piped,
// ios.Out is untouched.
func startDisplay(ios *IO, args []string) (finish func() error) {
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
	out := display.New(ios.Out, ios.Err, displaySettings(ios, noPager), colour)
	ios.Out = out
	return func() error { return display.Close(out) }
}

// colourDigest colours a digest's own lines when stdout is a terminal and
// NO_COLOR is unset; otherwise it returns text unchanged.
func colourDigest(ios *IO, text []byte) []byte {
	if !displaySettings(ios, true).Colour() {
		return text
	}
	var out []byte
	for len(text) > 0 {
		line := text
		if i := slices.Index(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		out = append(out, display.Digest(line)...)
		text = text[len(line):]
	}
	return out
}
