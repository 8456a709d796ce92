package pytest

import (
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Noise is pytest's cleanup of a failure block (evidence.Profile.Noise): the
// "____ test_name ____" banner that opens each failure goes; the digest
// names the test already.
func Noise(line string, _ *evidence.Item) (string, bool) {
	c := strings.TrimSpace(string(lines.Clean([]byte(line))))
	if strings.HasPrefix(c, "___") && strings.HasSuffix(c, "___") {
		return "", false
	}
	return line, true
}
