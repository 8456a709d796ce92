package storetest

import (
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// Open creates a fresh bbolt store in a temporary workspace for a test of a
// package above the store, closes it when the test ends, and returns it with
// the workspace directory.
func Open(t testing.TB) (*store.Store, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, store.DirName), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, dir
}
