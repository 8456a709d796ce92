package profiletest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// BenchSize is how large the inputs of the profile throughput benchmarks
// are: tens of MiB (32 unless CTX_BENCH_MIB says otherwise), so per-run
// costs (the summary, a quadratic) weigh on the figure as they do on a
// flood.
var BenchSize = benchSize()

func benchSize() int {
	if n, err := strconv.Atoi(os.Getenv("CTX_BENCH_MIB")); err == nil && n > 0 {
		return n << 20
	}
	return 32 << 20
}

// ReadCapture reads a captured output, gunzipping it when its name ends in
// .gz (the benchmarks' large real captures are kept compressed).
func ReadCapture(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if filepath.Ext(path) != ".gz" {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out
}

// ReadCaptures reads every file matching pattern, in name order, and
// concatenates them; it skips the benchmark when none matches (the shared
// corpus sits outside the repository).
func ReadCaptures(tb testing.TB, pattern string) []byte {
	tb.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Skipf("no file matches %s", pattern)
	}
	sort.Strings(paths)
	var out []byte
	for _, p := range paths {
		b := ReadCapture(tb, p)
		out = append(out, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			out = append(out, '\n')
		}
	}
	return out
}

// Repeat concatenates copies of one until the result holds at least size
// bytes. rename, when not nil, rewrites copy i (so that each copy names its
// own packages, as one large run of many packages would).
func Repeat(one []byte, size int, rename func(i int, b []byte) []byte) []byte {
	if len(one) == 0 {
		return nil
	}
	out := make([]byte, 0, size+len(one)*2)
	for i := 0; len(out) < size; i++ {
		b := one
		if rename != nil {
			b = rename(i, one)
		}
		out = append(out, b...)
	}
	return out
}

// MemSource is a Source over in-memory streams whose Open does not copy
// them (evidence.BytesSource copies each stream on every Open, which a
// throughput benchmark would count as parsing).
func MemSource(argv []string, exit int, stdout, stderr []byte) *evidence.Source {
	mk := func(name string, b []byte) evidence.Stream {
		head := b[:min(len(b), evidence.HeadSize)]
		return evidence.NewStream(name, int64(len(b)), evidence.CountLines(b), head,
			func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil })
	}
	return evidence.NewSource(argv, exit, []evidence.Stream{mk(evidence.Stdout, stdout), mk(evidence.Stderr, stderr)})
}

// BenchParse runs parse over src b.N times, counting the source's bytes a
// parse, and fails when a parse errs or check rejects its graph. Besides
// MB/s of wall time it reports cpu-MB/s, the bytes a second of the
// process's CPU time parses: the figure issue 21 asks ≥ 100 of for test
// runners, ≥ 150 for text, on one core.
func BenchParse(b *testing.B, parse func(context.Context, *evidence.Source) (*evidence.Graph, error), src *evidence.Source, check func(*evidence.Graph) bool) {
	b.Helper()
	var size int64
	for _, st := range src.Streams {
		size += st.Size()
	}
	b.SetBytes(size)
	b.ReportAllocs()
	if dir := os.Getenv("CTX_BENCH_GRAPHS"); dir != "" {
		writeGraph(b, parse, src, dir)
	}
	cpu0, n := cpuTime(), 0
	for b.Loop() {
		g, err := parse(context.Background(), src)
		if err != nil {
			b.Fatal(err)
		}
		if check != nil && !check(g) {
			b.Fatalf("unexpected graph: verdict %q, %d items", g.Verdict, len(g.Items))
		}
		n++
	}
	// On a loaded machine the wall time (MB/s) counts the time the process
	// waited for a core; the CPU time of the process (the parse and its
	// garbage collection, on whichever cores) does not.
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)*float64(n)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// writeGraph writes the sealed graph of one parse of src as JSON to dir,
// named for the benchmark: CTX_BENCH_GRAPHS=dir makes BenchParse do it, so
// that two builds' graphs of the same large inputs can be compared byte for
// byte (a change for speed must not change them).
func writeGraph(b *testing.B, parse func(context.Context, *evidence.Source) (*evidence.Graph, error), src *evidence.Source, dir string) {
	g, err := parse(context.Background(), src)
	if err != nil {
		b.Fatal(err)
	}
	g.Seal("run:bench")
	js, err := json.MarshalIndent(g, "", " ")
	if err != nil {
		b.Fatal(err)
	}
	name := strings.ReplaceAll(b.Name(), "/", "_") + ".json"
	if err := os.WriteFile(filepath.Join(dir, name), js, 0o644); err != nil {
		b.Fatal(err)
	}
}
