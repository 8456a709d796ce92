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
		{&ledger.RefusedError{Task: "0123456789ab", Reason: "claimed"}, cli.ExitBad},
		{fmt.Errorf("task:x: %w", store.ErrNotFound), cli.ExitBad},
		{fmt.Errorf("open store: %w", store.ErrLocked), cli.ExitFailed},
		{&ledger.BreakError{Row: 2, Reason: "edited"}, cli.ExitFailed},
		{errors.New("write store: input/output error"), cli.ExitFailed},
	} {
		if got := cli.Report(&cli.IO{Err: io.Discard}, ledgerErr(c.err)); got != c.want {
			t.Errorf("%v: exit %d, want %d", c.err, got, c.want)
		}
	}
}
