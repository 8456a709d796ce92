package plan

import "github.com/ctxhq/ctx/internal/lines"

// cleanLine is a line as a terminal would leave it, as valid UTF-8.
func cleanLine(s string) string {
	return string(lines.Clean([]byte(s)))
}
