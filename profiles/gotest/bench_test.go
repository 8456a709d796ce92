package gotest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// BenchmarkParse measures throughput over real outputs repeated to about
// 8 MiB (the package names are varied so each copy is its own package).
func BenchmarkParse(b *testing.B) {
	for _, name := range []string{"verbose", "json"} {
		one, err := os.ReadFile(filepath.Join("testdata", name+".stdout"))
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		for i := 0; buf.Len() < 8<<20; i++ {
			buf.WriteString(strings.ReplaceAll(string(one), "example.com/m/", fmt.Sprintf("example.com/m%d/", i)))
		}
		data := buf.Bytes()
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse(context.Background(), evidence.BytesSource([]string{"go", "test"}, 1, data, nil)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
