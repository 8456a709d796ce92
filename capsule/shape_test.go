package capsule

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// issueShape is the capture file printed in issue 17, verbatim but for the
// two values the issue elides: the parent's id ("9d2e…") and the evidence
// run, which must be real.
const issueShape = `goal = "make ctx get stream merged views"
state = "merged view reads whole stream into memory"
next_action = "replace readAll in store/merged.go with a frame iterator"
evidence = ["run:4f1c0a9e2b77#stdout:L40-52"]
rejected = ["mmap the pack file"]
constraints = ["no new dependency"]
open_questions = ["does the pty mode keep arrival order?"]
parent = "capsule:PARENT"            # optional
expires_at = "2026-12-31T00:00:00Z" # optional

[[critical]]
id = "cu-next"
field = "next_action"                # or field = "evidence", item = 0

[[validity]]
id = "vc-paths"
kind = "git_paths"
paths = ["store/*.go"]
base_commit = "HEAD"                 # optional; defaults to the grounding commit

[[validity]]
id = "vc-window"
kind = "time_window"
not_after = "2026-12-31T00:00:00Z"

[[validity]]
id = "vc-scope"
kind = "declared_scope"
scope = "the store package"

[[negative_knowledge]]
id = "nk-mmap"
hypothesis = "mmap the pack file"
why_invalid = "pack files are rewritten by compaction"
state = "rejected"
applies_while = ["vc-paths"]
retry_if = "compaction stops rewriting packs"
`

// TestIssueShapeAcceptedExactly: the issue's capture file, in TOML and as
// the same keys in JSON, becomes one capsule with every value where the
// issue puts it; base_commit "HEAD" resolves on the real checkout.
func TestIssueShapeAcceptedExactly(t *testing.T) {
	ctx := context.Background()
	dir, head := gitRepo(t)
	parent := strings.Repeat("9d2e", 16)
	src := strings.Replace(issueShape, "PARENT", parent, 1)
	resolve := func(rev string) (string, error) { return ResolveCommit(ctx, dir, rev) }
	in, err := ParseInput([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := in.Capsule(Grounding(ctx, dir), resolve)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string][2]string{
		"goal":          {c.Goal, "make ctx get stream merged views"},
		"state":         {c.State, "merged view reads whole stream into memory"},
		"next_action":   {c.NextAction, "replace readAll in store/merged.go with a frame iterator"},
		"evidence":      {strings.Join(c.Evidence, "|"), "run:4f1c0a9e2b77#stdout:L40-52"},
		"rejected":      {strings.Join(c.Rejected, "|"), "mmap the pack file"},
		"constraints":   {strings.Join(c.Constraints, "|"), "no new dependency"},
		"open":          {strings.Join(c.OpenQuestions, "|"), "does the pty mode keep arrival order?"},
		"parent":        {c.Parent, parent},
		"expires_at":    {c.ExpiresAt, "2026-12-31T00:00:00Z"},
		"grounding":     {c.GroundingCommit, head},
		"critical":      {c.Critical[0].ID + " " + c.Critical[0].Field, "cu-next next_action"},
		"base_commit":   {c.Validity[0].BaseCommit, head},
		"paths":         {strings.Join(c.Validity[0].Paths, "|"), "store/*.go"},
		"not_after":     {c.Validity[1].NotAfter, "2026-12-31T00:00:00Z"},
		"scope":         {c.Validity[2].Scope, "the store package"},
		"nk":            {c.NegativeKnowledge[0].ID + " " + c.NegativeKnowledge[0].State, "nk-mmap rejected"},
		"why_invalid":   {c.NegativeKnowledge[0].WhyInvalid, "pack files are rewritten by compaction"},
		"applies_while": {strings.Join(c.NegativeKnowledge[0].AppliesWhile, "|"), "vc-paths"},
		"retry_if":      {c.NegativeKnowledge[0].RetryIf, "compaction stops rewriting packs"},
	}
	for k, v := range checks {
		if v[0] != v[1] {
			t.Errorf("%s = %q, want %q", k, v[0], v[1])
		}
	}
	// The same keys in JSON give the same capsule.
	var asJSON map[string]any
	canon, _ := c.Canonical()
	if err := json.Unmarshal(canon, &asJSON); err != nil {
		t.Fatal(err)
	}
	delete(asJSON, "schema")
	delete(asJSON, "grounding_commit")
	asJSON["parent"] = "capsule:" + parent
	js, _ := json.Marshal(asJSON)
	jin, err := ParseInput(js)
	if err != nil {
		t.Fatalf("the JSON form: %v\n%s", err, js)
	}
	jc, err := jin.Capsule(head, resolve)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.ID()
	b, _ := jc.ID()
	if a != b {
		t.Errorf("the TOML and JSON forms differ:\n%s", js)
	}
	// The issue's example on its own checkout: nothing changed, so the
	// paths are valid; the scope is unverifiable, so is the aggregate.
	v := CheckValidity(ctx, c, Env{Dir: dir, Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)})
	if v.Conditions[0].Verdict != Valid || v.Conditions[1].Verdict != Valid || v.Aggregate != Unverifiable {
		t.Errorf("validity on the capture checkout: %+v", v)
	}
	// A base_commit the checkout cannot resolve is a clear capture error.
	bad := strings.Replace(src, `base_commit = "HEAD"`, `base_commit = "no-such-branch"`, 1)
	in, _ = ParseInput([]byte(bad))
	if _, err := in.Capsule(head, resolve); err == nil || !strings.Contains(err.Error(), `base_commit "no-such-branch": not a commit in this checkout`) {
		t.Errorf("unresolvable base_commit: %v", err)
	}
}

// TestNoGroundingAndRetiredStates: git_paths with neither base_commit nor a
// grounding commit (captured outside git) is unverifiable, and both retired
// states retire an item whatever its conditions read.
func TestNoGroundingAndRetiredStates(t *testing.T) {
	ctx := context.Background()
	dir, _ := gitRepo(t)
	c := mustCapsule(t, pathsCapsule, "")
	v := CheckValidity(ctx, c, Env{Dir: dir, Now: time.Now()})
	if v.Conditions[0].Verdict != Unverifiable || !strings.Contains(v.Conditions[0].Why, "captured outside git") {
		t.Errorf("no grounding commit: %+v", v.Conditions[0])
	}
	write(t, dir, "store/a.go", "package store // changed\n")
	v = ValidityReport{Conditions: []ConditionResult{{ID: "vc-paths", Verdict: Stale}}}
	for _, state := range []string{NKSuperseded, NKRevalidated} {
		c.NegativeKnowledge[2].State = state
		if got := Standing(c, v)[2]; got.Standing != Retired {
			t.Errorf("state %s on a stale condition: %s, want retired", state, got.Standing)
		}
	}
	if got := Standing(c, v)[0]; got.Standing != RevalidationRequired {
		t.Errorf("rejected on a stale condition: %s", got.Standing)
	}
}

// TestFidelityLooksInTheFieldsOwnSection: a unit is preserved only when its
// text is in the section where its field is rendered; the same words
// elsewhere on the page (here the goal's text inside the next action) do
// not count. Contact cards are carried whole, item by item.
func TestFidelityLooksInTheFieldsOwnSection(t *testing.T) {
	c := mustCapsule(t, `goal = "g1"
state = "s1"
next_action = "do g1 then s1"
[[contact_cards]]
name = "Ada"
role = "store owner"
reach = "ada@example.com"
[[critical]]
id = "cu-card"
field = "contact_cards"
item = 0
[[critical]]
id = "cu-goal"
field = "goal"
`, "")
	id, _ := c.ID()
	page, err := Render(c, Handle(id), "codex", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	fid, _ := Fidelity(c, Handle(id), "codex", func(string) string { return "" })
	if fid[0].Verdict != Preserved || !strings.Contains(fieldSection(page, "contact_cards"), "Ada (store owner): ada@example.com") {
		t.Errorf("contact card: %+v\n%s", fid[0], page)
	}
	if got := strings.TrimSpace(fieldSection(page, "goal")); got != "g1" {
		t.Errorf("goal section %q", got)
	}
	// Drop the goal's section from the page: its text is still on the page
	// (in the next action), but the field is not carried.
	cut := strings.Replace(page, "## Goal\n\ng1\n\n", "", 1)
	if !strings.Contains(cut, "g1") || fieldSection(cut, "goal") != "" {
		t.Fatalf("the cut page: %q", cut)
	}
	if got := assess(c, "codex", cut); got[0].Verdict != Preserved || got[1].Verdict != Unsupported {
		t.Errorf("on a page without the goal's section: %+v", got)
	}
}
