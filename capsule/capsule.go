package capsule

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/ctxhq/ctx/store"
)

// Schema names this build's capsule format; a capsule with another schema is
// refused rather than half-understood.
const Schema = "ctx.capsule/v1"

// Limits the seed sets per capsule.
const (
	MaxCritical          = 10
	MaxValidity          = 10
	MaxNegativeKnowledge = 10
	// MaxSize bounds a capsule's canonical JSON: a handoff note, not a log.
	MaxSize = 256 << 10
)

// Validity condition kinds.
const (
	KindGitPaths      = "git_paths"
	KindTimeWindow    = "time_window"
	KindDeclaredScope = "declared_scope"
)

// Negative knowledge states this build recognises.
const (
	NKRejected    = "rejected"
	NKSuperseded  = "superseded"
	NKRevalidated = "revalidated"
)

// Errors.
var (
	// ErrInvalid marks a capture file or received capsule that breaks the format.
	ErrInvalid = errors.New("invalid capsule")
	// ErrNotFound is a capsule handle that names no stored capsule.
	ErrNotFound = store.ErrNotFound
)

// Capsule is one handoff. Field order is the canonical JSON order.
type Capsule struct {
	Schema            string        `json:"schema"`
	Goal              string        `json:"goal"`
	State             string        `json:"state"`
	NextAction        string        `json:"next_action"`
	Evidence          []string      `json:"evidence"`
	Rejected          []string      `json:"rejected"`
	Constraints       []string      `json:"constraints"`
	OpenQuestions     []string      `json:"open_questions"`
	ContactCards      []ContactCard `json:"contact_cards"`
	Critical          []Critical    `json:"critical"`
	Validity          []Condition   `json:"validity"`
	NegativeKnowledge []NKItem      `json:"negative_knowledge"`
	Parent            string        `json:"parent,omitempty"`     // full capsule id (64 hex)
	ExpiresAt         string        `json:"expires_at,omitempty"` // RFC 3339
	GroundingCommit   string        `json:"grounding_commit,omitempty"`
}

// ContactCard names someone a recipient can ask.
type ContactCard struct {
	Name  string `json:"name" toml:"name"`
	Role  string `json:"role,omitempty" toml:"role"`
	Reach string `json:"reach,omitempty" toml:"reach"`
}

// Critical is a sender-marked pointer at one field or one list item the
// recipient must get.
type Critical struct {
	ID         string `json:"id" toml:"id"`
	Field      string `json:"field" toml:"field"`
	Item       *int   `json:"item,omitempty" toml:"item"`
	Supersedes string `json:"supersedes,omitempty" toml:"supersedes"`
}

// Condition is a declared validity condition; never a verdict.
type Condition struct {
	ID         string   `json:"id" toml:"id"`
	Kind       string   `json:"kind" toml:"kind"`
	Paths      []string `json:"paths,omitempty" toml:"paths"`
	BaseCommit string   `json:"base_commit,omitempty" toml:"base_commit"`
	NotAfter   string   `json:"not_after,omitempty" toml:"not_after"`
	Scope      string   `json:"scope,omitempty" toml:"scope"`
}

// NKItem is one approach tried and ruled out.
type NKItem struct {
	ID           string   `json:"id" toml:"id"`
	Hypothesis   string   `json:"hypothesis" toml:"hypothesis"`
	WhyInvalid   string   `json:"why_invalid" toml:"why_invalid"`
	State        string   `json:"state" toml:"state"`
	AppliesWhile []string `json:"applies_while,omitempty" toml:"applies_while"`
	RetryIf      string   `json:"retry_if,omitempty" toml:"retry_if"`
}

// Input is the capture file: exactly these keys, in TOML or JSON.
type Input struct {
	Goal              string        `json:"goal" toml:"goal"`
	State             string        `json:"state" toml:"state"`
	NextAction        string        `json:"next_action" toml:"next_action"`
	Evidence          []string      `json:"evidence" toml:"evidence"`
	Rejected          []string      `json:"rejected" toml:"rejected"`
	Constraints       []string      `json:"constraints" toml:"constraints"`
	OpenQuestions     []string      `json:"open_questions" toml:"open_questions"`
	ContactCards      []ContactCard `json:"contact_cards" toml:"contact_cards"`
	Critical          []Critical    `json:"critical" toml:"critical"`
	Validity          []Condition   `json:"validity" toml:"validity"`
	NegativeKnowledge []NKItem      `json:"negative_knowledge" toml:"negative_knowledge"`
	Parent            string        `json:"parent" toml:"parent"`
	ExpiresAt         string        `json:"expires_at" toml:"expires_at"`
}

// ParseInput reads a capture file. JSON is recognised by a leading '{';
// anything else is TOML. Unknown keys are errors, so a typo is not silently
// dropped from a handoff.
func ParseInput(data []byte) (*Input, error) {
	var in Input
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return nil, fmt.Errorf("%w: JSON: %v", ErrInvalid, err)
		}
		return &in, nil
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) {
			return nil, fmt.Errorf("%w: unknown key(s) in the capture file:\n%s", ErrInvalid, sm.String())
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("%w: TOML line %d column %d: %v", ErrInvalid, row, col, de)
		}
		return nil, fmt.Errorf("%w: TOML: %v", ErrInvalid, err)
	}
	return &in, nil
}

// Capsule turns a parsed input into a capsule grounded at commit (the
// checkout's HEAD, or "" outside git). resolveBase turns a declared
// base_commit such as "HEAD" into a full commit id; a 40-hex id is kept
// as written.
func (in *Input) Capsule(grounding string, resolveBase func(string) (string, error)) (*Capsule, error) {
	c := &Capsule{Schema: Schema, Goal: in.Goal, State: in.State, NextAction: in.NextAction,
		Evidence: in.Evidence, Rejected: in.Rejected, Constraints: in.Constraints, OpenQuestions: in.OpenQuestions,
		ContactCards: in.ContactCards, Critical: in.Critical, Validity: in.Validity,
		NegativeKnowledge: in.NegativeKnowledge, ExpiresAt: in.ExpiresAt, GroundingCommit: grounding}
	if in.Parent != "" {
		p := strings.TrimPrefix(in.Parent, "capsule:")
		if len(p) != 64 || !isHex(p) {
			return nil, fmt.Errorf("%w: parent %q: want the full capsule id (capsule: and 64 hex digits); resolve a short one with ctx capsule inspect", ErrInvalid, in.Parent)
		}
		c.Parent = strings.ToLower(p)
	}
	for i := range c.Validity {
		v := &c.Validity[i]
		if v.Kind != KindGitPaths || v.BaseCommit == "" || (len(v.BaseCommit) == 40 && isHex(v.BaseCommit)) {
			continue
		}
		full, err := resolveBase(v.BaseCommit)
		if err != nil {
			return nil, fmt.Errorf("%w: validity %s: base_commit %q: %v", ErrInvalid, v.ID, v.BaseCommit, err)
		}
		v.BaseCommit = full
	}
	c.normalise()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// normalise makes empty lists non-nil so the canonical form does not depend
// on whether a list was written empty or left out.
func (c *Capsule) normalise() {
	for _, l := range []*[]string{&c.Evidence, &c.Rejected, &c.Constraints, &c.OpenQuestions} {
		if *l == nil {
			*l = []string{}
		}
	}
	if c.ContactCards == nil {
		c.ContactCards = []ContactCard{}
	}
	if c.Critical == nil {
		c.Critical = []Critical{}
	}
	if c.Validity == nil {
		c.Validity = []Condition{}
	}
	if c.NegativeKnowledge == nil {
		c.NegativeKnowledge = []NKItem{}
	}
}

// listFields are the fields a critical unit may point into by item.
var listFields = []string{"evidence", "rejected", "constraints", "open_questions", "contact_cards"}

// Fields are every field a critical unit may point at, in render order.
var Fields = []string{"goal", "state", "next_action", "evidence", "rejected", "constraints", "open_questions", "contact_cards"}

// fieldLen is the number of items in a list field, or -1 for a text field.
func (c *Capsule) fieldLen(field string) int {
	switch field {
	case "evidence":
		return len(c.Evidence)
	case "rejected":
		return len(c.Rejected)
	case "constraints":
		return len(c.Constraints)
	case "open_questions":
		return len(c.OpenQuestions)
	case "contact_cards":
		return len(c.ContactCards)
	}
	return -1
}

// Validate checks the format: required fields, limits, kinds, ids and
// references. It does not look at the store or git.
func (c *Capsule) Validate() error {
	if c.Schema != Schema {
		return invalid("schema %q: this build reads %s only", c.Schema, Schema)
	}
	if strings.TrimSpace(c.Goal) == "" || strings.TrimSpace(c.NextAction) == "" {
		return invalid("goal and next_action are required: a handoff says what the work is for and what to do next")
	}
	if len(c.Critical) > MaxCritical {
		return invalid("%d critical units: at most %d per capsule; mark only what the next session must not miss", len(c.Critical), MaxCritical)
	}
	if len(c.Validity) > MaxValidity {
		return invalid("%d validity conditions: at most %d per capsule", len(c.Validity), MaxValidity)
	}
	if len(c.NegativeKnowledge) > MaxNegativeKnowledge {
		return invalid("%d negative knowledge items: at most %d per capsule", len(c.NegativeKnowledge), MaxNegativeKnowledge)
	}
	for i, e := range c.Evidence {
		if err := checkEvidence(e); err != nil {
			return invalid("evidence %d: %v", i, err)
		}
	}
	seen := map[string]string{}
	id := func(kind, id string) error {
		if id == "" {
			return invalid("a %s entry has no id: give each one an id such as %s-1", kind, map[string]string{"critical": "cu", "validity": "vc", "negative_knowledge": "nk"}[kind])
		}
		if prev, ok := seen[id]; ok {
			return invalid("id %q is used twice (%s and %s): ids must be unique in a capsule", id, prev, kind)
		}
		seen[id] = kind
		return nil
	}
	for _, u := range c.Critical {
		if err := id("critical", u.ID); err != nil {
			return err
		}
		if !slices.Contains(Fields, u.Field) {
			return invalid("critical %s: unknown field %q (want one of %s)", u.ID, u.Field, strings.Join(Fields, ", "))
		}
		if err := c.checkItem(u); err != nil {
			return err
		}
	}
	for _, v := range c.Validity {
		if err := id("validity", v.ID); err != nil {
			return err
		}
		if err := checkCondition(v); err != nil {
			return err
		}
	}
	for _, n := range c.NegativeKnowledge {
		if err := id("negative_knowledge", n.ID); err != nil {
			return err
		}
		if strings.TrimSpace(n.Hypothesis) == "" {
			return invalid("negative_knowledge %s: hypothesis is required", n.ID)
		}
	}
	for _, n := range c.NegativeKnowledge {
		for _, ref := range n.AppliesWhile {
			if seen[ref] != "validity" {
				return invalid("negative_knowledge %s: applies_while names %q, which is not a validity condition of this capsule", n.ID, ref)
			}
		}
	}
	for _, u := range c.Critical {
		if u.Supersedes != "" && seen[u.Supersedes] == "critical" {
			return invalid("critical %s: supersedes %q, a unit of this same capsule; supersedes names a unit of the parent", u.ID, u.Supersedes)
		}
	}
	return c.checkStamps()
}

// checkStamps checks the expiry time, the parent's id and the grounding
// commit.
func (c *Capsule) checkStamps() error {
	if c.ExpiresAt != "" {
		if _, err := time.Parse(time.RFC3339, c.ExpiresAt); err != nil {
			return invalid("expires_at %q: want an RFC 3339 time such as 2026-12-31T00:00:00Z", c.ExpiresAt)
		}
	}
	if c.Parent != "" && (len(c.Parent) != 64 || !isHex(c.Parent)) {
		return invalid("parent %q: want 64 hex digits", c.Parent)
	}
	if c.GroundingCommit != "" && !isHex(c.GroundingCommit) {
		return invalid("grounding_commit %q: want a commit id", c.GroundingCommit)
	}
	return nil
}

// invalid is a Validate error: ErrInvalid with what is wrong.
func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

// checkItem checks a critical unit's item index against its field.
func (c *Capsule) checkItem(u Critical) error {
	n := c.fieldLen(u.Field)
	switch {
	case u.Item != nil && n < 0:
		return invalid("critical %s: %s is a text field; item applies to lists (%s)", u.ID, u.Field, strings.Join(listFields, ", "))
	case u.Item != nil && (*u.Item < 0 || *u.Item >= n):
		return invalid("critical %s: %s has %d item(s); item %d does not exist (items count from 0)", u.ID, u.Field, n, *u.Item)
	}
	return nil
}

// checkCondition checks one validity condition's fields for its kind.
func checkCondition(v Condition) error {
	switch v.Kind {
	case KindGitPaths:
		if len(v.Paths) == 0 {
			return invalid("validity %s: git_paths needs paths (relative globs such as store/*.go)", v.ID)
		}
		for _, p := range v.Paths {
			if p == "" || strings.HasPrefix(p, "/") || slices.Contains(strings.Split(p, "/"), "..") {
				return invalid("validity %s: path %q: want a glob relative to the repository top, without ..", v.ID, p)
			}
		}
	case KindTimeWindow:
		if _, err := time.Parse(time.RFC3339, v.NotAfter); err != nil {
			return invalid("validity %s: not_after %q: want an RFC 3339 time such as 2026-12-31T00:00:00Z", v.ID, v.NotAfter)
		}
	case KindDeclaredScope:
		if strings.TrimSpace(v.Scope) == "" {
			return invalid("validity %s: declared_scope needs scope (free text naming what the handoff applies to)", v.ID)
		}
	default:
		return invalid("validity %s: unknown kind %q (want git_paths, time_window or declared_scope)", v.ID, v.Kind)
	}
	return nil
}

// Canonical is the capsule's canonical JSON: struct field order, no
// insignificant whitespace, HTML characters unescaped.
func (c *Capsule) Canonical() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ID is the BLAKE3 of the canonical JSON.
func (c *Capsule) ID() (store.ID, error) {
	b, err := c.Canonical()
	if err != nil {
		return store.ID{}, err
	}
	return store.Sum(b), nil
}

// Decode reads a capsule from its JSON and checks that it is canonical and
// valid: what a recipient accepts.
func Decode(data []byte) (*Capsule, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%w: %d bytes, over the %d KiB limit", ErrInvalid, len(data), MaxSize>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Capsule
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	canon, err := c.Canonical()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(canon, bytes.TrimSpace(data)) {
		return nil, fmt.Errorf("%w: not in canonical form (was it edited after capture?)", ErrInvalid)
	}
	return &c, nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s)%2 == 0 || (len(s)%2 == 1 && isHex(s+"0"))
}

// checkEvidence checks the shape of an evidence handle: one ctx get reads,
// a stored one (run:, blob:, span:, receipt:) or a record's (seq:ID[#N…],
// py:ID[#N…], job:ID[#…], as ctx seq, py and run --bg print them). Whether
// it exists is the capturing store's to say.
func checkEvidence(e string) error {
	scheme, rest, _ := strings.Cut(e, ":")
	switch scheme {
	case "seq", "py", "job":
		id, _, _ := strings.Cut(rest, "#")
		if len(id) < 6 || len(id) > 64 || strings.Trim(id, "0123456789abcdef") != "" {
			return fmt.Errorf("handle %q: the id is not 6 to 64 hex digits (want %s:ID as ctx printed it)", e, scheme)
		}
		return nil
	}
	_, err := store.ParseHandle(e)
	return err
}

// Expired reports whether the capsule's expires_at has passed at now. TTL
// obsoletes the whole capsule regardless of content; it is not validity.
func (c *Capsule) Expired(now time.Time) bool {
	if c.ExpiresAt == "" {
		return false
	}
	t, err := time.Parse(time.RFC3339, c.ExpiresAt)
	return err == nil && !now.Before(t)
}
