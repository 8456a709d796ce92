package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ctxhq/ctx/internal/weedtest"
	"github.com/ctxhq/ctx/remote"
)

// TestRemoteScripts runs testdata/remote against a real SeaweedFS started
// for the test: $S3 is its endpoint, $BUCKET a bucket made for it, $PREFIX a
// key prefix of each script's own.
func TestRemoteScripts(t *testing.T) {
	srv := weedtest.Start(t, weedtest.Options{})
	const bucket = "ctx-scripts"
	r, err := remote.Open(&remote.Config{Endpoint: srv.Endpoint, Bucket: bucket, Prefix: "x"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/remote",
		Setup: func(env *testscript.Env) error {
			var b [6]byte
			_, _ = rand.Read(b[:])
			env.Setenv("S3", srv.Endpoint)
			env.Setenv("BUCKET", bucket)
			env.Setenv("PREFIX", "s-"+hex.EncodeToString(b[:]))
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("CTX_SESSION", "")
			env.Setenv("CTX_PRESSURE", "")
			env.Setenv("CTX_NO_COMPACT", "1")
			return nil
		},
	})
}
