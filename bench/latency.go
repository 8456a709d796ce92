package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// LatencyOptions configure the latency benchmark.
type LatencyOptions struct {
	Ctx     string
	Runs    int
	GetSize int64 // size of the stored output `ctx get` reads from (0 skips)
	Scratch string
}

// LatencyResult is start-up overhead and retrieval time.
type LatencyResult struct {
	True     Stat    `json:"bare_true"`
	CtxTrue  Stat    `json:"ctx_run_true"`
	Overhead float64 `json:"overhead_ms"` // median difference
	GetBytes int64   `json:"get_stored_bytes,omitempty"`
	GetLines string  `json:"get_lines,omitempty"`
	Get      *Stat   `json:"ctx_get,omitempty"`
	// GetOverVersion is the median of ctx get less the median of ctx
	// version, measured alternately.
	GetOverVersion float64 `json:"ctx_get_over_version_ms,omitempty"`
	Version        Stat    `json:"ctx_version"` // process start-up alone, for reference
	// Hook is the wall time of `ctx hook claude pre-tool-use` answering a
	// rewrite: what an agent host adds before each shell command.
	Hook Stat `json:"hook"`
}

// RunLatency measures `ctx run -- true` against bare `true`, and `ctx get` of
// 13 lines from the middle of a large stored output.
func RunLatency(ctx context.Context, o LatencyOptions) (*LatencyResult, error) {
	dir := filepath.Join(o.Scratch, "latency")
	defer os.RemoveAll(dir)
	env := []string{"CTX_STORE=" + dir, "CTX_SESSION="}
	truePath, err := exec.LookPath("true")
	if err != nil {
		return nil, err
	}
	// Warm the store and the page cache.
	if _, err := timeCmd(ctx, o.Ctx, []string{"run", "--", "true"}, env); err != nil {
		return nil, err
	}
	bare := func() (time.Duration, error) { return timeCmd(ctx, truePath, nil, nil) }
	wrapped := func() (time.Duration, error) { return timeCmd(ctx, o.Ctx, []string{"run", "--", "true"}, env) }
	sb, sc, err := alternate(o.Runs, bare, wrapped)
	if err != nil {
		return nil, err
	}
	ver, _, err := alternate(o.Runs, func() (time.Duration, error) { return timeCmd(ctx, o.Ctx, []string{"version"}, nil) },
		func() (time.Duration, error) { return 0, nil })
	if err != nil {
		return nil, err
	}
	payload := `{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd sub && go test ./... 2>&1","description":"tests"}}`
	hook, _, err := alternate(o.Runs, func() (time.Duration, error) {
		cmd := exec.CommandContext(ctx, o.Ctx, "hook", "claude", "pre-tool-use")
		cmd.Stdin = strings.NewReader(payload)
		var out strings.Builder
		cmd.Stdout = &out
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err == nil && !strings.Contains(out.String(), "ctx run --") {
			err = fmt.Errorf("the hook did not rewrite the command: %q", out.String())
		}
		return d, err
	}, func() (time.Duration, error) { return 0, nil })
	if err != nil {
		return nil, err
	}
	res := &LatencyResult{True: sb.Stat(), CtxTrue: sc.Stat(), Version: ver.Stat(), Hook: hook.Stat()}
	res.Overhead = res.CtxTrue.MedianMS - res.True.MedianMS
	if o.GetSize > 0 {
		n := seqFor(o.GetSize)
		// In the benchmark's own store, which ctx get then reads: not the
		// working directory's, found through the index of stores.
		store := exec.CommandContext(ctx, o.Ctx, "run", "--pipe", "--json", "--max-output", "4G", "--", "seq", "1", strconv.FormatInt(n, 10))
		store.Env = append(os.Environ(), append(env, "CTX_NO_COMPACT=1")...)
		out, err := store.Output()
		if err != nil {
			return nil, fmt.Errorf("store a large output: %w", err)
		}
		// Read it as it is stored for good: recompressed, not as the flood
		// was captured.
		if _, err := timeCmd(ctx, o.Ctx, []string{"compact"}, env); err != nil {
			return nil, err
		}
		var run struct {
			Run string `json:"run"`
		}
		if err := json.Unmarshal(out, &run); err != nil {
			return nil, err
		}
		mid := n / 2
		h := fmt.Sprintf("%s#stdout:L%d-%d", run.Run, mid, mid+12)
		// Alternated with ctx version, so the difference is retrieval alone.
		gs, vs, err := alternate(o.Runs, func() (time.Duration, error) { return timeCmd(ctx, o.Ctx, []string{"get", h}, env) },
			func() (time.Duration, error) { return timeCmd(ctx, o.Ctx, []string{"version"}, nil) })
		if err != nil {
			return nil, err
		}
		st := gs.Stat()
		res.Get, res.GetBytes, res.GetLines = &st, seqBytes(n), h
		res.GetOverVersion = ms(gs.Median() - vs.Median())
	}
	return res, nil
}

// WriteText prints the latency figures.
func (r *LatencyResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "true\tmedian %.2f ms ±%.2f (n=%d)\n", r.True.MedianMS, r.True.IQRMS, r.True.N)
	fmt.Fprintf(tw, "ctx run -- true\tmedian %.2f ms ±%.2f (n=%d)\n", r.CtxTrue.MedianMS, r.CtxTrue.IQRMS, r.CtxTrue.N)
	fmt.Fprintf(tw, "start-up overhead\t%.2f ms\n", r.Overhead)
	fmt.Fprintf(tw, "ctx version\tmedian %.2f ms (process start-up alone)\n", r.Version.MedianMS)
	fmt.Fprintf(tw, "ctx hook claude pre-tool-use\tmedian %.2f ms ±%.2f (a rewrite; what a host adds per command)\n", r.Hook.MedianMS, r.Hook.IQRMS)
	if r.Get != nil {
		fmt.Fprintf(tw, "ctx get 13 lines\tmedian %.2f ms ±%.2f from a %.1f MiB stored output (%s); %.2f ms over ctx version\n", r.Get.MedianMS, r.Get.IQRMS, float64(r.GetBytes)/(1<<20), r.GetLines, r.GetOverVersion)
	}
	return tw.Flush()
}
