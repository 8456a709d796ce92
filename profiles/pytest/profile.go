package pytest

import (
	"bytes"
	"path"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Name is the profile's name in graphs and receipts.
const Name = "pytest"

// Version is bumped whenever a parser change alters the items it extracts.
const Version = 1

// Profile is the pytest profile, for the registry in package profiles.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    matchArgv,
	Content: looksLikePytest,
	Parse:   Parse,
	Runner:  true,
	Noise:   Noise,
}

var pytestBin = lines.Lazy(`^(pytest|py\.test)(-?[0-9]+(\.[0-9]+)*)?(\.exe)?$`)

// isPytestBin is pytestBin.MatchString(base), with the regexp compiled only
// for a name that starts as it must: Detect asks of every command ctx runs.
func isPytestBin(base string) bool {
	return (strings.HasPrefix(base, "pytest") || strings.HasPrefix(base, "py.test")) && pytestBin.MatchString(base)
}

// runners are wrappers that run a project's tools: `uv run pytest`,
// `poetry run pytest`, `coverage run -m pytest`.
var runners = map[string]bool{"uv": true, "poetry": true, "pipenv": true, "pdm": true,
	"hatch": true, "rye": true, "coverage": true, "pixi": true}

// matchArgv reports whether a command line runs pytest. It accepts the
// registry's normalised form (["pytest", …]) and, for the exit-status check in
// Parse, the raw forms `python3 -m pytest` and `uv run pytest`.
func matchArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	base := path.Base(argv[0])
	if isPytestBin(base) {
		return true
	}
	if strings.HasPrefix(base, "python") {
		return moduleIsPytest(argv[1:])
	}
	if runners[base] && len(argv) > 1 && argv[1] == "run" {
		for i, a := range argv[2:] {
			if a == "--" {
				continue
			}
			if isPytestBin(path.Base(a)) {
				return true
			}
			if strings.HasPrefix(path.Base(a), "python") {
				return moduleIsPytest(argv[2+i+1:])
			}
			if a == "-m" {
				return moduleIsPytest(argv[2+i:])
			}
		}
	}
	return false
}

func moduleIsPytest(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-m":
			return i+1 < len(args) && (args[i+1] == "pytest" || args[i+1] == "py.test")
		case a == "-mpytest":
			return true
		case a == "-X" || a == "-W": // options that take an argument
			i++
		case a == "-c" || !strings.HasPrefix(a, "-"):
			return false // a command or a script: python foo.py
		}
	}
	return false
}

// looksLikePytest judges from the stream heads: a session banner, the
// platform line, a counts line, a short summary, a -v result line, a progress
// line with its percentage, or one of pytest's own error forms.
func looksLikePytest(src *evidence.Source) bool {
	for _, st := range src.Streams {
		head := st.Head()
		for len(head) > 0 {
			var ln []byte
			if i := bytes.IndexByte(head, '\n'); i >= 0 {
				ln, head = head[:i], head[i+1:]
			} else {
				ln, head = head, nil
			}
			if contentMarker(string(lines.Clean(bytes.TrimSuffix(ln, []byte{'\r'})))) {
				return true
			}
		}
	}
	return false
}

func contentMarker(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=':
		if title, _, ok := banner(s, '='); ok && (title == titleSession || title == titleSummary) {
			return true
		}
	case 'p':
		if strings.HasPrefix(s, "platform ") && strings.Contains(s, " -- Python ") && strings.Contains(s, "pytest-") {
			return true
		}
	case 'I':
		if strings.HasPrefix(s, "ImportError while loading conftest '") || strings.HasPrefix(s, "INTERNALERROR> ") {
			return true
		}
	case 'E':
		if strings.HasPrefix(s, "ERROR: usage: ") && (strings.Contains(s, "pytest") || strings.Contains(s, "py.test")) {
			return true
		}
	}
	if _, ok := parseStats(s); ok {
		return true
	}
	if _, _, _, ok := parseVerbose(s); ok && strings.HasSuffix(s, "%]") {
		return true
	}
	if _, pct, ok := parseProgress(s); ok && pct >= 0 {
		return true
	}
	return false
}
