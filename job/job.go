// Package job keeps background captures (ctx run --bg): a job is a
// directory under the store's jobs/ holding what to run (job.json), the
// supervisor that runs it (supervisor.json and a lock it holds for its
// life), what arrived so far (tail.json) and, at the end, the run it
// committed (result.json). The supervisor is a detached ctx process in its
// own session that captures through the runner like any ctx run.
//
// Liveness is read from the lock, never from a bare pid: a supervisor that
// died leaves its lock free, and is reported as dead, not running. A pid is
// signalled only when its start time still matches the one recorded.
package job

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/ctxhq/ctx/store"
)

// States of a job.
const (
	StateStarting = "starting"
	StateRunning  = "running"
	StateDone     = "done"
	StateDead     = "dead" // the supervisor died before committing a run
)

// ErrNoJob is returned for a job id that names no job.
var ErrNoJob = errors.New("no such job")

// Spec is what a job runs, written by the starter.
type Spec struct {
	ID       string        `json:"id"`
	Argv     []string      `json:"argv"`
	Dir      string        `json:"dir"` // absolute
	Timeout  time.Duration `json:"timeout"`
	Grace    time.Duration `json:"grace"`
	Pipe     bool          `json:"pipe,omitempty"`
	Cap      int64         `json:"cap,omitempty"`
	Budget   int           `json:"budget,omitempty"`
	Pressure string        `json:"pressure,omitempty"`
	Profile  string        `json:"profile,omitempty"`
	Session  string        `json:"session,omitempty"`
	Created  time.Time     `json:"created"`
}

// Supervisor identifies the process running a job: a pid and that
// process's start time (clock ticks since boot), so a reused pid is told
// apart.
type Supervisor struct {
	PID     int       `json:"pid"`
	Ticks   uint64    `json:"start_ticks"`
	Started time.Time `json:"started"`
}

// Result is how a job ended: the run it committed and its digest, or the
// error that stopped ctx.
type Result struct {
	Run     string       `json:"run,omitempty"`
	Exit    int          `json:"exit"`
	Status  store.Status `json:"status,omitempty"`
	Receipt string       `json:"receipt,omitempty"`
	Digest  string       `json:"digest,omitempty"`
	Note    string       `json:"note,omitempty"`
	Error   string       `json:"error,omitempty"`
	Ended   time.Time    `json:"ended"`
}

// Job is a job as read from its directory.
type Job struct {
	Dir        string
	Spec       Spec
	Supervisor *Supervisor
	Result     *Result
	State      string
}

// Handle is the job's job: handle.
func (j *Job) Handle() string { return "job:" + j.Spec.ID }

// Root is the directory jobs live in.
func Root(st *store.Store) string { return filepath.Join(st.Dir(), "jobs") }

// NewID is a fresh job id: 12 random hex digits (a job is a live thing,
// not content, so its id is not a hash).
func NewID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Create makes a job's directory and writes its spec.
func Create(st *store.Store, spec Spec) (string, error) {
	dir := filepath.Join(Root(st), spec.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create job %s: %w", spec.ID, err)
	}
	return dir, writeJSON(filepath.Join(dir, "job.json"), spec)
}

// ParseID reads job:ID (or a bare ID) into the id.
func ParseID(s string) (string, error) {
	id := strings.TrimPrefix(s, "job:")
	if len(id) < 4 || len(id) > 12 || strings.Trim(id, "0123456789abcdef") != "" {
		return "", fmt.Errorf("job %q: want job:ID with the 12 hex digits ctx run --bg printed (ctx job ls lists them)", s)
	}
	return id, nil
}

// Open reads the job id (a unique prefix) names.
func Open(st *store.Store, id string) (*Job, error) {
	ents, _ := os.ReadDir(Root(st))
	var match []string
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), id) {
			match = append(match, e.Name())
		}
	}
	switch len(match) {
	case 0:
		return nil, fmt.Errorf("job:%s: %w (ctx job ls lists the jobs of this store)", id, ErrNoJob)
	case 1:
	default:
		return nil, fmt.Errorf("job:%s matches %d jobs; give more digits", id, len(match))
	}
	return Read(filepath.Join(Root(st), match[0]))
}

// Read reads a job directory and works out its state.
func Read(dir string) (*Job, error) {
	j := &Job{Dir: dir}
	if err := readJSON(filepath.Join(dir, "job.json"), &j.Spec); err != nil {
		return nil, fmt.Errorf("read job %s: %w", filepath.Base(dir), err)
	}
	var res Result
	if readJSON(filepath.Join(dir, "result.json"), &res) == nil {
		j.Result = &res
	}
	var sup Supervisor
	if readJSON(filepath.Join(dir, "supervisor.json"), &sup) == nil {
		j.Supervisor = &sup
	}
	switch {
	case j.Result != nil:
		j.State = StateDone
	case lockHeld(filepath.Join(dir, "lock")):
		j.State = StateRunning
	case j.Supervisor == nil && time.Since(j.Spec.Created) < 10*time.Second:
		j.State = StateStarting
	default:
		j.State = StateDead
	}
	return j, nil
}

// List reads every job of the store, newest first.
func List(st *store.Store) []*Job {
	ents, _ := os.ReadDir(Root(st))
	var out []*Job
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if j, err := Read(filepath.Join(Root(st), e.Name())); err == nil {
			out = append(out, j)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Spec.Created.After(out[b].Spec.Created) })
	return out
}

// lockHeld reports whether a process holds the lock file's flock.
func lockHeld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return os.Rename(tmp, path)
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// startTicks is a process's start time in clock ticks since boot
// (/proc/PID/stat field 22), 0 when unknown.
func startTicks(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: count from its ")".
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0
	}
	var t uint64
	fmt.Sscan(f[19], &t)
	return t
}

// alive reports whether the supervisor recorded is still that process.
func (s *Supervisor) alive() bool {
	return s != nil && s.Ticks != 0 && startTicks(s.PID) == s.Ticks
}
