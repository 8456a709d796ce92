//go:build unix

package digest

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/store"
)

// memSpool is a spooled stream in memory, sized for the whole output so a
// write never moves what the parse reads.
type memSpool struct {
	buf []byte
	n   int
}

func (m *memSpool) Write(p []byte) (int, error) { m.n += copy(m.buf[m.n:], p); return len(p), nil }

func (m *memSpool) ReadAt(p []byte, off int64) (int, error) {
	n := copy(p, m.buf[off:m.n])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// BenchmarkLive compares the parse a capture runs alongside (Live: the
// output written through the taps in 64 KiB writes, read back by the parse
// as it grows, the heads handed over, the result waited for) with the same
// profile chain over the whole output in memory, to show what the live path
// adds per chunk. The output is 32 MiB of real go test -json output and of
// the shared corpus's logs.
func BenchmarkLive(b *testing.B) {
	for _, c := range []struct {
		name, path, force string
		argv              []string
	}{
		{"gotest-json", "../profiles/gotest/testdata/bench/stdlib-json.txt.gz", "", []string{"go", "test", "-json", "./..."}},
		{"text-loghub", "../../shared/corpus/loghub2k/*/*_2k.log", "text", []string{"cat", "app.log"}},
	} {
		one := readInputs(b, c.path)
		data := bytes.Repeat(one, (32<<20)/len(one)+1)
		lines := evidence.CountLines(data) // Prepare's count, not the parse's work
		b.Run(c.name+"/live", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			defer reportCPU(b, len(data))()
			for b.Loop() {
				if g := liveParse(data, lines, c.argv, c.force); g == nil {
					b.Fatal("the live parse did not count")
				}
			}
		})
		b.Run(c.name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			stream := evidence.NewStream(evidence.Stdout, int64(len(data)), evidence.CountLines(data), data[:evidence.HeadSize],
				func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
			empty := evidence.NewStream(evidence.Stderr, 0, 0, nil, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(nil)), nil })
			src := evidence.NewSource(c.argv, 0, []evidence.Stream{stream, empty})
			defer reportCPU(b, len(data))()
			for b.Loop() {
				if _, err := profiles.Extract(context.Background(), src, c.force); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// liveParse writes data (of n lines) as stdout through a Live's taps in 64
// KiB writes, settles it and returns the graph of the parse that ran
// alongside. The copy into the spool stands for the capture's own write.
func liveParse(data []byte, n int, argv []string, force string) *evidence.Graph {
	l := NewLive(argv, force, 1<<40)
	out, errs := &memSpool{buf: make([]byte, len(data))}, &memSpool{}
	w := l.Tap(0, out)
	l.Tap(1, errs)
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 64<<10)
		w.Write(rest[:n])
		rest = rest[n:]
	}
	l.Settle(store.Manifest{Argv: argv, Exit: 0,
		Stdout: store.StreamRef{Size: int64(len(data)), Lines: int64(n)}})
	return l.graph()
}

// readInputs reads (gunzipping .gz) and concatenates the files pattern
// matches.
func readInputs(b *testing.B, pattern string) []byte {
	paths, _ := filepath.Glob(pattern)
	if len(paths) == 0 {
		b.Skipf("no file matches %s", pattern)
	}
	var out []byte
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if filepath.Ext(p) == ".gz" {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				b.Fatal(err)
			}
			if raw, err = io.ReadAll(zr); err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, raw...)
	}
	return out
}

// reportCPU reports, when the returned function runs, the bytes parsed per
// second of the process's CPU time since reportCPU was called (the taps'
// writes and the parse's goroutine both count).
func reportCPU(b *testing.B, size int) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		if d := cpu() - start; d > 0 {
			b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "cpu-MB/s")
		}
	}
}
