// Package storetest is the one test suite every store.Backend passes: the
// bbolt store and its in-memory twin (store/mem) in store's tests, and the
// remote tier — the bucket itself, on a real SeaweedFS, plain and
// encrypted — in remote's (remote.Remote.Backend). A backend is correct when
// Run passes against it; the tests assert only what the interface promises,
// so a tier cannot pass by sharing the bbolt store's accidents. Every case
// applies to every tier: none is skipped for the remote.
package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// Run runs the suite; open returns a new, empty backend for each test.
func Run(t *testing.T, open func(t *testing.T) store.Backend) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, store.Backend)
	}{
		{"BlobRoundTrip", testBlobRoundTrip},
		{"BlobMissing", testBlobMissing},
		{"ReceiptRecords", testReceiptRecords},
		{"RunRecords", testRunRecords},
		{"RecordsInIDOrder", testRecordsInIDOrder},
		{"Match", testMatch},
		{"Concurrent", testConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

func read(t *testing.T, b store.Backend, id store.ID, off, end int64) []byte {
	t.Helper()
	r, err := b.OpenBlob(id)
	if err != nil {
		t.Fatalf("open blob:%s: %v", id.Short(), err)
	}
	got, err := io.ReadAll(r.Section(off, end))
	if err != nil {
		t.Fatalf("read blob:%s [%d,%d): %v", id.Short(), off, end, err)
	}
	return got
}

func testBlobRoundTrip(t *testing.T, b store.Backend) {
	data := []byte(strings.Repeat("line of output\n", 20000)) // 300 KB: more than one frame
	id, err := b.PutBlob(data)
	if err != nil || id != store.Sum(data) {
		t.Fatalf("PutBlob = %v, %v; want %v", id, err, store.Sum(data))
	}
	if again, err := b.PutBlob(data); err != nil || again != id {
		t.Fatalf("second PutBlob = %v, %v", again, err)
	}
	r, err := b.OpenBlob(id)
	if err != nil || r.Size() != int64(len(data)) {
		t.Fatalf("OpenBlob: size %v, %v; want %d", r, err, len(data))
	}
	n := int64(len(data))
	for _, rg := range [][2]int64{{0, n}, {0, 5}, {15, 30}, {262100, 262200}, {n - 3, n}, {n - 3, n + 100}, {7, 7}, {n, n + 5}} {
		want := data[min(rg[0], n):min(rg[1], n)]
		if got := read(t, b, id, rg[0], rg[1]); !bytes.Equal(got, want) {
			t.Errorf("Section(%d, %d) = %d bytes %.20q, want %d bytes %.20q", rg[0], rg[1], len(got), got, len(want), want)
		}
	}
	small, _ := b.PutBlob([]byte("x"))
	if got := read(t, b, small, 0, 10); string(got) != "x" {
		t.Errorf("small blob = %q", got)
	}
}

func testBlobMissing(t *testing.T, b store.Backend) {
	if _, err := b.OpenBlob(store.Sum([]byte("never stored"))); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("OpenBlob of a missing blob: %v, want ErrNotFound", err)
	}
	r, err := b.OpenBlob(store.Sum(nil))
	if err != nil || r.Size() != 0 {
		t.Errorf("the empty blob always opens, size 0: %v, %v", r, err)
	}
}

func testReceiptRecords(t *testing.T, b store.Backend) {
	data := []byte(`{"kind":"digest","run":"run:x"}`)
	id := store.ReceiptID(data)
	if _, err := b.Record(store.KindReceipt, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Record before put: %v, want ErrNotFound", err)
	}
	if err := b.PutRecord(store.KindReceipt, id, data); err != nil {
		t.Fatal(err)
	}
	if err := b.PutRecord(store.KindReceipt, id, data); err != nil {
		t.Fatalf("second put: %v", err)
	}
	got, err := b.Record(store.KindReceipt, id)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Record = %q, %v", got, err)
	}
	got[0] = 'X' // the caller owns the copy
	if again, _ := b.Record(store.KindReceipt, id); !bytes.Equal(again, data) {
		t.Fatalf("a caller's write changed the stored record: %q", again)
	}
	if _, err := b.Record(store.KindRun, id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a receipt id found as a run: %v", err)
	}
	other := store.ReceiptID([]byte("other"))
	if err := b.PutRecord(store.KindReceipt, other, data); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("put under an id its bytes do not hash to: %v, want ErrCorrupt", err)
	}
	if _, err := b.Record(store.KindReceipt, other); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused record was stored: %v", err)
	}
	if err := b.PutRecord(store.KindBlob, id, data); !errors.Is(err, store.ErrNotRecord) {
		t.Errorf("put of kind blob: %v, want ErrNotRecord", err)
	}
}

// runRecord returns a run whose stdout is stdout (already stored or not).
func runRecord(stdout []byte) (store.ID, []byte) {
	m := store.Manifest{Argv: []string{"echo", "hi"}, Dir: ".", Mode: "pipe", Status: store.StatusExited,
		Stdout: store.StreamRef{Blob: store.Sum(stdout), Size: int64(len(stdout))}, Stdin: store.Sum(nil), Stderr: store.StreamRef{Blob: store.Sum(nil)}}
	run := store.Run{ID: m.ID(), Manifest: m}
	data, _ := json.Marshal(run)
	return run.ID, data
}

func testRunRecords(t *testing.T, b store.Backend) {
	out := []byte("hi\n")
	id, data := runRecord(out)
	if err := b.PutRecord(store.KindRun, id, data); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a run whose stdout blob is missing: %v, want ErrNotFound", err)
	}
	if _, err := b.Record(store.KindRun, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused run is listed: %v", err)
	}
	if _, err := b.PutBlob(out); err != nil {
		t.Fatal(err)
	}
	if err := b.PutRecord(store.KindRun, id, data); err != nil {
		t.Fatalf("put run: %v", err)
	}
	got, err := b.Record(store.KindRun, id)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Record(run) = %q, %v", got, err)
	}
	tampered := bytes.Replace(data, []byte(`"echo"`), []byte(`"rm"`), 1)
	if err := b.PutRecord(store.KindRun, id, tampered); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a run that does not hash to its id: %v, want ErrCorrupt", err)
	}
}

func testRecordsInIDOrder(t *testing.T, b store.Backend) {
	want := map[store.ID]string{}
	for i := range 20 {
		data := fmt.Appendf(nil, `{"n":%d}`, i)
		id := store.ReceiptID(data)
		want[id] = string(data)
		if err := b.PutRecord(store.KindReceipt, id, data); err != nil {
			t.Fatal(err)
		}
	}
	var last store.ID
	n := 0
	err := b.Records(store.KindReceipt, func(id store.ID, data []byte) error {
		if n > 0 && bytes.Compare(last[:], id[:]) >= 0 {
			t.Errorf("receipt %s listed after %s: not in id order", id.Short(), last.Short())
		}
		if want[id] != string(data) {
			t.Errorf("receipt %s = %q, want %q", id.Short(), data, want[id])
		}
		last = id
		n++
		return nil
	})
	if err != nil || n != len(want) {
		t.Fatalf("Records listed %d of %d: %v", n, len(want), err)
	}
	if err := b.Records(store.KindRun, func(store.ID, []byte) error { t.Error("a receipt listed as a run"); return nil }); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	calls := 0
	if err := b.Records(store.KindReceipt, func(store.ID, []byte) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("an error from fn ends the listing: %v after %d calls", err, calls)
	}
}

func testMatch(t *testing.T, b store.Backend) {
	var ids []store.ID
	for i := range 150 {
		id, err := b.PutBlob(fmt.Appendf(nil, "blob %d", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	one := ids[7].String()[:12]
	if got, err := b.Match(store.KindBlob, one); err != nil || len(got) != 1 || got[0] != ids[7] {
		t.Errorf("Match(%s) = %v, %v; want just %s", one, got, err, ids[7].Short())
	}
	// The commonest first digit: shared by more than MatchLimit of the 150.
	count := map[string]int{}
	prefix := ""
	for _, id := range ids {
		d := id.String()[:1]
		if count[d]++; count[d] > count[prefix] {
			prefix = d
		}
	}
	got, err := b.Match(store.KindBlob, prefix)
	if err != nil || len(got) != min(count[prefix], store.MatchLimit) {
		t.Fatalf("Match(%s) = %d ids, %v; %d blobs have the prefix, the limit is %d", prefix, len(got), err, count[prefix], store.MatchLimit)
	}
	for i, id := range got {
		if !strings.HasPrefix(id.String(), prefix) || i > 0 && bytes.Compare(got[i-1][:], id[:]) >= 0 {
			t.Errorf("Match(%s): %s out of place in %v", prefix, id.Short(), got)
		}
	}
	if got, err := b.Match(store.KindReceipt, one); err != nil || len(got) != 0 {
		t.Errorf("a blob prefix matched receipts: %v, %v", got, err)
	}
}

func testConcurrent(t *testing.T, b store.Backend) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				data := fmt.Appendf(nil, "shared %d / own %d-%d", i, g, i)
				if g%2 == 0 {
					data = fmt.Appendf(nil, "shared %d", i)
				}
				id, err := b.PutBlob(data)
				if err == nil {
					var r store.BlobReader
					if r, err = b.OpenBlob(id); err == nil && r.Size() != int64(len(data)) {
						err = fmt.Errorf("blob:%s has %d bytes, want %d", id.Short(), r.Size(), len(data))
					}
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
