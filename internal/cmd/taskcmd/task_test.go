package taskcmd

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/ledger"
	"github.com/ctxhq/ctx/store"
)

// The task commands' exit statuses: 1 refused or unknown, 125 the store failed.
func TestLedgerErrExitStatuses(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{&ledger.RefusedError{Task: "0123456789ab", Reason: "claimed"}, exitBad},
		{fmt.Errorf("task:x: %w", store.ErrNotFound), exitBad},
		{fmt.Errorf("open store: %w", store.ErrLocked), exitFailed},
		{&ledger.BreakError{Row: 2, Reason: "edited"}, exitFailed},
		{errors.New("write store: input/output error"), exitFailed},
	} {
		if got := cli.Report(&IO{Err: io.Discard}, ledgerErr(c.err)); got != c.want {
			t.Errorf("%v: exit %d, want %d", c.err, got, c.want)
		}
	}
}
