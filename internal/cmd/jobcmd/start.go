// Package jobcmd is ctx run --bg and ctx job (ls, tail, wait, kill, show):
// starting a detached supervisor, and reading, waiting for and stopping the
// jobs package job keeps.
package jobcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
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
	fmt.Fprintf(ios.Out, "%s started: %s\n  ctx job tail %s · ctx job wait %s · ctx job kill %s\n", h, cmdline.Display(secrets.Argv(spec.Argv)), h, h, h)
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

// Get serves ctx get job:ID[#stream][:Lx-y]: once the job has ended, the
// handle stands for its run (the returned run handle, for ctx get to read);
// while it runs, the lines asked for are printed from the live tail, which
// keeps the last 64 KiB of each stream (done is then true).
func Get(ios *cli.IO, handle string) (run string, done bool, err error) {
	id, rest, _ := strings.Cut(strings.TrimPrefix(handle, "job:"), "#")
	j, err := open(ios, "job:"+id)
	if err != nil {
		return "", true, err
	}
	if rest != "" {
		rest = "#" + rest
	}
	if why := store.CheckPart(rest); why != "" {
		return "", true, cli.Usagef("handle %q: %s; a job takes #stdout, #stderr or #merged, then a range :L40-52 or :B0-4096 if wanted (job:ID#stderr:L40-52)", handle, why)
	}
	h, err := store.ParseHandle("run:000000" + rest)
	if err != nil {
		return "", true, cli.Usagef("%s: %v", handle, err)
	}
	run, err = j.Committed()
	switch {
	case err != nil:
		return "", true, err
	case run != "":
		return run + rest, false, nil
	}
	return "", true, printLive(ios, j, h)
}

// Run is the run an ended job committed, for ctx show job:ID to print
// its digest; a job still running, or one that ended without a run, is an
// error saying what to read instead.
func Run(ios *cli.IO, handle string) (run string, err error) {
	id, rest, _ := strings.Cut(strings.TrimPrefix(handle, "job:"), "#")
	if rest != "" {
		return "", cli.Usagef("ctx show %s: show takes the whole job (job:ID); ctx get %s reads that part of its output", handle, handle)
	}
	j, err := open(ios, "job:"+id)
	if err != nil {
		return "", err
	}
	h := j.Handle()
	if run, err := j.Committed(); run != "" || err != nil {
		return run, err
	}
	return "", &store.Error{Err: fmt.Errorf("%s is still %s, so it has no digest yet", h, j.State),
		Hint: fmt.Sprintf("ctx job tail %s shows its output so far; ctx job wait %s prints its digest when it ends", h, h)}
}

// printLive prints a line range of a running job's stream from its tail.
func printLive(ios *cli.IO, j *job.Job, h store.Handle) error {
	stream := h.Stream
	if stream == "" || stream == "merged" {
		stream = "stdout"
	}
	if h.Range.Unit == 'B' {
		return cli.Usagef("a running job's output is read by lines (:L40-52); bytes once it ended")
	}
	_, lines, err := job.Tail(j, 1000, nil)
	if err != nil {
		return err
	}
	var first, last int64
	for _, l := range lines {
		if l.Stream != stream {
			continue
		}
		if first == 0 {
			first = l.N
		}
		last = l.N
		if h.Range.Unit == 'L' && (l.N < h.Range.From || h.Range.To != 0 && l.N > h.Range.To) {
			continue
		}
		fmt.Fprintln(ios.Out, l.Text)
	}
	if h.Range.Unit == 'L' && first > 0 && h.Range.From < first {
		fmt.Fprintf(ios.Err, "ctx get: %s is running; its live tail holds %s lines %d-%d (lines before are in its run once it ends)\n", j.Handle(), stream, first, last)
	}
	return nil
}
