package search

import (
	"strings"

	"github.com/ctxhq/ctx/cmdline"
)

// opts is what the command line says about the shape of the output.
type opts struct {
	tool  string // "grep", "rg", "ag", "ack", "git grep"; "" when argv did not say
	count bool   // -c: path:N per file
	files bool   // -l / -L / --files: one path per line
	// without is -L: the listed files are those without a match.
	without    bool
	json       bool // rg --json
	column     bool // --column / --vimgrep: path:line:col:text
	null       bool // -Z / -0 / --null: the path ends with a NUL byte
	context    bool // -A / -B / -C and friends
	numbers    int  // -n: 1 on, 0 off, -1 not said
	heading    int  // --heading: 1 on, 0 off, -1 not said
	noFilename bool // -h (grep), -I (rg): no path prefix
	withName   bool // -H: a path prefix even for one file
	recursive  bool
	operands   []string // pattern and paths, in order
	patternOpt bool     // the pattern came from -e / -f, so operands are all paths
}

// toolOf reports the search tool an argv runs, or "".
func toolOf(argv []string) (string, []string) {
	if len(argv) == 0 {
		return "", nil
	}
	switch argv[0] {
	case "grep", "egrep", "fgrep", "zgrep", "rgrep":
		return "grep", argv[1:]
	case "rg", "ag", "ack", "ack-grep":
		return strings.TrimSuffix(argv[0], "-grep"), argv[1:]
	case "git":
		if sub, rest := cmdline.ToolSubcommand("git", argv[1:]); sub == "grep" {
			return "git grep", rest
		}
	}
	return "", nil
}

// valueOpts are the short options that take a value, per tool.
var valueOpts = map[string]string{
	"grep":     "efmABCdD",
	"rg":       "efgtTmABCjMErd",
	"ag":       "GgmABCp",
	"ack":      "mABCg",
	"git grep": "efABCOm",
}

// longValueOpts are long options that take a value in the next argument.
var longValueOpts = map[string]bool{
	"--regexp": true, "--file": true, "--max-count": true, "--after-context": true,
	"--before-context": true, "--context": true, "--include": true, "--exclude": true,
	"--exclude-dir": true, "--label": true, "--binary-files": true, "--devices": true,
	"--directories": true, "--glob": true, "--iglob": true, "--type": true, "--type-not": true,
	"--threads": true, "--max-columns": true, "--encoding": true, "--replace": true,
	"--max-depth": true, "--sort": true, "--sortr": true, "--type-add": true, "--pre": true,
	"--pre-glob": true, "--ignore-file": true, "--path-separator": true, "--colors": true,
	"--context-separator": true, "--field-match-separator": true, "--field-context-separator": true,
	"--max-filesize": true, "--ignore": true, "--ignore-dir": true, "--file-search-regex": true,
	"--open-file-in-pager": true, "--threads-count": true, "--dfa-size-limit": true,
	"--regex-size-limit": true, "--engine": true, "--hostname-bin": true, "--hyperlink-format": true,
}

// parseArgs reads the options that change the output's shape.
func parseArgs(argv []string) opts {
	tool, args := toolOf(argv)
	o := opts{tool: tool, numbers: -1, heading: -1}
	if tool == "" {
		return o
	}
	short := valueOpts[tool]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.operands = append(o.operands, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.operands = append(o.operands, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasValue := strings.Cut(a, "=")
			o.long(name)
			if !hasValue && longValueOpts[name] {
				i++
			}
			continue
		}
		// A cluster of short options; one that takes a value ends it.
		for j := 1; j < len(a); j++ {
			c := a[j]
			if c >= '0' && c <= '9' && tool != "rg" {
				o.context = true // grep -2
				continue
			}
			o.short(c)
			if strings.IndexByte(short, c) >= 0 {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
	}
	return o
}

func (o *opts) short(c byte) {
	switch c {
	case 'c':
		o.count = true
	case 'l':
		o.files = true
	case 'L':
		if o.tool != "rg" { // rg -L follows links
			o.files, o.without = true, true
		}
	case 'n':
		o.numbers = 1
	case 'N':
		if o.tool == "rg" {
			o.numbers = 0
		}
	case 'h':
		if o.tool == "grep" || o.tool == "git grep" {
			o.noFilename = true
		}
	case 'I':
		if o.tool == "rg" {
			o.noFilename = true
		}
	case 'H':
		o.withName = true
	case 'r', 'R':
		if o.tool == "grep" {
			o.recursive = true
		}
	case 'Z':
		o.null = true
	case '0':
		if o.tool == "rg" || o.tool == "ag" {
			o.null = true
		}
	case 'z':
		if o.tool == "git grep" {
			o.null = true
		}
	case 'A', 'B', 'C', 'W':
		o.context = true
	case 'e', 'f':
		o.patternOpt = true
	}
}

func (o *opts) long(name string) {
	switch name {
	case "--count", "--count-matches":
		o.count = true
	case "--files-with-matches", "--name-only", "--files":
		o.files = true
	case "--files-without-match", "--files-without-matches":
		o.files, o.without = true, true
	case "--json":
		o.json = true
	case "--column", "--vimgrep":
		o.column = true
		if name == "--vimgrep" {
			o.heading, o.numbers = 0, 1
		}
	case "--null":
		o.null = true
	case "--after-context", "--before-context", "--context", "--function-context":
		o.context = true
	case "--line-number":
		o.numbers = 1
	case "--no-line-number":
		o.numbers = 0
	case "--heading", "--group":
		o.heading = 1
	case "--no-heading", "--nogroup", "--noheading", "--no-group":
		o.heading = 0
	case "--no-filename":
		o.noFilename = true
	case "--with-filename":
		o.withName = true
	case "--recursive", "--dereference-recursive":
		o.recursive = true
	case "--regexp", "--file":
		o.patternOpt = true
	}
}

// paths returns the path operands (the pattern removed).
func (o opts) paths() []string {
	if o.patternOpt || len(o.operands) == 0 {
		return o.operands
	}
	return o.operands[1:]
}

// singleFile returns the one file a search names when the tool prints hits
// without a path: grep of one file, rg or ag of one path that is not a
// directory by its look.
func (o opts) singleFile() string {
	p := o.paths()
	if len(p) != 1 || o.withName {
		return ""
	}
	switch o.tool {
	case "grep":
		if o.recursive {
			return ""
		}
	case "rg", "ag", "ack":
		if p[0] == "." || strings.HasSuffix(p[0], "/") {
			return ""
		}
	default:
		return ""
	}
	return p[0]
}
