package logs

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ctxhq/ctx/internal/testenv"
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
