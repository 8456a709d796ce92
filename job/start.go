package job

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Start writes a new job and starts its supervisor (ctx job supervise DIR),
// detached: its own session and process group, stdio away from the caller,
// so it survives the shell that started it. It returns once the supervisor
// holds the job (or ended at once), without waiting for the command.
func Start(st *store.Store, spec Spec) (*Job, error) {
	spec.ID, spec.Created = NewID(), time.Now().UTC()
	dir, err := Create(st, spec)
	if err != nil {
		return nil, err
	}
	self, err := selfPath()
	if err != nil {
		return nil, fmt.Errorf("start job: find ctx itself: %w", err)
	}
	logf, err := os.OpenFile(filepath.Join(dir, "supervisor.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("start job: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(self, "job", "supervise", dir)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = spec.Dir, os.Environ(), logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start job supervisor: %w", err)
	}
	_ = cmd.Process.Release()
	j := waitStarted(dir)
	if j == nil {
		return nil, fmt.Errorf("job:%s: the supervisor did not start (see %s)", spec.ID, filepath.Join(dir, "supervisor.log"))
	}
	if j.State == StateDead {
		return nil, fmt.Errorf("job:%s: the supervisor stopped at once (see %s)", spec.ID, filepath.Join(dir, "supervisor.log"))
	}
	return j, nil
}

// waitStarted waits (up to 5 s) until the supervisor holds the job or the
// job has ended.
func waitStarted(dir string) *Job {
	var j *Job
	for range 100 {
		j, _ = Read(dir)
		if j != nil && j.State != StateStarting && (j.Supervisor != nil || j.Result != nil) {
			return j
		}
		time.Sleep(50 * time.Millisecond)
	}
	return j
}

// selfPath is the ctx binary to start the supervisor from.
func selfPath() (string, error) {
	if a := os.Args[0]; strings.Contains(a, "/") {
		return filepath.Abs(a)
	} else if p, err := exec.LookPath(a); err == nil {
		return filepath.Abs(p)
	}
	return os.Executable()
}
