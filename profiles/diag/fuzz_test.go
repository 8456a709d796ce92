package diag

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctxhq/ctx/evidence"
)

// FuzzParse checks, for any input: no panic; the same input gives the same
// JSON; spans stay inside their stream; the verdict is from the closed set; a
// pass never comes with an error diagnostic; messages are bounded.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.std*"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err == nil {
			f.Add(b, uint8(1), uint8(0))
		}
	}
	f.Add([]byte("a.c:1:2: error: x\n    1 | y\n      | ^\n"), uint8(1), uint8(0))
	f.Add([]byte("error[E0308]: x\n --> a.rs:1:2\n  |\n\n"), uint8(101), uint8(1))
	f.Add([]byte("F401 x\n --> a.py:1:2\n"), uint8(1), uint8(2))
	f.Add([]byte("\n/a.js\n  1:2  error  x  semi\n\n✖ 1 problem (1 error, 0 warnings)\n"), uint8(1), uint8(3))
	f.Add([]byte("a.ts:1:2 - error TS1: x\n\n1 y\n  ~\n\nFound 1 error.\n"), uint8(2), uint8(4))
	f.Add([]byte("[error] a.scala:1: x\n[error]  ^\n"), uint8(1), uint8(0))
	f.Add([]byte("C:\\a b (x)\\c.cs(1,2): warning CS1: x [p.csproj]\r\nBuild FAILED.\r\n"), uint8(1), uint8(0))
	argvs := [][]string{nil, {"gcc"}, {"cargo", "check"}, {"ruff"}, {"eslint"}, {"tsc"}, {"mypy"}, {"go", "vet"}}
	f.Fuzz(func(t *testing.T, data []byte, exit uint8, which uint8) {
		argv := argvs[int(which)%len(argvs)]
		half := len(data) / 2
		run := func() ([]byte, *evidence.Graph, error) {
			src := evidence.BytesSource(argv, int(exit), data, data[half:])
			_ = Content(src)
			g, err := Parse(context.Background(), src)
			if err != nil {
				return nil, nil, err
			}
			g.Seal("run:fuzz")
			b, _ := json.Marshal(g)
			return b, g, nil
		}
		a, g, err := run()
		b, _, err2 := run()
		if (err == nil) != (err2 == nil) || !bytes.Equal(a, b) {
			t.Fatalf("not deterministic")
		}
		if err != nil {
			return
		}
		lineCount := map[string]int{evidence.Stdout: evidence.CountLines(data), evidence.Stderr: evidence.CountLines(data[half:])}
		switch g.Verdict {
		case "", "pass", "fail", "error":
		default:
			t.Fatalf("verdict %q", g.Verdict)
		}
		for _, it := range g.Items {
			for _, sp := range []evidence.Span{it.Span, it.Detail} {
				if sp.IsZero() {
					continue
				}
				if sp.From < 1 || sp.To < sp.From || sp.To > lineCount[sp.Stream] {
					t.Fatalf("span %+v outside stream of %d lines", sp, lineCount[sp.Stream])
				}
			}
			if it.Span.IsZero() {
				t.Fatalf("item without span: %+v", it)
			}
			if len(it.Message) > MaxMessage+len("…") || !utf8.ValidString(it.Message) && utf8.ValidString(string(data)) {
				t.Fatalf("message %q", it.Message)
			}
			if g.Verdict == "pass" && it.Severity == evidence.SeverityError {
				t.Fatalf("pass with an error: %+v", it)
			}
			if strings.ContainsRune(it.Message, '\x1b') {
				t.Fatalf("colour left in message %q", it.Message)
			}
		}
	})
}
