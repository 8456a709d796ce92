package jest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// BenchmarkParse measures throughput (issue 21: ≥ 100 MB/s on one core)
// over real jest output repeated to 32 MiB: an 8,000-test run with and
// without --verbose (testdata/bench, each copy naming its own files), the
// merged capture of a failing run (five files) and its verbose run.
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, file string }{
		{"run", "bench/jest.stderr.gz"}, // jest reports on stderr
		{"run-verbose", "bench/jest-verbose.stderr.gz"},
		{"merged", "jest-merged.stdout"}, // both streams in one pipe
		{"verbose", "jest-verbose.stderr"},
	} {
		b.Run(c.name, func(b *testing.B) {
			big := profiletest.Repeat(profiletest.ReadCapture(b, "testdata/"+c.file), profiletest.BenchSize, func(i int, one []byte) []byte {
				return bytes.ReplaceAll(one, []byte("src/"), fmt.Appendf(nil, "s%d/", i))
			})
			src := profiletest.MemSource([]string{"jest"}, 1, nil, big)
			if c.name == "merged" {
				src = profiletest.MemSource([]string{"jest"}, 1, big, nil)
			}
			profiletest.BenchParse(b, Parse, src, func(g *evidence.Graph) bool { return g.Verdict == "fail" })
		})
	}
}
