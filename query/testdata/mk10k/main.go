// Command mk10k appends N executions of `true` (empty output) to the store
// of DIR (go run ./query/testdata/mk10k DIR N), the store behind the
// "ctx q over 10,000 runs" figure of BENCHMARKS.md (issue 15),
// recorded as N × `ctx run -- true` would record them, in one process.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ctxhq/ctx/store"
)

func main() {
	dir := os.Args[1]
	n, _ := strconv.Atoi(os.Args[2])
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, true)
	if err != nil {
		panic(err)
	}
	defer st.Close()
	gen := &store.Generation{ID: "0123456789abcdef", Head: "0000000000000000000000000000000000000000"}
	for i := 0; i < n; i++ {
		sp, err := st.NewSpool(store.SpoolMeta{Argv: []string{"true"}, Dir: ".", Mode: "pty", Started: time.Now(), Cap: 1 << 30})
		if err != nil {
			panic(err)
		}
		m := store.Manifest{Argv: []string{"true"}, Dir: ".", Mode: "pty", Exit: 0, Status: "exited"}
		if _, err := st.CommitSpool(sp, m, store.Exec{Argv: []string{"true"}, Start: time.Now(), Generation: gen}); err != nil {
			panic(err)
		}
		sp.Release()
	}
	fmt.Println("ok", n)
}
