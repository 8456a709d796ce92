package store

import (
	"runtime"
	"testing"
	"time"
)

// TestSpoolEndsStopGoroutines: a capture that ends without a commit (Abort,
// when the command never started; Unlock, when storing it failed) stops its
// streams' compressor goroutines and their writeback goroutines. A
// long-lived process (ctx mcp, a seq of many steps) that aborted captures
// otherwise kept two to four goroutines, and their buffers, per stream
// for its whole life.
func TestSpoolEndsStopGoroutines(t *testing.T) {
	s := newStore(t)
	flood := plainFlood() // past plainFrom: the raw spool's writeback runs too
	small := logLines(100)
	for _, end := range []struct {
		name string
		do   func(*Spool)
	}{{"abort", (*Spool).Abort}, {"unlock", (*Spool).Unlock}} {
		t.Run(end.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			for i := range 3 {
				sp, err := s.NewSpool(SpoolMeta{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 1 << 40})
				if err != nil {
					t.Fatal(err)
				}
				for name, data := range map[string][]byte{"stdout": small, "stderr": small} {
					if i == 0 && name == "stdout" {
						data = flood
					}
					w, err := sp.Stream(name)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := w.Write(data); err != nil {
						t.Fatal(err)
					}
				}
				end.do(sp)
			}
			if after := settledGoroutines(before); after > before {
				buf := make([]byte, 1<<16)
				t.Fatalf("%d goroutines before three captures ended by %s, %d after:\n%s",
					before, end.name, after, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

// settledGoroutines returns the number of goroutines once it is down to
// want, or after a second: goroutines told to stop take a moment to return.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	return n
}
