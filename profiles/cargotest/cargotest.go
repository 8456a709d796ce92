package cargotest

import (
	"bytes"
	"context"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Name and Version identify the profile; Version is bumped when a parser
// change alters the items it extracts.
const (
	Name    = "cargotest"
	Version = 1
)

// Profile is the cargo test / cargo nextest profile.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    matchArgv,
	Content: matchContent,
	Parse:   Parse,
	Runner:  true,
}

// Bounds on what one parse keeps in memory. The full text is always reachable
// through spans.
const (
	// MaxItems caps the items of one graph; the rest are counted in an
	// item-cap loss.
	MaxItems = 100_000
	// maxMessage caps the bytes of a stored message or attribute.
	maxMessage = 300
	// maxBinaries caps the test binaries tracked for pairing.
	maxBinaries = 10_000
)

// matchArgv reports `cargo test`, `cargo t`, `cargo nextest run`,
// `cargo llvm-cov [nextest|test]`, `cross test` and `cargo-nextest nextest run`
// (argv already normalised by the registry).
func matchArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	prog := cmdline.Program(argv[0])
	args := argv[1:]
	switch prog {
	case "cargo", "cross":
	case "cargo-nextest":
		return len(args) >= 2 && args[0] == "nextest" && isRun(args[1])
	default:
		return false
	}
	sub := subcommand(args)
	if len(sub) == 0 {
		return false
	}
	switch sub[0] {
	case "test", "t":
		return true
	case "nextest":
		return len(sub) >= 2 && isRun(sub[1])
	case "llvm-cov":
		rest := subcommand(sub[1:])
		if len(rest) == 0 {
			return true // `cargo llvm-cov` runs the tests
		}
		return rest[0] == "test" || (rest[0] == "nextest")
	}
	return false
}

func isRun(s string) bool { return s == "run" || s == "r" }

// subcommand skips cargo's global options (`+nightly`, `-q`, `--offline`,
// `--color always`, `-Z flag`, `-C dir`) and returns the rest.
func subcommand(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case strings.HasPrefix(a, "+"):
			args = args[1:]
		case a == "--color" || a == "--config" || a == "-Z" || a == "-C" || a == "--manifest-path" || a == "--target-dir":
			if len(args) < 2 {
				return nil
			}
			args = args[2:]
		case strings.HasPrefix(a, "-"):
			args = args[1:]
		default:
			return args
		}
	}
	return nil
}

// matchContent looks for libtest's or nextest's own lines in the stream heads.
func matchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		h := st.Head()
		if len(h) == 0 {
			continue
		}
		if bytes.Contains(h, []byte("test result: ")) && bytes.Contains(h, []byte(" passed; ")) {
			return true
		}
		if bytes.Contains(h, []byte("\nrunning ")) && (bytes.Contains(h, []byte(" ... ok")) || bytes.Contains(h, []byte(" ... FAILED")) || bytes.Contains(h, []byte(" ... \x1b["))) {
			return true
		}
		if bytes.Contains(h, []byte("Running unittests ")) || bytes.Contains(h, []byte("Doc-tests ")) {
			return true
		}
		if bytes.Contains(h, []byte("Starting ")) && bytes.Contains(h, []byte(" across ")) &&
			(bytes.Contains(h, []byte("PASS [")) || bytes.Contains(h, []byte("FAIL ["))) {
			return true
		}
	}
	return false
}

// Parse extracts the graph of a cargo test or nextest run. It reads stdout and
// then stderr; items come out in a fixed order (diagnostics and build
// failures, then each test binary's tests and summary, then nextest's) so the
// same output always gives the same graph.
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
// carriage-return overwrites; libtest's colour reset also emits the charset
// designation ESC ( B, which lines.StripANSI reduces to a stray "B", so it is
// dropped first.
func clean(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) >= 0 {
		line = dropCharset(line)
	}
	return lines.Clean(line)
}

// dropCharset removes ESC ( X, ESC ) X, ESC * X and ESC + X sequences.
func dropCharset(line []byte) []byte {
	var out []byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == 0x1b && i+2 < len(line) && strings.IndexByte("()*+", line[i+1]) >= 0 {
			if out == nil {
				out = append(make([]byte, 0, len(line)), line[:i]...)
			}
			i += 2
			continue
		}
		if out != nil {
			out = append(out, c)
		}
	}
	if out == nil {
		return line
	}
	return out
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
