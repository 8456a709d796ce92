package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

// Scratch is a throw-away store the suites digest outputs in, through the same
// path `ctx ingest` takes: spool, prepare, profile, plan, render, commit.
type Scratch struct {
	St  *store.Store
	dir string
}

// NewScratch makes a scratch store under dir (a temporary directory when "").
func NewScratch(dir string) (*Scratch, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "ctx-bench-")
		if err != nil {
			return nil, err
		}
		dir = d
	}
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, store.DirName), Root: dir}, true)
	if err != nil {
		return nil, err
	}
	return &Scratch{St: st, dir: dir}, nil
}

// Close removes the scratch store.
func (s *Scratch) Close() error {
	s.St.Close()
	return os.RemoveAll(s.dir)
}

// Digest stores an output as a run (as `ctx ingest --as` would, through the
// same runner) and returns its digest with everything it was made from.
func (s *Scratch) Digest(ctx context.Context, argv []string, exit int, stdout, stderr []byte, opts digest.Options) (*digest.Result, error) {
	res, err := runner.Ingest(ctx, s.env(), &runner.Request{Argv: argv, Dir: s.dir, Where: ".", Digest: opts,
		Stdout: bytes.NewReader(stdout), Stderr: bytes.NewReader(stderr), Exit: exit, Note: "bench"})
	if err != nil {
		return nil, err
	}
	if res.DigestErr != nil {
		return nil, fmt.Errorf("digest: %w", res.DigestErr)
	}
	return res.Digest, nil
}

// env is the runner's view of the scratch store: the real clock and
// environment, no host facts (a scratch run is never listed).
func (s *Scratch) env() *runner.Env {
	return &runner.Env{Store: s.St, Now: time.Now, Environ: os.Environ()}
}

// Lines reads lines from..to of a stored run's stream, as `ctx get` would.
func (s *Scratch) Lines(handle string) ([]byte, error) {
	h, err := store.ParseHandle(handle)
	if err != nil {
		return nil, err
	}
	t, err := s.St.Resolve(h)
	if err != nil {
		return nil, err
	}
	ref, ok := t.Run.StreamBlob(t.Stream)
	if !ok {
		return nil, fmt.Errorf("%s: no stream", handle)
	}
	b, err := s.St.Blob(ref.Blob)
	if err != nil {
		return nil, err
	}
	to := t.Range.To
	if to == 0 {
		to = b.Lines()
	}
	off, end, err := b.LineRange(t.Range.From, to)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, end-off)
	n, err := readFull(b.Section(off, end), buf)
	return buf[:n], err
}
