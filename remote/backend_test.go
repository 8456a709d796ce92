package remote

import (
	"context"
	"testing"

	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/storetest"
)

// TestBackendSuite runs the store's one Backend suite (the one the bbolt
// store and store/mem pass) against the bucket on a real SeaweedFS: each
// case gets a prefix of its own, so an empty backend; and again with every
// object sealed with age.
func TestBackendSuite(t *testing.T) {
	srv := server(t)
	t.Run("plain", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Backend {
			return connect(t, srv.Endpoint, uniquePrefix(), nil).Backend(context.Background())
		})
	})
	t.Run("encrypted", func(t *testing.T) {
		enc := encrypted(t)
		storetest.Run(t, func(t *testing.T) store.Backend {
			return connect(t, srv.Endpoint, uniquePrefix(), enc).Backend(context.Background())
		})
	})
}
