package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// TestReport maps errors to exit statuses in the one place that does, and
// prints what the person needs (the error, its hint, the usage pointer).
func TestReport(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		out  string
	}{
		{nil, ExitOK, ""},
		{&ExitError{Code: 3}, 3, ""}, // already explained: nothing printed
		{WithCode(7, errors.New("boom")), 7, "ctx: boom\n"},
		{Usagef("--x %d: bad", 1), ExitUsage, "run `ctx help`"},
		{fmt.Errorf("open: %w", store.ErrLocked), ExitFailed, "ctx: open: "},
		{fmt.Errorf("run:ab: %w", store.ErrNotFound), ExitBad, ""},
		{&store.Error{Err: errors.New("disk"), Hint: "free some space"}, ExitBad, "hint: free some space"},
		{Usagef("--cwd /x/ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ: not a directory"), ExitUsage, "ctx: --cwd /x/[REDACTED:github-pat:"},
	} {
		var errb bytes.Buffer
		if got := Report(&IO{Err: &errb}, c.err); got != c.code || !strings.Contains(errb.String(), c.out) || strings.Contains(errb.String(), "ghp_") {
			t.Errorf("Report(%v) = %d %q, want %d containing %q", c.err, got, errb.String(), c.code, c.out)
		}
	}
}

func TestExitOfAndWithCode(t *testing.T) {
	if code, failed := ExitOf(&ExitError{Code: 4}); code != 4 || failed {
		t.Errorf("ExitOf(exit 4) = %d %v", code, failed)
	}
	if code, failed := ExitOf(errors.New("x")); code != ExitFailed || !failed {
		t.Errorf("ExitOf(error) = %d %v", code, failed)
	}
	inner := &ExitError{Code: 9, Err: errors.New("y")}
	if got := WithCode(1, fmt.Errorf("wrap: %w", inner)); !errors.As(got, new(*ExitError)) || Report(&IO{Err: &bytes.Buffer{}}, got) != 9 {
		t.Errorf("WithCode replaced an existing status: %v", got)
	}
	if WithCode(1, nil) != nil {
		t.Error("WithCode(nil) is not nil")
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1000": 1000, "64k": 64 << 10, "512M": 512 << 20, "1G": 1 << 30, "2GiB": 2 << 30} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "x", "1Q"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}

func TestQuoteArgs(t *testing.T) {
	if got := QuoteArgs([]string{"sh", "-c", "echo 'hi' | wc", ""}); got != `sh -c 'echo '\''hi'\'' | wc' ''` {
		t.Errorf("QuoteArgs = %s", got)
	}
}
