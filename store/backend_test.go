package store_test

import (
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/mem"
	"github.com/ctxhq/ctx/store/storetest"
)

// TestBackends runs the one Backend suite against the bbolt store (a real
// database file) and its in-memory twin.
func TestBackends(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Backend {
			dir := t.TempDir()
			st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, true)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
	t.Run("mem", func(t *testing.T) {
		storetest.Run(t, func(*testing.T) store.Backend { return mem.New() })
	})
}
