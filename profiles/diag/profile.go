package diag

import (
	"bytes"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Name is the profile's name in graphs and receipts.
const Name = "diag"

// Version is bumped whenever a parser change alters the items it extracts.
const Version = 1

// Profile is the diagnostics profile: compiler, vet and linter findings.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    Argv,
	Content: Content,
	Parse:   Parse,
}

// Argv reports whether a normalised command line runs a compiler or linter
// whose output this profile reads. Build drivers (make, npm run, sh -c) are
// left to Content.
func Argv(argv []string) bool { return ToolOf(argv) != "" }

var reCC = lines.Lazy(`^(?:[\w.]+-)*(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|clang-cl|clang-tidy|cpp)(?:-\d+(?:\.\d+)*)?$`)

// ccName is reCC.FindStringSubmatch(base), with the regexp compiled only for
// a name holding one of its compilers' names (every one has "cc", "++",
// "clang" or "cpp"): ToolOf is asked of every command ctx runs.
func ccName(base string) []string {
	for _, s := range []string{"cc", "++", "clang", "cpp"} {
		if strings.Contains(base, s) {
			return reCC.FindStringSubmatch(base)
		}
	}
	return nil
}

// ToolOf names the tool a normalised command line runs, or "" when argv is not
// one this profile claims. The names are the values of Graph.Tool and
// Item.Tool: "gcc", "clang", "clang-tidy", "go", "go vet", "cargo", "clippy",
// "rustc", "tsc", "eslint", "ruff", "flake8", "mypy", "pylint", …
func ToolOf(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	base := argv[0]
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".cmd")
	if m := ccName(base); m != nil {
		switch {
		case m[1] == "clang-tidy":
			return "clang-tidy"
		case strings.HasPrefix(m[1], "clang"):
			return "clang"
		case m[1] == "cpp":
			return ""
		}
		return "gcc"
	}
	sub := firstArg(argv[1:])
	switch base {
	case "go":
		switch sub {
		case "build", "install":
			return "go"
		case "vet":
			return "go vet"
		}
	case "cargo":
		switch sub {
		case "build", "b", "check", "c", "rustc":
			return "cargo"
		case "clippy":
			return "clippy"
		}
	case "cargo-clippy", "clippy-driver":
		return "clippy"
	case "rustc":
		return "rustc"
	case "tsc", "vue-tsc":
		return "tsc"
	case "ruff":
		if sub == "" || sub == "check" || sub == "format" {
			return "ruff"
		}
	case "golangci-lint":
		if sub == "" || sub == "run" {
			return "golangci-lint"
		}
	case "srb":
		if sub == "tc" || sub == "typecheck" {
			return "sorbet"
		}
	case "sorbet":
		return "sorbet"
	case "black":
		return "black"
	case "dotnet":
		if sub == "build" || sub == "msbuild" || sub == "publish" {
			return "msbuild"
		}
	case "msbuild", "csc", "MSBuild":
		return "msbuild"
	case "buf":
		if sub == "lint" || sub == "build" || sub == "breaking" {
			return "buf"
		}
	case "shellcheck":
		for _, a := range argv[1:] {
			if a == "-fgcc" || a == "--format=gcc" || a == "gcc" {
				return "shellcheck"
			}
		}
	case "staticcheck", "golint", "revive", "errcheck", "ineffassign", "go-consistent",
		"eslint", "stylelint", "tslint",
		"flake8", "pycodestyle", "pep8", "pyflakes", "mypy", "dmypy", "pylint", "pyright", "basedpyright",
		"rubocop", "standardrb", "reek", "fasterer",
		"hlint", "yamllint", "luacheck", "protolint", "puppet-lint", "ansible-lint",
		"javac", "kotlinc", "scalac", "swiftc", "cppcheck", "scalastyle":
		return base
	}
	return ""
}

// firstArg is the first argument that is not a flag or a toolchain selector.
func firstArg(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
			continue
		}
		return a
	}
	return ""
}

// Content reports whether the stream heads look like compiler or linter
// output: explicit diagnostics, or location lines that make up a good part of
// the text, and no sign of a test runner (whose failures other profiles own).
func Content(src *evidence.Source) bool {
	strong, shaped, other := 0, 0, 0
	for _, st := range src.Streams {
		head := st.Head()
		if len(head) == evidence.HeadSize {
			if i := bytes.LastIndexByte(head, '\n'); i > 0 {
				head = head[:i]
			}
		}
		for len(head) > 0 {
			var raw []byte
			if i := bytes.IndexByte(head, '\n'); i >= 0 {
				raw, head = head[:i], head[i+1:]
			} else {
				raw, head = head, nil
			}
			line := string(lines.Clean(bytes.TrimRight(raw, "\r")))
			t := strings.TrimSpace(line)
			if t == "" {
				continue
			}
			if testRunnerLine(line) {
				return false
			}
			if strong >= 3 {
				continue // decided; only a test runner's marker can still say no
			}
			if reCargoStatus.MatchString(line) {
				continue
			}
			switch contentClass(line, t) {
			case 2:
				strong++
				shaped++
			case 1:
				shaped++
			default:
				other++
			}
		}
	}
	if strong >= 3 {
		return true
	}
	total := shaped + other
	return shaped > 0 && total > 0 && (strong > 0 && shaped*10 >= total*3 || shaped*10 >= total*6)
}

var reTestRunner = lines.Lazy(`^(?:=== RUN|--- (?:FAIL|PASS|SKIP):|ok\s+\S+\s+(?:[\d.]+s|\(cached\))|FAIL\s+\S+\s+(?:[\d.]+s|\[)|PASS$|FAIL$|test result: |running \d+ tests?$|=+ .*test session starts|Tests?:\s+\d+|Test Suites?:|collected \d+ items)`)

func testRunnerLine(line string) bool {
	if line == "" {
		return false
	}
	switch line[0] {
	case '=', '-', 'o', 'F', 'P', 't', 'r', 'T', 'c':
		return reTestRunner.MatchString(line)
	}
	return false
}

var reCargoStatus = lines.Lazy(`^\s+(?:Compiling|Checking|Fresh|Running|Building|Blocking|Updating|Downloading|Downloaded|Locking|Adding|Packaging|Documenting|Scraping|Removed|Installing|Replacing|Unpacking|Verifying|Archiving)\s`)

// contentClass grades one line for detection: 2 a diagnostic with an explicit
// severity or a tool's own summary, 1 part of a diagnostic block (a bare
// location, a source excerpt, a caret), 0 anything else.
func contentClass(line, t string) int {
	if !strings.ContainsAny(t, ":([|^~") && !summaryPrefilter(t) {
		return 0
	}
	if summaryPrefilter(t) {
		if s, ok := matchSummary(line); ok && !s.noise {
			return 2
		}
	}
	if reRustHeader.MatchString(line) || strings.HasPrefix(t, "--> ") {
		return 2
	}
	if reLinker.MatchString(t) || reLinkerLoc.MatchString(t) || reProgSev.MatchString(t) {
		return 2
	}
	if isGutterLine(line) || isCaretLine(line) || gccContext(line) {
		return 1
	}
	body, psev, _, _ := stripPrefixes(t)
	if l, ok := findLoc(body); ok {
		if l.explicit || psev != "" {
			return 2
		}
		sev, code, _, explicit, _ := classify(l.rest)
		if explicit && sev != "" || code != "" {
			return 2
		}
		return 1
	}
	if reStylishRow.MatchString(line) {
		return 2
	}
	return 0
}
