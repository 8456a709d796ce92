package display

import (
	"bytes"
	"regexp"
	"sync"
)

// SGR sequences used for digests: few, and readable on dark and light
// backgrounds alike.
const (
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	cyan   = "\x1b[36m"
	reset  = "\x1b[0m"
)

// Compiled on first use, not at start-up: most ctx invocations never colour.
var (
	// digestHeader is a digest's first line: run:ID · exit N · …
	digestHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^((?:run|receipt):[0-9a-f]+)( · exit )(-?[0-9]+)`)
	})
	// handleWord is a handle anywhere in a ctx-made line.
	handleWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:run|blob|receipt|capsule|repo):[0-9a-f]{6,}[^\s,)]*`)
	})
)

// Digest colours one digest line by what ctx itself writes: the header (the
// handle in cyan, the exit status green for 0 and red otherwise), the "$ "
// command line in bold, "! " notices in yellow, "··· " omission marks,
// "coverage:" and "next:" lines dimmed with their handles in cyan. Any other
// line is the command's own output and is left exactly as it was.
func Digest(line []byte) []byte {
	body, nl := line, []byte(nil)
	if bytes.HasSuffix(body, []byte("\n")) {
		body, nl = body[:len(body)-1], []byte("\n")
	}
	var out []byte
	switch {
	case digestHeader().Match(body):
		m := digestHeader().FindSubmatchIndex(body)
		status := red
		if string(body[m[6]:m[7]]) == "0" {
			status = green
		}
		out = join(bold, cyan, body[m[2]:m[3]], reset, bold, body[m[4]:m[5]], status, body[m[6]:m[7]], reset, bold, body[m[7]:], reset)
	case bytes.HasPrefix(body, []byte("$ ")):
		out = join(bold, body, reset)
	case bytes.HasPrefix(body, []byte("! ")):
		out = join(yellow, body, reset)
	case bytes.HasPrefix(body, []byte("··· ")), bytes.HasPrefix(body, []byte("coverage: ")), bytes.HasPrefix(body, []byte("next: ")):
		out = join(dim, handleWord().ReplaceAllFunc(body, func(h []byte) []byte { return join(reset, cyan, h, reset, dim) }), reset)
	default:
		return line
	}
	return append(out, nl...)
}

func join(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b = append(b, p...)
		case []byte:
			b = append(b, p...)
		}
	}
	return b
}
