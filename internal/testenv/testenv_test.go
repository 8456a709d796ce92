package testenv

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how a test ended instead of ending.
type recorder struct {
	testing.TB
	ended string // "fatal: …" or "skip: …"
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.ended = "fatal: " + fmt.Sprintf(format, args...)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.ended = "skip: " + fmt.Sprintf(format, args...)
}

func TestMissingFailsInCI(t *testing.T) {
	for _, tt := range []struct{ ci, want string }{{"true", "fatal: "}, {"", "skip: "}} {
		t.Setenv("CI", tt.ci)
		r := &recorder{TB: t}
		Tool(r, "apt-get install nothing", "ctx-no-such-tool-anywhere")
		if len(r.ended) < len(tt.want) || r.ended[:len(tt.want)] != tt.want {
			t.Errorf("CI=%q: a missing tool ended the test with %q, want %q…", tt.ci, r.ended, tt.want)
		}
	}
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	if p := Tool(r, "", "no-such-tool", "go"); p == "" || r.ended != "" {
		t.Errorf("the second name on PATH was not found: %q %q", p, r.ended)
	}
}
