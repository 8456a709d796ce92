package runner

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// How long ctx run waits, once the command has ended, for the work tree's
// generation (computed while the command ran): as long as the command took,
// within these bounds, so recording it at most doubles a short command or
// adds 20 ms. A generation still running past the wait (a large work tree,
// whose git status stats every tracked file: ~50 ms of CPU for 20,000 files
// here, and a shorter command) is handed off to Env.Defer and recorded later
// beside the execution; without Defer the execution has none.
// CTX_GENERATION_WAIT (a Go duration) replaces the wait: tests and
// benchmarks force a hand-off with 0.
const (
	generationMinWait = 20 * time.Millisecond
	generationMaxWait = 2 * time.Second
)

// Deferral is a generation handed off because git status outlasted the
// wait, or because it did last time (Env.DeferAtStart): Env.Defer computes
// it outside the capture and records it for the execution under Exec.
type Deferral struct {
	Exec string // the execution record's key
	Root string // the work tree's top
	// More, when set, is where the keys of later executions in the same
	// work tree arrive, one a line, until it ends (a sequence's later
	// steps: see Generations): Defer hands it to whatever computes this
	// generation, which then computes one for each of them too, each
	// started once its key has arrived. Defer reads none of it itself.
	More *os.File
}

// generationWait is how long to wait for the generation of a command that
// took took.
func generationWait(env *Env, took time.Duration) time.Duration {
	if v := getenv(env.Environ, "CTX_GENERATION_WAIT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			return d
		}
	}
	return min(max(took, generationMinWait), generationMaxWait)
}

// execGeneration is the generation as an execution records it, or nil
// (outside a git work tree, turned off, failed or late: late says git
// status was still running when the wait ended).
func execGeneration(p *source.Pending, wait time.Duration) (rec *store.Generation, late bool) {
	if p == nil {
		return nil, false
	}
	g, err := p.Wait(wait)
	if errors.Is(err, source.ErrLate) {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	return StoreGeneration(g), false
}

// StoreGeneration is g as an execution record keeps it: at most
// store.MaxGenChanges changed files, the rest counted.
func StoreGeneration(g *source.Generation) *store.Generation {
	rec := &store.Generation{ID: g.ID, Head: g.Head}
	for i, c := range g.Changed {
		if i == store.MaxGenChanges {
			rec.More = len(g.Changed) - i
			break
		}
		rec.Changed = append(rec.Changed, store.GenChange{Path: c.Path, Status: c.Status, Hash: c.Hash})
	}
	return rec
}

// handOff hands a generation to Env.Defer; the result is what the
// execution's note says when it would not ("" when it did).
func handOff(env *Env, d Deferral) string {
	reason := "git status outlasted the command and no one took it over"
	if env.Defer != nil {
		err := env.Defer(d)
		if err == nil {
			return ""
		}
		reason = err.Error()
	}
	return "no generation: " + reason
}

// deferAtStart hands the generation of a work tree whose git status was
// late before to Env.Defer as the command starts, stopping gen: no git
// runs in this process and ctx does not wait for one. It returns the
// pending generation still to wait for (nil when handed off) and the note.
func deferAtStart(env *Env, gen *source.Pending, key string) (*source.Pending, string) {
	if gen == nil || !deferred(env, gen.Root()) {
		return gen, ""
	}
	gen.Stop()
	return nil, handOff(env, Deferral{Exec: key, Root: gen.Root()})
}

// deferred reports whether the generation of the work tree at root is
// handed to Env.Defer as the command starts (Env.DeferAtStart).
func deferred(env *Env, root string) bool {
	return env.Defer != nil && env.DeferAtStart != nil && env.DeferAtStart(root)
}

// joinNote appends b to an execution's note a.
func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// startGeneration is the generation the request brings (ctx run starts it
// before the store opens), else one started now for the work tree holding
// the command's directory, so every front end's executions record one (the
// MCP server, seq, scripts, jobs), with the note the execution keeps. None
// for a run recorded under another directory (Where: a benchmark's copied
// fixture) or with CTX_NO_GENERATION=1 in the environment the command gets.
// A work tree whose generation is handed off at the start (deferred) is
// handed off before any git status starts here: a sequence's steps in a
// large tree start and stop none, and look up git for none.
func startGeneration(ctx context.Context, env *Env, req *Request, key string) (*source.Pending, string) {
	if req.Generation != nil || req.Where != "" || getenv(env.Environ, "CTX_NO_GENERATION") == "1" {
		return deferAtStart(env, req.Generation, key)
	}
	top, ok := source.Top(req.Dir)
	switch {
	case !ok:
		return nil, ""
	case deferred(env, top):
		return nil, req.Generations.handOff(env, Deferral{Exec: key, Root: top})
	case req.Generations != nil:
		return req.Generations.start(ctx, req.Dir, top), ""
	}
	return source.Start(ctx, req.Dir), ""
}

// getenv is the value of key in environ (the last one wins, as in exec).
func getenv(environ []string, key string) string {
	for _, kv := range slices.Backward(environ) {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}
