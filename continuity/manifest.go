package continuity

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Id schemes for list items.
const (
	// SchemeIndex names a list item by its position: "field:0" (the reference's default).
	SchemeIndex = "index"
	// SchemeContent names a list item by its own value, so removing an earlier
	// item does not re-map every id after it: "field:" and the first 12 hex of
	// the SHA-256 of the item's declared text, with "#2", "#3", … for repeats.
	SchemeContent = "content"
)

// ScorerExact is the only sealed scoring type: a restatement must be the declared value.
const ScorerExact = "exact_match"

// Probe is one pre-registered question of a snapshot: restate one declared
// item. Its record form is the reference's {"id", "prompt", "scoring":
// {"type": "exact_match", "answer"}}.
type Probe struct {
	ID       string // "field:0", "field:<12 hex>", "field:<caller id>", or "field" for a non-list field
	Field    string // the manifest field the item belongs to
	Prompt   string // the question put to the next instance
	Expected string // the declared value: a string item as is, any other as json.dumps(v, sort_keys=True, ensure_ascii=False)
}

// Probes derives one probe per declared item of a manifest (a JSON object of
// fields, each a list of items or a single value), in the reference's order:
// fields sorted by code point, items in list order. A list item written
// exactly {"id": ID, "value": V} gets the caller's id "field:ID" under either
// scheme. Ids and prompts must be unique: a snapshot that could never be
// verified is refused.
func Probes(manifest map[string]any, scheme string) ([]Probe, error) {
	if scheme != SchemeIndex && scheme != SchemeContent {
		return nil, fmt.Errorf("id scheme %q: want %s or %s", scheme, SchemeIndex, SchemeContent)
	}
	fields := make([]string, 0, len(manifest))
	for f := range manifest {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	var out []Probe
	for _, f := range fields {
		list, isList := manifest[f].([]any)
		if !isList {
			answer, err := stringify(manifest[f])
			if err != nil {
				return nil, fmt.Errorf("manifest %s: %w", f, err)
			}
			out = append(out, Probe{ID: f, Field: f, Expected: answer,
				Prompt: "Restate the declared manifest field " + pyRepr(f) + " exactly."})
			continue
		}
		seen := map[string]int{}
		for i, item := range list {
			p := Probe{Field: f}
			id, value, explicit, err := callerID(item)
			if err != nil {
				return nil, fmt.Errorf("manifest %s[%d]: %w", f, i, err)
			}
			if !explicit {
				value = item
			}
			if p.Expected, err = stringify(value); err != nil {
				return nil, fmt.Errorf("manifest %s[%d]: %w", f, i, err)
			}
			switch {
			case explicit:
				p.ID = f + ":" + id
			case scheme == SchemeContent:
				sum := sha256.Sum256([]byte(p.Expected))
				base := f + ":" + hex.EncodeToString(sum[:])[:12]
				n := seen[base]
				seen[base] = n + 1
				p.ID = base
				if n > 0 {
					p.ID = base + "#" + strconv.Itoa(n+1)
				}
			default:
				p.ID = f + ":" + strconv.Itoa(i)
				p.Prompt = "Restate the declared manifest item " + f + "[" + strconv.Itoa(i) + "] exactly."
			}
			if p.Prompt == "" {
				p.Prompt = "Restate the declared manifest item " + pyRepr(p.ID) + " exactly."
			}
			out = append(out, p)
		}
	}
	ids, prompts := map[string]bool{}, map[string]bool{}
	for _, p := range out {
		if ids[p.ID] {
			return nil, fmt.Errorf("two declared items have the probe id %s (ids are field:item): rename a field or an {\"id\", \"value\"} id — a snapshot that could never be verified is not sealed", p.ID)
		}
		if prompts[p.Prompt] {
			return nil, fmt.Errorf("two declared items have the prompt %q: rename one", p.Prompt)
		}
		ids[p.ID], prompts[p.Prompt] = true, true
	}
	return out, nil
}

// callerID recognises a list item whose keys are exactly "id" and "value".
// The reference takes str(id); ctx accepts the ids whose str() it can spell
// the same way: strings and integers.
func callerID(item any) (id string, value any, ok bool, err error) {
	m, isMap := item.(map[string]any)
	if !isMap || len(m) != 2 {
		return "", nil, false, nil
	}
	raw, hasID := m["id"]
	v, hasValue := m["value"]
	if !hasID || !hasValue {
		return "", nil, false, nil
	}
	switch x := raw.(type) {
	case string:
		return x, v, true, nil
	case Int:
		return string(x), v, true, nil
	}
	return "", nil, false, fmt.Errorf(`an {"id", "value"} item needs a string or integer id, not %v`, raw)
}

// stringify is the declared text of a value: a string as is, anything else as
// json.dumps(v, sort_keys=True, ensure_ascii=False) with Python's default
// separators (the reference's rule).
func stringify(v any) (string, error) {
	if s, ok := v.(string); ok {
		if !utf8.ValidString(s) {
			return "", fmt.Errorf("a lone surrogate or invalid UTF-8: %w", ErrNotCanonical)
		}
		return s, nil
	}
	b, err := pythonDefault(v)
	return string(b), err
}

// pyRepr spells a string as Python's repr() does: single quotes unless the
// text holds a single quote and no double quote; backslash escapes for the
// quote, the backslash, \t \n \r, and \x.. \u.... \U........ for characters
// that are not printable.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == ' ' || (r < 0x7f) || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// Restate is what a faithful continuation would answer: {probe id: declared value}.
func Restate(manifest map[string]any, scheme string) (map[string]string, error) {
	probes, err := Probes(manifest, scheme)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(probes))
	for _, p := range probes {
		out[p.ID] = p.Expected
	}
	return out, nil
}
