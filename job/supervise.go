package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
)

// Supervise runs the job in dir to the end in this process: it takes the
// job's lock (held until it returns, so a reader can tell a live supervisor
// from a dead one), captures the command through the runner with a live
// tail, and writes the result. Cancelling ctx (ctx job kill sends SIGTERM)
// stops the command's group with TERM, grace, KILL; what it printed is kept.
func Supervise(ctx context.Context, env *runner.Env, dir string, opts func(Spec) (runner.Request, error)) error {
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("lock job: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return fmt.Errorf("lock job %s: another supervisor holds it", filepath.Base(dir))
	}
	j, err := Read(dir)
	if err != nil {
		return err
	}
	if j.Result != nil {
		return fmt.Errorf("job %s has already ended", j.Spec.ID)
	}
	pid := os.Getpid()
	if err := writeJSON(filepath.Join(dir, "supervisor.json"), Supervisor{PID: pid, Ticks: startTicks(pid), Started: time.Now().UTC()}); err != nil {
		return err
	}
	req, err := opts(j.Spec)
	if err == nil {
		t := newTail(filepath.Join(dir, "tail.json"))
		req.Watch = t
		var res *runner.Result
		res, err = runner.Capture(ctx, env, &req)
		if err == nil {
			return writeJSON(filepath.Join(dir, "result.json"), Result{Run: res.Handle(), Exit: res.Exit, Status: res.Status,
				Receipt: res.Receipt(), Digest: string(res.Text()), Note: res.Note, Ended: time.Now().UTC()})
		}
	}
	r := Result{Exit: capture.ExitFailed, Error: err.Error(), Ended: time.Now().UTC()}
	var se *capture.StartError
	if errors.As(err, &se) {
		r.Exit = se.Exit
	}
	return errors.Join(err, writeJSON(filepath.Join(dir, "result.json"), r))
}

// tailKeep is how much of each stream's end the live tail keeps.
const tailKeep = 64 << 10

// Stream is what a live tail holds of one stream: its size so far and its
// last bytes, whose first line is line First of the stream.
type Stream struct {
	Bytes int64  `json:"bytes"`
	Lines int64  `json:"lines"` // complete lines so far
	First int64  `json:"first_line"`
	Text  string `json:"text"`
}

// Snapshot is a live tail as written to tail.json.
type Snapshot struct {
	Stdout  Stream    `json:"stdout"`
	Stderr  Stream    `json:"stderr"`
	Updated time.Time `json:"updated"`
}

// tail is the runner Watcher that keeps the ends of both streams and writes
// them to tail.json a few times a second.
type tail struct {
	path  string
	mu    sync.Mutex
	snap  Snapshot
	taps  int
	dirty bool
	stop  chan struct{}
	done  chan struct{}
}

func newTail(path string) *tail {
	t := &tail{path: path, stop: make(chan struct{}), done: make(chan struct{})}
	go t.loop()
	return t
}

// Tap wraps a stream's writer; the runner taps stdout first, then stderr.
func (t *tail) Tap(w io.Writer) io.Writer {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &t.snap.Stdout
	if t.taps > 0 {
		s = &t.snap.Stderr
	}
	t.taps++
	return &tapWriter{t: t, s: s, w: w}
}

// Stop writes the last snapshot.
func (t *tail) Stop() {
	close(t.stop)
	<-t.done
}

func (t *tail) loop() {
	defer close(t.done)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			t.flush(false)
		case <-t.stop:
			t.flush(true)
			return
		}
	}
}

func (t *tail) flush(force bool) {
	t.mu.Lock()
	if !t.dirty && !force {
		t.mu.Unlock()
		return
	}
	t.dirty = false
	t.snap.Updated = time.Now().UTC()
	snap := t.snap
	t.mu.Unlock()
	_ = writeJSON(t.path, snap)
}

type tapWriter struct {
	t *tail
	s *Stream
	w io.Writer
}

func (tw *tapWriter) Write(p []byte) (int, error) {
	tw.t.mu.Lock()
	s := tw.s
	s.Bytes += int64(len(p))
	s.Lines += int64(bytes.Count(p, []byte{'\n'}))
	text := s.Text + string(p)
	if len(text) > tailKeep {
		cut := len(text) - tailKeep
		if i := strings.IndexByte(text[cut:], '\n'); i >= 0 {
			cut += i + 1
		}
		s.First += int64(strings.Count(text[:cut], "\n"))
		text = text[cut:]
	}
	if s.First == 0 {
		s.First = 1
	}
	s.Text = text
	tw.t.dirty = true
	tw.t.mu.Unlock()
	return tw.w.Write(p)
}

// Line is one line of a live tail, numbered as in the stream (and so as in
// the run the job commits).
type Line struct {
	Stream string `json:"stream"`
	N      int64  `json:"line"`
	Text   string `json:"text"`
}

// Tail reads the last n lines of each stream that arrived so far (matching
// re when set), from the kept end of each stream.
func Tail(j *Job, n int, re *regexp.Regexp) (Snapshot, []Line, error) {
	var snap Snapshot
	if err := readJSON(filepath.Join(j.Dir, "tail.json"), &snap); err != nil && !os.IsNotExist(err) {
		return snap, nil, fmt.Errorf("read tail of job:%s: %w", j.Spec.ID, err)
	}
	var out []Line
	for _, s := range []struct {
		name string
		st   Stream
	}{{"stdout", snap.Stdout}, {"stderr", snap.Stderr}} {
		// The tail goes to the agent (ctx job tail, ctx get job:ID): redact
		// it as every other view of the output is; a redaction never
		// touches a newline, so the line numbers hold.
		lines := strings.SplitAfter(secrets.String(s.st.Text), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		var picked []Line
		for i, l := range lines {
			if re != nil && !re.MatchString(l) {
				continue
			}
			picked = append(picked, Line{Stream: s.name, N: s.st.First + int64(i), Text: strings.TrimRight(l, "\r\n")})
		}
		if len(picked) > n {
			picked = picked[len(picked)-n:]
		}
		out = append(out, picked...)
	}
	return snap, out, nil
}

// Kill stops a running job: SIGTERM to its supervisor, which stops the
// command's group (TERM, grace, KILL) and commits what was captured. A job
// whose supervisor died has its session's processes stopped directly. It
// does not wait for the result (Wait does).
func Kill(j *Job, grace time.Duration) error {
	switch j.State {
	case StateDone:
		return fmt.Errorf("job:%s has already ended (%s, exit %d)", j.Spec.ID, j.Result.Run, j.Result.Exit)
	case StateStarting:
		return fmt.Errorf("job:%s has not started yet; try again in a moment", j.Spec.ID)
	}
	sup := j.Supervisor
	if j.State == StateRunning && sup.alive() {
		return syscall.Kill(sup.PID, syscall.SIGTERM)
	}
	if sup == nil {
		return fmt.Errorf("job:%s: its supervisor never started; nothing to stop", j.Spec.ID)
	}
	// The supervisor died: its session (setsid made its pid the session
	// id) may still hold the command.
	members := session(sup.PID)
	for _, p := range members {
		_ = syscall.Kill(p, syscall.SIGTERM)
	}
	if len(members) > 0 {
		time.Sleep(grace)
		for _, p := range session(sup.PID) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
	return nil
}

// session lists the processes in session sid.
func session(sid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == sid {
			continue
		}
		if s, err := unix.Getsid(pid); err == nil && s == sid {
			out = append(out, pid)
		}
	}
	return out
}

// Wait blocks until the job ends, its supervisor dies, ctx is done or
// timeout passes (0: no limit), and returns the job as it then is.
func Wait(ctx context.Context, j *Job, timeout time.Duration) (*Job, error) {
	var deadline <-chan time.Time
	if timeout > 0 {
		tm := time.NewTimer(timeout)
		defer tm.Stop()
		deadline = tm.C
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		cur, err := Read(j.Dir)
		if err != nil {
			return nil, err
		}
		if cur.State == StateDone || cur.State == StateDead {
			return cur, nil
		}
		select {
		case <-ctx.Done():
			return cur, context.Cause(ctx)
		case <-deadline:
			return cur, ErrTimeout
		case <-tick.C:
		}
	}
}

// ErrTimeout is returned by Wait when its timeout passed first.
var ErrTimeout = errors.New("the job is still running")
