// Package publish is the bridge that puts a verified handoff where a team
// already works: a GitHub issue, a Jira ticket (RECORD: create or append) or
// a Slack message (DISCUSS: post or reply in a thread). Composition is pure
// and happens first; a preview stops there, before any provider is looked
// up, any credential read or any network client built. Publication is
// guarded by an idempotency key persisted before the call, and its outcome is
// exactly published, ambiguous or failed.
//
// It must never read a destination back, sync, poll, reconcile, or make a
// mention live: mentions are inert in every composition.
package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/capsule"
)

// Operations: two different compositions, not one "send text".
const (
	Record  = "record"  // a durable, management-friendly view for systems of record
	Discuss = "discuss" // a shorter, conversation-friendly view
)

// View is a composed publication.
type View struct {
	Operation string `json:"operation"`
	Title     string `json:"title,omitempty"` // RECORD only
	Body      string `json:"body"`
	// Critical says how each critical unit is represented in this view:
	// carried (its text is in the body) or a pointer back to the capsule.
	Critical []CriticalView `json:"critical"`
}

// CriticalView is one critical unit's representation in a view.
type CriticalView struct {
	ID      string `json:"id"`
	Field   string `json:"field"`
	Verdict string `json:"verdict"` // preserved | pointer
}

// IdempotencyKey is hex(sha256(capsule_id + provider + target + operation)).
func IdempotencyKey(capsuleID, provider, target, operation string) string {
	s := sha256.Sum256([]byte(capsuleID + provider + target + operation))
	return hex.EncodeToString(s[:])
}

// maxDiscussEvidence is how many evidence handles DISCUSS keeps (RECORD
// keeps them all).
const maxDiscussEvidence = 3

// Compose builds the view for an operation. It is pure: no store, no
// network, no credentials.
func Compose(c *capsule.Capsule, handle, operation string) (*View, error) {
	var b strings.Builder
	section := func(title string, lines ...string) {
		fmt.Fprintf(&b, "### %s\n\n", title)
		if len(lines) == 0 {
			b.WriteString("(none)\n\n")
			return
		}
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	bullets := func(items []string) []string {
		var out []string
		for _, it := range items {
			out = append(out, "- "+it)
		}
		return out
	}
	v := &View{Operation: operation}
	switch operation {
	case Record:
		v.Title = "Handoff: " + firstLine(c.Goal, 100)
		section("Goal", c.Goal)
		section("Current state", orNone(c.State))
		section("Evidence", bullets(c.Evidence)...)
		section("Rejected hypotheses", bullets(c.Rejected)...)
		section("Constraints", bullets(c.Constraints)...)
		section("Requested next action", c.NextAction)
	case Discuss:
		fmt.Fprintf(&b, "*Handoff %s*: %s\n", handle, firstLine(c.Goal, 200))
		if c.State != "" {
			fmt.Fprintf(&b, "Where it stands: %s\n", c.State)
		}
		b.WriteByte('\n')
		why := "The sender asks for discussion before the next action: " + c.NextAction
		if len(c.OpenQuestions) > 0 {
			why = "Open questions the sender could not settle:"
		}
		b.WriteString(why + "\n")
		for _, q := range c.OpenQuestions {
			b.WriteString("• " + q + "\n")
		}
		ev := c.Evidence
		more := 0
		if len(ev) > maxDiscussEvidence {
			ev, more = ev[:maxDiscussEvidence], len(ev)-maxDiscussEvidence
		}
		if len(ev) > 0 {
			b.WriteString("\nEvidence: " + strings.Join(ev, ", "))
			if more > 0 {
				fmt.Fprintf(&b, " and %d more in the capsule", more)
			}
			b.WriteByte('\n')
		}
		b.WriteString("\nRequested: reply in this thread with a decision or what you know.\n")
	default:
		return nil, fmt.Errorf("operation %q: want record or discuss", operation)
	}
	body := b.String()
	var pointers []string
	for _, u := range c.Critical {
		cv := CriticalView{ID: u.ID, Field: u.Field, Verdict: capsule.Preserved}
		for _, t := range capsule.FieldTexts(c, u) {
			if !strings.Contains(body, t) {
				cv.Verdict = "pointer"
			}
		}
		if cv.Verdict == "pointer" {
			pointers = append(pointers, fmt.Sprintf("%s (%s)", u.ID, u.Field))
		}
		v.Critical = append(v.Critical, cv)
	}
	if len(pointers) > 0 {
		body += fmt.Sprintf("Critical context not carried here, read it in the capsule (%s): %s\n", handle, strings.Join(pointers, ", "))
	}
	body += fmt.Sprintf("\n(published by ctx from %s)\n", handle)
	v.Body = body
	return v, nil
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}
