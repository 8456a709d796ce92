package remote

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Two workspaces sharing a bucket: a run made in one is pulled, whole and
// verified, by the other; an output both produced is stored once.
func TestTwoWorkspacesShareABucket(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	a, b := newStore(t), newStore(t)
	ra, rb := connect(t, srv.Endpoint, prefix, nil), connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()

	big := numbered("big", 60000) // ~3.5 MiB: several frames
	runA := capture(t, a, []string{"make", "test"}, big, []byte("warning: x\n"))
	capture(t, a, []string{"echo", "hi"}, []byte("hi\n"), nil)
	repA, err := Push(ctx, a, ra)
	if err != nil {
		t.Fatal(err)
	}
	if repA.Runs != 2 || repA.Blobs < 3 {
		t.Fatalf("push from a: %+v", repA)
	}

	// b resolves a's handle through the remote and gets the same bytes.
	f, rep, err := Pull(ctx, b, rb, handle("run", runA.ID))
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != "run" || f.ID != runA.ID || rep.Execs != 1 {
		t.Fatalf("pull: %+v %+v", f, rep)
	}
	if got := readAll(t, b, runA.Manifest.Stdout.Blob); !bytes.Equal(got, big) {
		t.Fatal("pulled stdout differs from a's")
	}
	tgt, err := b.Resolve(handle("run", runA.ID))
	if err != nil || tgt.Run.ID != runA.ID {
		t.Fatalf("pulled run does not resolve locally: %v", err)
	}
	execs, _ := b.Execs(0, nil)
	if len(execs) != 1 || execs[0].Run != runA.ID {
		t.Fatalf("execution record not pulled: %+v", execs)
	}

	// b produces the same big output: pushing it sends no blob data again.
	capture(t, b, []string{"make", "test", "-v"}, big, nil)
	repB, err := Push(ctx, b, rb)
	if err != nil {
		t.Fatal(err)
	}
	if repB.BlobsPresent == 0 {
		t.Fatalf("identical output uploaded again: %+v", repB)
	}
	objs, err := ra.list(ctx, "blobs/", nil)
	if err != nil {
		t.Fatal(err)
	}
	tables := 0
	for _, o := range objs {
		if strings.HasSuffix(o.Key, "/table") && strings.Contains(o.Key, runA.Manifest.Stdout.Blob.String()) {
			tables++
		}
	}
	if tables != 1 {
		t.Fatalf("the shared output has %d tables in the bucket, want 1", tables)
	}
	// A second push sends nothing.
	again, err := Push(ctx, a, ra)
	if err != nil || again.Runs != 0 || again.AlreadyPushed != 2 {
		t.Fatalf("second push: %+v %v", again, err)
	}
}

// ctx get of 13 lines of a large remote blob reads its table and one frame:
// two requests, one of them a ranged read.
func TestRangedReadFetchesOneFrame(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	a, b := newStore(t), newStore(t)
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()
	data := numbered("out", 200000) // ~12 MiB
	run := capture(t, a, []string{"gen"}, data, nil)
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	reader := connect(t, srv.Endpoint, prefix, nil)
	blob, err := reader.OpenBlob(ctx, run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	off, end, err := blob.LineRange(100000, 100012)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(blob.Section(off, end)); err != nil {
		t.Fatal(err)
	}
	want := bytes.Join(bytes.Split(data, []byte("\n"))[99999:100012], []byte("\n"))
	if got := bytes.TrimSuffix(out.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if g, rg := reader.Requests.Gets.Load(), reader.Requests.RangeGets.Load(); g != 1 || rg > 2 || rg < 1 {
		t.Fatalf("13 lines cost %d GETs and %d ranged GETs; want the table and one frame", g, rg)
	}
	if in := reader.Requests.BytesIn.Load(); in > 2*store.FrameSize {
		t.Fatalf("13 lines fetched %d bytes", in)
	}
	// Fallback does not copy a blob this large when CacheLimit is exceeded;
	// below it, it caches: here 12 MiB is below, so the run is pulled.
	tgt, open, err := Fallback(ctx, b, reader, handle("run", run.ID))
	if err != nil || open != nil || tgt.Run == nil {
		t.Fatalf("fallback: %v %v", err, open != nil)
	}
	if got := readAll(t, b, run.Manifest.Stdout.Blob); !bytes.Equal(got, data) {
		t.Fatal("cached copy differs")
	}
}

// A damaged object is caught on read and nothing of it is stored.
func TestCorruptObjectsAreRefused(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	a := newStore(t)
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()
	data := numbered("c", 30000)
	run := capture(t, a, []string{"gen"}, data, nil)
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	id := run.Manifest.Stdout.Blob
	rb, err := r.table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := r.get(ctx, rb.data)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(b []byte, at int) []byte { c := bytes.Clone(b); c[at] ^= 0x20; return c }

	t.Run("data", func(t *testing.T) {
		if err := r.putOver(ctx, rb.data, flip(orig, len(orig)/2)); err != nil {
			t.Fatal(err)
		}
		defer r.putOver(ctx, rb.data, orig)
		b := newStore(t)
		if _, _, err := Pull(ctx, b, r, handle("run", run.ID)); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("pull of a damaged blob: %v", err)
		}
		if ok, _ := b.HasBlob(id); ok {
			t.Fatal("a damaged blob was stored")
		}
		if _, err := b.GetRun(run.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the run of a damaged blob was stored: %v", err)
		}
	})
	t.Run("table", func(t *testing.T) {
		key := r.tableKey(id)
		tab, _ := r.get(ctx, key)
		if err := r.putOver(ctx, key, flip(tab, len(tab)-3)); err != nil {
			t.Fatal(err)
		}
		defer r.putOver(ctx, key, tab)
		if _, err := r.OpenBlob(ctx, id); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("damaged table read: %v", err)
		}
	})
	t.Run("run", func(t *testing.T) {
		key := r.key("runs", run.ID.String())
		rec, _ := r.get(ctx, key)
		bad := bytes.Replace(rec, []byte(`"exit":0`), []byte(`"exit":1`), 1)
		if bytes.Equal(bad, rec) {
			t.Fatalf("no exit field in %s", rec)
		}
		if err := r.putOver(ctx, key, bad); err != nil {
			t.Fatal(err)
		}
		defer r.putOver(ctx, key, rec)
		if _, err := r.GetRun(ctx, run.ID); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("altered run record read: %v", err)
		}
	})
}

// Objects are written with If-None-Match: a second write of the same key
// is refused by the server, and push treats that as done.
func TestConditionalWrites(t *testing.T) {
	srv := server(t)
	r := connect(t, srv.Endpoint, uniquePrefix(), nil)
	ctx := context.Background()
	if err := r.putNew(ctx, r.key("x"), []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := r.putNew(ctx, r.key("x"), []byte("two")); !errors.Is(err, errExists) {
		t.Fatalf("second conditional write: %v", err)
	}
	got, err := r.get(ctx, r.key("x"))
	if err != nil || string(got) != "one" {
		t.Fatalf("object after a refused write: %q %v", got, err)
	}
}

// A handle the remote does not hold is ErrNotFound; a prefix matching two
// runs is ambiguous.
func TestResolve(t *testing.T) {
	srv := server(t)
	r := connect(t, srv.Endpoint, uniquePrefix(), nil)
	ctx := context.Background()
	if _, err := r.Resolve(ctx, store.Handle{Scheme: "run", Prefix: "abcdef012345"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing handle: %v", err)
	}
	a := newStore(t)
	for i := range 40 {
		capture(t, a, []string{"echo", strings.Repeat("x", i)}, []byte("same\n"), nil)
	}
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	execs, _ := a.Execs(0, nil)
	byFirst := map[byte]int{}
	var amb byte
	for _, ex := range execs {
		c := ex.Run.String()[0]
		byFirst[c]++
		if byFirst[c] == 2 {
			amb = c
		}
	}
	if amb == 0 {
		t.Skip("no two of 40 runs share a first hex digit")
	}
	var ae *store.AmbiguousError
	if _, err := r.Resolve(ctx, store.Handle{Scheme: "run", Prefix: string(amb)}); !errors.As(err, &ae) {
		t.Fatalf("ambiguous prefix: %v", err)
	}
}

func withTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// A capsule pushed from one workspace is pulled by another, checked against
// its id, with the run it names; an altered one is refused.
func TestCapsuleTravels(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	a, b := newStore(t), newStore(t)
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()
	run := capture(t, a, []string{"build"}, numbered("handoff", 500), nil)
	rec := []byte(`{"kind":"capsule","runs":["run:` + run.ID.String() + `"]}`)
	id := store.Sum(rec)
	if _, err := a.PutLayerRecord(capsuleBucket, id[:], rec); err != nil {
		t.Fatal(err)
	}
	rep, err := Push(ctx, a, r)
	if err != nil || rep.Layers != 1 {
		t.Fatalf("push: %+v %v", rep, err)
	}
	got, prep, err := PullCapsule(ctx, b, r, id.Short())
	if err != nil || got != id || prep.Runs != 1 {
		t.Fatalf("pull capsule: %v %+v %v", got, prep, err)
	}
	stored, err := b.LayerRecord(capsuleBucket, id[:])
	if err != nil || !bytes.Equal(stored, rec) {
		t.Fatalf("capsule record: %q %v", stored, err)
	}
	if _, err := b.GetRun(run.ID); err != nil {
		t.Fatalf("the capsule's run was not pulled: %v", err)
	}
	key := r.layerKey(capsuleBucket, "", id[:], false)
	if err := r.putOver(ctx, key, bytes.Replace(rec, []byte("capsule"), []byte("capsulE"), 1)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := PullCapsule(ctx, newStore(t), r, id.Short()); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("altered capsule pulled: %v", err)
	}
}
