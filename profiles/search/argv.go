package search

import (
	"path/filepath"
	"strings"
)

// normalize reduces a command line the way the registry does before it
// calls Argv (argv[0] to its base name; env, time, nice, nohup and VAR=value
// wrappers dropped), so Parse reads the same argv Argv saw: the registry
// hands Parse the Source with argv as run.
func normalize(argv []string) []string {
	for range 8 {
		if len(argv) == 0 {
			return argv
		}
		base, rest := filepath.Base(argv[0]), argv[1:]
		switch {
		case strings.Contains(argv[0], "=") && !strings.HasPrefix(argv[0], "-"):
		case base == "env" || base == "time" || base == "nohup" || base == "nice" || base == "stdbuf" || base == "command":
			for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || (base == "env" && strings.Contains(rest[0], "="))) {
				if base == "nice" && rest[0] == "-n" && len(rest) > 1 {
					rest = rest[1:]
				}
				rest = rest[1:]
			}
		default:
			if base == argv[0] {
				return argv
			}
			return append([]string{base}, rest...)
		}
		argv = rest
	}
	return argv
}
