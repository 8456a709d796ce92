// Command runtimes times `ctx-BUILD ARGS...` for several builds interleaved
// (BUILDS=a,b ROUNDS=n PER=m; binaries at $BIN/ctx-BUILD, BIN=/tmp/i15 by
// default, a store per build), reporting wall and user+sys medians: the start-up figures of
// BENCHMARKS.md, issue 15. go run ./source/testdata/runtimes run -- true
//
// It makes itself the child subreaper, so what a ctx leaves running
// detached (a late generation) is reaped here and its CPU counted with the
// build that left it ("detached"). PAUSE_MS sleeps between runs (an
// agent's commands are rarely back to back).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// reap collects orphans that have ended (all of them when block), adding
// their user+sys time in ms to *cpu.
func reap(cpu *float64, block bool) {
	for {
		var ru syscall.Rusage
		var ws syscall.WaitStatus
		opt := syscall.WNOHANG
		if block {
			opt = 0
		}
		pid, err := syscall.Wait4(-1, &ws, opt, &ru)
		if pid <= 0 || err != nil {
			return
		}
		*cpu += float64((time.Duration(ru.Utime.Nano()) + time.Duration(ru.Stime.Nano())).Microseconds()) / 1000
	}
}

func main() {
	rounds, _ := strconv.Atoi(os.Getenv("ROUNDS"))
	per, _ := strconv.Atoi(os.Getenv("PER"))
	builds := strings.Split(os.Getenv("BUILDS"), ",")
	args := os.Args[1:]
	bin := os.Getenv("BIN")
	if bin == "" {
		bin = "/tmp/i15"
	}
	pause, _ := strconv.Atoi(os.Getenv("PAUSE_MS"))
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0); e != 0 {
		fmt.Println("prctl:", e)
		os.Exit(1)
	}
	wall := map[string][]float64{}
	cpu := map[string][]float64{}
	detached := map[string]*float64{}
	for _, b := range builds {
		detached[b] = new(float64)
	}
	for r := 0; r < rounds; r++ {
		for _, b := range builds {
			for i := 0; i < per; i++ {
				c := exec.Command(bin+"/ctx-"+b, args...)
				c.Env = append(os.Environ(), "CTX_STORE="+bin+"/st-"+b)
				t := time.Now()
				if out, err := c.CombinedOutput(); err != nil {
					fmt.Println(b, err, string(out))
					os.Exit(1)
				}
				wall[b] = append(wall[b], float64(time.Since(t).Microseconds())/1000)
				cpu[b] = append(cpu[b], float64((c.ProcessState.UserTime()+c.ProcessState.SystemTime()).Microseconds())/1000)
				time.Sleep(time.Duration(pause) * time.Millisecond)
				reap(detached[b], false)
			}
			reap(detached[b], true) // before the next build runs
		}
	}
	for _, b := range builds {
		fmt.Printf("%-10s wall %s | cpu %s | detached cpu %.2f ms per run\n", b, stat(wall[b]), stat(cpu[b]), *detached[b]/float64(len(cpu[b])))
	}
}

func stat(v []float64) string {
	sort.Float64s(v)
	q := func(p float64) float64 { return v[int(p*float64(len(v)-1))] }
	return fmt.Sprintf("median %.2f ms (p25 %.2f, p75 %.2f, n %d)", q(.5), q(.25), q(.75), len(v))
}
