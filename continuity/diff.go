package continuity

import (
	"fmt"
	"slices"
	"time"
)

// AddedSince names what a sealed exam cannot see: the manifest's items whose
// ids the snapshot never sealed (by field), and, so an id-set difference hides
// nothing, the sealed ids now gone and those whose value changed. It compares
// id sets, never lengths: one item added and another removed nets to zero
// items but shows up on both sides.
type AddedSince struct {
	Snapshot string              `json:"snapshot"`
	IDScheme string              `json:"id_scheme"`
	Added    map[string][]string `json:"added"`   // field → new probe ids
	Removed  map[string][]string `json:"removed"` // field → sealed probe ids no longer declared
	Changed  map[string][]string `json:"changed"` // field → same id, different declared value
}

// Empty reports whether the manifest declares exactly what was sealed.
func (a *AddedSince) Empty() bool { return len(a.Added)+len(a.Removed)+len(a.Changed) == 0 }

// CompareManifest derives the manifest's probes under the snapshot's id
// scheme and compares their ids with the sealed ones.
func CompareManifest(s *Snapshot, manifestJSON []byte) (*AddedSince, error) {
	now, err := Seal(manifestJSON, s.Label, s.IDScheme, time.Time{})
	if err != nil {
		return nil, err
	}
	d := diffProbes(s.Probes, now.Probes, Tiers{})
	out := &AddedSince{Snapshot: s.Digest, IDScheme: s.IDScheme, Added: map[string][]string{}, Removed: map[string][]string{}, Changed: map[string][]string{}}
	for _, c := range d.Added {
		out.Added[c.Field] = append(out.Added[c.Field], c.ID)
	}
	for _, c := range d.Removed {
		out.Removed[c.Field] = append(out.Removed[c.Field], c.ID)
	}
	for _, c := range d.Changed {
		out.Changed[c.Field] = append(out.Changed[c.Field], c.ID)
	}
	return out, nil
}

// Change is one probe that differs between two seals.
type Change struct {
	ID       string  `json:"id"`
	Field    string  `json:"field"`
	Before   *string `json:"before"` // null when added
	After    *string `json:"after"`  // null when removed
	Severity string  `json:"severity"`
}

// SealDiff is what changed between two snapshots, by probe id.
type SealDiff struct {
	Previous string   `json:"previous"`
	Current  string   `json:"current"`
	Changed  []Change `json:"changed"`
	Added    []Change `json:"added"`
	Removed  []Change `json:"removed"`
	Notes    []string `json:"notes,omitempty"`
}

// DiffSeals compares two snapshots with no verification pass.
func DiffSeals(prev, cur *Snapshot, tiers Tiers) *SealDiff {
	d := diffProbes(prev.Probes, cur.Probes, tiers)
	d.Previous, d.Current = prev.Digest, cur.Digest
	if prev.IDScheme != cur.IDScheme {
		d.Notes = append(d.Notes, fmt.Sprintf("the seals use different id schemes (%s, %s): ids cannot match across them, so every item shows as removed and added", prev.IDScheme, cur.IDScheme))
	}
	return d
}

func diffProbes(before, after []Probe, tiers Tiers) *SealDiff {
	d := &SealDiff{Changed: []Change{}, Added: []Change{}, Removed: []Change{}}
	was := map[string]Probe{}
	for _, p := range before {
		was[p.ID] = p
	}
	is := map[string]bool{}
	for _, p := range after {
		is[p.ID] = true
		q, ok := was[p.ID]
		exp := p.Expected
		switch {
		case !ok:
			d.Added = append(d.Added, Change{ID: p.ID, Field: p.Field, After: &exp, Severity: tiers.Severity(p.Field)})
		case q.Expected != p.Expected:
			old := q.Expected
			d.Changed = append(d.Changed, Change{ID: p.ID, Field: p.Field, Before: &old, After: &exp, Severity: tiers.Severity(p.Field)})
		}
	}
	for _, p := range before {
		if !is[p.ID] {
			old := p.Expected
			d.Removed = append(d.Removed, Change{ID: p.ID, Field: p.Field, Before: &old, Severity: tiers.Severity(p.Field)})
		}
	}
	for _, l := range [][]Change{d.Changed, d.Added, d.Removed} {
		slices.SortStableFunc(l, func(a, b Change) int {
			if a.Field != b.Field {
				if a.Field < b.Field {
					return -1
				}
				return 1
			}
			return 0
		})
	}
	return d
}
