package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/ctxhq/ctx/store"
)

// ScaleOptions configure the store-scaling benchmark.
type ScaleOptions struct {
	Ctx     string
	Runs    int // timings of each side, alternating
	Stored  int // runs in the large store
	Scratch string
}

// ScaleCommand is one command timed against a store of one run and against
// the large store, alternating, in wall and CPU time (user + system of the
// process: less disturbed by a loaded machine than wall time).
type ScaleCommand struct {
	Command     string  `json:"command"`
	Small       Stat    `json:"small_store"`
	Large       Stat    `json:"large_store"`
	SmallCPU    Stat    `json:"small_store_cpu"`
	LargeCPU    Stat    `json:"large_store_cpu"`
	Ratio       float64 `json:"ratio"`     // large/small, medians of wall time
	CPURatio    float64 `json:"cpu_ratio"` // large/small, medians of CPU time
	SmallStored int     `json:"small_runs"`
	LargeStored int     `json:"large_runs"`
}

// ScaleResult is how ctx's everyday commands grow with the store.
type ScaleResult struct {
	Stored     int            `json:"stored_runs"`
	GenerateMS float64        `json:"generate_ms"`
	DBBytes    int64          `json:"db_bytes"`
	Commands   []ScaleCommand `json:"commands"`
}

// RunScale builds a store of o.Stored distinct runs (each `echo N` with its
// output, stored through the same spool, prepare and commit path as ctx run,
// with fsync off while generating) and a store of one, then times `ctx run --
// true`, `ctx ls` and `ctx get` of a run handle by its short prefix against
// each.
func RunScale(ctx context.Context, o ScaleOptions) (*ScaleResult, error) {
	small := filepath.Join(o.Scratch, "scale-small")
	large := filepath.Join(o.Scratch, "scale-large")
	defer os.RemoveAll(small)
	defer os.RemoveAll(large)
	res := &ScaleResult{Stored: o.Stored}
	first, err := GenerateRuns(small, 1)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	mid, err := generateElsewhere(large, o.Stored)
	if err != nil {
		return nil, err
	}
	res.GenerateMS = ms(time.Since(start))
	if fi, err := os.Stat(filepath.Join(large, "store.db")); err == nil {
		res.DBBytes = fi.Size()
	}
	commands := []struct {
		name string
		args func(string) []string
	}{
		{"ctx run -- true", func(string) []string { return []string{"run", "--", "true"} }},
		{"ctx ls", func(string) []string { return []string{"ls"} }},
		{"ctx get run:PREFIX (handle resolution)", func(dir string) []string {
			if dir == large {
				return []string{"get", mid}
			}
			return []string{"get", first}
		}},
	}
	for _, c := range commands {
		var sc [2]Sample
		var cpu [2]Sample
		side := func(i int, dir string) func() (time.Duration, error) {
			return func() (time.Duration, error) {
				w, u, err := timeCPU(ctx, o.Ctx, c.args(dir), []string{"CTX_STORE=" + dir, "CTX_SESSION="})
				cpu[i] = append(cpu[i], u)
				return w, err
			}
		}
		// A first call each, untimed: page cache and the store's schema.
		if _, err := side(0, small)(); err != nil {
			return nil, err
		}
		if _, err := side(1, large)(); err != nil {
			return nil, err
		}
		cpu = [2]Sample{}
		var err error
		if sc[0], sc[1], err = alternate(o.Runs, side(0, small), side(1, large)); err != nil {
			return nil, err
		}
		r := ScaleCommand{Command: c.name, Small: sc[0].Stat(), Large: sc[1].Stat(), SmallCPU: cpu[0].Stat(), LargeCPU: cpu[1].Stat(),
			SmallStored: 1, LargeStored: o.Stored}
		r.Ratio = float64(sc[1].Median()) / float64(sc[0].Median())
		r.CPURatio = float64(cpu[1].Median()) / float64(cpu[0].Median())
		res.Commands = append(res.Commands, r)
	}
	return res, nil
}

// GenerateRuns stores n distinct runs (`echo 0` … `echo N-1`, each with its
// one line of output) in the store at dir, creating it if needed, and
// returns the short handle of the middle one.
func GenerateRuns(dir string, n int) (string, error) {
	st, err := store.Open(store.Location{Dir: dir, Root: filepath.Dir(dir)}, true)
	if err != nil {
		return "", err
	}
	defer st.Close()
	restore := st.Unsynced()
	defer restore()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mid string
	for i := range n {
		argv := []string{"echo", strconv.Itoa(i)}
		started := t0.Add(time.Duration(i) * time.Millisecond)
		sp, err := st.NewSpool(store.SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Started: started})
		if err != nil {
			return "", err
		}
		w, err := sp.Stream("stdout")
		if err != nil {
			sp.Abort()
			return "", err
		}
		if _, err := io.WriteString(w, argv[1]+"\n"); err != nil {
			sp.Abort()
			return "", err
		}
		p, err := st.Prepare(sp, store.Manifest{Argv: argv, Dir: ".", Mode: "pipe", Status: store.StatusExited})
		if err != nil {
			sp.Abort()
			return "", err
		}
		run, err := st.Commit(p, store.Exec{Argv: argv, Start: started, Duration: time.Millisecond, Version: "bench"}, nil)
		if err != nil {
			return "", fmt.Errorf("store generated run %d: %w", i, err)
		}
		if i == n/2 {
			mid = run.Handle()
		}
	}
	return mid, nil
}

// generateElsewhere generates the runs in a memory-backed directory when
// there is one (/dev/shm) and copies the finished store to dir: a store of
// 100,000 runs made through the spool creates and removes 700,000 files, and
// on ext4 each creation then scans past the recently deleted inodes, which
// would make generating it take most of an hour. The timings read the copy.
func generateElsewhere(dir string, n int) (string, error) {
	tmp, err := os.MkdirTemp("/dev/shm", "ctx-bench-scale-")
	if err != nil {
		return GenerateRuns(dir, n)
	}
	defer os.RemoveAll(tmp)
	gen := filepath.Join(tmp, "store")
	mid, err := GenerateRuns(gen, n)
	if err != nil {
		return "", err
	}
	return mid, os.CopyFS(dir, os.DirFS(gen))
}

// timeCPU runs a command to completion with its output discarded and returns
// its wall time and its CPU time (user and system).
func timeCPU(ctx context.Context, bin string, args, env []string) (wall, cpu time.Duration, err error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), "CTX_NO_COMPACT=1"), env...)
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 && ee.ExitCode() < 124 {
			return wall, cpu, nil // the command's own failure is still a timing
		}
		return wall, cpu, fmt.Errorf("%s %s: %v: %s", bin, strings.Join(args, " "), err, stderr.String())
	}
	return wall, cpu, nil
}

// WriteText prints the scaling figures.
func (r *ScaleResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "generated\t%d runs in %.1f s (store.db %.1f MiB)\n", r.Stored, r.GenerateMS/1000, float64(r.DBBytes)/(1<<20))
	for _, c := range r.Commands {
		fmt.Fprintf(tw, "%s\t1 run: median %.2f ms ±%.2f (cpu %.2f ms)\t%d runs: median %.2f ms ±%.2f (cpu %.2f ms)\tratio %.3f (cpu %.3f)\n",
			c.Command, c.Small.MedianMS, c.Small.IQRMS, c.SmallCPU.MedianMS, c.LargeStored, c.Large.MedianMS, c.Large.IQRMS, c.LargeCPU.MedianMS, c.Ratio, c.CPURatio)
	}
	return tw.Flush()
}
