//go:build linux

package source

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// cpuPerOp reports the CPU time (user + system) of the process (who
// RUSAGE_SELF) or its waited-for children (RUSAGE_CHILDREN) per
// iteration from start, as cpu-us/op: under load ns/op is mostly waiting.
func cpuPerOp(b *testing.B, who int, start func() float64) {
	b.ReportMetric((cpuNow(who)-start())/float64(b.N), "cpu-us/op")
}

func cpuNow(who int) float64 {
	var ru syscall.Rusage
	syscall.Getrusage(who, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e3
}

// benchTree is the committed work tree named by CTX_BENCH_TREE (its store
// at .ctx), for the costs of a watch, a stamp and git status in a tree of
// one's choosing; skipped without it.
func benchTree(b *testing.B) (root, store string) {
	root = os.Getenv("CTX_BENCH_TREE")
	if root == "" {
		b.Skip("CTX_BENCH_TREE names no work tree")
	}
	return root, filepath.Join(root, ".ctx")
}

// BenchmarkWatchTree: setting up (and closing) the watch of the tree, once
// per sequence.
func BenchmarkWatchTree(b *testing.B) {
	root, store := benchTree(b)
	var closing float64
	begin := cpuNow(syscall.RUSAGE_SELF)
	defer cpuPerOp(b, syscall.RUSAGE_SELF, func() float64 { return begin + closing })
	for b.Loop() {
		w := WatchTree(root, store)
		if w == nil {
			b.Fatal("no watch")
		}
		b.StopTimer()
		c := cpuNow(syscall.RUSAGE_SELF)
		w.Close() // the kernel's release of the marks is the exit's
		closing += cpuNow(syscall.RUSAGE_SELF) - c
		b.StartTimer()
	}
}

// BenchmarkWatchChanged: a step's look at an unchanged tree's watch.
func BenchmarkWatchChanged(b *testing.B) {
	root, store := benchTree(b)
	w := WatchTree(root, store)
	if w == nil {
		b.Fatal("no watch")
	}
	defer w.Close()
	begin := cpuNow(syscall.RUSAGE_SELF)
	defer cpuPerOp(b, syscall.RUSAGE_SELF, func() float64 { return begin })
	for b.Loop() {
		if w.Changed() {
			b.Fatal("changed")
		}
	}
}

// BenchmarkTakeStamp: a step's stamp (nil past a stamp's bound).
func BenchmarkTakeStamp(b *testing.B) {
	root, store := benchTree(b)
	begin := cpuNow(syscall.RUSAGE_SELF)
	defer cpuPerOp(b, syscall.RUSAGE_SELF, func() float64 { return begin })
	for b.Loop() {
		TakeStamp(root, store)
	}
}

// BenchmarkGitStatus: the generation's git status, cpu-us/op the git
// process's.
func BenchmarkGitStatus(b *testing.B) {
	root, _ := benchTree(b)
	begin := cpuNow(syscall.RUSAGE_CHILDREN)
	defer cpuPerOp(b, syscall.RUSAGE_CHILDREN, func() float64 { return begin })
	for b.Loop() {
		if _, err := Current(context.Background(), root, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRestamp: a later step's stamp, after the first (nil past a
// stamp's bound).
func BenchmarkRestamp(b *testing.B) {
	root, store := benchTree(b)
	first := TakeStamp(root, store)
	begin := cpuNow(syscall.RUSAGE_SELF)
	defer cpuPerOp(b, syscall.RUSAGE_SELF, func() float64 { return begin })
	for b.Loop() {
		Restamp(first, root, store)
	}
}
