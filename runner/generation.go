package runner

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// How long ctx run waits, once the command has ended, for the work tree's
// generation (computed while the command ran): as long as the command took,
// within these bounds, so recording it at most doubles a short command or
// adds 20 ms. Past the wait the execution is recorded without one: a large
// work tree (its git status stats every tracked file, ~40 ms of CPU for
// 20,000 files here) and a command shorter than that.
const (
	generationMinWait = 20 * time.Millisecond
	generationMaxWait = 2 * time.Second
)

// execGeneration is the generation as an execution records it, or nil
// (outside a git work tree, turned off, failed or late).
func execGeneration(p *source.Pending, took time.Duration) *store.Generation {
	if p == nil {
		return nil
	}
	g, err := p.Wait(min(max(took, generationMinWait), generationMaxWait))
	if err != nil {
		return nil
	}
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

// startGeneration is the generation the request brings (ctx run starts it
// before the store opens), else one started now for the work tree holding
// the command's directory, so every front end's executions record one (the
// MCP server, seq, scripts, jobs). None for a run recorded under another
// directory (Where: a benchmark's copied fixture) or with
// CTX_NO_GENERATION=1 in the environment the command gets.
func startGeneration(ctx context.Context, env *Env, req *Request) *source.Pending {
	if req.Generation != nil || req.Where != "" || getenv(env.Environ, "CTX_NO_GENERATION") == "1" {
		return req.Generation
	}
	return source.Start(ctx, req.Dir)
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
