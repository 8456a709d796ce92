package remote

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/ctxhq/ctx/internal/weedtest"
	"github.com/ctxhq/ctx/store"
)

// The BENCHMARKS.md figures of issue 20. They take minutes and gigabytes, so
// they run only with CTX_REMOTE_FIGURES=1:
//
//	CTX_REMOTE_FIGURES=1 go test ./remote -run Figure -v -timeout 60m
func figures(t *testing.T) {
	if os.Getenv("CTX_REMOTE_FIGURES") == "" {
		t.Skip("set CTX_REMOTE_FIGURES=1 to measure the BENCHMARKS.md figures")
	}
}

// 1,000 runs from one workspace, every one printing the same output under a
// different command line, are pushed; the bucket holds that output once, and
// another workspace resolves a handle made in the first.
func TestFigureThousandRuns(t *testing.T) {
	figures(t)
	srv := server(t)
	prefix := uniquePrefix()
	a, b := newStore(t), newStore(t)
	r := connect(t, srv.Endpoint, prefix, nil)
	out := numbered("same", 2000)
	var last *store.Run
	for i := range 1000 {
		last = capture(t, a, []string{"job", strconv.Itoa(i)}, out, []byte("run "+strconv.Itoa(i)+"\n"))
	}
	ctx := context.Background()
	start := time.Now()
	rep, err := Push(ctx, a, r)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	objs, err := r.list(ctx, "blobs/", nil)
	if err != nil {
		t.Fatal(err)
	}
	stdoutTables := 0
	for _, o := range objs {
		if strings.Contains(o.Key, last.Manifest.Stdout.Blob.String()) && strings.HasSuffix(o.Key, "/table") {
			stdoutTables++
		}
	}
	runs, _ := r.list(ctx, "runs/", nil)
	t.Logf("FIGURE 1000 runs pushed in %s: %d runs, %d blobs sent, %d already there, %d blob objects in the bucket, the shared stdout stored %d time(s); %d run records",
		took.Round(time.Millisecond), rep.Runs, rep.Blobs, rep.BlobsPresent, len(objs), stdoutTables, len(runs))
	if stdoutTables != 1 || len(runs) != 1000 {
		t.Fatalf("want the shared output once and 1000 runs")
	}
	if _, _, err := Pull(ctx, b, connect(t, srv.Endpoint, prefix, nil), handle("run", last.ID)); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, b, last.Manifest.Stdout.Blob); !bytes.Equal(got, out) {
		t.Fatal("pulled output differs")
	}
	t.Logf("FIGURE the other workspace resolved %s", last.Handle())
}

// Push throughput against the client library's own upload of the same bytes
// to the same server, interleaved.
func TestFigurePushThroughput(t *testing.T) {
	figures(t)
	srv := server(t)
	a := newStore(t)
	// ~130 MiB of hex lines: compresses to about half, so the stored blob
	// is large whatever the compressor's speed.
	var data bytes.Buffer
	for range 2_000_000 {
		var rnd [32]byte
		_, _ = crand.Read(rnd[:])
		data.WriteString(hex.EncodeToString(rnd[:]) + "\n")
	}
	run := capture(t, a, []string{"gen"}, data.Bytes(), nil)
	// As captured (a flood leaves frames raw, compressed on the way), then
	// compacted (push and the library send the same bytes).
	pushFigure(t, srv, a, run.Manifest.Stdout.Blob, "as captured")
	if _, _, err := a.Compact(); err != nil {
		t.Fatal(err)
	}
	pushFigure(t, srv, a, run.Manifest.Stdout.Blob, "compacted")
}

// pushFigure times ctx push of blob id against minio-go's PutObject of its
// stored bytes, interleaved, three times each.
func pushFigure(t *testing.T, srv *weedtest.Server, a *store.Store, id store.ID, what string) {
	blob, err := a.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	var stored bytes.Buffer
	for i := range blob.Frames() {
		f, err := blob.StoredFrame(i)
		if err != nil {
			t.Fatal(err)
		}
		stored.Write(f)
	}
	ctx := context.Background()
	var lib, ours []float64
	var sent int64
	for i := range 3 {
		r := connect(t, srv.Endpoint, uniquePrefix(), nil)
		start := time.Now()
		if err := r.put(ctx, r.key("lib", strconv.Itoa(i)), bytes.NewReader(stored.Bytes()), int64(stored.Len()), minio.PutObjectOptions{}); err != nil {
			t.Fatal(err)
		}
		lib = append(lib, float64(stored.Len())/time.Since(start).Seconds()/(1<<20))
		// A fresh workspace state each time: every push uploads the blob.
		os.RemoveAll(stateDir(a))
		start = time.Now()
		rep, err := Push(ctx, a, r)
		if err != nil {
			t.Fatal(err)
		}
		// The blob's stored size over the time to get it into the bucket
		// (raw frames are compressed on the way, so fewer bytes may go).
		ours = append(ours, float64(stored.Len())/time.Since(start).Seconds()/(1<<20))
		sent = rep.Bytes
	}
	slices.Sort(lib)
	slices.Sort(ours)
	t.Logf("FIGURE push of a %d MiB stored blob, %s (%d frames, %d stored raw; %d MiB sent): ctx push %.1f MiB/s of the stored blob (runs %.1f..%.1f), minio-go PutObject of the stored bytes %.1f MiB/s (%.1f..%.1f): %.0f%%",
		stored.Len()>>20, what, blob.Frames(), rawFrames(blob.Table()), sent>>20, ours[1], ours[0], ours[2], lib[1], lib[0], lib[2], 100*ours[1]/lib[1])
}

// ctx get of 13 lines from the middle of a 1 GiB remote blob with an empty
// cache: the requests and bytes it costs, and the time beside the local read.
func TestFigureRangedGet(t *testing.T) {
	figures(t)
	srv := server(t)
	prefix := uniquePrefix()
	a := newStore(t)
	const lines = 18_000_000 // ~1 GiB
	data := numbered("gib", lines)
	t.Logf("blob of %d bytes", len(data))
	run := capture(t, a, []string{"gib"}, data, nil)
	data = nil
	r := connect(t, srv.Endpoint, prefix, nil)
	ctx := context.Background()
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}
	id := run.Manifest.Stdout.Blob
	read := func(b *store.Blob) (time.Duration, int) {
		start := time.Now()
		off, end, err := b.LineRange(lines/2, lines/2+12)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := out.ReadFrom(b.Section(off, end)); err != nil {
			t.Fatal(err)
		}
		return time.Since(start), bytes.Count(out.Bytes(), []byte{'\n'})
	}
	var local, remote []time.Duration
	var gets, ranged, in int64
	for range 5 {
		lb, err := a.Blob(id)
		if err != nil {
			t.Fatal(err)
		}
		d, n := read(lb)
		local = append(local, d)
		rr := connect(t, srv.Endpoint, prefix, nil)
		start := time.Now()
		rb, err := rr.OpenBlob(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		_, m := read(rb)
		remote = append(remote, time.Since(start))
		if n != 13 || m != 13 {
			t.Fatalf("read %d and %d lines", n, m)
		}
		gets, ranged, in = rr.Requests.Gets.Load(), rr.Requests.RangeGets.Load(), rr.Requests.BytesIn.Load()
	}
	slices.Sort(local)
	slices.Sort(remote)
	t.Logf("FIGURE 13 lines from the middle of a %d-frame blob: remote %s (%s..%s) with %d GET (table) + %d ranged GET, %d bytes fetched; local %s (%s..%s)",
		len(mustTable(t, a, id).Frames), remote[2], remote[0], remote[4], gets, ranged, in, local[2], local[0], local[4])
}

func mustTable(t *testing.T, s *store.Store, id store.ID) *store.FrameTable {
	b, err := s.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	return b.Table()
}

func rawFrames(t *store.FrameTable) int {
	n := 0
	for _, f := range t.Frames {
		if f.CLen > f.Len {
			n++
		}
	}
	return n
}
