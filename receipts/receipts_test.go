package receipts

import (
	"errors"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// TestRunID reads a receipt's run reference and reports a malformed one as
// corrupt instead of slicing it (a short value used to panic).
func TestRunID(t *testing.T) {
	id := store.Sum([]byte("x"))
	for ref, ok := range map[string]bool{
		"run:" + id.String():  true,
		"run:":                false,
		"ru":                  false,
		"":                    false,
		"blob:" + id.String(): false,
	} {
		r := &Receipt{Run: ref}
		got, err := r.RunID()
		if ok != (err == nil) {
			t.Errorf("RunID(%q): err %v, want ok=%v", ref, err, ok)
			continue
		}
		if ok && got != id {
			t.Errorf("RunID(%q) = %s, want %s", ref, got, id)
		}
		if !ok && strings.HasPrefix(ref, "blob:") && !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("RunID(%q): %v, want ErrCorrupt", ref, err)
		}
	}
}

// TestDecode round-trips a receipt and rejects bytes that are not one.
func TestDecode(t *testing.T) {
	r, err := Decode([]byte(`{"kind":"digest","version":1,"run":"run:ab","digest":"blob:cd","secrets":{"rules":"v1"},"refs":["run:ab"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != KindDigest || r.Version != 1 || r.Secrets.Rules != "v1" || len(r.Refs) != 1 {
		t.Errorf("decoded %+v", r)
	}
	if _, err := Decode([]byte("not json")); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("Decode(junk) = %v, want ErrCorrupt", err)
	}
	if _, err := (&Receipt{Digest: "run:cd"}).DigestID(); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("DigestID(run:…) = %v, want ErrCorrupt", err)
	}
}
