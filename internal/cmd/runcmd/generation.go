package runcmd

import (
	"context"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/source"
)

// startGeneration begins computing the generation of the work tree holding
// dir while the command runs (CTX_NO_GENERATION=1 turns it off).
func startGeneration(ctx context.Context, ios *cli.IO, dir string) *source.Pending {
	if ios.Getenv("CTX_NO_GENERATION") == "1" {
		return nil
	}
	return source.Start(ctx, dir)
}
