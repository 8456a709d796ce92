package remote

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/continuity"
	"github.com/ctxhq/ctx/ledger"
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
		// Read in place (the fallback for a run too large to cache): the
		// ranged read of the damaged frame fails its zstd checksum.
		blob, err := r.OpenBlob(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for i+1 < len(rb.offs) && rb.offs[i+1] <= int64(len(orig)/2) {
			i++
		}
		var at int64 // frame i's first byte in the blob
		for _, f := range rb.table.Frames[:i] {
			at += int64(f.Len)
		}
		before := r.Requests.RangeGets.Load()
		if _, err := io.ReadAll(blob.Section(at, at+10)); !errors.Is(err, store.ErrCorrupt) || r.Requests.RangeGets.Load()-before != 1 {
			t.Fatalf("ranged read of the damaged frame %d: %v", i, err)
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

// Every kind of layer record travels between two workspaces sharing a
// bucket, each checked and bringing the runs it names: a capsule, a
// continuity snapshot, and the task ledger (A's rows into B's empty ledger,
// then B's new row back into A's, byte for byte); an altered capsule,
// snapshot or ledger row is refused, and a ledger that has diverged is not
// joined.
func TestLayerRecordsTravel(t *testing.T) {
	srv := server(t)
	prefix := uniquePrefix()
	a, b := newStore(t), newStore(t)
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()

	handoff := capture(t, a, []string{"build"}, numbered("handoff", 500), nil)
	capRec := []byte(`{"kind":"capsule","runs":["run:` + handoff.ID.String() + `"]}`)
	capID := store.Sum(capRec)
	if _, err := a.PutLayerRecord(capsuleBucket, capID[:], capRec); err != nil {
		t.Fatal(err)
	}
	sealed := capture(t, a, []string{"probe"}, numbered("probe", 200), nil)
	snap, err := continuity.Seal([]byte(`{"runs":["run:`+sealed.ID.String()+`"]}`), "travel", continuity.SchemeIndex, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := continuity.SaveSnapshot(a, snap); err != nil {
		t.Fatal(err)
	}
	la := &ledger.Ledger{St: a}
	task, err := la.New("build it", []string{"make"}, ledger.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	proof := capture(t, a, []string{"make"}, []byte("ok\n"), nil)
	if _, err := la.Verdict(task, true, proof.Handle()); err != nil {
		t.Fatal(err)
	}
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}

	snapHandle := continuity.HandleOf(continuity.SnapScheme, snap.Digest)
	for _, c := range []struct {
		handle string
		run    *store.Run
	}{{"capsule:" + capID.Short(), handoff}, {snapHandle, sealed}, {"ledger:", proof}} {
		name, rep, ok, err := PullLayer(ctx, b, r, c.handle)
		if !ok || err != nil || rep.Records == 0 || rep.Runs != 1 {
			t.Fatalf("pull %s: %s %+v %v %v", c.handle, name, rep, ok, err)
		}
		if _, err := b.GetRun(c.run.ID); err != nil {
			t.Fatalf("pull %s did not bring %s: %v", c.handle, c.run.Handle(), err)
		}
	}
	if stored, err := b.LayerRecord(capsuleBucket, capID[:]); err != nil || !bytes.Equal(stored, capRec) {
		t.Fatalf("capsule record: %q %v", stored, err)
	}
	if got, err := continuity.LoadSnapshot(b, snapHandle); err != nil || got.Digest != snap.Digest {
		t.Fatalf("snapshot in b: %v", err)
	}
	lb := &ledger.Ledger{St: b}
	if tk, err := lb.Task(task); err != nil || tk.State != "done" {
		t.Fatalf("the task in b: %+v %v", tk, err)
	}
	// b carries the ledger on; a pulls it back.
	if _, err := lb.Send(task, "b", "picked up on another machine"); err != nil {
		t.Fatal(err)
	}
	rep, err := Push(ctx, b, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, prep, _, err := PullLayer(ctx, a, r, "ledger:"+rep.Workspace); err != nil || prep.Records != 1 {
		t.Fatalf("a pulls b's ledger: %+v %v", prep, err)
	}
	if ra, rb := ledgerRows(t, a), ledgerRows(t, b); len(ra) != 3 || !slices.EqualFunc(ra, rb, bytes.Equal) {
		t.Fatalf("the ledgers differ after the round trip:\n%q\n%q", ra, rb)
	}
	// Both append: neither ledger is a beginning of the other.
	if _, err := la.Send(task, "a", "mine"); err != nil {
		t.Fatal(err)
	}
	if _, err := lb.Send(task, "b", "theirs"); err != nil {
		t.Fatal(err)
	}
	if _, err := Push(ctx, b, r); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := PullLayer(ctx, a, r, "ledger:"+rep.Workspace); !errors.Is(err, store.ErrDiverged) {
		t.Fatalf("pull of a diverged ledger: %v", err)
	}
	if len(ledgerRows(t, a)) != 4 {
		t.Fatal("a refused pull changed the ledger")
	}

	// Altered objects are refused.
	alter := func(key string, from, to string) {
		t.Helper()
		body, err := r.get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Replace(body, []byte(from), []byte(to), 1)
		if bytes.Equal(bad, body) {
			t.Fatalf("%q not in %s", from, key)
		}
		if err := r.putOver(ctx, key, bad); err != nil {
			t.Fatal(err)
		}
	}
	alter(r.layerKey(capsuleBucket, "", capID[:], false), "capsule", "capsulE")
	snapKey, _ := hex.DecodeString(strings.TrimPrefix(snap.Digest, continuity.JSONDigestPrefix))
	alter(r.layerKey(continuity.SnapshotBucket, "", snapKey, false), `"runs"`, `"rUns"`)
	alter(r.layerKey(ledgerBucket, rep.Workspace, binary.BigEndian.AppendUint64(nil, 1), true), "build it", "build IT")
	for _, h := range []string{"capsule:" + capID.Short(), snapHandle, "ledger:" + rep.Workspace} {
		if _, _, _, err := PullLayer(ctx, newStore(t), r, h); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("altered %s pulled: %v", h, err)
		}
	}
}

func ledgerRows(t *testing.T, s *store.Store) [][]byte {
	t.Helper()
	rows, err := ledger.Log.Rows(s)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A push racing ctx compact: the blob is opened while its frames are stored
// raw (a flood outran the compressor), compacted, then pushed from the
// stale handle. The table records the frames as sent, none travels raw, and
// the workspace that pulls it checks clean.
func TestPushRacingCompaction(t *testing.T) {
	srv := server(t)
	r := connect(t, srv.Endpoint, uniquePrefix(), nil)
	ctx := context.Background()
	a := newStore(t)
	sp, err := a.NewSpool(store.SpoolMeta{Argv: []string{"flood"}, Dir: ".", Mode: "pipe", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := sp.Stream("stdout")
	data := numbered("flood", 200000) // ~11 MiB in one write: frames go out raw
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	run, err := a.CommitSpool(sp, store.Manifest{Argv: []string{"flood"}, Dir: ".", Status: store.StatusExited}, store.Exec{Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	stale, err := a.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	if !hasRaw(stale.Table()) {
		t.Skip("no frame was stored raw this time, so there is no race to test")
	}
	if n, _, err := a.Compact(); err != nil || n != 1 {
		t.Fatalf("compact: %d %v", n, err)
	}
	if _, err := r.pushBlob(ctx, stale); err != nil {
		t.Fatal(err)
	}
	rb, err := r.table(ctx, stale.ID)
	if err != nil {
		t.Fatal(err)
	}
	if hasRaw(rb.table) {
		t.Fatal("the pushed table records raw frames")
	}
	for i, f := range rb.table.Frames {
		if int64(f.CLen) != rb.lens[i] {
			t.Fatalf("frame %d: the table says %d bytes, the data object holds %d", i, f.CLen, rb.lens[i])
		}
	}
	if err := r.putRecord(ctx, r.key("runs", run.ID.String()), run); err != nil {
		t.Fatal(err)
	}
	b := newStore(t)
	if _, _, err := Pull(ctx, b, r, handle("run", run.ID)); err != nil {
		t.Fatal(err)
	}
	if rep, err := b.Check(store.CheckOptions{}); err != nil || !rep.OK() {
		t.Fatalf("check of the pulled copy: %v %+v", err, rep)
	}
	if !bytes.Equal(readAll(t, b, stale.ID), data) {
		t.Fatal("pulled copy differs")
	}
}
