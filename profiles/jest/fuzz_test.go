package jest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// FuzzParse checks that any output parses without panicking, gives the same
// graph twice, keeps spans inside the streams, and never claims a pass that
// a failing item or a missing summary contradicts.
func FuzzParse(f *testing.F) {
	names, _ := filepath.Glob("testdata/*.stdout")
	for _, n := range names {
		base := strings.TrimSuffix(n, ".stdout")
		out, _ := os.ReadFile(base + ".stdout")
		errb, _ := os.ReadFile(base + ".stderr")
		f.Add(head(out), head(errb), 101) // small seeds keep minimisation quick
	}
	f.Add([]byte("PASS src/a.test.js\n  a\n    ✓ b (1 ms)\n\nTest Suites: 1 passed, 1 total\nTests:       1 passed, 1 total\n"), []byte{}, 0)
	f.Add([]byte{}, []byte("FAIL src/a.test.js\n  ● a › b\n\n    expect(received).toBe(expected)\n\n      at Object.<anonymous> (src/a.test.js:3:5)\n"), 1)
	f.Add([]byte(" ✓ src/a.test.ts > a > b 1ms\n × src/a.test.ts > a > c 2ms\n   → expected 1 to be 2\n\n Test Files  1 failed (1)\n      Tests  1 failed | 1 passed (2)\n"),
		[]byte(" FAIL  src/a.test.ts > a > c\nAssertionError: expected 1 to be 2\n ❯ src/a.test.ts:5:13\n⎯⎯⎯[1/1]⎯\n"), 1)
	f.Add([]byte("\x1b[2K\x1b[1A\x1b[2K\x1b[G Test Files  0 passed (1)\nstdout | src/a.test.ts > x\n FAIL  src/f.test.ts > y\n\n"), []byte{}, 130)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		parseOnce := func() ([]byte, *evidence.Graph) {
			g, err := Parse(context.Background(), evidence.BytesSource([]string{"jest"}, exit, stdout, stderr))
			if err != nil {
				return nil, nil
			}
			g.Seal("run:fuzz")
			b, err := json.Marshal(g)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			return b, g
		}
		a, g := parseOnce()
		b, _ := parseOnce()
		if !bytes.Equal(a, b) {
			t.Fatalf("not deterministic:\n%s\n%s", a, b)
		}
		if g == nil {
			return
		}
		lines := map[string]int{evidence.Stdout: evidence.CountLines(stdout), evidence.Stderr: evidence.CountLines(stderr)}
		for _, it := range g.Items {
			for _, sp := range []evidence.Span{it.Span, it.Detail} {
				if !sp.IsZero() && (sp.To < sp.From || sp.To > lines[sp.Stream]) {
					t.Fatalf("span %s outside %s (%d lines)", sp.Handle(), sp.Stream, lines[sp.Stream])
				}
			}
			if len(it.Message) > maxMessage+len("…") {
				t.Fatalf("message of %d bytes", len(it.Message))
			}
		}
		switch g.Verdict {
		case "", "fail", "error":
		case "pass":
			if len(g.Tests(evidence.OutcomeFail, evidence.OutcomeError)) > 0 || g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindSummary }) == 0 {
				t.Fatalf("pass with failures or without a summary: %s", a)
			}
		default:
			t.Fatalf("verdict %q", g.Verdict)
		}
	})
}

func head(b []byte) []byte {
	if len(b) > 2048 {
		return b[:2048]
	}
	return b
}
