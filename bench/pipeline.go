package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ctxhq/ctx/digest"
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

// Digest stores an output as a run (as `ctx ingest --as` would) and returns its
// digest with everything it was made from.
func (s *Scratch) Digest(ctx context.Context, argv []string, exit int, stdout, stderr []byte, opts digest.Options) (*digest.Result, error) {
	sp, err := s.St.NewSpool(store.SpoolMeta{Argv: argv, Dir: ".", Mode: "ingest", Started: time.Now().UTC(), Cap: 1 << 62})
	if err != nil {
		return nil, err
	}
	for _, st := range []struct {
		name string
		data []byte
	}{{"stdout", stdout}, {"stderr", stderr}} {
		w, err := sp.Stream(st.name)
		if err != nil {
			sp.Abort()
			return nil, err
		}
		if _, err := w.Write(st.data); err != nil {
			sp.Abort()
			return nil, err
		}
	}
	p, err := s.St.Prepare(sp, store.Manifest{Argv: argv, Dir: ".", Mode: "ingest", Exit: exit, Status: store.StatusIngested})
	if err != nil {
		sp.Abort()
		return nil, err
	}
	res, err := digest.Make(ctx, p, p.Run, opts)
	if err != nil {
		sp.Abort()
		return nil, fmt.Errorf("digest: %w", err)
	}
	ex := store.Exec{Argv: argv, Start: time.Now().UTC(), Receipt: res.ReceiptID, Note: "bench"}
	if _, err := s.St.Commit(p, ex, res.Extra()); err != nil {
		return nil, err
	}
	return res, nil
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
