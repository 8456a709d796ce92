package cargotest

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// BenchmarkParse parses a large log: the merged capture of a failing
// workspace-sized run, repeated until it is about 16 MiB.
func BenchmarkParse(b *testing.B) {
	one, err := os.ReadFile("testdata/merged.stdout")
	if err != nil {
		b.Fatal(err)
	}
	big := bytes.Repeat(one, (16<<20)/len(one)+1)
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	for b.Loop() {
		g, err := Parse(context.Background(), evidence.BytesSource([]string{"cargo", "test"}, 101, big, nil))
		if err != nil || g.Verdict != "fail" {
			b.Fatalf("verdict %q err %v", g.Verdict, err)
		}
	}
}
