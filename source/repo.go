package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Root returns the top of the git work tree holding dir, or dir itself
// when it is in none (or git is missing): repo: paths are relative to it.
func Root(ctx context.Context, dir string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return dir
	}
	if r := strings.TrimSpace(string(out)); r != "" {
		return filepath.FromSlash(r)
	}
	return dir
}

// Top returns the top of the git work tree holding dir by looking for
// .git upwards, without running git; ok is false outside one, or when
// GIT_DIR or GIT_WORK_TREE make the answer git's to give.
func Top(dir string) (string, bool) {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_WORK_TREE") != "" {
		return "", false
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}

// ErrLate is Wait's error when the generation was not ready in time.
var ErrLate = errors.New("late")

// Pending is a generation being computed in the background.
type Pending struct {
	root   string // the work tree's top
	done   chan struct{}
	cancel context.CancelFunc
	gen    *Generation
	err    error
}

// Start computes the generation of the work tree holding dir in the
// background, so it costs a command nothing unless the command is the
// shorter of the two. It returns nil outside a git work tree.
func Start(ctx context.Context, dir string) *Pending { return StartAfter(ctx, dir, nil) }

// StartAfter is Start with first (when not nil) run in the background
// before git status starts: what must happen before the git status it
// vouches for (a sequence's watch of the tree) without holding up the
// command. The caller learns that first has returned from first itself.
func StartAfter(ctx context.Context, dir string, first func()) *Pending {
	top, ok := Top(dir)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &Pending{root: top, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		if first != nil {
			first()
		}
		p.gen, p.err = Current(ctx, top, nil)
	}()
	return p
}

// Root is the top of the work tree whose generation is being computed.
func (p *Pending) Root() string { return p.root }

// Stop stops the computation (its git process killed) without waiting.
func (p *Pending) Stop() { p.cancel() }

// Wait returns the generation, waiting at most d for it; past d the
// computation is stopped (its git process killed) and Wait fails.
func (p *Pending) Wait(d time.Duration) (*Generation, error) {
	if p == nil {
		return nil, errors.New("not in a git work tree")
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		p.cancel()
		return p.gen, p.err
	case <-t.C:
		p.cancel() // kills git; not waited for, so a late scan costs no more time
		return nil, fmt.Errorf("the work tree's generation took over %v: %w", d, ErrLate)
	}
}
