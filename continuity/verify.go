package continuity

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Verification modes.
const (
	ModeStrict = "strict" // restated means equal after trimming whitespace
	ModeLoose  = "loose"  // restated means the declared value appears as whole words
)

// Severities of a divergence.
const (
	SeverityCritical = "critical"
	SeverityNotable  = "notable" // any field no tier lists
	SeverityAdvisory = "advisory"
)

// Divergence reasons.
const (
	ReasonMissing   = "missing"   // no restatement of this probe was given
	ReasonDiffers   = "differs"   // the restatement is not the declared value
	ReasonContains  = "contains"  // strict: it contains the declared value but says more (a repudiation can)
	ReasonNotInText = "not_found" // loose: the declared value does not appear in it as whole words
)

// Tiers sorts fields into severities; fields in neither list are notable.
type Tiers struct {
	Critical []string `json:"critical,omitempty"`
	Advisory []string `json:"advisory,omitempty"`
}

// ParseTiers reads {"critical": [fields], "advisory": [fields]}.
func ParseTiers(data []byte) (Tiers, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return Tiers{}, fmt.Errorf("tiers: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Tiers{}, errors.New(`tiers: want {"critical": ["field", …], "advisory": ["field", …]}`)
	}
	var t Tiers
	for k, list := range obj {
		items, ok := list.([]any)
		if !ok {
			return Tiers{}, fmt.Errorf("tiers: %q must be a list of field names", k)
		}
		var names []string
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return Tiers{}, fmt.Errorf("tiers: %q lists a non-string %v; list field names", k, it)
			}
			names = append(names, s)
		}
		switch k {
		case SeverityCritical:
			t.Critical = names
		case SeverityAdvisory:
			t.Advisory = names
		default:
			return Tiers{}, fmt.Errorf("tiers: unknown tier %q (want critical or advisory; unlisted fields are notable)", k)
		}
	}
	for _, f := range t.Critical {
		if slices.Contains(t.Advisory, f) {
			return Tiers{}, fmt.Errorf("tiers: field %q is both critical and advisory; list it once", f)
		}
	}
	return t, nil
}

// Severity is the tier of a field.
func (t Tiers) Severity(field string) string {
	switch {
	case slices.Contains(t.Critical, field):
		return SeverityCritical
	case slices.Contains(t.Advisory, field):
		return SeverityAdvisory
	}
	return SeverityNotable
}

// Divergence is one declared item the restatement did not carry.
type Divergence struct {
	ID       string  `json:"id"`
	Field    string  `json:"field"`
	Declared string  `json:"declared"`
	Restated *string `json:"restated"` // null when nothing was restated
	Reason   string  `json:"reason"`
	Severity string  `json:"severity"`
}

// Verdict is the result of checking a restatement against a snapshot. Read
// Faithful together with Mode: in loose mode it means the declared values
// appeared in the answers, not that they were restated.
type Verdict struct {
	Snapshot    string              `json:"snapshot"` // the snapshot's digest
	Faithful    bool                `json:"faithful"`
	Mode        string              `json:"mode"`
	Probes      int                 `json:"probes"`
	Divergences []Divergence        `json:"divergences"`
	BySeverity  map[string][]string `json:"by_severity"` // severity → divergent probe ids
	Notes       []string            `json:"notes"`
}

// The seed's non-proofs, carried in every verdict so nobody reads more into it.
const (
	noteStrict = "strict: a probe counts as restated only if the answer is the declared value after trimming whitespace; case and punctuation count"
	noteLoose  = "loose: faithful here means each declared value appeared in the answer as whole words (case, spacing and trailing .!? ignored, as the reference's exact_match scorer) — passed, not restated; an answer that contains an anchor and repudiates it passes in this mode"
	noteScope  = "a faithful verdict proves the declared probes were restated, not that the same self answered them or acted on them, and says nothing about anything the manifest never declared"
)

// Verify checks a restatement ({probe id: text}) against a snapshot.
func Verify(s *Snapshot, restated map[string]string, loose bool, tiers Tiers) *Verdict {
	v := &Verdict{Snapshot: s.Digest, Mode: ModeStrict, Probes: len(s.Probes), Divergences: []Divergence{},
		BySeverity: map[string][]string{SeverityCritical: {}, SeverityNotable: {}, SeverityAdvisory: {}}}
	if loose {
		v.Mode = ModeLoose
		v.Notes = append(v.Notes, noteLoose)
	} else {
		v.Notes = append(v.Notes, noteStrict)
	}
	known := map[string]bool{}
	for _, p := range s.Probes {
		known[p.ID] = true
		text, ok := restated[p.ID]
		var reason string
		switch {
		case !ok:
			reason = ReasonMissing
		case loose:
			if !looseMatch(text, p.Expected) {
				reason = ReasonNotInText
			}
		case trimPython(text) != trimPython(p.Expected):
			reason = ReasonDiffers
			if strings.Contains(text, trimPython(p.Expected)) {
				reason = ReasonContains
			}
		}
		if reason == "" {
			continue
		}
		d := Divergence{ID: p.ID, Field: p.Field, Declared: p.Expected, Reason: reason, Severity: tiers.Severity(p.Field)}
		if ok {
			d.Restated = &text
		}
		v.Divergences = append(v.Divergences, d)
		v.BySeverity[d.Severity] = append(v.BySeverity[d.Severity], d.ID)
	}
	var extra []string
	for id := range restated {
		if !known[id] {
			extra = append(extra, id)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		ids := "ids"
		if len(extra) == 1 {
			ids = "id"
		}
		v.Notes = append(v.Notes, fmt.Sprintf("not scored: %d restated %s the snapshot never sealed (%s); a sealed exam asks only what it sealed — see added-since", len(extra), ids, strings.Join(extra, ", ")))
	}
	v.Faithful = len(v.Divergences) == 0
	v.Notes = append(v.Notes, noteScope)
	return v
}

// trimPython strips what Python's str.strip() strips: Unicode whitespace,
// including the separators U+001C..U+001F that Go's unicode.IsSpace omits.
func trimPython(s string) string {
	return strings.TrimFunc(s, isPySpace)
}

// looseMatch is the reference baseline's exact_match scorer, which loose mode
// uses: after normalising both sides (escape sequences removed, whitespace
// trimmed and collapsed, lower case, trailing . ! ? dropped), the answer
// equals the declared value or contains it as whole tokens — no word
// character before or after it, no digit or '.' before it, no digit (or '.'
// or ',' and a digit) after it. An empty declared value never matches.
func looseMatch(answer, declared string) bool {
	want, got := normalize(declared), normalize(answer)
	if want == "" {
		return false
	}
	if got == want {
		return true
	}
	for off := 0; off < len(got); {
		i := strings.Index(got[off:], want)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(want)
		before, _ := utf8.DecodeLastRuneInString(got[:i])
		after, n := utf8.DecodeRuneInString(got[end:])
		okBefore := i == 0 || !(isWord(before) || unicode.IsDigit(before) || before == '.')
		okAfter := end == len(got) || !isWord(after)
		if okAfter && end < len(got) && (after == '.' || after == ',') {
			next, _ := utf8.DecodeRuneInString(got[end+n:])
			okAfter = end+n == len(got) || !unicode.IsDigit(next)
		}
		if okBefore && okAfter {
			return true
		}
		_, w := utf8.DecodeRuneInString(got[i:])
		off = i + w
	}
	return false
}

func normalize(s string) string {
	s = strings.ToLower(trimPython(ansiRE.ReplaceAllString(s, "")))
	s = strings.Join(strings.FieldsFunc(s, isPySpace), " ")
	return strings.TrimRight(s, ".!?")
}

func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// ParseRestated reads a restatement: a JSON object {probe id: text}.
func ParseRestated(data []byte) (map[string]string, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("restatement: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New(`restatement: want a JSON object {"probe id": "restated text", …}, e.g. {"identity_anchors:0": "…"}`)
	}
	out := make(map[string]string, len(obj))
	for k, val := range obj {
		s, ok := val.(string)
		if !ok {
			c, err := Canonical(val)
			if err != nil {
				return nil, fmt.Errorf("restatement %q: %w", k, err)
			}
			s = string(c) // a non-string answer is compared as its canonical JSON
		}
		out[k] = s
	}
	return out, nil
}
