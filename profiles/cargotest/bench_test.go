package cargotest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// BenchmarkParse measures throughput (issue 21: ≥ 100 MB/s on one core)
// over real cargo test output repeated to 32 MiB: a 3,200-test crate's run
// (testdata/bench, stdout and stderr, the crate renamed in every copy) and
// the merged capture of a failing workspace-sized run.
func BenchmarkParse(b *testing.B) {
	rename := func(i int, one []byte) []byte {
		return bytes.ReplaceAll(one, []byte("bigsuite"), fmt.Appendf(nil, "bigsuite%d", i))
	}
	b.Run("crate", func(b *testing.B) {
		out := profiletest.ReadCapture(b, "testdata/bench/cargo.stdout.gz")
		errs := profiletest.ReadCapture(b, "testdata/bench/cargo.stderr.gz")
		n := profiletest.BenchSize * len(out) / (len(out) + len(errs))
		src := profiletest.MemSource([]string{"cargo", "test"}, 101,
			profiletest.Repeat(out, n, rename), profiletest.Repeat(errs, profiletest.BenchSize-n, rename))
		profiletest.BenchParse(b, Parse, src, failed)
	})
	b.Run("merged", func(b *testing.B) {
		big := profiletest.Repeat(profiletest.ReadCapture(b, "testdata/merged.stdout"), profiletest.BenchSize, nil)
		profiletest.BenchParse(b, Parse, profiletest.MemSource([]string{"cargo", "test"}, 101, big, nil), failed)
	})
}

func failed(g *evidence.Graph) bool { return g.Verdict == "fail" }
