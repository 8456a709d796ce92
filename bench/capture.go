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
)

// seqFor returns N such that `seq 1 N` writes about size bytes.
func seqFor(size int64) int64 {
	var total, n int64
	for digits, lo := int64(1), int64(1); ; digits, lo = digits+1, lo*10 {
		hi := lo*10 - 1
		per := digits + 1
		if total+(hi-lo+1)*per >= size {
			return n + (size-total)/per
		}
		total += (hi - lo + 1) * per
		n = hi
	}
}

// seqBytes is the exact output size of `seq 1 N`.
func seqBytes(n int64) int64 {
	var total int64
	for digits, lo := int64(1), int64(1); lo <= n; digits, lo = digits+1, lo*10 {
		hi := min(lo*10-1, n)
		total += (hi - lo + 1) * (digits + 1)
	}
	return total
}

// CaptureOptions configure the capture benchmark.
type CaptureOptions struct {
	Ctx     string // the ctx binary to measure
	Size    int64  // output size for the throughput runs
	RSSSize int64  // output size for the peak-memory run (0 skips it)
	Runs    int    // alternations per mode
	Scratch string // a directory for throw-away stores
}

// CaptureResult is the throughput and memory of ctx run against bare readers.
type CaptureResult struct {
	Bytes    int64      `json:"bytes"`
	Command  string     `json:"command"`
	Pipe     ModeResult `json:"pipe"`
	Pty      ModeResult `json:"pty"`
	RSSBytes int64      `json:"rss_bytes,omitempty"` // output size of the memory run
	PeakRSS  int64      `json:"peak_rss_kib,omitempty"`
	// The memory run's store before and after the background compaction, and
	// how long that took.
	StoredBefore int64   `json:"stored_before_compaction,omitempty"`
	StoredAfter  int64   `json:"stored_after_compaction,omitempty"`
	CompactMS    float64 `json:"compaction_ms,omitempty"`
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// ModeResult compares one capture mode.
type ModeResult struct {
	Bare     Stat    `json:"bare"`
	Ctx      Stat    `json:"ctx"`
	BareMBps float64 `json:"bare_mb_s"`
	CtxMBps  float64 `json:"ctx_mb_s"`
	Ratio    float64 `json:"ratio"` // ctx throughput / bare throughput (medians)
}

// RunCapture measures ctx run's capture throughput in pipe and pty mode as a
// ratio to a bare reader of the same command, and ctx run's peak RSS.
func RunCapture(ctx context.Context, o CaptureOptions) (*CaptureResult, error) {
	n := seqFor(o.Size)
	argv := []string{"seq", "1", strconv.FormatInt(n, 10)}
	res := &CaptureResult{Bytes: seqBytes(n), Command: strings.Join(argv, " ")}
	for _, mode := range []string{"pipe", "pty"} {
		bare := func() (time.Duration, error) {
			args := []string{"bench", "reader"}
			if mode == "pty" {
				args = append(args, "--pty")
			}
			return timeCmd(ctx, o.Ctx, append(append(args, "--"), argv...), nil)
		}
		i := 0
		run := func() (time.Duration, error) {
			i++
			dir := filepath.Join(o.Scratch, fmt.Sprintf("cap-%s-%d", mode, i))
			defer os.RemoveAll(dir)
			args := []string{"run", "--max-output", "4G"}
			if mode == "pipe" {
				args = append(args, "--pipe")
			}
			return timeCmd(ctx, o.Ctx, append(append(args, "--"), argv...), []string{"CTX_STORE=" + dir})
		}
		sb, sc, err := alternate(o.Runs, bare, run)
		if err != nil {
			return nil, err
		}
		mr := ModeResult{Bare: sb.Stat(), Ctx: sc.Stat(), BareMBps: mbps(res.Bytes, sb.Median()), CtxMBps: mbps(res.Bytes, sc.Median())}
		mr.Ratio = float64(sb.Median()) / float64(sc.Median())
		if mode == "pipe" {
			res.Pipe = mr
		} else {
			res.Pty = mr
		}
	}
	if o.RSSSize > 0 {
		n := seqFor(o.RSSSize)
		dir := filepath.Join(o.Scratch, "rss")
		defer os.RemoveAll(dir)
		cmd := exec.CommandContext(ctx, o.Ctx, "run", "--pipe", "--max-output", "4G", "--", "seq", "1", strconv.FormatInt(n, 10))
		cmd.Env = append(os.Environ(), "CTX_STORE="+dir, "CTX_NO_COMPACT=1")
		cmd.Stdout = io.Discard
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("ctx run for the memory figure: %v: %s", err, stderr.String())
		}
		res.RSSBytes = seqBytes(n)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			res.PeakRSS = ru.Maxrss
		}
		// The frames a flood outran the compressor with are compressed
		// afterwards, in the background; time that work too.
		res.StoredBefore = dirSize(dir)
		d, err := timeCmd(ctx, o.Ctx, []string{"compact"}, []string{"CTX_STORE=" + dir})
		if err != nil {
			return nil, err
		}
		res.CompactMS = ms(d)
		res.StoredAfter = dirSize(dir)
	}
	return res, nil
}

// timeCmd runs a command to completion with its output discarded and returns
// its wall time.
func timeCmd(ctx context.Context, bin string, args, env []string) (time.Duration, error) {
	wall, _, err := timeCPU(ctx, bin, args, env)
	return wall, err
}

// WriteText prints the capture figures.
func (r *CaptureResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "capture of `%s` (%.1f MiB)\n", r.Command, float64(r.Bytes)/(1<<20))
	fmt.Fprintln(tw, "mode\tbare median\tctx median\tbare MB/s\tctx MB/s\tctx/bare")
	for _, m := range []struct {
		name string
		r    ModeResult
	}{{"pipe", r.Pipe}, {"pty", r.Pty}} {
		fmt.Fprintf(tw, "%s\t%.0f ms ±%.0f\t%.0f ms ±%.0f\t%.1f\t%.1f\t%s\n", m.name, m.r.Bare.MedianMS, m.r.Bare.IQRMS,
			m.r.Ctx.MedianMS, m.r.Ctx.IQRMS, m.r.BareMBps, m.r.CtxMBps, pct(m.r.Ratio))
	}
	if r.PeakRSS > 0 {
		fmt.Fprintf(tw, "peak RSS of ctx run capturing %.1f MiB: %.1f MiB\n", float64(r.RSSBytes)/(1<<20), float64(r.PeakRSS)/1024)
		fmt.Fprintf(tw, "its store: %.1f MiB as captured, %.1f MiB after the background compaction (%.0f ms)\n",
			float64(r.StoredBefore)/(1<<20), float64(r.StoredAfter)/(1<<20), r.CompactMS)
	}
	return tw.Flush()
}
