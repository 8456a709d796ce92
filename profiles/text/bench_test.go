package text

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// BenchmarkParse measures the text profile on one core over two floods: a
// counter's output (no letters: the chunk fast path) and a service log whose
// every line has words, one in a hundred an error (MB/s is the figure issue
// 21 asks ≥ 150 of); and the shared corpus's real logs (loghub, nine
// systems), compiler outputs and go test outputs, and the profiles' captured
// real runs (both as plain text), read in place and repeated to 32 MiB.
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, pattern string }{
		{"loghub", "../../../shared/corpus/loghub2k*/*/*_2k.log"},
		{"diagnostics", "../../../shared/corpus/diagnostics/*.in"},
		// Measured first as held out, then profiled once (BENCHMARKS.md).
		{"gotest", "../../../shared/corpus/gotest/*.txt"},
		// Held out: the real runs captured for the profiles' tests, which
		// no profile or benchmark of the speed work looked at.
		{"realrun-heldout", "../*/testdata/realrun/*/stdout"},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := profiletest.Repeat(profiletest.ReadCaptures(b, c.pattern), profiletest.BenchSize, nil)
			profiletest.BenchParse(b, Parse, profiletest.MemSource([]string{"cat"}, 0, data, nil), nil)
		})
	}
	var seq, log bytes.Buffer
	for i := 1; seq.Len() < 32<<20; i++ {
		fmt.Fprintf(&seq, "%d\n", i)
	}
	for i := 0; log.Len() < 32<<20; i++ {
		level, msg := "INFO", fmt.Sprintf("request %d served in %d ms", i*7919%1000003, i%97)
		if i%100 == 0 {
			level, msg = "ERROR", fmt.Sprintf("upstream %d failed: connection refused", i%13)
		}
		fmt.Fprintf(&log, "2026-12-01T23:%02d:%02d.%03dZ %s worker-%d %s\n", i/60000%60, i/1000%60, i%1000, level, i%8, msg)
	}
	for _, in := range []struct {
		name string
		data []byte
	}{{"seq", seq.Bytes()}, {"log", log.Bytes()}} {
		b.Run(in.name, func(b *testing.B) {
			// A single stream, as a command printing only to stdout gives.
			data := in.data
			src := evidence.NewSource([]string{"cat"}, 0, []evidence.Stream{
				evidence.NewStream(evidence.Stdout, int64(len(data)), evidence.CountLines(data), data[:evidence.HeadSize],
					func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }),
			})
			profiletest.BenchParse(b, Parse, src, nil)
		})
	}
}
