package capsule

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Verdicts and standings, exactly as the seed names them.
const (
	Preserved   = "preserved"
	Unsupported = "unsupported"
	Unknown     = "unknown"
	Degraded    = "degraded" // defined; unreachable while no consumer renders partially

	Valid          = "valid"
	Stale          = "stale"
	PartiallyStale = "partially_stale"
	Unverifiable   = "unverifiable"

	StillApplicable      = "still_applicable"
	RevalidationRequired = "revalidation_required"
	ApplicabilityUnknown = "applicability_unknown"
	Retired              = "retired"
	MaxLineageHops       = 10
)

// Env is the reading machine: the checkout, the clock, and how to describe
// evidence. Verdicts are computed against it and never stored.
type Env struct {
	Dir      string    // the checkout git runs in
	Now      time.Time // the clock time_window conditions are read against
	Describe Evidence  // one-line evidence digests for rendering
}

// Report is what Inspect computes.
type Report struct {
	Capsule           string           `json:"capsule"`
	Consumer          string           `json:"consumer"` // "" for the sender-side preview
	Fidelity          []FidelityResult `json:"fidelity"`
	FidelityNote      string           `json:"fidelity_note"`
	Validity          ValidityReport   `json:"validity"`
	NegativeKnowledge []NKResult       `json:"negative_knowledge"`
	NKNote            string           `json:"negative_knowledge_note"`
	Lineage           *LineageReport   `json:"lineage"`
	// Expiry is the capsule's TTL read against env.Now (nil without
	// expires_at): it obsoletes the whole capsule, unlike validity.
	Expiry *Expiry `json:"expiry,omitempty"`
}

// Expiry is whether a capsule's expires_at has passed on the reading
// machine's clock.
type Expiry struct {
	ExpiresAt string `json:"expires_at"`
	Expired   bool   `json:"expired"`
}

// FidelityResult is one critical unit's verdict.
type FidelityResult struct {
	ID      string `json:"id"`
	Field   string `json:"field"`
	Item    *int   `json:"item,omitempty"`
	Verdict string `json:"verdict"`
	Why     string `json:"why"`
}

// ValidityReport holds per-condition verdicts and their aggregate.
type ValidityReport struct {
	Aggregate  string            `json:"aggregate"`
	Conditions []ConditionResult `json:"conditions"`
	Note       string            `json:"note"`
}

// ConditionResult is one condition's verdict on this checkout, now.
type ConditionResult struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Verdict string   `json:"verdict"`
	Changed []string `json:"changed,omitempty"` // git_paths: the declared globs that matched a change
	Why     string   `json:"why"`
}

// NKResult is one negative knowledge item's standing.
type NKResult struct {
	ID       string `json:"id"`
	State    string `json:"state"`
	Standing string `json:"standing"`
	Why      string `json:"why"`
	RetryIf  string `json:"retry_if,omitempty"`
}

// Inspect computes fidelity for a consumer ("" = sender-side preview),
// validity on env's checkout, negative knowledge standing, and lineage over
// the capsules loader holds.
func Inspect(ctx context.Context, c *Capsule, id store.ID, consumer string, env Env, loader Loader) (*Report, error) {
	r := &Report{Capsule: Handle(id), Consumer: consumer, FidelityNote: FidelityLimitNote, NKNote: NegativeKnowledgeNote}
	fid, err := Fidelity(c, Handle(id), consumer, env.Describe)
	if err != nil {
		return nil, err
	}
	r.Fidelity = fid
	r.Validity = CheckValidity(ctx, c, env)
	r.NegativeKnowledge = Standing(c, r.Validity)
	if c.Parent != "" && loader != nil {
		r.Lineage = Lineage(c, loader)
	}
	if c.ExpiresAt != "" {
		r.Expiry = &Expiry{ExpiresAt: c.ExpiresAt, Expired: c.Expired(env.Now)}
	}
	return r, nil
}

// Fidelity checks each critical unit against the rendering for consumer:
// preserved when every text the unit points at appears in the rendered page
// byte for byte. It checks rendering only (FidelityLimitNote).
func Fidelity(c *Capsule, handle, consumer string, describe Evidence) ([]FidelityResult, error) {
	var page string
	if consumer != "" {
		var err error
		if page, err = Render(c, handle, consumer, describe); err != nil {
			return nil, err
		}
	}
	return assess(c, consumer, page), nil
}

// assess gives each critical unit its verdict against one consumer's page
// ("" consumer: the sender-side preview, no page).
func assess(c *Capsule, consumer, page string) []FidelityResult {
	out := []FidelityResult{}
	for _, u := range c.Critical {
		res := FidelityResult{ID: u.ID, Field: u.Field, Item: u.Item}
		switch {
		case !slices.Contains(Fields, u.Field):
			res.Verdict, res.Why = Unsupported, "this build does not know the field "+u.Field
		case consumer == "":
			res.Verdict, res.Why = Unknown, "sender-side preview: the recipient's consumer decides (inspect --with CONSUMER)"
		default:
			res.Verdict, res.Why = Preserved, "the "+consumer+" rendering carries the field whole"
			body := fieldSection(page, u.Field)
			for _, t := range c.fieldTexts(u) {
				if body == "" || !strings.Contains(body, t) {
					res.Verdict, res.Why = Unsupported, "the "+consumer+" rendering does not carry "+u.Field
				}
			}
		}
		out = append(out, res)
	}
	return out
}

// sectionTitles are the headings Render gives each field.
var sectionTitles = map[string]string{"goal": "Goal", "state": "State", "next_action": "Next action", "evidence": "Evidence",
	"rejected": "Rejected", "constraints": "Constraints", "open_questions": "Open questions", "contact_cards": "Contact cards"}

// fieldSection is the body of the field's own section of a rendered page,
// or "" when the page has none: a unit is preserved only when its text is
// where the field is rendered, not merely somewhere on the page. (A field
// whose own text holds a line "## …" ends its section early and reads as
// unsupported: the page is then ambiguous to its reader too.)
func fieldSection(page, field string) string {
	head := "## " + sectionTitles[field] + "\n\n"
	i := strings.Index(page, head)
	if i < 0 {
		return ""
	}
	body := page[i+len(head):]
	if j := strings.Index(body, "\n## "); j >= 0 {
		body = body[:j]
	}
	return body
}

// CheckValidity evaluates every declared condition on env's checkout now.
func CheckValidity(ctx context.Context, c *Capsule, env Env) ValidityReport {
	rep := ValidityReport{Conditions: []ConditionResult{}, Note: ValidityLimitNote}
	var changed []string
	var changedErr error
	changedFor := map[string]bool{}
	for _, v := range c.Validity {
		res := ConditionResult{ID: v.ID, Kind: v.Kind}
		switch v.Kind {
		case KindTimeWindow:
			t, err := time.Parse(time.RFC3339, v.NotAfter)
			switch {
			case err != nil:
				res.Verdict, res.Why = Unverifiable, "not_after does not parse"
			case env.Now.After(t):
				res.Verdict, res.Why = Stale, "the deadline "+v.NotAfter+" has passed"
			default:
				res.Verdict, res.Why = Valid, "before the deadline "+v.NotAfter
			}
		case KindDeclaredScope:
			res.Verdict, res.Why = Unverifiable, "a sender declaration, shown as one and never checked: "+v.Scope
		case KindGitPaths:
			base := v.BaseCommit
			if base == "" {
				base = c.GroundingCommit
			}
			if base == "" {
				res.Verdict, res.Why = Unverifiable, "no base commit: the capsule was captured outside git"
				break
			}
			if !commitExists(ctx, env.Dir, base) {
				res.Verdict, res.Why = Unverifiable, "base commit "+short(base)+" is not in this checkout"
				break
			}
			if !changedFor[base] {
				changed, changedErr = changedPaths(ctx, env.Dir, base)
				changedFor = map[string]bool{base: true}
			}
			if changedErr != nil {
				res.Verdict, res.Why = Unverifiable, "git: "+changedErr.Error()
				break
			}
			for _, g := range v.Paths {
				if matchesAny(g, changed) {
					res.Changed = append(res.Changed, g)
				}
			}
			switch len(res.Changed) {
			case 0:
				res.Verdict, res.Why = Valid, fmt.Sprintf("none of %d declared path(s) changed since %s", len(v.Paths), short(base))
			case len(v.Paths):
				res.Verdict, res.Why = Stale, fmt.Sprintf("all %d declared path(s) changed since %s", len(v.Paths), short(base))
			default:
				res.Verdict, res.Why = PartiallyStale, fmt.Sprintf("%d of %d declared path(s) changed since %s", len(res.Changed), len(v.Paths), short(base))
			}
		default:
			res.Verdict, res.Why = Unverifiable, "this build does not recognise the kind "+v.Kind
		}
		rep.Conditions = append(rep.Conditions, res)
	}
	rep.Aggregate = Aggregate(rep.Conditions)
	return rep
}

// Aggregate is the worst-of over required conditions, with the seed's one
// judgement call: stale mixed with unverifiable is partially_stale, so the
// known-bad part stays loud. No conditions aggregate to valid (nothing was
// declared that could fail).
func Aggregate(cs []ConditionResult) string {
	has := map[string]bool{}
	for _, c := range cs {
		has[c.Verdict] = true
	}
	switch {
	case has[Stale] && (has[Unverifiable] || has[PartiallyStale]):
		return PartiallyStale
	case has[Stale]:
		return Stale
	case has[PartiallyStale]:
		return PartiallyStale
	case has[Unverifiable]:
		return Unverifiable
	}
	return Valid
}

// Warning is the stderr notice on receive when the aggregate is not valid,
// or "".
func (v ValidityReport) Warning() string {
	if v.Aggregate == Valid {
		return ""
	}
	var ids []string
	for _, c := range v.Conditions {
		if c.Verdict != Valid {
			ids = append(ids, c.ID)
		}
	}
	return fmt.Sprintf("warning: CONTEXT VALIDITY — %s (%d required condition(s) not valid; ids: `%s`). %s",
		v.Aggregate, len(ids), strings.Join(ids, ", "), strings.ReplaceAll(ValidityLimitNote, "\n", " "))
}

// Standing computes each negative knowledge item's standing against the
// validity verdicts. retry_if is carried as data and never read.
func Standing(c *Capsule, v ValidityReport) []NKResult {
	verdict := map[string]string{}
	for _, r := range v.Conditions {
		verdict[r.ID] = r.Verdict
	}
	out := []NKResult{}
	for _, n := range c.NegativeKnowledge {
		state := orDefault(n.State, NKRejected)
		res := NKResult{ID: n.ID, State: state, RetryIf: n.RetryIf}
		var stale, unverifiable []string
		for _, id := range n.AppliesWhile {
			switch verdict[id] {
			case Stale, PartiallyStale:
				stale = append(stale, id)
			case Valid:
			default:
				unverifiable = append(unverifiable, id)
			}
		}
		switch {
		case state == NKSuperseded || state == NKRevalidated:
			res.Standing, res.Why = Retired, "state "+state
		case state != NKRejected:
			res.Standing, res.Why = ApplicabilityUnknown, "state "+state+" is not one this build recognises"
		case len(n.AppliesWhile) == 0:
			res.Standing, res.Why = ApplicabilityUnknown, "no applies_while conditions were recorded"
		case len(stale) > 0:
			res.Standing, res.Why = RevalidationRequired, "changed since the rejection was written: "+strings.Join(stale, ", ")
		case len(unverifiable) > 0:
			res.Standing, res.Why = ApplicabilityUnknown, "could not check: "+strings.Join(unverifiable, ", ")
		default:
			res.Standing, res.Why = StillApplicable, "every referenced condition reads valid"
		}
		out = append(out, res)
	}
	return out
}

// commitExists reports whether rev names a commit in the checkout at dir.
func commitExists(ctx context.Context, dir, rev string) bool {
	_, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	return err == nil
}

// changedPaths lists paths that differ between base and the working tree
// (tracked changes, staged or not, and untracked files not ignored).
func changedPaths(ctx context.Context, dir, base string) ([]string, error) {
	diff, err := git(ctx, dir, "diff", "--name-only", "--no-renames", "-z", base, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := git(ctx, dir, "ls-files", "--others", "--exclude-standard", "-z", "--full-name", ":/")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, part := range [][]byte{diff, untracked} {
		for _, p := range bytes.Split(part, []byte{0}) {
			if len(p) > 0 {
				out = append(out, string(p))
			}
		}
	}
	return out, nil
}

// matchesAny reports whether the glob matches a changed path, or a path
// under a matched directory.
func matchesAny(glob string, paths []string) bool {
	for _, p := range paths {
		if ok, _ := path.Match(glob, p); ok {
			return true
		}
		if strings.HasPrefix(p, strings.TrimSuffix(glob, "/")+"/") {
			return true
		}
	}
	return false
}

// git runs git in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		return nil, err
	}
	return out, nil
}

// Grounding returns the checkout's HEAD commit, or "" outside git or before
// the first commit.
func Grounding(ctx context.Context, dir string) string {
	out, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// ResolveCommit resolves a revision in the checkout to a full commit id.
func ResolveCommit(ctx context.Context, dir, rev string) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("not a commit in this checkout")
	}
	return strings.TrimSpace(string(out)), nil
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
