package remote

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"io"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// A run storing more than the cache limit is read in place: its lines and
// its merged view from ranged reads of the frames they touch, and ctx show's
// digest from its receipt, copied with the digest text while the outputs
// stay in the bucket.
func TestFallbackReadsALargeRunInPlace(t *testing.T) {
	srv := server(t)
	defer func(old int64) { cacheLimit = old }(cacheLimit)
	cacheLimit = 1 << 20
	a, b := newStore(t), newStore(t)
	r := connect(t, srv.Endpoint, uniquePrefix(), nil)
	ctx := context.Background()

	text := []byte("a digest of the large run\n")
	textID, err := a.PutBlob(text)
	if err != nil {
		t.Fatal(err)
	}
	receipt := []byte(`{"kind":"digest","text":"blob:` + textID.String() + `"}`)
	rid, err := a.PutReceipt(receipt)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for range 40000 { // ~2.6 MiB of hex lines: stores about half that
		var rnd [32]byte
		_, _ = crand.Read(rnd[:])
		out.WriteString(hex.EncodeToString(rnd[:]) + "\n")
	}
	argv := []string{"large"}
	run := captureExec(t, a, argv, out.Bytes(), []byte("a warning\n"), store.Exec{Argv: argv, Start: time.Now(), Receipt: rid})
	if _, err := Push(ctx, a, r); err != nil {
		t.Fatal(err)
	}

	before := r.Requests.RangeGets.Load()
	tgt, open, err := Fallback(ctx, b, r, handle("run", run.ID))
	if err != nil || open == nil || tgt.Run == nil || tgt.Run.ID != run.ID {
		t.Fatalf("fallback: %+v, in place %v, %v", tgt, open != nil, err)
	}
	stdout := run.Manifest.Stdout.Blob
	rb, err := open(stdout)
	if err != nil {
		t.Fatal(err)
	}
	off, end, err := rb.LineRange(20000, 20012)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rb.Section(off, end))
	lines := bytes.SplitAfter(out.Bytes(), []byte("\n"))
	if err != nil || !bytes.Equal(got, bytes.Join(lines[19999:20012], nil)) {
		t.Fatalf("13 lines read in place: %v\n%q", err, got)
	}
	if n := r.Requests.RangeGets.Load() - before; n > 2 {
		t.Fatalf("13 lines took %d ranged GETs", n)
	}
	merged, _, err := store.MergedWith(tgt.Run, open)
	if err != nil {
		t.Fatal(err)
	}
	local, _, err := a.Merged(run)
	if err != nil {
		t.Fatal(err)
	}
	m1, err1 := io.ReadAll(merged)
	m2, err2 := io.ReadAll(local)
	if err1 != nil || err2 != nil || !bytes.Equal(m1, m2) {
		t.Fatalf("merged view in place differs from the local one (%d vs %d bytes): %v %v", len(m1), len(m2), err1, err2)
	}

	shown, err := PullReceiptOf(ctx, b, r, run.ID)
	if err != nil || shown.Kind != store.KindReceipt || shown.ID != rid || !bytes.Equal(shown.Receipt, receipt) {
		t.Fatalf("receipt of the large run: %+v %v", shown, err)
	}
	if ok, _ := b.HasBlob(textID); !ok {
		t.Fatal("the digest text did not come with the receipt")
	}
	if ok, _ := b.HasBlob(stdout); ok {
		t.Fatal("reading in place copied the output")
	}
}
