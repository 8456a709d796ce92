package gotest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// FuzzParse checks that the parser never panics, is deterministic (the same
// input gives the same JSON), and never contradicts itself: spans stay
// inside their stream, messages stay bounded, a pass has no failure.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.std*"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil && len(b) < 16<<10 {
			f.Add(b, []byte(nil), uint8(0))
		}
	}
	if dir := corpusDirFromWd(); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, s := range files {
			if b, err := os.ReadFile(s); err == nil {
				f.Add(b, []byte(nil), uint8(0))
			}
		}
	}
	f.Add([]byte("=== RUN   TestA\n--- FAIL: TestA (0.00s)\npanic: x\n\ngoroutine 1 [running]:\n"), []byte("# p\np.go:1:2: e\n"), uint8(1))
	f.Add([]byte(`{"Action":"output","Package":"p","Test":"T","Output":"Bench"}`+"\n"), []byte(nil), uint8(2))
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, mode uint8) {
		argv := [][]string{{"go", "test"}, {"p.test"}, nil}[int(mode)%3]
		parseOnce := func() (*evidence.Graph, []byte) {
			g, err := Parse(context.Background(), evidence.BytesSource(argv, int(mode>>2), stdout, stderr))
			if err != nil {
				if !errors.Is(err, ErrUnrecognised) {
					t.Fatalf("Parse: %v", err)
				}
				return nil, nil
			}
			g.Seal("run:fuzz")
			return g, marshal(t, g)
		}
		g, a := parseOnce()
		_, b := parseOnce()
		if !bytes.Equal(a, b) {
			t.Fatalf("two parses differ:\n%s", firstDiff(a, b))
		}
		if g == nil {
			return
		}
		switch g.Verdict {
		case "", "pass", "fail", "error":
		default:
			t.Fatalf("verdict %q", g.Verdict)
		}
		lines := map[string]int{
			evidence.Stdout: evidence.CountLines(stdout),
			evidence.Stderr: evidence.CountLines(stderr),
		}
		for _, it := range g.Items {
			for _, sp := range []evidence.Span{it.Span, it.Detail} {
				if sp.IsZero() {
					continue
				}
				if n, ok := lines[sp.Stream]; !ok || sp.From < 1 || sp.To < sp.From || sp.To > n {
					t.Fatalf("%s %s: span %+v outside its stream (%d lines)", it.Kind, it.Name, sp, lines[sp.Stream])
				}
			}
			if len(it.Message) > maxMessage+len("…") {
				t.Fatalf("message of %d bytes", len(it.Message))
			}
			if g.Verdict == "pass" && (it.Outcome.Failed() || it.Severity == evidence.SeverityError) {
				t.Fatalf("verdict pass with %s %s %s", it.Kind, it.Name, it.Outcome)
			}
		}
	})
}

// corpusDirFromWd is corpusDir without a testing.T (fuzz seeding).
func corpusDirFromWd() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpus", "gotest")
	if _, err := os.Stat(c); err != nil {
		return ""
	}
	return c
}
