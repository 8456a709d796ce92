package continuitycmd

import (
	"os"
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

// TestMain keeps the stores these tests open out of the developer's own
// index of stores.
func TestMain(m *testing.M) {
	cleanup := testenv.IsolateState()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
