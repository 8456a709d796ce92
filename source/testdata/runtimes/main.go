// Command runtimes times `ctx-BUILD ARGS...` for several builds interleaved
// (BUILDS=a,b ROUNDS=n PER=m; binaries at $BIN/ctx-BUILD, BIN=/tmp/i15 by
// default, a store per build), reporting wall and user+sys medians: the start-up figures of
// BENCHMARKS.md, issue 15. go run ./source/testdata/runtimes run -- true
package main

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	rounds, _ := strconv.Atoi(os.Getenv("ROUNDS"))
	per, _ := strconv.Atoi(os.Getenv("PER"))
	builds := strings.Split(os.Getenv("BUILDS"), ",")
	args := os.Args[1:]
	bin := os.Getenv("BIN")
	if bin == "" {
		bin = "/tmp/i15"
	}
	wall := map[string][]float64{}
	cpu := map[string][]float64{}
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
			}
		}
	}
	for _, b := range builds {
		fmt.Printf("%-10s wall %s | cpu %s\n", b, stat(wall[b]), stat(cpu[b]))
	}
}

func stat(v []float64) string {
	sort.Float64s(v)
	q := func(p float64) float64 { return v[int(p*float64(len(v)-1))] }
	return fmt.Sprintf("median %.2f ms (p25 %.2f, p75 %.2f, n %d)", q(.5), q(.25), q(.75), len(v))
}
