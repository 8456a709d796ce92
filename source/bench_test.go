package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// netHTTP reads the Go files of the standard library's net/http package
// (from GOROOT, about 1.9 MB) for the outline benchmarks.
func netHTTP(b *testing.B) (names []string, srcs [][]byte) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go not installed")
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(goroot)), "src", "net", "http", "*.go"))
	if len(files) == 0 {
		b.Skip("no GOROOT sources")
	}
	var total int64
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		names, srcs = append(names, filepath.Base(f)), append(srcs, src)
		total += int64(len(src))
	}
	b.SetBytes(total)
	return names, srcs
}

// BenchmarkOutlineGo outlines net/http: report MB/s of Go source on one
// core (run with -cpu 1).
func BenchmarkOutlineGo(b *testing.B) {
	names, srcs := netHTTP(b)
	for b.Loop() {
		decls := 0
		for i, src := range srcs {
			decls += len(Parse(names[i], src).Decls)
		}
		if decls < 100 {
			b.Fatalf("only %d declarations in net/http", decls)
		}
	}
}
