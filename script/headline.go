package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
)

// Headline is the line that says what stopped a script: for a Starlark
// traceback ("Traceback (most recent call last):", the frames, then
// "Error: …") its last "Error" line, which names the failure; for any other
// error its first line.
func Headline(errText string) string {
	first, _, _ := strings.Cut(errText, "\n")
	if !strings.HasPrefix(first, "Traceback") {
		return first
	}
	lines := strings.Split(strings.TrimRight(errText, "\n"), "\n")
	for i := len(lines) - 1; i > 0; i-- {
		if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "Error") {
			return l
		}
	}
	return first
}

// noLoad answers load(): a script reads no files, so it cannot load another
// module; the error says so and what to do instead.
func noLoad(_ *starlark.Thread, module string) (starlark.StringDict, error) {
	return nil, fmt.Errorf("load(%q): a ctx py script is one file and reads no others; put the code it needs in the script itself", module)
}
