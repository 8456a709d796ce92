package bench

import (
	"context"
	"os"
	"time"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/store"
)

// RunCommand runs a command the way `ctx run` does — its output captured on
// pseudo-terminals into a spool — and returns the digest, stored in the
// scratch store.
func (s *Scratch) RunCommand(ctx context.Context, argv []string, dir string, opts digest.Options) (*digest.Result, error) {
	sp, err := s.St.NewSpool(store.SpoolMeta{Argv: argv, Dir: ".", Mode: "pty", Started: time.Now().UTC()})
	if err != nil {
		return nil, err
	}
	out, _ := sp.Stream("stdout")
	errw, _ := sp.Stream("stderr")
	env := append(os.Environ(), "PAGER=cat", "GIT_PAGER=cat")
	res, err := capture.Run(ctx, capture.Options{Argv: argv, Dir: dir, Env: env, Stdout: out, Stderr: errw,
		Timeout: 10 * time.Minute, Cols: 200, Rows: 50})
	if err != nil {
		sp.Abort()
		return nil, err
	}
	p, err := s.St.Prepare(sp, store.Manifest{Argv: argv, Dir: ".", Mode: "pty", Exit: res.Exit, Status: res.Status, Signal: res.Signal})
	if err != nil {
		return nil, err
	}
	r, err := digest.Make(ctx, p, p.Run, opts)
	if err != nil {
		return nil, err
	}
	if _, err := s.St.Commit(p, store.Exec{Argv: argv, Start: res.Start, Receipt: r.ReceiptID}, r.Extra()); err != nil {
		return nil, err
	}
	return r, nil
}
