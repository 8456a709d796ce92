package ledger

import (
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"
)

// A ledger row is read whole by every harness that derives a task's state,
// so the text a person or an agent puts in it is bounded on write: a title
// is a one-line summary, not the task's description. The limits are checked
// only when a row is appended (rows already stored stay readable).
const (
	MaxTitle      = 200      // bytes of a task's title: one line
	MaxName       = 100      // bytes of a worker's or sender's name: one line
	MaxAccept     = 4096     // bytes of one acceptance command
	MaxCheckpoint = 4096     // bytes of a checkpoint
	MaxInbox      = 16 << 10 // bytes of one inbox message
)

// MaxLease bounds one claim's or renew's lease: a lease is how long a worker
// that died keeps its task from everyone else, so long work renews it (ctx
// task renew) instead of claiming for years.
const MaxLease = 24 * time.Hour

// checkLease refuses a lease that is not positive or is over MaxLease.
func checkLease(id string, lease time.Duration) error {
	switch {
	case lease <= 0:
		return refused(id, "lease %s: want a positive duration like 30m", lease)
	case lease > MaxLease:
		return refused(id, "lease %s: at most %dh; renew a lease to keep long work (ctx task renew)", lease, MaxLease/time.Hour)
	}
	return nil
}

// limit is the bound on one text field of a row. A field ctx copies from
// an earlier row (a handback's by is the claim's holder) has none: a row
// stored before the limits must not block the rows that follow it.
type limit struct {
	kind, field string
	max         int
	oneLine     bool   // no control characters at all (a newline, ESC…)
	instead     string // where longer text belongs
}

var limits = []limit{
	{KindTask, "title", MaxTitle, true, "keep the title a one-line summary and put the description in a file in the repository, or send it to the task with ctx task inbox task:ID --send"},
	{KindTask, "accept", MaxAccept, false, "put a long acceptance command in a script in the repository and accept the script"},
	{KindClaim, "by", MaxName, true, "name the worker with a short id"},
	{KindRenew, "by", MaxName, true, "name the worker with a short id"},
	{KindRenew, "checkpoint", MaxCheckpoint, false, "make the checkpoint a reference (a commit, a file path, a handle) to where the state is kept"},
	{KindHandback, "checkpoint", MaxCheckpoint, false, "make the checkpoint a reference (a commit, a file path, a handle) to where the state is kept"},
	{KindApproval, "by", MaxName, true, "name the approver with a short id"},
	{KindInbox, "from", MaxName, true, "name the sender with a short id"},
	{KindInbox, "text", MaxInbox, false, "put long text in a file in the repository and send its path"},
}

// checkLimits returns what is wrong with a row about to be appended whose
// text exceeds its field's bound, or holds control characters where the
// field is one line, and where the text belongs instead; "" if nothing.
func checkLimits(kind string, fields map[string]any) string {
	for _, l := range limits {
		if l.kind != kind {
			continue
		}
		var values []string
		switch v := fields[l.field].(type) {
		case string:
			values = []string{v}
		case []string:
			values = v
		}
		for _, s := range values {
			if msg := l.check(s); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func (l limit) check(s string) string {
	if len(s) > l.max {
		return fmt.Sprintf("%s is %d bytes, more than the limit of %d: %s", l.field, len(s), l.max, l.instead)
	}
	if !utf8.ValidString(s) {
		return fmt.Sprintf("%s is not valid UTF-8", l.field)
	}
	if l.oneLine {
		for _, r := range s {
			if unicode.IsControl(r) {
				return fmt.Sprintf("%s holds the control character %U (a %s is one line of text): %s", l.field, r, l.field, l.instead)
			}
		}
	}
	return ""
}
