package logs

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/internal/testenv"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

// loghubDir is the shared loghub corpus, relative to this package.
var loghubDir = filepath.Join("..", "..", "..", "shared", "corpus", "loghub2k")

// loghubAvailable reports whether the loghub corpus can be read.
func loghubAvailable() (os.FileInfo, error) { return os.Stat(loghubDir) }

// loghubRaw returns the raw lines of every loghub system (the seven of
// loghub2k and the two of loghub2k-orig), concatenated, or skips the test
// when the corpus is absent.
func loghubRaw(tb testing.TB) [][]byte {
	tb.Helper()
	var lines [][]byte
	orig := filepath.Join(loghubDir, "..", "loghub2k-orig")
	for _, path := range []string{
		filepath.Join(loghubDir, "Apache", "Apache_2k.log"), filepath.Join(loghubDir, "BGL", "BGL_2k.log"),
		filepath.Join(loghubDir, "HDFS", "HDFS_2k.log"), filepath.Join(loghubDir, "Hadoop", "Hadoop_2k.log"),
		filepath.Join(loghubDir, "HealthApp", "HealthApp_2k.log"), filepath.Join(loghubDir, "OpenStack", "OpenStack_2k.log"),
		filepath.Join(loghubDir, "Proxifier", "Proxifier_2k.log"),
		filepath.Join(orig, "Android", "Android_2k.log"), filepath.Join(orig, "Windows", "Windows_2k.log"),
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			testenv.Missing(tb, "loghub corpus (../shared/corpus): %v", err)
		}
		lines = append(lines, bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))...)
	}
	return lines
}

// BenchmarkMinerLoghubRaw measures one-core throughput on the 18,000 raw
// loghub lines, each pass with a fresh Miner. It reports lines/s over all
// passes and lines/s-best for the fastest pass, which is the figure to read
// on a machine shared with other work.
func BenchmarkMinerLoghubRaw(b *testing.B) {
	benchMinerRaw(b, Options{})
}

// BenchmarkMinerLoghubRawNoCluster is BenchmarkMinerLoghubRaw with
// clustering switched off, to measure what clustering costs.
func BenchmarkMinerLoghubRawNoCluster(b *testing.B) {
	benchMinerRaw(b, Options{Off: RuleCluster})
}

func benchMinerRaw(b *testing.B, opts Options) {
	lines := loghubRaw(b)
	var n int64
	for _, l := range lines {
		n += int64(len(l)) + 1
	}
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	best := time.Duration(math.MaxInt64)
	for i := 0; i < b.N; i++ {
		start := time.Now()
		m := NewMiner(opts)
		for _, l := range lines {
			m.Add(l)
		}
		best = min(best, time.Since(start))
	}
	b.ReportMetric(float64(b.N)*float64(len(lines))/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(len(lines))/best.Seconds(), "lines/s-best")
}

// parseInputs are the real logs the logs profile's throughput is measured
// over: the corpus's loghub systems (read in place), the held-out logs of
// ctx bench loghub and the problem logs (bench/testdata, gzipped), and
// logs of this machine (dpkg, apt, alternatives: real logs no rule was
// written from, which change as packages are installed; skipped when
// absent).
var parseInputs = []struct{ name, pattern string }{
	{"loghub", "../../../shared/corpus/loghub2k*/*/*_2k.log"},
	{"heldout", "../../bench/testdata/heldout*/*/*.log.gz"},
	{"problems", "../../bench/testdata/problems/*.log.gz"},
	{"machine", "/var/log/{dpkg,alternatives}.log /var/log/apt/{history,term}.log"},
}

// BenchmarkParse measures the logs profile on one core as ctx run uses it:
// Parse fed one stream of 32 MiB (each input repeated), to its graph.
// cpu-MB/s is the figure issue 21 asks ≥ 150 of.
func BenchmarkParse(b *testing.B) {
	for _, in := range parseInputs {
		b.Run(in.name, func(b *testing.B) {
			data := profiletest.Repeat(readInputs(b, in.pattern), profiletest.BenchSize, nil)
			src := profiletest.MemSource([]string{"cat", "app.log"}, 0, data, nil)
			profiletest.BenchParse(b, Parse, src, func(g *evidence.Graph) bool { return len(g.Items) > 1 })
		})
	}
}

// BenchmarkParseFile is BenchmarkParse on the file CTX_BENCH_LOG names
// (skipped when unset), read from disk as a capture's spool is, not held
// in memory: the process's peak RSS is then the profile's own, with the
// runtime's.
func BenchmarkParseFile(b *testing.B) {
	path := os.Getenv("CTX_BENCH_LOG")
	if path == "" {
		b.Skip("CTX_BENCH_LOG names no log file")
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	head := make([]byte, evidence.HeadSize)
	n, _ := io.ReadFull(f, head)
	f.Close()
	open := func() (io.ReadCloser, error) { return os.Open(path) }
	st := evidence.NewStream("stdout", fi.Size(), 0, head[:n], open)
	src := evidence.NewSource([]string{"cat", "app.log"}, 0, []evidence.Stream{st})
	profiletest.BenchParse(b, Parse, src, func(g *evidence.Graph) bool { return len(g.Items) > 1 })
}

// readInputs reads the files of pattern, which may list several
// space-separated globs with {a,b} alternatives, in order; it skips when
// none is readable.
func readInputs(tb testing.TB, pattern string) []byte {
	tb.Helper()
	var out []byte
	for _, glob := range strings.Fields(pattern) {
		for _, p := range expandBraces(glob) {
			paths, _ := filepath.Glob(p)
			sort.Strings(paths)
			for _, path := range paths {
				if f, err := os.Open(path); err != nil {
					continue // a machine log this user cannot read
				} else {
					f.Close()
				}
				c := profiletest.ReadCapture(tb, path)
				out = append(out, c...)
				if len(c) > 0 && c[len(c)-1] != '\n' {
					out = append(out, '\n')
				}
			}
		}
	}
	if len(out) == 0 {
		tb.Skipf("no readable file matches %s", pattern)
	}
	return out
}

// expandBraces expands one {a,b,…} group of a glob.
func expandBraces(glob string) []string {
	i := strings.IndexByte(glob, '{')
	j := strings.IndexByte(glob, '}')
	if i < 0 || j < i {
		return []string{glob}
	}
	var out []string
	for _, alt := range strings.Split(glob[i+1:j], ",") {
		out = append(out, glob[:i]+alt+glob[j+1:])
	}
	return out
}

// BenchmarkLineChecks measures the per-line checks the profile makes
// beside templating (level and failure) on the raw loghub lines, cleaned,
// on one core; with BenchmarkTemplate it shows where a line's time goes.
func BenchmarkLineChecks(b *testing.B) {
	lines := loghubRaw(b)
	benchLines(b, lines, func(l []byte) { lineWhy(l) })
}

// BenchmarkTemplate measures the tokenizer alone (clean, split, frame,
// classify, context, render) on the raw loghub lines, with the frame each
// system's first lines give.
func BenchmarkTemplate(b *testing.B) {
	lines := loghubRaw(b)
	var t tokenizer
	t.frame = learnFrame(lines[:frameSampleLines], 0)
	benchLines(b, lines, func(l []byte) { t.template(l) })
}

// BenchmarkTemplateFacts is BenchmarkTemplate with the level and failure
// checks made as the profile makes them: read from the words the
// tokenizer recorded (lineFacts), or by level and levelWhy where it
// declines. Beside BenchmarkTemplate and BenchmarkLineChecks it shows what
// the checks cost once fused with the split.
func BenchmarkTemplateFacts(b *testing.B) {
	raw := loghubRaw(b)
	var t tokenizer
	t.frame = learnFrame(raw[:frameSampleLines], 0)
	benchLines(b, raw, func(l []byte) {
		n := t.templates
		t.template(l)
		if _, _, ok := t.lineFacts(l, 0, n); !ok {
			lineWhy(lines.Clean(l))
		}
	})
}

func benchLines(b *testing.B, lines [][]byte, fn func([]byte)) {
	var n int64
	for _, l := range lines {
		n += int64(len(l)) + 1
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			fn(l)
		}
	}
}
