package pytest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// FuzzParse: the parser never panics, fails only with ErrUnrecognised, is
// deterministic (same input, same JSON), never claims a pass beside a failing
// test, and never points a span outside its stream.
func FuzzParse(f *testing.F) {
	outs, _ := filepath.Glob("testdata/out/*.out")
	for _, p := range outs {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, []byte(nil), 1)
		if len(b) > 2000 { // a cut, as if the run were killed
			f.Add(b[:len(b)/2], []byte(nil), 137)
		}
	}
	f.Add([]byte(banner80("short test summary info")+"\nFAILED a.py::t[x - y] - boom\n1 failed in 0.1s\n"), []byte(nil), 1)
	f.Add([]byte(".INTERNALERROR> Traceback (most recent call last):\nINTERNALERROR>   File \"/x.py\", line 1, in f\nINTERNALERROR> ValueError: v\n"), []byte(nil), 3)
	f.Add([]byte(nil), []byte("ERROR: usage: pytest [options]\npytest: error: bad\n"), 4)

	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		src := evidence.BytesSource([]string{"pytest"}, exit, stdout, stderr)
		g1, err1 := Parse(context.Background(), src)
		g2, err2 := Parse(context.Background(), src)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ: %v / %v", err1, err2)
		}
		if err1 != nil {
			if !errors.Is(err1, ErrUnrecognised) {
				t.Fatalf("unexpected error %v", err1)
			}
			return
		}
		g1.Seal("run:fuzz")
		g2.Seal("run:fuzz")
		j1, _ := json.Marshal(g1)
		j2, _ := json.Marshal(g2)
		if !bytes.Equal(j1, j2) {
			t.Fatalf("not deterministic:\n%s\n%s", j1, j2)
		}
		switch g1.Verdict {
		case "", "pass", "fail", "error":
		default:
			t.Fatalf("verdict %q", g1.Verdict)
		}
		if g1.Verdict == "pass" && len(g1.Tests(evidence.OutcomeFail, evidence.OutcomeError)) > 0 {
			t.Fatalf("pass beside failing tests: %s", j1)
		}
		for _, it := range g1.Items {
			for _, sp := range []evidence.Span{it.Span, it.Detail} {
				if sp.IsZero() {
					continue
				}
				if sp.From > sp.To || sp.To > src.Stream(sp.Stream).Lines() {
					t.Fatalf("span %s outside %s (%d lines)", sp.Handle(), sp.Stream, src.Stream(sp.Stream).Lines())
				}
			}
			if len(it.Message) > maxMsg+len("…") {
				t.Fatalf("message of %d bytes", len(it.Message))
			}
		}
	})
}
