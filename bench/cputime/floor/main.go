//go:build linux

// Command floor is the least any implementation of `ctx run -- CMD` must do
// on this machine, for issue 21's start-up floor (BENCHMARKS.md, "Start-up
// floor"): a Go process starts, opens a bbolt database (flock, mmap), runs
// one fsync'd transaction storing a record, gives the command a pseudo-
// terminal (two with -ptys 2: stdout and stderr apart, as ctx keeps them),
// forks and execs it, reads what it prints until it closes the terminal,
// and waits for it. No digest, no spool, no configuration, no generation.
//
//	floor [-ptys 1|2] [-db FILE] CMD ARGS...
//
// It exits with the command's status. Compare it with ctx run through
// bench/cputime/interleave.py.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
	bolt "go.etcd.io/bbolt"
)

func main() {
	ptys := flag.Int("ptys", 2, "pseudo-terminals to give the command: 1 (stdout and stderr on one) or 2")
	db := flag.String("db", ".floor.db", "the bbolt database")
	flag.Parse()
	if flag.NArg() == 0 || *ptys < 1 || *ptys > 2 {
		fmt.Fprintln(os.Stderr, "usage: floor [-ptys 1|2] [-db FILE] CMD ARGS...")
		os.Exit(2)
	}
	code, err := run(*db, *ptys, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(125)
	}
	os.Exit(code)
}

// run captures argv and stores one record of how it ended.
func run(dbPath string, ptys int, argv []string) (int, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var masters []*os.File
	for i := 0; i < ptys; i++ {
		m, s, err := pty.Open()
		if err != nil {
			return 0, fmt.Errorf("open pty: %w", err)
		}
		defer m.Close()
		masters = append(masters, m)
		if i == 0 {
			cmd.Stdout, cmd.Stderr = s, s
		} else {
			cmd.Stderr = s
		}
		defer s.Close()
	}
	// A session of its own with the terminal as its controlling one, as
	// ctx gives a command.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", argv[0], err)
	}
	// The parent's copies of the terminals' other ends are closed, so a
	// read ends (EIO) once the command and its children have closed theirs.
	if f, ok := cmd.Stdout.(*os.File); ok {
		f.Close()
	}
	if f, ok := cmd.Stderr.(*os.File); ok {
		f.Close()
	}
	done := make(chan int64, len(masters))
	for _, m := range masters {
		go func() {
			n, _ := io.Copy(io.Discard, m)
			done <- n
		}()
	}
	var total int64
	for range masters {
		total += <-done
	}
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return 0, err
	}
	return code, store(dbPath, argv, code, total, time.Since(start))
}

// store writes one record in one fsync'd transaction.
func store(path string, argv []string, code int, n int64, took time.Duration) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	return db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("runs"))
		if err != nil {
			return err
		}
		key := fmt.Appendf(nil, "%020d", time.Now().UnixNano())
		return b.Put(key, fmt.Appendf(nil, "%q exit %d bytes %d took %v", argv, code, n, took))
	})
}
