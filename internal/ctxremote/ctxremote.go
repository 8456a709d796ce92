// Package ctxremote is the ctx-remote helper binary's program: ctx's core
// commands with the remote tier linked (internal/cmd/remotecmd): ctx push,
// ctx pull, ctx remote, get/show falling back to the remote, and the
// background push ctx run starts after a commit.
package ctxremote

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/app"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/internal/cmd/remotecmd"
	"github.com/ctxhq/ctx/store"
)

// Main runs ctx-remote with the process's arguments.
func Main() int { return app.Main(Commands()) }

// Commands is ctx's core table with the remote tier's commands, the tier
// linked into get, show and run.
func Commands() *app.Commands {
	Link()
	c := app.Core()
	c.Add("push", remotecmd.NewPushCmd)
	c.Add("pull", remotecmd.NewPullCmd)
	c.Add("remote", newRemoteCmd)
	return c
}

// Link gives get, show and run the remote tier.
func Link() { getcmd.Tier = tier{} }

// newRemoteCmd is ctx remote with the hidden after-run: what ctx (which does
// not link the tier) starts detached after a commit when a remote
// configuration exists, to start the background push if it asks for one.
func newRemoteCmd(ios *cli.IO) *cobra.Command {
	c := remotecmd.NewRemoteCmd(ios)
	c.AddCommand(&cobra.Command{
		Use:    "after-run",
		Short:  "Start the background push after a commit, when the remote asks for one",
		Hidden: true,
		Args:   cli.ExactArgs(0, "ctx remote after-run"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cli.OpenStore(ios, false)
			if err != nil {
				return err
			}
			defer st.Close()
			remotecmd.StartPush(ios, st)
			return nil
		},
	})
	return c
}

// tier is remotecmd as getcmd.RemoteTier.
type tier struct{}

func (tier) Resolve(ios *cli.IO, h store.Handle, raw string) (*store.Store, *store.Target, error) {
	return remotecmd.Resolve(ios, h, raw)
}

func (tier) OpenBlob(st *store.Store, t *store.Target, id store.ID) (*store.Blob, error) {
	return remotecmd.OpenBlob(st, t, id)
}

func (tier) InPlace(t *store.Target) bool { return remotecmd.InPlace(t) }

func (tier) ShowTarget(ctx context.Context, st *store.Store, t *store.Target) (*store.Target, error) {
	return remotecmd.ShowTarget(ctx, st, t)
}

func (tier) Trace(ios *cli.IO)                      { remotecmd.Trace(ios) }
func (tier) StartPush(ios *cli.IO, st *store.Store) { remotecmd.StartPush(ios, st) }
