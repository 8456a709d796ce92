package getcmd

import (
	"context"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/store"
)

// What only the helper binaries link (internal/helper), given to ctx get,
// ctx show and ctx run by the helpers' mains. In ctx itself both are nil: a
// py: handle is handed to ctx-mcp, a handle only the remote holds to
// ctx-remote, and ctx run starts ctx-remote for the background push.
var (
	// Py reads py: handles (Starlark, internal/cmd/pycmd).
	Py *seqcmd.Kind
	// Tier is the remote tier (internal/cmd/remotecmd).
	Tier RemoteTier
)

// RemoteTier is what ctx get, show and run use of the remote tier
// (internal/cmd/remotecmd implements it).
type RemoteTier interface {
	// Resolve finds a handle in the configured remote, caching it in this
	// workspace's store.
	Resolve(ios *cli.IO, h store.Handle, raw string) (*store.Store, *store.Target, error)
	// OpenBlob opens a blob of t locally, else from the remote.
	OpenBlob(st *store.Store, t *store.Target, id store.ID) (*store.Blob, error)
	// InPlace reports whether t is read from the remote without a local copy.
	InPlace(t *store.Target) bool
	// ShowTarget is what ctx show reads for t: t, or for a run read in
	// place, the receipt of its newest digest, copied from the remote.
	ShowTarget(ctx context.Context, st *store.Store, t *store.Target) (*store.Target, error)
	// Trace prints the requests made of the remote (CTX_TRACE).
	Trace(ios *cli.IO)
	// StartPush starts the background push after a commit when configured.
	StartPush(ios *cli.IO, st *store.Store)
}

// OpenBlob opens a blob of t: through the remote tier where it is linked,
// else from st.
func OpenBlob(st *store.Store, t *store.Target, id store.ID) (*store.Blob, error) {
	if Tier != nil {
		return Tier.OpenBlob(st, t, id)
	}
	return st.Blob(id)
}

// StartPush starts the background push to the remote after a commit, when a
// remote is configured: through the tier where it is linked, else by
// starting ctx-remote detached, which reads the configuration and decides.
func StartPush(ios *cli.IO, st *store.Store) {
	if Tier != nil {
		Tier.StartPush(ios, st)
		return
	}
	if ios.Getenv("CTX_NO_PUSH") != "" || !helper.RemoteConfigured(st.Dir()) {
		return
	}
	if path, err := helper.Find(helper.Remote); err == nil {
		cli.StartDetachedProgram(ios, path, "remote", "after-run")
	}
}
