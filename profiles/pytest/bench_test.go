package pytest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// BenchmarkParse measures throughput (issue 21: ≥ 100 MB/s on one core)
// over 32 MiB of real pytest output (testdata/bench: a 21,600-test run with
// -v and without, each copy naming its own suite; a real capture of the
// failing suite with -rA), and over a synthetic -v run of 100,000 results
// with 1,000 tracebacks.
func BenchmarkParse(b *testing.B) {
	cases := []struct {
		name string
		data func(b *testing.B) []byte
	}{
		{"v", realRun("testdata/bench/pytest-v.txt.gz")},
		{"plain", realRun("testdata/bench/pytest-plain.txt.gz")},
		{"failing-rA", realRun("testdata/out/failing-rA.out")},
		{"synthetic-100k-v", func(*testing.B) []byte { return synthetic() }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			src := profiletest.MemSource([]string{"pytest"}, 1, c.data(b), nil)
			profiletest.BenchParse(b, Parse, src, func(g *evidence.Graph) bool { return g.Verdict == "fail" })
		})
	}
}

// realRun reads a capture and repeats it to the benchmark's size, the suite
// directory renamed in every copy.
func realRun(path string) func(b *testing.B) []byte {
	return func(b *testing.B) []byte {
		one := profiletest.ReadCapture(b, path)
		return profiletest.Repeat(one, profiletest.BenchSize, func(i int, one []byte) []byte {
			return bytes.ReplaceAll(one, []byte("big/"), fmt.Appendf(nil, "b%d/", i))
		})
	}
}

// synthetic is a -v run of 100,000 results, 1,000 of them failures with a
// traceback each.
func synthetic() []byte {
	var big strings.Builder
	big.WriteString(banner80("test session starts") + "\n")
	for i := 0; i < 100_000; i++ {
		word := "PASSED"
		if i%100 == 0 {
			word = "FAILED"
		}
		fmt.Fprintf(&big, "tests/test_mod%03d.py::test_case[%d] %s  [ 50%%]\n", i%500, i, word)
	}
	big.WriteString(banner80("FAILURES") + "\n")
	for i := 0; i < 100_000; i += 100 {
		big.WriteString(sep80("_", fmt.Sprintf("test_case[%d]", i)) + "\n\n    def test_case(n):\n>       assert n % 100\nE       assert (0 % 100)\n\n")
		fmt.Fprintf(&big, "tests/test_mod%03d.py:3: AssertionError\n", i%500)
	}
	big.WriteString(banner80("short test summary info") + "\n")
	for i := 0; i < 100_000; i += 100 {
		fmt.Fprintf(&big, "FAILED tests/test_mod%03d.py::test_case[%d] - assert (0 %% 100)\n", i%500, i)
	}
	big.WriteString(banner80("1000 failed, 99000 passed in 61.20s (0:01:01)") + "\n")
	return []byte(big.String())
}
