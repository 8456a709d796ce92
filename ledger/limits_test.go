package ledger

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestLimitsRefuseOversizedText: a 100 KB title (or a title with a newline
// or ESC in it, or an enormous inbox message) is refused with the limit and
// where the text belongs, and nothing is appended; text within the limits
// goes in.
func TestLimitsRefuseOversizedText(t *testing.T) {
	l, _ := newLedger(t)
	id, err := l.NewIn(".", "fix the flaky test", []string{"go test ./..."}, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		do   func() error
		want []string
	}{
		{"100 KB title", func() error {
			_, err := l.NewIn(".", strings.Repeat("x", 100<<10), []string{"true"}, Budget{})
			return err
		}, []string{"title is 102400 bytes", "limit of 200", "ctx task inbox"}},
		{"newline in title", func() error {
			_, err := l.NewIn(".", "two\nlines", []string{"true"}, Budget{})
			return err
		}, []string{"control character U+000A", "one line"}},
		{"ESC in title", func() error {
			_, err := l.NewIn(".", "red \x1b[31m", []string{"true"}, Budget{})
			return err
		}, []string{"U+001B"}},
		{"invalid UTF-8 title", func() error {
			_, err := l.NewIn(".", "bad \xff", []string{"true"}, Budget{})
			return err
		}, []string{"not valid UTF-8"}},
		{"long acceptance command", func() error {
			_, err := l.NewIn(".", "t", []string{strings.Repeat("a", MaxAccept+1)}, Budget{})
			return err
		}, []string{"accept is", "script"}},
		{"huge inbox message", func() error {
			_, err := l.Send(id, "lead", strings.Repeat("m", MaxInbox+1))
			return err
		}, []string{"text is", "file in the repository"}},
		{"claimer with a newline", func() error {
			_, err := l.Claim(id, "w\n1", 30*time.Minute)
			return err
		}, []string{"by holds"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want refused", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
	rows, err := l.Rows()
	if err != nil || len(rows) != 1 {
		t.Fatalf("rows after refusals: %d %v, want only the first task", len(rows), err)
	}
	if _, err := l.NewIn(".", strings.Repeat("é", MaxTitle/2), []string{"true"}, Budget{}); err != nil {
		t.Errorf("a title at the limit: %v", err)
	}
	if _, err := l.Send(id, "lead", "line one\nline two"); err != nil {
		t.Errorf("a two-line message: %v", err)
	}
}

// TestLeaseIsBounded: a claim or renew for longer than MaxLease is refused
// with the limit and the fix, and appends nothing (a 100000h lease kept a
// dead worker's task from everyone for 11 years); MaxLease itself goes in.
func TestLeaseIsBounded(t *testing.T) {
	l, _ := newLedger(t)
	id := must[string](t)(l.New("long work", []string{"true"}, Budget{}))
	n := rowCount(t, l)
	_, err := l.Claim(id, "w", MaxLease+time.Second)
	wantRefused(t, err, "at most 24h; renew a lease to keep long work")
	if rowCount(t, l) != n {
		t.Fatal("a refused claim appended a row")
	}
	must[Row](t)(l.Claim(id, "w", MaxLease))
	_, err = l.Renew(id, "w", 100000*time.Hour, "")
	wantRefused(t, err, "lease 100000h0m0s: at most 24h")
	must[Row](t)(l.Renew(id, "w", time.Hour, ""))
}
