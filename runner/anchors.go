package runner

import (
	"path/filepath"
	"strings"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// repoRoot is the repository a run's failure locations are anchored in:
// the git work tree holding dir, else dir itself, as ctx get resolves
// repo: paths (source.Root), found without running git.
func repoRoot(dir string) string {
	if top, ok := source.Top(dir); ok {
		return top
	}
	return dir
}

// withAnchors is opts set to mint repo: handles for failure locations
// against the repository holding dir, the directory the command ran in.
// Options that name a repository already keep it; dir "" mints none.
func withAnchors(opts digest.Options, dir string) digest.Options {
	if opts.Repo == "" && dir != "" {
		opts.Repo, opts.Dir = repoRoot(dir), dir
	}
	return opts
}

// digestOptions are the request's digest options with repo: handles
// minted where the command ran, for every front end (ctx run, ingest, the
// MCP server, seq, scripts, jobs). A run recorded under another directory
// than the one it ran in (Where: a benchmark's copied fixture) gets none:
// its handles would name files that nothing the run records leads back to.
func (req *Request) digestOptions() digest.Options {
	if req.Where != "" {
		return req.Digest
	}
	return withAnchors(req.Digest, req.Dir)
}

// ranIn is the absolute directory a stored run ran in: its newest
// execution's, else the recorded directory under the workspace root, or ""
// when the run was recorded outside the workspace (by base name only).
func ranIn(st *store.Store, run *store.Run, ex *store.Exec) string {
	if ex != nil && ex.Cwd != "" {
		return ex.Cwd
	}
	d := run.Manifest.Dir
	if d == "" || strings.HasPrefix(d, "(outside)/") {
		return ""
	}
	return filepath.Join(st.Root(), filepath.FromSlash(d))
}
