package capture

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func run(t *testing.T, o Options) (Result, string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	o.Stdout, o.Stderr = &out, &errb
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Cols == 0 {
		o.Cols, o.Rows = 200, 50
	}
	res, err := Run(context.Background(), o)
	return res, out.String(), errb.String(), err
}

func TestBytesArriveUnchanged(t *testing.T) {
	script := `printf 'a\nb\r\nc\033[31mred\033[0m\n'; printf 'err\n' >&2`
	for _, pipe := range []bool{false, true} {
		res, out, errs, err := run(t, Options{Argv: []string{"sh", "-c", script}, Pipe: pipe})
		if err != nil || res.Exit != 0 || res.Status != StatusExited {
			t.Fatalf("pipe=%v: %+v %v", pipe, res, err)
		}
		if out != "a\nb\r\nc\x1b[31mred\x1b[0m\n" || errs != "err\n" {
			t.Errorf("pipe=%v: stdout %q stderr %q", pipe, out, errs)
		}
	}
}

func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "noexec")
	os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644)
	for _, tc := range []struct {
		argv   []string
		exit   int
		status Status
	}{
		{[]string{"sh", "-c", "exit 3"}, 3, StatusExited},
		{[]string{"sh", "-c", "kill -TERM $$"}, 128 + int(syscall.SIGTERM), StatusSignaled},
	} {
		res, _, _, err := run(t, Options{Argv: tc.argv})
		if err != nil || res.Exit != tc.exit || res.Status != tc.status {
			t.Errorf("%v: exit %d status %s err %v; want %d %s", tc.argv, res.Exit, res.Status, err, tc.exit, tc.status)
		}
	}
	for _, tc := range []struct {
		argv []string
		exit int
	}{
		{[]string{"no-such-program-xyz"}, ExitNotFound},
		{[]string{noexec}, ExitNotExecutable},
		{[]string{dir}, ExitNotExecutable},
	} {
		_, _, _, err := run(t, Options{Argv: tc.argv})
		var se *StartError
		if !errors.As(err, &se) || se.Exit != tc.exit {
			t.Errorf("%v: %v, want a start error with exit %d", tc.argv, err, tc.exit)
		}
	}
}

func TestTimeoutStopsTheGroup(t *testing.T) {
	start := time.Now()
	// The grandchild ignores TERM; the group is killed after the grace period.
	res, out, _, err := run(t, Options{Argv: []string{"sh", "-c", "echo up; (trap '' TERM; sleep 30) & sleep 30"},
		Timeout: 300 * time.Millisecond, Grace: 200 * time.Millisecond, Pipe: true})
	if err != nil || res.Exit != ExitTimeout || res.Status != StatusTimeout {
		t.Fatalf("%+v %v", res, err)
	}
	if out != "up\n" {
		t.Errorf("output so far lost: %q", out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var out bytes.Buffer
	res, err := Run(ctx, Options{Argv: []string{"sh", "-c", "echo before; sleep 30"}, Env: os.Environ(), Stdout: &out, Stderr: &out, Grace: time.Second})
	if err != nil || res.Exit != ExitInterrupted || res.Status != StatusInterrupted || out.String() != "before\n" {
		t.Fatalf("%+v %v %q", res, err, out.String())
	}
}

func TestStdinAndTerminal(t *testing.T) {
	res, out, _, err := run(t, Options{Argv: []string{"sh", "-c", "cat; test -t 1 && echo tty"}, Stdin: strings.NewReader("fed in\n")})
	if err != nil || res.Exit != 0 || out != "fed in\ntty\n" {
		t.Fatalf("%+v %v %q", res, err, out)
	}
	// No stdin given: /dev/null, so a reader ends at once.
	res, out, _, _ = run(t, Options{Argv: []string{"cat"}, Timeout: 5 * time.Second})
	if res.Exit != 0 || out != "" {
		t.Errorf("cat with no stdin: %+v %q", res, out)
	}
}

// TestBackgroundKeepsOutputOpen: a background process holding the output open
// after the command exits does not hang the capture.
func TestBackgroundKeepsOutputOpen(t *testing.T) {
	start := time.Now()
	res, out, _, err := run(t, Options{Argv: []string{"sh", "-c", "sleep 5 & echo done"}, Pipe: true, Drain: 200 * time.Millisecond})
	if err != nil || res.Exit != 0 || out != "done\n" || !res.Detached {
		t.Fatalf("%+v %v %q", res, err, out)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("waited %v for the background process", d)
	}
}

// TestSinkErrorDrains: a failing sink (a full disk) is reported, and the child
// is still drained so it never blocks.
func TestSinkErrorDrains(t *testing.T) {
	res, err := Run(context.Background(), Options{Argv: []string{"sh", "-c", "seq 1 200000"}, Env: os.Environ(), Pipe: true,
		Stdout: failing{}, Stderr: &bytes.Buffer{}, Timeout: 10 * time.Second})
	if err != nil || res.Exit != 0 || res.SinkErr == nil {
		t.Fatalf("%+v %v", res, err)
	}
}

type failing struct{}

func (failing) Write(p []byte) (int, error) { return 0, syscall.ENOSPC }

// notingWriter records when each write arrived.
type notingWriter struct {
	mu     sync.Mutex
	data   bytes.Buffer
	writes int
	first  time.Time
}

func (w *notingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.writes == 0 {
		w.first = time.Now()
	}
	w.writes++
	return w.data.Write(p)
}

// TestGatheredReadsKeepEveryByte: a flood read through a pty or a pipe is
// gathered into fewer, larger writes, arrives whole and in order, and a
// byte printed before the command pauses reaches the sink during the
// pause, not when the command ends (nothing waits in ctx's memory while
// the stream is idle).
func TestGatheredReadsKeepEveryByte(t *testing.T) {
	script := `printf 'first\n'; sleep 1; seq 1 3000000`
	var want bytes.Buffer
	want.WriteString("first\n")
	for i := 1; i <= 3000000; i++ {
		want.WriteString(strconv.Itoa(i))
		want.WriteByte('\n')
	}
	for _, pipe := range []bool{false, true} {
		w := &notingWriter{}
		start := time.Now()
		res, err := Run(context.Background(), Options{Argv: []string{"sh", "-c", script}, Pipe: pipe, Env: os.Environ(),
			Cols: 200, Rows: 50, Stdout: w, Stderr: &bytes.Buffer{}})
		end := time.Now()
		if err != nil || res.Exit != 0 {
			t.Fatalf("pipe=%v: %+v %v", pipe, res, err)
		}
		if !bytes.Equal(w.data.Bytes(), want.Bytes()) {
			t.Fatalf("pipe=%v: %d bytes arrived, want %d (or they differ)", pipe, w.data.Len(), want.Len())
		}
		if d := w.first.Sub(start); d > end.Sub(start)-500*time.Millisecond {
			t.Errorf("pipe=%v: the first line arrived %v after the start, the command took %v: it waited in memory", pipe, d, end.Sub(start))
		}
		// 22.9 MB of seq: one write per few KiB read would be thousands.
		t.Logf("pipe=%v: %d bytes in %d writes", pipe, w.data.Len(), w.writes)
	}
}

// TestPtyTerminals: in pty mode stdout and stderr are terminals of the size
// asked, raw (no echo, no output processing, no line editing), and stdout
// is the command's controlling terminal.
func TestPtyTerminals(t *testing.T) {
	script := `stty size <&1; stty size <&2
stty -a <&2 | tr ' ' '\n' | grep -x -e -echo -e -opost -e -icanon | tr '\n' ' '; echo
stty size </dev/tty
test -t 2 && echo err-tty >&2`
	res, out, errs, err := run(t, Options{Argv: []string{"sh", "-c", script}, Cols: 123, Rows: 45})
	if err != nil || res.Exit != 0 {
		t.Fatalf("%+v %v\nstdout %q stderr %q", res, err, out, errs)
	}
	if want := "45 123\n45 123\n-opost -icanon -echo \n45 123\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if errs != "err-tty\n" {
		t.Errorf("stderr %q, want err-tty", errs)
	}
}

// slowWriter is a sink that stalls on each write, as a disk in writeback can.
type slowWriter struct {
	mu    sync.Mutex
	data  bytes.Buffer
	delay time.Duration
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(w.delay)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.data.Write(p)
}

// TestSlowSinkKeepsResidue: when the sink stalls longer than the drain
// period, what the command wrote before it exited is still read and kept,
// and the output is not called detached, in both modes.
func TestSlowSinkKeepsResidue(t *testing.T) {
	for _, pipe := range []bool{true, false} {
		sink := &slowWriter{delay: 40 * time.Millisecond}
		res, err := Run(context.Background(), Options{Argv: []string{"sh", "-c", "seq 1 100000"}, Env: os.Environ(), Pipe: pipe,
			Stdout: sink, Stderr: &bytes.Buffer{}, Drain: 20 * time.Millisecond, Cols: 200, Rows: 50, Timeout: 30 * time.Second})
		if err != nil || res.Exit != 0 {
			t.Fatalf("pipe=%v: %+v %v", pipe, res, err)
		}
		want := seqLines(100000)
		if got := sink.data.String(); got != want || res.Detached || res.Unread != 0 {
			t.Errorf("pipe=%v: kept %d of %d bytes, detached %v, unread %d", pipe, len(got), len(want), res.Detached, res.Unread)
		}
	}
}

// TestBackgroundResidueKept: a background process that holds the output open
// does not cost the bytes the command wrote just before it exited, though the
// sink is slower than the drain period; the capture still ends long before
// the background process does.
func TestBackgroundResidueKept(t *testing.T) {
	sink := &slowWriter{delay: 30 * time.Millisecond}
	start := time.Now()
	res, err := Run(context.Background(), Options{Argv: []string{"sh", "-c", "sleep 5 & seq 1 50000"}, Env: os.Environ(), Pipe: true,
		Stdout: sink, Stderr: &bytes.Buffer{}, Drain: 20 * time.Millisecond, Timeout: 30 * time.Second})
	if err != nil || res.Exit != 0 || !res.Detached || res.Unread != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if got, want := sink.data.String(), seqLines(50000); got != want {
		t.Errorf("kept %d of %d bytes", len(got), len(want))
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("waited %v for the background process", d)
	}
}

// TestStuckSinkCountsUnread: a sink that stalls past the wait for the
// residue gives up and counts what it could not keep, instead of hanging or
// claiming the bytes.
func TestStuckSinkCountsUnread(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	e := &end{parent: r}
	if _, err := w.Write([]byte("residue\n")); err != nil {
		t.Fatal(err)
	}
	ended, unread := settle([]*end{e}, make(chan struct{}), 20*time.Millisecond)
	if ended || unread != int64(len("residue\n")) {
		t.Errorf("ended %v, unread %d; want false, 8", ended, unread)
	}
}

func seqLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}
