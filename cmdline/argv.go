package cmdline

import "strings"

// Program is the program a command word names: its base name (after / or \),
// without a Windows extension (.exe, .cmd, .bat).
func Program(word string) string {
	if i := strings.LastIndexAny(word, `/\`); i >= 0 {
		word = word[i+1:]
	}
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		word = strings.TrimSuffix(word, ext)
	}
	return word
}

// IsPython reports whether a program is a Python interpreter.
func IsPython(name string) bool {
	switch name {
	case "python", "python3", "python2", "py", "pypy", "pypy3":
		return true
	}
	v, ok := strings.CutPrefix(name, "python3.")
	return ok && v != ""
}

// IsShell reports whether a program is a POSIX-style shell that runs
// `-c SCRIPT`.
func IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash":
		return true
	}
	return false
}

// Normalize reduces a command line to the program that produces the output:
// argv[0] to its program name; NAME=value assignments and wrappers (env, time,
// nice, nohup, timeout, stdbuf, sudo, npx, uv/poetry/pipenv run, pnpm exec,
// bundle exec …) removed; `python -m MOD` to MOD; `sh -c SCRIPT` to the
// script's first command (ScriptCommand).
func Normalize(argv []string) []string {
	for range 8 { // wrappers nest, but not deeply
		if len(argv) == 0 {
			return argv
		}
		next, ok := unwrapOnce(argv)
		if !ok {
			return append([]string{Program(argv[0])}, argv[1:]...)
		}
		argv = next
	}
	return argv
}

// unwrapOnce removes one layer of wrapping, if argv has one.
func unwrapOnce(argv []string) ([]string, bool) {
	name, rest := Program(argv[0]), argv[1:]
	if strings.Contains(argv[0], "=") && !strings.HasPrefix(argv[0], "-") {
		return rest, true // an assignment
	}
	if w, ok := wrappers[name]; ok {
		i, known := w.Inner(Words(rest))
		if !known {
			return splitString(rest[i:]), true
		}
		return rest[i:], true
	}
	if r, ok := runners[name]; ok {
		i := SkipOptions(Words(rest), r.global...)
		if i < len(rest) {
			sub := rest[i]
			if sub == "tool" && i+1 < len(rest) {
				sub += " " + rest[i+1]
			}
			if w, ok := r.subs[sub]; ok {
				j := i + 1 + strings.Count(sub, " ")
				k, _ := w.Inner(Words(rest[j:]))
				return rest[j+k:], true
			}
		}
	}
	if IsPython(name) && len(rest) >= 2 && rest[0] == "-m" {
		return rest[1:], true
	}
	if IsShell(name) && len(rest) >= 2 && rest[0] == "-c" {
		return ScriptCommand(rest[1]), true
	}
	return nil, false
}

// CompoundShell reports whether argv runs a shell script that is more than
// one simple command (Compound): its exit status is then the last command's,
// not the first one's that Normalize names.
func CompoundShell(argv []string) bool {
	return len(argv) >= 3 && argv[1] == "-c" && IsShell(Program(argv[0])) && Compound(argv[2])
}

// Subcommand returns the first word of args that is not an option ("" when
// there is none). Options taking a separate value are not known generically,
// so it can return an option's value.
func Subcommand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// withSubcommands are the tools whose subcommand names what they do.
var withSubcommands = map[string]bool{"go": true, "git": true, "cargo": true, "npm": true, "yarn": true,
	"pnpm": true, "docker": true, "kubectl": true, "make": true, "dotnet": true, "mvn": true, "gradle": true,
	"bun": true, "uv": true, "pip": true, "apt-get": true}

// Family names what a command line runs, for grouping runs (`ctx stats`):
// the program after Normalize, and its subcommand for tools that have them
// ("go test", "git log", "npm run"). It is "" for an empty argv.
func Family(argv []string) string {
	a := Normalize(argv)
	if len(a) == 0 {
		return ""
	}
	if withSubcommands[a[0]] {
		if sub := Subcommand(a[1:]); sub != "" {
			return a[0] + " " + sub
		}
	}
	return a[0]
}

// splitString reads the command env -S hides in a string: `-S 'cmd args'`,
// `-S'cmd args'` or `--split-string=…`, followed by any further words.
func splitString(args []string) []string {
	s := strings.TrimPrefix(args[0], "--split-string")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-S"), "=")
	rest := args[1:]
	if s == "" && len(rest) > 0 {
		s, rest = rest[0], rest[1:]
	}
	words, err := Split(s)
	if err != nil {
		return nil
	}
	return append(words, rest...)
}
