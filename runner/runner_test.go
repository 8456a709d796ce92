package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/storetest"
)

func newEnv(t *testing.T) (*Env, string) {
	t.Helper()
	st, dir := storetest.Open(t)
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return &Env{Store: st, Now: func() time.Time { return clock }, Environ: []string{"PATH=" + os.Getenv("PATH"), "PAGER=less"},
		Host: "testhost", PID: 42, Version: "test"}, dir
}

// TestCapture runs a real command through the runner and gets the run, its
// exit status, items and digest back as values; the execution record holds
// the host facts the caller passed in, not the process's.
func TestCapture(t *testing.T) {
	env, dir := newEnv(t)
	res, err := Capture(context.Background(), env, &Request{
		Argv: []string{"sh", "-c", `echo "PAGER=$PAGER"; echo "error: disk full" >&2; exit 3`}, Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exit != 3 || res.Status != "exited" || res.DigestErr != nil {
		t.Fatalf("exit %d status %q digest error %v", res.Exit, res.Status, res.DigestErr)
	}
	text := string(res.Text())
	if !strings.HasPrefix(text, res.Handle()+" ") || !strings.Contains(text, "PAGER=cat") || !strings.Contains(text, "disk full") {
		t.Errorf("digest:\n%s", text)
	}
	if res.Receipt() == "" || res.Run.Manifest.Dir != "." {
		t.Errorf("receipt %q dir %q", res.Receipt(), res.Run.Manifest.Dir)
	}
	if !hasItem(res.Items(), "disk full") {
		t.Errorf("no item holds the error line: %+v", res.Items())
	}
	execs, err := env.Store.Execs(1, func(e *store.Exec) bool { return e.Run == res.Run.ID })
	if err != nil || len(execs) != 1 {
		t.Fatalf("execs %v %v", execs, err)
	}
	if ex := execs[0]; ex.Host != "testhost" || ex.PID != 42 || ex.Version != "test" || ex.Receipt != res.Digest.ReceiptID {
		t.Errorf("exec record %+v", ex)
	}
}

func hasItem(items []evidence.Item, text string) bool {
	for _, it := range items {
		if strings.Contains(it.Text+it.Message, text) {
			return true
		}
	}
	return false
}

// TestSessionEscalates shows the same result again in one session at the
// next level, and not in another session.
//
// The same result needs the whole output captured each time. Capture reads
// on for 250 ms after the command exits and then drops what is left (a
// background process may hold the pipe), so under load a run could lose
// its tail, be another run, and show level 0 ([0 0 0] once in a race run at
// load 15). The command therefore exits only once the capture has taken
// all its output (the watcher creates the file it waits for): no run
// depends on how soon the reader gets the processor.
func TestSessionEscalates(t *testing.T) {
	env, dir := newEnv(t)
	var want strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintln(&want, i)
	}
	flag := filepath.Join(dir, "taken")
	req := func(session string) *Request {
		return &Request{Argv: []string{"sh", "-c", `seq 1 400; while [ ! -e taken ]; do sleep 0.01; done`},
			Dir: dir, Pipe: true, Session: session, Timeout: time.Minute,
			Watch: &takenAll{want: want.Len(), flag: flag}}
	}
	levels := []int{}
	var runs []string
	for _, s := range []string{"a", "a", "b"} {
		if err := os.Remove(flag); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		res, err := Capture(context.Background(), env, req(s))
		if err != nil {
			t.Fatal(err)
		}
		levels = append(levels, res.Digest.Plan.Level)
		runs = append(runs, res.Handle())
	}
	if levels[0] != 0 || levels[1] != 1 || levels[2] != 0 || runs[0] != runs[1] || runs[1] != runs[2] {
		t.Errorf("levels %v of runs %v, want [0 1 0] of one run", levels, runs)
	}
}

// takenAll is a Watcher that creates flag once the capture has taken want
// bytes of output (from the sinks it taps).
type takenAll struct {
	mu   sync.Mutex
	want int
	got  int
	flag string
}

func (w *takenAll) Tap(sink io.Writer) io.Writer { return tapWriter{w, sink} }
func (w *takenAll) Stop()                        {}

type tapWriter struct {
	w    *takenAll
	sink io.Writer
}

func (t tapWriter) Write(p []byte) (int, error) {
	n, err := t.sink.Write(p)
	t.w.mu.Lock()
	defer t.w.mu.Unlock()
	if t.w.got < t.w.want && t.w.got+n >= t.w.want {
		if ferr := os.WriteFile(t.w.flag, nil, 0o600); ferr != nil && err == nil {
			err = ferr
		}
	}
	t.w.got += n
	return n, err
}

// TestStartError: a command that cannot start is a *capture.StartError and
// nothing is stored.
func TestStartError(t *testing.T) {
	env, dir := newEnv(t)
	_, err := Capture(context.Background(), env, &Request{Argv: []string{"ctx-no-such-command-x"}, Dir: dir, Pipe: true})
	var se *capture.StartError
	if !errors.As(err, &se) || se.Exit != capture.ExitNotFound {
		t.Fatalf("err %v, want a not-found StartError", err)
	}
	if StartHint(se) == "" {
		t.Error("no hint")
	}
	if execs, _ := env.Store.Execs(10, nil); len(execs) != 0 {
		t.Errorf("%d executions stored for a command that never started", len(execs))
	}
}

// TestStdin stores what the command was given: a whole file even when the
// command reads none of it, and no stdin at all for an empty lazy input.
func TestStdin(t *testing.T) {
	env, dir := newEnv(t)
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("line one\nline two\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	res, err := Capture(context.Background(), env, &Request{Argv: []string{"true"}, Dir: dir, Pipe: true, Stdin: Input{R: f, Whole: true}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := env.Store.Blob(res.Run.Manifest.Stdin)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b.ReadAll(); err != nil || string(got) != "line one\nline two\n" {
		t.Errorf("whole stdin stored as %q (%v)", got, err)
	}
	lazy, err := Capture(context.Background(), env, &Request{Argv: []string{"cat"}, Dir: dir, Pipe: true, Stdin: Input{R: strings.NewReader(""), Lazy: true}})
	if err != nil {
		t.Fatal(err)
	}
	none, err := Capture(context.Background(), env, &Request{Argv: []string{"cat"}, Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Run.ID != none.Run.ID {
		t.Errorf("an empty forwarded stdin made run %s, /dev/null run %s", lazy.Run.ID, none.Run.ID)
	}
}

// TestIngestAndShow stores existing output, then reads its digest back byte
// for byte by run and by receipt; a blob is not showable.
func TestIngestAndShow(t *testing.T) {
	env, dir := newEnv(t)
	res, err := Ingest(context.Background(), env, &Request{Argv: []string{"make"}, Dir: dir, Exit: 2,
		Stdout: strings.NewReader("cc -c a.c\n"), Stderr: strings.NewReader("a.c:1:1: error: expected ';'\n")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exit != 2 || res.Status != store.StatusIngested {
		t.Errorf("exit %d status %q", res.Exit, res.Status)
	}
	never := func() (digest.Options, error) {
		t.Fatal("options asked for a run that has a digest")
		return digest.Options{}, nil
	}
	for _, h := range []string{res.Handle(), res.Receipt()} {
		ph, err := store.ParseHandle(h)
		if err != nil {
			t.Fatal(err)
		}
		tg, err := env.Store.Resolve(ph)
		if err != nil {
			t.Fatal(err)
		}
		sh, err := Show(context.Background(), env.Store, tg, never)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(sh.Text, res.Text()) || sh.ReceiptID != res.Digest.ReceiptID {
			t.Errorf("%s: shown %q (receipt %s), want %q (%s)", h, sh.Text, sh.ReceiptID.Short(), res.Text(), res.Digest.ReceiptID.Short())
		}
	}
	blob := &store.Target{Kind: "blob"}
	if _, err := Show(context.Background(), env.Store, blob, never); !errors.Is(err, ErrNotShowable) {
		t.Errorf("Show(blob) = %v, want ErrNotShowable", err)
	}
}

// TestStartHintDirectory: a directory given as the command is called a
// directory, not a file to chmod.
func TestStartHintDirectory(t *testing.T) {
	env, dir := newEnv(t)
	_, err := Capture(context.Background(), env, &Request{Argv: []string{dir}, Dir: dir, Pipe: true})
	var se *capture.StartError
	if !errors.As(err, &se) || se.Exit != capture.ExitNotExecutable {
		t.Fatalf("err %v, want a not-executable StartError", err)
	}
	if h := StartHint(se); !strings.Contains(h, "directory") || strings.Contains(h, "chmod") {
		t.Errorf("hint %q, want one that says it is a directory", h)
	}
}
