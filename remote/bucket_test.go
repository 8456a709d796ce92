package remote

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// A bucket that does not exist is a wrong configuration, not a missing
// object: push and pull both say the bucket is missing and how to fix it,
// and pull does not answer that the run is not in the remote.
func TestMissingBucket(t *testing.T) {
	srv := server(t)
	r, err := Open(&Config{Endpoint: srv.Endpoint, Bucket: "ctx-no-such-bucket", Prefix: uniquePrefix(), Region: "us-east-1", Push: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	a := newStore(t)
	run := capture(t, a, []string{"echo"}, []byte("kept locally\n"), nil)
	ctx, cancel := withTimeout(time.Minute)
	defer cancel()
	_, err = Push(ctx, a, r)
	t.Logf("push: %v", err)
	if err == nil || !strings.Contains(err.Error(), `bucket "ctx-no-such-bucket" does not exist`) || !strings.Contains(err.Error(), "remote.toml") {
		t.Errorf("push to a missing bucket: %v; want it to name the missing bucket and the fix", err)
	}
	b := newStore(t)
	_, _, err = Pull(ctx, b, r, store.Handle{Scheme: store.KindRun, Prefix: run.ID.String()})
	t.Logf("pull: %v", err)
	if err == nil || errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), `bucket "ctx-no-such-bucket" does not exist`) {
		t.Errorf("pull from a missing bucket: %v; want the missing bucket, not a missing run", err)
	}
}
