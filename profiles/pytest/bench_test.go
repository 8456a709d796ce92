package pytest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// BenchmarkParse reports parsing throughput on a real capture and on a large
// synthetic -v run (100,000 results, 1,000 failures with tracebacks).
func BenchmarkParse(b *testing.B) {
	real, err := os.ReadFile("testdata/out/failing-rA.out")
	if err != nil {
		b.Fatal(err)
	}
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
	for _, in := range []struct {
		name string
		out  []byte
	}{{"failing-rA", real}, {"synthetic-100k-v", []byte(big.String())}} {
		b.Run(in.name, func(b *testing.B) {
			src := evidence.BytesSource([]string{"pytest"}, 1, in.out, nil)
			b.SetBytes(int64(len(in.out)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(context.Background(), src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
