package bench

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestNeedleLogOf checks every generator: the needle is at its line, occurs
// once, and the log has the lines asked for; an unknown generator is an
// error that names the known ones.
func TestNeedleLogOf(t *testing.T) {
	for _, gen := range NeedleGenerators {
		log, needle, at, err := NeedleLogOf(gen, 3, 500)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
		if len(lines) != 500 || lines[at-1] != needle || bytes.Count(log, []byte(needle)) != 1 {
			t.Errorf("%s: %d lines, needle %q at L%d", gen, len(lines), needle, at)
		}
		again, _, _, _ := NeedleLogOf(gen, 3, 500)
		if !bytes.Equal(again, log) {
			t.Errorf("%s: not deterministic", gen)
		}
	}
	if _, _, _, err := NeedleLogOf("nope", 1, 500); err == nil || !strings.Contains(err.Error(), "syslog") {
		t.Errorf("unknown generator: err = %v", err)
	}
}

// TestNeedles is the needle gate on every generator, on one seed (the
// full figure is `ctx bench needle --seeds 10`).
func TestNeedles(t *testing.T) {
	if testing.Short() {
		t.Skip("digests 20,000-line logs")
	}
	res, err := RunNeedles(context.Background(), 1, 20001)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("needles:\n%s", b.String())
	if n := len(res.Runs); res.Inline != n || res.Retrievable != n {
		t.Errorf("needle inline in %d and retrievable in %d of %d runs", res.Inline, res.Retrievable, n)
	}
	if res.MaxDigestTokens > 300 {
		t.Errorf("largest digest %d tokens, want ≤ 300", res.MaxDigestTokens)
	}
}
