package capsule

import (
	"fmt"
	"strconv"
	"strings"
)

// Consumers that Render knows. Each carries every field whole.
var Consumers = []string{"codex", "claude", "markdown"}

// Evidence describes an evidence handle in one line ("" when it is not in
// this store).
type Evidence func(handle string) string

// Render is the Markdown a consumer reads at the start of a session. It is a
// pure function of the capsule, its id, the consumer and the evidence lines:
// the same inputs give the same bytes. Every field is carried whole; none is
// cut, so a field is either on the page or reported as not carried.
func Render(c *Capsule, handle, consumer string, describe Evidence) (string, error) {
	if !isConsumer(consumer) {
		return "", fmt.Errorf("consumer %q: want one of %s", consumer, strings.Join(Consumers, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Handoff %s\n\n", handle)
	switch consumer {
	case "codex", "claude":
		fmt.Fprintf(&b, "A previous session left this handoff for you (%s). Check its evidence with `ctx get HANDLE` before relying on it.\n\n", consumer)
	}
	section := func(title, body string) {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", title, body)
	}
	section("Goal", c.Goal)
	section("State", orNone(c.State))
	section("Next action", c.NextAction)
	list := func(title string, items []string) {
		if len(items) == 0 {
			section(title, "(none)")
			return
		}
		var l strings.Builder
		for i, it := range items {
			if i > 0 {
				l.WriteByte('\n')
			}
			fmt.Fprintf(&l, "%d. %s", i, it)
		}
		section(title, l.String())
	}
	var ev []string
	for _, h := range c.Evidence {
		line := "`" + h + "`"
		if d := describe(h); d != "" {
			line += " — " + d
		} else {
			line += " — not in this store"
		}
		ev = append(ev, line)
	}
	list("Evidence", ev)
	list("Rejected", c.Rejected)
	list("Constraints", c.Constraints)
	list("Open questions", c.OpenQuestions)
	var cards []string
	for _, cc := range c.ContactCards {
		cards = append(cards, cardText(cc))
	}
	list("Contact cards", cards)
	if len(c.Critical) > 0 {
		var l []string
		for _, u := range c.Critical {
			s := u.ID + ": " + u.Field
			if u.Item != nil {
				s += " item " + strconv.Itoa(*u.Item)
			}
			if u.Supersedes != "" {
				s += " (supersedes " + u.Supersedes + ")"
			}
			l = append(l, s)
		}
		list("Critical (the sender needs you to keep these)", l)
	}
	if len(c.Validity) > 0 {
		var l []string
		for _, v := range c.Validity {
			l = append(l, v.ID+": "+conditionText(v))
		}
		list("Validity conditions (declared by the sender, checked by ctx capsule inspect)", l)
	}
	if len(c.NegativeKnowledge) > 0 {
		var l []string
		for _, n := range c.NegativeKnowledge {
			s := fmt.Sprintf("%s [%s]: %s — ruled out because %s", n.ID, orDefault(n.State, NKRejected), n.Hypothesis, orNone(n.WhyInvalid))
			if len(n.AppliesWhile) > 0 {
				s += "; applies while " + strings.Join(n.AppliesWhile, ", ")
			}
			if n.RetryIf != "" {
				s += "; sender's retry note (not evaluated): " + n.RetryIf
			}
			l = append(l, s)
		}
		list("Negative knowledge (a record, not policy: you may retry with new evidence)", l)
	}
	var meta []string
	if c.Parent != "" {
		meta = append(meta, "parent: capsule:"+c.Parent[:12])
	}
	if c.GroundingCommit != "" {
		meta = append(meta, "grounding commit: "+c.GroundingCommit)
	}
	if c.ExpiresAt != "" {
		meta = append(meta, "expires at: "+c.ExpiresAt)
	}
	if len(meta) > 0 {
		section("About this handoff", strings.Join(meta, "\n"))
	}
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

func cardText(cc ContactCard) string {
	s := cc.Name
	if cc.Role != "" {
		s += " (" + cc.Role + ")"
	}
	if cc.Reach != "" {
		s += ": " + cc.Reach
	}
	return s
}

func conditionText(v Condition) string {
	switch v.Kind {
	case KindGitPaths:
		base := v.BaseCommit
		if base == "" {
			base = "the grounding commit"
		}
		return "git paths " + strings.Join(v.Paths, ", ") + " unchanged since " + base
	case KindTimeWindow:
		return "holds until " + v.NotAfter
	case KindDeclaredScope:
		return "declared scope: " + v.Scope
	}
	return "kind " + v.Kind
}

func isConsumer(s string) bool {
	for _, c := range Consumers {
		if c == s {
			return true
		}
	}
	return false
}

func orNone(s string) string { return orDefault(s, "(none)") }

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

// fieldTexts are the texts a critical unit points at, as a rendering must
// carry them.
func (c *Capsule) fieldTexts(u Critical) []string {
	pick := func(items []string) []string {
		if u.Item != nil {
			if *u.Item < len(items) {
				return []string{items[*u.Item]}
			}
			return nil
		}
		return items
	}
	switch u.Field {
	case "goal":
		return []string{c.Goal}
	case "state":
		return []string{c.State}
	case "next_action":
		return []string{c.NextAction}
	case "evidence":
		return pick(c.Evidence)
	case "rejected":
		return pick(c.Rejected)
	case "constraints":
		return pick(c.Constraints)
	case "open_questions":
		return pick(c.OpenQuestions)
	case "contact_cards":
		var cards []string
		for _, cc := range c.ContactCards {
			cards = append(cards, cardText(cc))
		}
		return pick(cards)
	}
	return nil
}

// FieldTexts returns the texts a critical unit points at, for other
// compositions (publish) to check whether they carry them.
func FieldTexts(c *Capsule, u Critical) []string { return c.fieldTexts(u) }
