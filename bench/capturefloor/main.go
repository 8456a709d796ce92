//go:build linux

// Command capturefloor is the floor under ctx's pipe capture, for issue 21's
// capture rows in BENCHMARKS.md: a bare reader of a command's stdout (read
// as `ctx bench reader` reads it, 256 KiB at a time from a plain pipe) that
// does only the steps its flags name of what a durable capture must do with
// every byte:
//
//	capturefloor [-write FILE] [-wb] [-fsync] [-hash] -- ARGV...
//
// -write appends each read to FILE (the raw spool's one copy into the page
// cache), -wb starts that file's writeback every 4 MiB from a goroutine of
// its own (as the spool does), -fsync syncs it once the command has ended
// (the commit's durability), -hash hashes the stream with BLAKE3 (the
// content address) on the reading goroutine. With no flag it is the bare
// reader. It prints nothing; capture.py times it beside ctx.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/ctxhq/ctx/internal/blake3"
)

func main() {
	file := flag.String("write", "", "append the output to this file")
	wb := flag.Bool("wb", false, "start the file's writeback every 4 MiB")
	sync := flag.Bool("fsync", false, "fsync the file at the end")
	hash := flag.Bool("hash", false, "hash the output with BLAKE3")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: capturefloor [-write FILE] [-wb] [-fsync] [-hash] -- ARGV...")
		os.Exit(2)
	}
	if err := run(flag.Args(), *file, *wb, *sync, *hash); err != nil {
		fmt.Fprintln(os.Stderr, "capturefloor:", err)
		os.Exit(1)
	}
}

func run(argv []string, file string, wb, sync, hash bool) error {
	var out *os.File
	if file != "" {
		var err error
		if out, err = os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err != nil {
			return err
		}
		defer out.Close()
	}
	var h *blake3.Hasher
	if hash {
		h = blake3.New()
	}
	var back *writeback
	if wb && out != nil {
		back = startWriteback(out)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer pr.Close()
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		return err
	}
	pw.Close()
	buf := make([]byte, 256<<10)
	var total int64
	for {
		n, err := pr.Read(buf)
		if n > 0 {
			if out != nil {
				if _, err := out.Write(buf[:n]); err != nil {
					return err
				}
			}
			if h != nil {
				_, _ = h.Write(buf[:n])
			}
			total += int64(n)
			back.advance(total)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if err := cmd.Wait(); err != nil {
		return err
	}
	back.stop()
	if sync && out != nil {
		return out.Sync()
	}
	return nil
}

// writeback starts a file's writeback every 4 MiB on its own goroutine.
type writeback struct {
	target atomic.Int64
	wake   chan struct{}
	done   chan struct{}
}

func startWriteback(f *os.File) *writeback {
	w := &writeback{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		var started int64
		for range w.wake {
			if end := w.target.Load(); end-started >= 4<<20 {
				_ = unix.SyncFileRange(int(f.Fd()), started, end-started, unix.SYNC_FILE_RANGE_WRITE)
				started = end
			}
		}
	}()
	return w
}

func (w *writeback) advance(end int64) {
	if w == nil {
		return
	}
	w.target.Store(end)
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *writeback) stop() {
	if w != nil {
		close(w.wake)
		<-w.done
	}
}
