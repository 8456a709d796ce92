package diag

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// BenchmarkParse measures throughput over the captured outputs repeated to
// about 4 MiB: dense diagnostics, source excerpts, summaries.
func BenchmarkParse(b *testing.B) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.std*"))
	var one []byte
	for _, s := range seeds {
		d, err := os.ReadFile(s)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, d...)
	}
	var data []byte
	for len(data) < 4<<20 {
		data = append(data, one...)
	}
	src := evidence.BytesSource(nil, 1, data, nil)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContent measures detection on full stream heads.
func BenchmarkContent(b *testing.B) {
	d, err := os.ReadFile(filepath.Join("testdata", "pylint.stdout"))
	if err != nil {
		b.Fatal(err)
	}
	var data []byte
	for len(data) < evidence.HeadSize {
		data = append(data, d...)
	}
	src := evidence.BytesSource(nil, 1, data, nil)
	b.SetBytes(int64(len(src.Streams[0].Head())))
	for i := 0; i < b.N; i++ {
		Content(src)
	}
}
