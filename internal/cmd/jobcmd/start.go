// Package jobcmd is ctx run --bg and ctx job (ls, tail, wait, kill, show):
// starting a detached supervisor, and reading, waiting for and stopping the
// jobs package job keeps.
package jobcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

// EnvFunc is what a capture reads from this process (cmd/ctx's runEnv).
type EnvFunc func(ios *cli.IO, st *store.Store) *runner.Env

// Start writes the job and starts its supervisor, detached (its own session
// and process group, stdio away from the caller), and prints the job's
// handle. It returns once the supervisor holds the job, without waiting for
// the command.
func Start(ios *cli.IO, spec job.Spec) error {
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	spec.ID, spec.Created = job.NewID(), time.Now().UTC()
	dir, err := job.Create(st, spec)
	if err != nil {
		return err
	}
	self, err := selfPath()
	if err != nil {
		return fmt.Errorf("start job: find ctx itself: %w", err)
	}
	logf, err := os.OpenFile(filepath.Join(dir, "supervisor.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("start job: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(self, "job", "supervise", dir)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = spec.Dir, os.Environ(), logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start job supervisor: %w", err)
	}
	_ = cmd.Process.Release()
	h := "job:" + spec.ID
	j := waitStarted(dir)
	if j != nil && j.State == job.StateDead {
		return fmt.Errorf("%s: the supervisor stopped at once (see %s)", h, filepath.Join(dir, "supervisor.log"))
	}
	fmt.Fprintf(ios.Out, "%s started: %s\n  ctx job tail %s · ctx job wait %s · ctx job kill %s\n", h, cli.QuoteArgs(spec.Argv), h, h, h)
	return nil
}

// waitStarted waits (up to 5 s) until the supervisor holds the job or
// the job has ended.
func waitStarted(dir string) *job.Job {
	var j *job.Job
	for i := 0; i < 100; i++ {
		j, _ = job.Read(dir)
		if j != nil && j.State != job.StateStarting && (j.Supervisor != nil || j.Result != nil) {
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

// supervise is the hidden ctx job supervise DIR: the detached process that
// runs a job.
func supervise(ctx context.Context, ios *cli.IO, env EnvFunc, dir string) error {
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	return job.Supervise(ctx, env(ios, st), dir, func(s job.Spec) (runner.Request, error) {
		opts, err := runner.DigestOptions(st, s.Budget, s.Pressure, s.Profile)
		if err != nil {
			return runner.Request{}, err
		}
		return runner.Request{Argv: s.Argv, Dir: s.Dir, Session: s.Session, Digest: opts, Pipe: s.Pipe,
			Timeout: s.Timeout, Grace: s.Grace, Cap: s.Cap}, nil
	})
}

// open reads the job a handle names from the workspace's store.
func open(ios *cli.IO, handle string) (*job.Job, error) {
	id, err := job.ParseID(handle)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("job:%s: %w (this workspace has no store)", id, job.ErrNoJob)
		}
		return nil, err
	}
	defer st.Close()
	return job.Open(st, id)
}
