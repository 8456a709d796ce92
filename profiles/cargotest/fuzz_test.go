package cargotest

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
	f.Add([]byte("\nrunning 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"), []byte{}, 0)
	f.Add([]byte("running 1 tests\ntest x ... FAILED\nfailures:\n---- x stdout ----\nthread 'x' panicked at 'a\n"), []byte("error: could not compile `a`\n"), 101)
	f.Add([]byte("        FAIL [ 0.1s] a b\n  stdout ───\n    running 1 test\n     Summary [ 1s] 1 test run: 0 passed, 1 failed\n"), []byte{}, 100)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		parseOnce := func() ([]byte, *evidence.Graph) {
			g, err := Parse(context.Background(), evidence.BytesSource([]string{"cargo", "test"}, exit, stdout, stderr))
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
