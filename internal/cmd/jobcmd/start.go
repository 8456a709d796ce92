// Package jobcmd is ctx run --bg and ctx job (ls, tail, wait, kill, show):
// starting a detached supervisor, and reading, waiting for and stopping the
// jobs package job keeps.
package jobcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

// EnvFunc is what a capture reads from this process (cmd/ctx's runEnv).
type EnvFunc func(ios *cli.IO, st *store.Store) *runner.Env

// Start starts a background job (job.Start) and prints its handle.
func Start(ios *cli.IO, spec job.Spec) error {
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	j, err := job.Start(st, spec)
	if err != nil {
		return err
	}
	h := j.Handle()
	fmt.Fprintf(ios.Out, "%s started: %s\n  ctx job tail %s · ctx job wait %s · ctx job kill %s\n", h, cli.QuoteArgs(spec.Argv), h, h, h)
	return nil
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
