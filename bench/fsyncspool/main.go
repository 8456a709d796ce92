//go:build linux

// Command fsyncspool measures what fsync of a large raw spool costs, with
// and without writeback started while it is written (sync_file_range every
// 4 MiB, as the spool does), for issue 21's section of BENCHMARKS.md:
//
//	go run ./bench/fsyncspool SIZE wb|nowb FILE
//
// It writes SIZE bytes in 1 MiB blocks to FILE, fsyncs it, prints the wall
// and CPU time of both phases, and removes FILE.
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: fsyncspool SIZE wb|nowb FILE")
		os.Exit(2)
	}
	size, _ := strconv.ParseInt(os.Args[1], 10, 64)
	wb := os.Args[2] == "wb"
	f, err := os.OpenFile(os.Args[3], os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte('0' + i%10)
	}
	var ru0, ru1, ru2 syscall.Rusage
	syscall.Getrusage(0, &ru0)
	t0 := time.Now()
	var off, synced int64
	for off < size {
		n, _ := f.Write(buf)
		off += int64(n)
		if wb && off-synced >= 4<<20 {
			syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, f.Fd(), uintptr(synced), uintptr(off-synced), 2, 0, 0)
			synced = off
		}
	}
	t1 := time.Now()
	syscall.Getrusage(0, &ru1)
	if err := f.Sync(); err != nil {
		panic(err)
	}
	t2 := time.Now()
	syscall.Getrusage(0, &ru2)
	cpu := func(a, b syscall.Rusage) float64 {
		return float64(b.Utime.Nano()+b.Stime.Nano()-a.Utime.Nano()-a.Stime.Nano()) / 1e6
	}
	fmt.Printf("%d MiB writeback=%v: write %.0f ms (cpu %.0f ms), fsync %.0f ms (cpu %.0f ms)\n", size>>20, wb, float64(t1.Sub(t0).Microseconds())/1e3, cpu(ru0, ru1), float64(t2.Sub(t1).Microseconds())/1e3, cpu(ru1, ru2))
	f.Close()
	os.Remove(os.Args[3])
}
