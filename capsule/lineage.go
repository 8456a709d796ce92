package capsule

import (
	"errors"
	"sort"

	"github.com/ctxhq/ctx/store"
)

// LineageReport is a walk over local ancestors and a delta against the
// immediate parent. Nothing of it is stored.
type LineageReport struct {
	Ancestors []Ancestor `json:"ancestors"`
	// Bounded is true when the walk stopped at MaxLineageHops with more
	// ancestors declared beyond.
	Bounded bool   `json:"bounded"`
	Delta   *Delta `json:"delta"` // nil when the parent is gone
	Note    string `json:"note"`
}

// Ancestor is one hop of the walk.
type Ancestor struct {
	Hop     int    `json:"hop"`
	Capsule string `json:"capsule"`
	Status  string `json:"status"` // present | gone
}

// Delta compares a capsule with its immediate parent.
type Delta struct {
	Critical          IDDelta               `json:"critical"`
	Validity          IDDelta               `json:"validity"`
	NegativeKnowledge IDDelta               `json:"negative_knowledge"`
	Text              map[string]CountDelta `json:"text"`
	Resolved          []Resolution          `json:"resolved"`
	Transitions       []Transition          `json:"transitions"`
}

// IDDelta is the id-set difference between parent and child.
type IDDelta struct {
	Inherited []string `json:"inherited"`
	Added     []string `json:"added"`
	Dropped   []string `json:"dropped"`
}

// CountDelta counts items of a bare-text list field; never their text, since
// without stable ids "resolved", "dropped" and "reworded" look alike.
type CountDelta struct {
	CarriedOver int `json:"carried_over"`
	Added       int `json:"added"`
	AbsentHere  int `json:"absent_here"`
}

// Resolution is a child unit whose supersedes names a parent unit.
type Resolution struct {
	Unit       string `json:"unit"`
	Supersedes string `json:"supersedes"`
}

// Transition is a negative knowledge item whose state changed.
type Transition struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Lineage walks c's declared parents (at most MaxLineageHops) and computes
// the delta against the immediate parent when it is present.
func Lineage(c *Capsule, loader Loader) *LineageReport {
	r := &LineageReport{Ancestors: []Ancestor{}, Note: LineageLimitNote}
	cur := c
	for hop := 1; cur.Parent != ""; hop++ {
		if hop > MaxLineageHops {
			r.Bounded = true
			break
		}
		id, err := store.ParseID(cur.Parent)
		if err != nil {
			r.Ancestors = append(r.Ancestors, Ancestor{Hop: hop, Capsule: "capsule:" + cur.Parent, Status: "gone"})
			break
		}
		p, err := loader.Capsule(id)
		if err != nil {
			status := "gone"
			if !errors.Is(err, store.ErrNotFound) {
				status = "unreadable: " + err.Error()
			}
			r.Ancestors = append(r.Ancestors, Ancestor{Hop: hop, Capsule: Handle(id), Status: status})
			break
		}
		r.Ancestors = append(r.Ancestors, Ancestor{Hop: hop, Capsule: Handle(id), Status: "present"})
		if hop == 1 {
			r.Delta = delta(p, c)
		}
		cur = p
	}
	return r
}

func delta(parent, child *Capsule) *Delta {
	ids := func(f func(*Capsule) []string) IDDelta { return idDelta(f(parent), f(child)) }
	d := &Delta{
		Critical: ids(func(c *Capsule) []string {
			var s []string
			for _, u := range c.Critical {
				s = append(s, u.ID)
			}
			return s
		}),
		Validity: ids(func(c *Capsule) []string {
			var s []string
			for _, v := range c.Validity {
				s = append(s, v.ID)
			}
			return s
		}),
		NegativeKnowledge: ids(func(c *Capsule) []string {
			var s []string
			for _, n := range c.NegativeKnowledge {
				s = append(s, n.ID)
			}
			return s
		}),
		Text: map[string]CountDelta{
			"evidence":       countDelta(parent.Evidence, child.Evidence),
			"rejected":       countDelta(parent.Rejected, child.Rejected),
			"constraints":    countDelta(parent.Constraints, child.Constraints),
			"open_questions": countDelta(parent.OpenQuestions, child.OpenQuestions),
		},
		Resolved:    []Resolution{},
		Transitions: []Transition{},
	}
	parentUnits := map[string]bool{}
	for _, u := range parent.Critical {
		parentUnits[u.ID] = true
	}
	for _, u := range child.Critical {
		if u.Supersedes != "" && parentUnits[u.Supersedes] {
			d.Resolved = append(d.Resolved, Resolution{Unit: u.ID, Supersedes: u.Supersedes})
		}
	}
	was := map[string]string{}
	for _, n := range parent.NegativeKnowledge {
		was[n.ID] = orDefault(n.State, NKRejected)
	}
	for _, n := range child.NegativeKnowledge {
		if from, ok := was[n.ID]; ok && from != orDefault(n.State, NKRejected) {
			d.Transitions = append(d.Transitions, Transition{ID: n.ID, From: from, To: orDefault(n.State, NKRejected)})
		}
	}
	return d
}

func idDelta(parent, child []string) IDDelta {
	d := IDDelta{Inherited: []string{}, Added: []string{}, Dropped: []string{}}
	in := func(s []string, x string) bool {
		for _, y := range s {
			if y == x {
				return true
			}
		}
		return false
	}
	for _, x := range child {
		if in(parent, x) {
			d.Inherited = append(d.Inherited, x)
		} else {
			d.Added = append(d.Added, x)
		}
	}
	for _, x := range parent {
		if !in(child, x) {
			d.Dropped = append(d.Dropped, x)
		}
	}
	sort.Strings(d.Inherited)
	sort.Strings(d.Added)
	sort.Strings(d.Dropped)
	return d
}

// countDelta counts items by exact text as a multiset.
func countDelta(parent, child []string) CountDelta {
	left := map[string]int{}
	for _, p := range parent {
		left[p]++
	}
	var d CountDelta
	for _, c := range child {
		if left[c] > 0 {
			left[c]--
			d.CarriedOver++
		} else {
			d.Added++
		}
	}
	d.AbsentHere = len(parent) - d.CarriedOver
	return d
}
