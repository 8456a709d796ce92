package runner

import (
	"context"
	"os"
	"time"

	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// Generations lets the captures of one sequence share the work tree's
// generation: a capture whose tree is unchanged since the git status of an
// earlier one started takes that generation instead of running git status
// again. Unchanged is vouched for by a stamp of the tree where it is small
// (source.Stamp, the cheaper for a few steps there), else by an inotify
// watch of the tree's directories set up before the git status it vouches
// for (source.Watch). Steps that change the tree (a build writing a file, a
// git commit), and trees neither can vouch for, get a git status of their
// own, as every ctx run does. Not safe for concurrent use: a sequence's
// captures run one after another; Close releases the watch.
type Generations struct {
	skip  string        // the store's directory, hidden from git
	root  string        // the work tree of last
	stamp *source.Stamp // taken just before last's git status started
	watch *source.Watch // of root, set up before last's git status started
	// watching is closed once the watch's set-up, which runs beside the
	// first watched step's command, has returned (nil: none running);
	// setUp is how long it took, which that step's wait for its
	// generation adds (see extraWait).
	watching chan struct{}
	setUp    time.Duration
	last     *source.Pending
	// off is set once stamping cannot pay: the tree is one a stamp cannot
	// vouch for, or it changed under a stamp that cost more than
	// stampDear (a stamp is an lstat per entry, about 6.5 us each here; a
	// git status of the same tree costs a process start and a little
	// more). The rest of the sequence watches the tree instead, once
	// (watched), or runs git status as ctx run does.
	off, watched bool
	// late is the pipe to the helper computing the late generations of
	// lateRoot, a work tree handed off at the start (Env.DeferAtStart):
	// the later steps' keys go to it, so each step records a generation,
	// not only the first (whose helper holds the tree's late lock while
	// it runs, which declined every other).
	late     *os.File
	lateRoot string
	// final is set once the next capture is the sequence's last (Final):
	// it may still take the last generation, but sets up nothing for
	// steps after it, since there are none.
	final bool
}

// stampDear is the cost from which a stamp that found the tree changed is
// not taken again in the sequence: in a tree small enough that a stamp
// costs less, trying again costs less than one git status.
const stampDear = time.Millisecond

// lateWrite bounds the write of a step's key to the late generations'
// pipe (a line, which the pipe's buffer takes at once while the helper
// reads).
const lateWrite = 100 * time.Millisecond

// NewGenerations shares generations among captures into st.
func NewGenerations(st *store.Store) *Generations { return &Generations{skip: st.Dir()} }

// Final tells g that the next capture is the last of the sequence: no
// stamp is taken and no watch set up for it alone (a sequence of one step
// runs git status as ctx run does; in a large tree a watch's set-up costs
// about a third of a git status, for no later step to share), while a
// stamp or watch set up for an earlier step still lets it take that
// step's generation.
func (g *Generations) Final() { g.final = true }

// Close releases the watch of the tree and ends the late generations'
// pipe, so its helper finishes the keys it was given and exits (nil-safe).
func (g *Generations) Close() {
	if g != nil {
		g.closeWatch()
		g.closeLate()
	}
}

// closeWatch releases the watch, once its set-up has returned.
func (g *Generations) closeWatch() {
	g.waitWatch()
	g.watch.Close()
	g.watch = nil
}

// extraWait is what the capture whose generation start just gave adds to
// its wait for it: the watch's set-up, when that capture's git status
// started after it, so git status has as long after the command as when
// the set-up held the command up (and a tree is not marked late for the
// watch's time).
func (g *Generations) extraWait() time.Duration {
	if g == nil || g.watching == nil {
		return 0
	}
	g.waitWatch()
	d := g.setUp
	g.setUp = 0
	return d
}

// waitWatch waits for the watch's set-up, when one is running.
func (g *Generations) waitWatch() {
	if g.watching != nil {
		<-g.watching
		g.watching = nil
	}
}

func (g *Generations) closeLate() {
	if g.late != nil {
		g.late.Close()
		g.late, g.lateRoot = nil, ""
	}
}

// handOff hands the generation of a step (d: of a work tree whose
// generation is handed off at the start, or one whose git status was
// late, after which the tree is) to the helper an earlier step's hand-off
// started, by its key on the pipe, or else to Env.Defer with a new pipe
// for the later steps' keys. Where the pipe is gone (the helper ended: its
// time was up, or it failed) it hands off as a capture outside a sequence
// does (so does a nil g). The result is the execution's note, as
// handOff's.
func (g *Generations) handOff(env *Env, d Deferral) string {
	if g == nil || env.Defer == nil {
		return handOff(env, d)
	}
	if g.late != nil && g.lateRoot == d.Root {
		// A helper that stopped reading (its time is up) does not hold
		// the step up: past the deadline it is handed off anew.
		_ = g.late.SetWriteDeadline(time.Now().Add(lateWrite))
		if _, err := g.late.WriteString(d.Exec + "\n"); err == nil {
			return ""
		}
	}
	g.closeLate()
	r, w, err := os.Pipe()
	if err != nil {
		return handOff(env, d)
	}
	d.More = r
	note := handOff(env, d)
	r.Close() // the helper holds its own copy
	if note != "" {
		w.Close()
		return note
	}
	g.late, g.lateRoot = w, d.Root
	return ""
}

// start is the generation for a capture in dir, in the work tree at top:
// the last one when the tree is unchanged since it was started, else a new
// git status. A tree whose generation is handed off as the command starts
// (Env.DeferAtStart) never comes here: its git status runs elsewhere, so
// there is no generation here to share and a watch would cost for nothing.
func (g *Generations) start(ctx context.Context, dir, top string) *source.Pending {
	if g.root != top {
		g.closeWatch()
		g.root, g.last, g.stamp, g.off, g.watched = top, nil, nil, false, false
	}
	if !g.off {
		if p := g.stamped(ctx, dir, top); p != nil {
			return p
		}
	}
	if !g.watched {
		if g.final {
			return source.Start(ctx, dir) // a watch no later step would look at
		}
		// The watch is set up while the command starts: only the git
		// status it vouches for must start after it. A change the
		// command makes before the set-up ends is no event, but is in
		// that git status, which starts later; one after it is an event.
		g.watched = true
		done := make(chan struct{})
		g.watching = done
		g.last = source.StartAfter(ctx, dir, func() {
			defer close(done)
			began := time.Now()
			g.watch = source.WatchTree(top, g.skip)
			g.setUp = time.Since(began)
		})
		if g.last == nil {
			close(done) // no work tree after all: nothing ran
		}
		return g.last
	}
	g.waitWatch()
	if g.watch == nil {
		return source.Start(ctx, dir)
	}
	if !g.watch.Changed() && g.last != nil {
		if gen, done, err := g.last.Finished(); done && err == nil {
			return source.Ready(top, gen)
		}
	}
	if g.watch.Dead() {
		g.closeWatch()
		return source.Start(ctx, dir)
	}
	g.last = source.Start(ctx, dir)
	return g.last
}

// stamped is start's answer while stamps pay: the last generation when the
// tree's stamp is unchanged since it was computed, else a new git status;
// nil, with off set, when the tree is one a stamp cannot vouch for.
func (g *Generations) stamped(ctx context.Context, dir, top string) *source.Pending {
	if g.final && g.last == nil {
		return source.Start(ctx, dir) // no generation to compare with, no later step to share it
	}
	began := time.Now()
	stamp := source.Restamp(g.stamp, top, g.skip)
	if stamp == nil {
		g.off = true
		return nil
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
