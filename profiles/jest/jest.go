package jest

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Name and Version identify the profile; Version is bumped when a parser
// change alters the items it extracts.
const (
	Name    = "jest"
	Version = 1
)

// Profile is the jest / vitest profile.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    matchArgv,
	Content: matchContent,
	Parse:   Parse,
	Runner:  true,
}

// Bounds on what one parse keeps in memory; the full text is always
// reachable through spans.
const (
	// MaxItems caps the test records and diagnostics of one graph; the rest
	// are counted in an item-cap loss.
	MaxItems = 100_000
	// maxMessage caps the bytes of a stored message or attribute.
	maxMessage = 300
	// maxDepth caps the describe nesting tracked in a verbose tree.
	maxDepth = 64
)

// matchArgv reports jest, vitest (`vitest`, `vitest run`, not `vitest bench`),
// `react-scripts test`, `craco test`, and the same through `yarn`/`pnpm`/`bun`
// or `node node_modules/.bin/jest` (argv already normalised by the registry).
func matchArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	prog := tool(argv[0])
	args := argv[1:]
	switch prog {
	case "yarn", "pnpm", "bun", "node":
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 {
			return false
		}
		if prog == "node" {
			return isRunner(tool(args[0]), args[1:])
		}
		if args[0] == "run" && len(args) > 1 { // `yarn run jest`
			args = args[1:]
		}
		return isRunner(tool(args[0]), args[1:])
	}
	return isRunner(prog, args)
}

func tool(s string) string {
	b := path.Base(strings.ReplaceAll(s, "\\", "/"))
	for _, ext := range []string{".cmd", ".exe", ".mjs", ".cjs", ".js"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

func isRunner(prog string, args []string) bool {
	switch prog {
	case "jest":
		return true
	case "vitest":
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			// `vitest related`, `vitest watch` and a file filter still run
			// tests; bench, init, list and typecheck do not print test results.
			return a != "bench" && a != "init" && a != "list" && a != "typecheck"
		}
		return true
	case "react-scripts", "craco", "react-app-rewired":
		return len(args) > 0 && args[0] == "test"
	}
	return false
}

// matchContent looks for the reporters' own lines in the stream heads.
func matchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		h := st.Head()
		if len(h) == 0 {
			continue
		}
		if bytes.Contains(h, []byte("Test Suites: ")) && bytes.Contains(h, []byte("Tests: ")) {
			return true
		}
		if bytes.Contains(h, []byte("Ran all test suites")) {
			return true
		}
		if (bytes.Contains(h, []byte("PASS")) || bytes.Contains(h, []byte("FAIL"))) &&
			(bytes.Contains(h, []byte("\n  ● ")) || bytes.Contains(h, []byte("● \x1b"))) {
			return true
		}
		if bytes.Contains(h, []byte(" RUN  ")) && bytes.Contains(h, []byte(" v")) &&
			(bytes.Contains(h, []byte("Test Files ")) || bytes.Contains(h, []byte(" ✓ ")) || bytes.Contains(h, []byte(" ❯ "))) {
			return true
		}
		if bytes.Contains(h, []byte("Test Files ")) && bytes.Contains(h, []byte("Tests ")) {
			return true
		}
	}
	return false
}

// Parse extracts the graph of a jest or vitest run. It reads stdout and
// then stderr; items come out in a fixed order (tests in order of first
// appearance, then diagnostics, then the summary lines), so the same output
// always gives the same graph.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := newParser(src)
	for _, st := range src.Streams {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return nil, err
		}
		p.begin(st.Name)
		err = lines.Scan(ctx, rc, func(n int, line []byte, long bool) error {
			if up := cursorUps(line); up > 0 {
				p.erase(n, up)
			}
			p.line(n, clean(line))
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, err
		}
		p.end()
	}
	return p.finish(), nil
}

// clean removes terminal decoration. lines.Clean handles CSI, OSC and
// carriage-return overwrites; charset designations (ESC ( B, part of the
// sgr0 reset some reporters print) would leave a stray letter, so they are
// dropped first.
func clean(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) >= 0 {
		line = dropCharset(line)
	}
	return lines.Clean(line)
}

// It jumps from escape to escape: a designation is ESC, one of ()*+ and
// one more byte, all three dropped; any other byte is kept.
func dropCharset(line []byte) []byte {
	var out []byte
	kept := 0 // line[:kept] is in out, or needs nothing dropped
	for i := 0; i < len(line); {
		j := bytes.IndexByte(line[i:], 0x1b)
		if j < 0 {
			break
		}
		i += j
		if i+2 < len(line) && strings.IndexByte("()*+", line[i+1]) >= 0 {
			if out == nil {
				out = make([]byte, 0, len(line))
			}
			out = append(out, line[kept:i]...)
			i += 3
			kept = i
			continue
		}
		i++
	}
	if out == nil {
		return line
	}
	return append(out, line[kept:]...)
}

// cursorUps counts the lines a raw line moves the cursor up (CSI n A and
// CSI n F): live reporters redraw their progress by erasing what they
// printed, and what they erased must not count.
func cursorUps(line []byte) int {
	if bytes.IndexByte(line, 0x1b) < 0 {
		return 0
	}
	up := 0
	for i := 0; i+2 < len(line); i++ {
		k := bytes.IndexByte(line[i:len(line)-2], 0x1b)
		if k < 0 {
			break
		}
		i += k
		if line[i+1] != '[' {
			continue
		}
		j, n := i+2, 0
		for j < len(line) && '0' <= line[j] && line[j] <= '9' && n < 10000 {
			n = n*10 + int(line[j]-'0')
			j++
		}
		if j < len(line) && (line[j] == 'A' || line[j] == 'F') {
			up += max(n, 1)
		}
		i = j - 1
	}
	return up
}

// capText bounds a stored message at maxMessage bytes, cutting at a rune
// boundary.
func capText(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// indent counts leading spaces.
func indent(s string) int {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}
