package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Profile is the go test profile as the registry lists it.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    MatchArgv,
	Content: MatchContent,
	Parse:   Parse,
	Runner:  true,
	Noise:   Noise,
}

// Name is the profile's name.
const Name = "gotest"

// Version is bumped whenever a parser change alters the items it extracts.
const Version = 1

// Tool is the tool name the profile puts on graphs, tests and summaries.
const Tool = "go test"

// Bounds on what one graph holds. Tests and diagnostics past them are counted
// (in package counts and a labelled "item-cap" loss), not itemised.
const (
	MaxTests   = 100_000 // passing and skipped test items kept; failing tests have their own budget of the same size
	MaxDiags   = 10_000  // diagnostic items kept
	MaxPkgs    = 100_000 // package summaries kept
	maxLive    = 200_000 // test records held at once while parsing
	maxMessage = 300     // bytes of a message kept in an item
	maxName    = 1024    // bytes of a test or package name kept
)

// ErrUnrecognised is returned by Parse when the output has nothing of go
// test's shape, so the registry can fall back to a general profile.
var ErrUnrecognised = errors.New("gotest: output has no go test lines")

// MatchArgv reports whether a normalised command line runs go test: `go test
// …`, `go tool test2json …`, or a compiled test binary (`pkg.test …`).
func MatchArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	base := path.Base(argv[0])
	base = strings.TrimSuffix(base, ".exe")
	if strings.HasSuffix(base, ".test") && len(base) > len(".test") {
		return true
	}
	if base != "go" {
		return false
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "-C" { // go -C dir test
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if a == "test" {
			return true
		}
		return a == "tool" && i+1 < len(argv) && argv[i+1] == "test2json"
	}
	return false
}

// MatchContent reports whether the stream heads look like go test output:
// a -json event, a `=== RUN` header, a result line naming a Test, Example,
// Benchmark or Fuzz function, a package line, or a benchmark result.
func MatchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		if headMatches(st.Head()) {
			return true
		}
	}
	return false
}

func headMatches(head []byte) bool {
	for len(head) > 0 {
		var ln []byte
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			ln, head = head[:i], head[i+1:]
		} else {
			ln, head = head, nil
		}
		s := string(bytes.TrimRight(lines.Clean(ln), "\r"))
		if strings.HasPrefix(s, "{") {
			if ev, ok := decodeEvent([]byte(s), nil); ok && (ev.Package != "" || ev.ImportPath != "") {
				return true
			}
			continue
		}
		if strings.HasPrefix(s, "=== RUN ") {
			return true
		}
		if r, ok := parseResult(s); ok && funcName(r.name) {
			return true
		}
		if _, ok := parsePkgLine(s); ok {
			return true
		}
		if _, _, ok := parseBench(s); ok {
			return true
		}
	}
	return false
}

// funcName reports whether a name is a test function as go test names them.
func funcName(name string) bool {
	for _, p := range [...]string{"Test", "Example", "Benchmark", "Fuzz"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Parse reads stdout then stderr and builds the graph. Lines may be text or
// -json events, in any mix: each line is judged on its own.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := newParser()
	p.goCommand = len(src.Argv) > 0 && MatchArgv(src.Argv) && strings.TrimSuffix(path.Base(src.Argv[0]), ".exe") == "go"
	for _, st := range src.Streams {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", st.Name, err)
		}
		name := st.Name
		err = lines.Scan(ctx, rc, func(n int, line []byte, _ bool) error {
			p.line(name, n, lines.Clean(line))
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", st.Name, err)
		}
		p.endStream()
	}
	p.lines.release()
	if !p.recognised() {
		if p.nonBlank == 0 {
			g := &evidence.Graph{Profile: Name, Version: Version, Tool: Tool, Items: []evidence.Item{}}
			g.Lose("partial-parse", "no go test output")
			return g, nil
		}
		return nil, ErrUnrecognised
	}
	return p.graph(src.Exit()), nil
}
