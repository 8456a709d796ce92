package remote

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/internal/weedtest"
	"github.com/ctxhq/ctx/store"
)

// The server killed in the middle of a push: the push fails, the local store
// is untouched, and the next push (server back) finishes it; the other
// workspace then reads every run.
func TestServerStoppedMidPush(t *testing.T) {
	srv := weedtest.Start(t, weedtest.Options{})
	prefix := uniquePrefix()
	a := newStore(t)
	var runs []*store.Run
	for i := range 30 {
		runs = append(runs, capture(t, a, []string{"job", strings.Repeat("n", i)}, numbered("job"+strings.Repeat("n", i), 4000+i), nil))
	}
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx, cancel := withTimeout(2 * time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := Push(ctx, a, r); done <- err }()
	for r.Requests.Puts.Load() < 10 {
		time.Sleep(5 * time.Millisecond)
	}
	srv.Kill()
	if err := <-done; err == nil {
		t.Fatal("push reported success with the server killed under it")
	}
	rep, err := a.Check(store.CheckOptions{})
	if err != nil || !rep.OK() {
		t.Fatalf("local store after a failed push: %v %+v", err, rep)
	}
	srv.Restart(t)
	r2 := connect(t, srv.Endpoint, prefix, nil)
	// A restarted SeaweedFS answers before its volume server has registered
	// again, refusing writes with InternalError for a few seconds: push
	// again, as a user (or the next background push) would.
	var fin *PushReport
	for try := 0; try < 20; try++ {
		if fin, err = Push(ctx, a, r2); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		t.Fatal(err)
	}
	if fin.AlreadyPushed+fin.Execs != len(runs) {
		t.Fatalf("second push: %+v (of %d runs)", fin, len(runs))
	}
	b := newStore(t)
	for _, run := range runs {
		if _, _, err := Pull(ctx, b, r2, handle("run", run.ID)); err != nil {
			t.Fatalf("after the interrupted push: %v", err)
		}
		want := readAll(t, a, run.Manifest.Stdout.Blob)
		if got := readAll(t, b, run.Manifest.Stdout.Blob); !bytes.Equal(got, want) {
			t.Fatalf("%s differs after the interrupted push", run.Handle())
		}
	}
}

// A slow server: the push still completes and is correct; a deadline stops
// it cleanly, and the next push finishes it.
func TestSlowServer(t *testing.T) {
	srv := server(t)
	proxy := weedtest.NewProxy(t, srv)
	prefix := uniquePrefix()
	a := newStore(t)
	run := capture(t, a, []string{"slow"}, numbered("slow", 20000), nil)
	r := connect(t, proxy.Endpoint, prefix, nil)
	proxy.SetDelay(30 * time.Millisecond)
	ctx, cancel := withTimeout(150 * time.Millisecond)
	_, err := Push(ctx, a, r)
	cancel()
	if err == nil {
		t.Fatal("a push against a slow server beat a 150 ms deadline")
	}
	ctx, cancel = withTimeout(2 * time.Minute)
	defer cancel()
	start := time.Now()
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 100*time.Millisecond {
		t.Fatalf("the proxy did not slow the push (%s)", time.Since(start))
	}
	proxy.SetDelay(0)
	b := newStore(t)
	if _, _, err := Pull(ctx, b, connect(t, srv.Endpoint, prefix, nil), handle("run", run.ID)); err != nil {
		t.Fatal(err)
	}
}

// A bucket that refuses writes (a read-only identity): push fails with the
// server's reason, nothing is recorded as pushed, the local store is intact.
func TestBucketRefusesWrites(t *testing.T) {
	const conf = `{"identities":[
	 {"name":"admin","credentials":[{"accessKey":"adminkey","secretKey":"adminsecret"}],"actions":["Admin","Read","List","Write","Tagging"]},
	 {"name":"reader","credentials":[{"accessKey":"readerkey","secretKey":"readersecret"}],"actions":["Read","List"]}]}`
	srv := weedtest.Start(t, weedtest.Options{S3Config: conf})
	prefix := uniquePrefix()
	t.Setenv("AWS_ACCESS_KEY_ID", "adminkey")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "adminsecret")
	connect(t, srv.Endpoint, prefix, nil) // makes the bucket
	t.Setenv("AWS_ACCESS_KEY_ID", "readerkey")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "readersecret")
	r := connect(t, srv.Endpoint, prefix, nil)
	a := newStore(t)
	capture(t, a, []string{"echo"}, []byte("kept locally\n"), nil)
	ctx, cancel := withTimeout(time.Minute)
	defer cancel()
	_, err := Push(ctx, a, r)
	if err == nil || !strings.Contains(err.Error(), "AccessDenied") {
		t.Fatalf("push to a read-only bucket: %v", err)
	}
	again, err := Push(ctx, a, r)
	if err == nil || again.AlreadyPushed != 0 {
		t.Fatalf("a refused push was recorded as done: %+v %v", again, err)
	}
	if rep, err := a.Check(store.CheckOptions{}); err != nil || !rep.OK() {
		t.Fatalf("local store after a refused push: %v %+v", err, rep)
	}
}

// With recipients configured, the bucket holds no plaintext; a reader with
// the identity reads everything, one without it is told how to fix it, and
// an altered sealed object is refused.
func TestEncryptedRemote(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	enc := encrypted(t)
	a, b := newStore(t), newStore(t)
	secret := numbered("confidential-build-output", 20000)
	run := capture(t, a, []string{"build"}, secret, nil)
	r := connect(t, srv.Endpoint, prefix, enc)
	ctx := context.Background()
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	plain := connect(t, srv.Endpoint, prefix, nil)
	objs, err := plain.list(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		body, err := plain.get(ctx, plain.key(o.Key))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(body, []byte("confidential")) || bytes.Contains(body, []byte(`"argv"`)) {
			t.Fatalf("%s holds plaintext", o.Key)
		}
	}
	if _, _, err := Pull(ctx, b, plain, handle("run", run.ID)); err == nil || !strings.Contains(err.Error(), "identity_file") {
		t.Fatalf("pull without the identity: %v", err)
	}
	if _, _, err := Pull(ctx, b, connect(t, srv.Endpoint, prefix, enc), handle("run", run.ID)); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, b, run.Manifest.Stdout.Blob); !bytes.Equal(got, secret) {
		t.Fatal("decrypted output differs")
	}
	// A ranged read of one sealed frame decrypts too, and an altered frame fails.
	rb, err := r.table(ctx, run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := r.get(ctx, rb.data)
	bad := bytes.Clone(data)
	bad[rb.offs[1]+rb.lens[1]/2] ^= 1
	if err := r.putOver(ctx, rb.data, bad); err != nil {
		t.Fatal(err)
	}
	blob, err := r.OpenBlob(ctx, run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blob.ReadAll(); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("altered sealed frame read: %v", err)
	}
}

// Remote gc deletes only what no workspace's index references, and a dry
// run deletes nothing.
func TestRemoteGCKeepsWhatAnyWorkspaceReferences(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	a, b := newStore(t), newStore(t)
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()
	shared := capture(t, a, []string{"shared"}, numbered("shared", 3000), nil)
	only := capture(t, a, []string{"only-a"}, numbered("only-a", 3000), nil)
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Pull(ctx, b, r, handle("run", shared.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := Push(ctx, b, r); err != nil {
		t.Fatal(err)
	}
	// a forgets both runs; b still holds the shared one.
	for _, run := range []*store.Run{shared, only} {
		if _, err := a.RemoveRun(run.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	dry, err := GC(ctx, r, GCOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Deleted) != 0 || dry.Kept == 0 {
		t.Fatalf("within the grace period nothing goes: %+v", dry)
	}
	dry, err = GC(ctx, r, GCOptions{DryRun: true, Grace: -time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Deleted) == 0 {
		t.Fatalf("dry run found nothing to delete: %+v", dry)
	}
	if _, err := r.GetRun(ctx, only.ID); err != nil {
		t.Fatalf("dry run deleted: %v", err)
	}
	rep, err := GC(ctx, r, GCOptions{Grace: -time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Workspaces != 2 || len(rep.Deleted) != len(dry.Deleted) {
		t.Fatalf("gc: %+v", rep)
	}
	if _, err := r.GetRun(ctx, only.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unreferenced run kept: %v", err)
	}
	c := newStore(t)
	if _, _, err := Pull(ctx, c, r, handle("run", shared.ID)); err != nil {
		t.Fatalf("gc deleted a run another workspace references: %v", err)
	}
	if _, err := r.table(ctx, only.Manifest.Stdout.Blob); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unreferenced blob kept: %v", err)
	}
}

// A capsule handed to another machine cites runs and blobs by id; remote gc
// keeps them after every workspace index has forgotten them, so the capsule
// still resolves where it is received.
func TestRemoteGCKeepsWhatLayerRecordsCite(t *testing.T) {
	srv := server(t)
	r := connect(t, srv.Endpoint, uniquePrefix(), nil)
	a := newStore(t)
	ctx := context.Background()
	cited := capture(t, a, []string{"cited"}, numbered("cited", 3000), nil)
	byBlob := capture(t, a, []string{"by-blob"}, numbered("by-blob", 3000), nil)
	forgotten := capture(t, a, []string{"forgotten"}, numbered("forgotten", 3000), nil)
	rec := []byte(`{"kind":"capsule","runs":["run:` + cited.ID.String() + `"],"evidence":"blob:` +
		byBlob.Manifest.Stdout.Blob.String() + `"}`)
	id := store.Sum(rec)
	if _, err := a.PutLayerRecord(capsuleBucket, id[:], rec); err != nil {
		t.Fatal(err)
	}
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	for _, run := range []*store.Run{cited, byBlob, forgotten} {
		if _, err := a.RemoveRun(run.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	rep, err := GC(ctx, r, GCOptions{Grace: -time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LayerRecords == 0 {
		t.Fatalf("gc read no layer record: %+v", rep)
	}
	if _, err := r.GetRun(ctx, forgotten.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a run nothing references was kept: %v", err)
	}
	b := newStore(t)
	if _, rep, ok, err := PullLayer(ctx, b, r, "capsule:"+id.Short()); !ok || err != nil || rep.Missing != 0 {
		t.Fatalf("the capsule lost what it cites: %+v %v %v", rep, ok, err)
	}
	if _, err := b.GetRun(cited.ID); err != nil {
		t.Fatalf("cited run: %v", err)
	}
	if _, err := r.table(ctx, byBlob.Manifest.Stdout.Blob); err != nil {
		t.Fatalf("a blob the capsule names was deleted: %v", err)
	}
}
