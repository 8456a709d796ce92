package gotest

import (
	"encoding/json"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// framing are the lines go test prints around a test's own output.
var framing = []string{"=== RUN", "=== PAUSE", "=== CONT", "--- FAIL", "--- PASS", "--- SKIP"}

// Noise is go test's cleanup of a failure block (evidence.Profile.Noise): its
// framing lines go, and in a -json stream each event is replaced by what it
// says the test printed, events of other tests (parallel tests interleave)
// and non-output events dropped.
func Noise(line string, it *evidence.Item) (string, bool) {
	c := strings.TrimSpace(string(lines.Clean([]byte(line))))
	if strings.HasPrefix(c, "{") {
		out, test, ok := jsonOutput(c)
		if !ok || test != "" && it.Name != "" && test != it.Name {
			return "", false
		}
		line, c = strings.TrimRight(out, "\n"), strings.TrimSpace(out)
	}
	for _, p := range framing {
		if strings.HasPrefix(c, p) {
			return "", false
		}
	}
	return line, true
}

// jsonOutput returns the "Output" and "Test" fields of a JSON event line.
func jsonOutput(line string) (string, string, bool) {
	var ev struct {
		Output *string
		Test   string
	}
	if json.Unmarshal([]byte(line), &ev) != nil || ev.Output == nil {
		return "", "", false
	}
	return *ev.Output, ev.Test, true
}
