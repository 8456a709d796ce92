package continuity

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
)

// Id schemes for list items.
const (
	// SchemeIndex names a list item by its position: "field:0" (the reference's default).
	SchemeIndex = "index"
	// SchemeContent names a list item by its own value, so removing an earlier
	// item does not re-map every id after it: "field:c-" and 12 hex of the
	// SHA-256 of the item's json-c14n:v1 bytes.
	SchemeContent = "content"
)

// ScorerExact is the only sealed scorer: a restatement must be the declared value.
const ScorerExact = "exact_match"

// Probe is one pre-registered question of a snapshot: restate one declared item.
type Probe struct {
	ID       string `json:"id"`       // "field:0", "field:c-…", "field:<caller id>" or "field" for a non-list field
	Field    string `json:"field"`    // the manifest field the item belongs to
	Prompt   string `json:"prompt"`   // the question put to the next instance
	Expected string `json:"expected"` // the declared value (a string item as is, any other as its json-c14n:v1 text)
	Scorer   string `json:"scorer"`   // ScorerExact
}

// Probes derives one probe per declared item of a manifest (a JSON object of
// fields, each a list of items or a single value), sorted by field and then by
// the item's place in its list. A list item written {"id": ID, "value": V}
// gets the caller's id "field:ID" under either scheme. Ids must be unique.
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
	owner := map[string]string{} // probe id → its field
	collide := func(id, f string) error {
		return fmt.Errorf("manifest fields %q and %q both yield the probe id %s (ids are field:item): rename one", owner[id], f, id)
	}
	for _, f := range fields {
		if f == "" {
			return nil, fmt.Errorf("manifest has a field with an empty name: name every field")
		}
		list, isList := manifest[f].([]any)
		if !isList {
			p, err := probe(f, f, f, manifest[f])
			if err != nil {
				return nil, err
			}
			if _, ok := owner[p.ID]; ok {
				return nil, collide(p.ID, f)
			}
			out, owner[p.ID] = append(out, p), f
			continue
		}
		for i, item := range list {
			key := strconv.Itoa(i)
			value := item
			if id, v, ok := callerID(item); ok {
				key, value = id, v
			} else if scheme == SchemeContent {
				c, err := Canonical(item)
				if err != nil {
					return nil, fmt.Errorf("manifest %s[%d]: %w", f, i, err)
				}
				sum := sha256.Sum256(c)
				key = "c-" + hex.EncodeToString(sum[:6])
			}
			p, err := probe(f+":"+key, f, f+"["+key+"]", value)
			if err != nil {
				return nil, err
			}
			if prev, ok := owner[p.ID]; ok {
				if prev != f {
					return nil, collide(p.ID, f)
				}
				if scheme == SchemeContent {
					return nil, fmt.Errorf("manifest %s[%d] repeats an earlier item, so its content id %s is taken: remove the repeat or write it as {\"id\": \"…\", \"value\": …}", f, i, p.ID)
				}
				return nil, fmt.Errorf("manifest %s[%d]: the id %s is used twice: give each {\"id\", \"value\"} item its own id", f, i, p.ID)
			}
			out, owner[p.ID] = append(out, p), f
		}
	}
	return out, nil
}

// callerID recognises a list item {"id": "…", "value": …}.
func callerID(item any) (string, any, bool) {
	m, ok := item.(map[string]any)
	if !ok || len(m) != 2 {
		return "", nil, false
	}
	id, ok := m["id"].(string)
	v, has := m["value"]
	if !ok || !has || id == "" {
		return "", nil, false
	}
	return id, v, true
}

func probe(id, field, name string, value any) (Probe, error) {
	expected, ok := value.(string)
	if !ok {
		c, err := Canonical(value)
		if err != nil {
			return Probe{}, fmt.Errorf("manifest %s: %w", name, err)
		}
		expected = string(c)
	}
	return Probe{ID: id, Field: field, Expected: expected, Scorer: ScorerExact,
		Prompt: "Restate the declared manifest item " + name + " exactly."}, nil
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
