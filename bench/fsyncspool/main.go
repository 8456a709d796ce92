//go:build linux

// Command fsyncspool measures what fsync of a large raw spool costs, with
// and without writeback started while it is written (sync_file_range every
// 4 MiB, as the spool does), for issue 21's section of BENCHMARKS.md:
//
//	go run ./bench/fsyncspool SIZE wb|nowb|release FILE
//
// It writes SIZE bytes in 1 MiB blocks to FILE, fsyncs it, prints the wall
// and CPU time of both phases, and removes FILE. release is wb that also
// waits for what lies 64 MiB behind and drops those pages from the page
// cache (POSIX_FADV_DONTNEED), as the spool does for what the live parse
// has read: the writes that follow reuse the released pages.
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
		fmt.Fprintln(os.Stderr, "usage: fsyncspool SIZE wb|nowb|release FILE")
		os.Exit(2)
	}
	size, _ := strconv.ParseInt(os.Args[1], 10, 64)
	release := os.Args[2] == "release"
	wb := os.Args[2] == "wb" || release
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
	var off, synced, waited int64
	for off < size {
		n, _ := f.Write(buf)
		off += int64(n)
		if wb && off-synced >= 4<<20 {
			syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, f.Fd(), uintptr(synced), uintptr(off-synced), 2, 0, 0)
			synced = off
		}
		if old := synced - 64<<20; release && old > waited {
			// SYNC_FILE_RANGE_WAIT_BEFORE|WRITE|WAIT_AFTER, then drop.
			syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, f.Fd(), uintptr(waited), uintptr(old-waited), 7, 0, 0)
			syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), uintptr(waited), uintptr(old-waited), 4, 0, 0) // POSIX_FADV_DONTNEED
			waited = old
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
	fmt.Printf("%d MiB %s: write %.0f ms (cpu %.0f ms), fsync %.0f ms (cpu %.0f ms)\n", size>>20, os.Args[2], float64(t1.Sub(t0).Microseconds())/1e3, cpu(ru0, ru1), float64(t2.Sub(t1).Microseconds())/1e3, cpu(ru1, ru2))
	f.Close()
	os.Remove(os.Args[3])
}
