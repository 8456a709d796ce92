package runner

import (
	"context"
	"time"

	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// Generations lets the captures of one sequence share the work tree's
// generation: a capture whose tree is unchanged since the git status of an
// earlier one started takes that generation instead of running git status
// again. Unchanged is vouched for by an inotify watch of the tree's
// directories set up before the first git status (source.Watch), or, where
// a watch is refused, by a stamp of a small tree (source.Stamp). Steps that
// change the tree (a build writing a file, a git commit), and trees neither
// can vouch for, get a git status of their own, as every ctx run does. Not
// safe for concurrent use: a sequence's captures run one after another;
// Close releases the watch.
type Generations struct {
	skip  string        // the store's directory, hidden from git
	root  string        // the work tree of last
	watch *source.Watch // of root, set up before last's git status started
	stamp *source.Stamp // taken just before last's git status started
	last  *source.Pending
	// off is set once stamping cannot pay: the tree is one a stamp cannot
	// vouch for, or it changed under a stamp that cost more than
	// stampDear (a stamp is an lstat per entry, about 6.5 us each here; a
	// git status of the same tree costs a process start and a little
	// more). The rest of the sequence runs git status as ctx run does.
	off bool
}

// stampDear is the cost from which a stamp that found the tree changed is
// not taken again in the sequence: in a tree small enough that a stamp
// costs less, trying again costs less than one git status.
const stampDear = time.Millisecond

// NewGenerations shares generations among captures into st.
func NewGenerations(st *store.Store) *Generations { return &Generations{skip: st.Dir()} }

// Close releases the watch of the tree (nil-safe).
func (g *Generations) Close() {
	if g != nil {
		g.watch.Close()
		g.watch = nil
	}
}

// start is the generation for a capture in dir: the last one when the
// tree is unchanged since it was started, else a new git status.
func (g *Generations) start(ctx context.Context, dir string) *source.Pending {
	top, ok := source.Top(dir)
	if !ok {
		return nil
	}
	if g.root != top {
		g.Close()
		g.root, g.last, g.stamp, g.off = top, nil, nil, false
		g.watch = source.WatchTree(top, g.skip)
	}
	if g.watch != nil {
		if !g.watch.Changed() && g.last != nil {
			if gen, done, err := g.last.Finished(); done && err == nil {
				return source.Ready(top, gen)
			}
		}
		if !g.watch.Dead() {
			g.last = source.Start(ctx, dir)
			return g.last
		}
		g.Close()
		g.last = nil // the stamp below vouches only for its own
	}
	return g.stamped(ctx, dir, top)
}

// stamped is start's answer where no watch vouches for the tree: the last
// generation when the tree's stamp is unchanged since it was computed.
func (g *Generations) stamped(ctx context.Context, dir, top string) *source.Pending {
	if g.off {
		return source.Start(ctx, dir)
	}
	began := time.Now()
	stamp := source.TakeStamp(top, g.skip)
	if stamp == nil {
		g.off = true
		return source.Start(ctx, dir)
	}
	if g.last != nil && g.stamp.Same(stamp) {
		if gen, done, err := g.last.Finished(); done && err == nil {
			return source.Ready(top, gen)
		}
	} else if g.last != nil && time.Since(began) > stampDear {
		g.off = true
	}
	g.stamp, g.last = stamp, source.Start(ctx, dir)
	return g.last
}
