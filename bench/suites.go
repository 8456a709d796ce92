package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/runner"
)

// RunCommand runs a command the way `ctx run` does — its output captured on
// pseudo-terminals into a spool — and returns the digest, stored in the
// scratch store.
func (s *Scratch) RunCommand(ctx context.Context, argv []string, dir string, opts digest.Options) (*digest.Result, error) {
	res, err := runner.Capture(ctx, s.env(), &runner.Request{Argv: argv, Dir: dir, Where: ".", Digest: opts,
		Timeout: 10 * time.Minute})
	if err != nil {
		return nil, err
	}
	if res.DigestErr != nil {
		return nil, fmt.Errorf("digest: %w", res.DigestErr)
	}
	return res.Digest, nil
}
