package evidence

import (
	"path/filepath"
	"strings"
)

// NormalizeArgv reduces a command line to the program that produces the output:
// argv[0] to its base name; env assignments and wrappers (env, time, nice,
// nohup, timeout, stdbuf, sudo, uv/poetry/pipenv run, npx, pnpm exec, bunx,
// python -m) removed; `sh -c SCRIPT` to the script's first command.
func NormalizeArgv(argv []string) []string {
	for range 8 { // wrappers nest, but not deeply
		if len(argv) == 0 {
			return argv
		}
		base := filepath.Base(argv[0])
		rest := argv[1:]
		switch {
		case strings.Contains(argv[0], "=") && !strings.HasPrefix(argv[0], "-"):
			argv = rest
			continue
		case base == "env":
			for len(rest) > 0 && (strings.Contains(rest[0], "=") || strings.HasPrefix(rest[0], "-")) {
				rest = rest[1:]
			}
			argv = rest
			continue
		case base == "time" || base == "nohup" || base == "sudo" || base == "xvfb-run" || base == "command":
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				rest = rest[1:]
			}
			argv = rest
			continue
		case base == "nice" || base == "stdbuf" || base == "ionice":
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				if (rest[0] == "-n" || rest[0] == "-c") && len(rest) > 1 {
					rest = rest[1:]
				}
				rest = rest[1:]
			}
			argv = rest
			continue
		case base == "timeout":
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				if (rest[0] == "-s" || rest[0] == "-k" || rest[0] == "--signal" || rest[0] == "--kill-after") && len(rest) > 1 {
					rest = rest[1:]
				}
				rest = rest[1:]
			}
			if len(rest) > 0 {
				rest = rest[1:] // the duration
			}
			argv = rest
			continue
		case base == "npx" || base == "bunx" || base == "pnpx":
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				rest = rest[1:]
			}
			argv = rest
			continue
		case (base == "pnpm" || base == "yarn" || base == "bun") && len(rest) > 0 && (rest[0] == "exec" || rest[0] == "dlx" || rest[0] == "x"):
			argv = rest[1:]
			continue
		case (base == "uv" || base == "poetry" || base == "pipenv" || base == "pdm" || base == "hatch" || base == "rye") && len(rest) > 0 && rest[0] == "run":
			rest = rest[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				rest = rest[1:]
			}
			argv = rest
			continue
		case isPython(base) && len(rest) >= 2 && rest[0] == "-m":
			argv = rest[1:]
			continue
		case (base == "sh" || base == "bash" || base == "zsh" || base == "dash") && len(rest) >= 2 && rest[0] == "-c":
			argv = scriptWords(rest[1])
			continue
		}
		out := append([]string{base}, rest...)
		return out
	}
	return argv
}

func isPython(base string) bool {
	if base == "python" || base == "python3" || base == "python2" || base == "pypy3" || base == "pypy" {
		return true
	}
	if v, ok := strings.CutPrefix(base, "python3."); ok && v != "" {
		return true
	}
	return false
}

// scriptWords splits the first simple command of a shell script into words,
// roughly: enough to recognise the program, not to run it.
func scriptWords(script string) []string {
	script = strings.TrimSpace(script)
	// Skip leading `cd dir &&` prefixes.
	for {
		if rest, ok := strings.CutPrefix(script, "cd "); ok {
			if i := strings.Index(rest, "&&"); i >= 0 {
				script = strings.TrimSpace(rest[i+2:])
				continue
			}
		}
		break
	}
	redirect := false
	if i := strings.IndexAny(script, "|;&<>()`$"); i >= 0 {
		redirect = script[i] == '<' || script[i] == '>'
		script = script[:i]
	}
	var words []string
	for _, w := range strings.Fields(script) {
		words = append(words, strings.Trim(w, `"'`))
	}
	// "2>&1": the descriptor number belongs to the redirection.
	if n := len(words); redirect && n > 1 && strings.Trim(words[n-1], "0123456789") == "" && !strings.HasSuffix(script, " ") {
		words = words[:n-1]
	}
	return words
}

// CompoundShell reports whether argv runs a shell script that is more than
// one simple command (a pipeline or a list): its exit status is then the
// last command's, not the first one's that NormalizeArgv names.
func CompoundShell(argv []string) bool {
	if len(argv) < 3 || argv[1] != "-c" {
		return false
	}
	switch filepath.Base(argv[0]) {
	case "sh", "bash", "zsh", "dash":
		return strings.ContainsAny(argv[2], "|;&\n")
	}
	return false
}
