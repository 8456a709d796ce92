package digest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// TestReplayMalformedRunReference replays receipts whose run reference is
// short, of another kind or not hex: each is reported as not replayable,
// never a panic (the reference used to be sliced as r.Run[len("run:"):]).
func TestReplayMalformedRunReference(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, ref := range []string{"", "run", "run:", "ru", "blob:" + strings.Repeat("ab", 32), "run:zz", "run:" + strings.Repeat("ab", 31)} {
		data := []byte(`{"kind":"digest","run":` + quote(ref) + `}`)
		got := Replay(context.Background(), st, store.ID{}, data, "")
		if got.Match || got.Why == "" {
			t.Errorf("run %q: replay = %+v, want a reason it cannot replay", ref, got)
		}
		if got.Run != ref {
			t.Errorf("run %q: replay names run %q", ref, got.Run)
		}
	}
}

func quote(s string) string { return `"` + s + `"` }

func TestParseRef(t *testing.T) {
	id := store.Sum([]byte("x"))
	full := store.FullHandleOf(store.KindRun, id)
	if got, err := store.ParseRef(store.KindRun, full); err != nil || got != id {
		t.Fatalf("ParseRef(%q) = %v, %v; want %v", full, got, err, id)
	}
	for _, bad := range []string{"", "run", "run:", "blob:" + id.String(), "run:" + id.Short()} {
		if _, err := store.ParseRef(store.KindRun, bad); !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("ParseRef(%q) err = %v, want ErrCorrupt", bad, err)
		}
	}
	if h := store.HandleOf(store.KindRun, id); h != "run:"+id.Short() {
		t.Errorf("HandleOf = %q", h)
	}
}
