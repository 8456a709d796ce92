package diag

import (
	"sort"

	"github.com/ctxhq/ctx/evidence"
)

// Count is how many diagnostics share one file or one code.
type Count struct {
	Key      string `json:"key"` // the file or the code ("" when the tool printed none)
	Total    int    `json:"total"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Other    int    `json:"other"` // info and note
}

// Tally is the per-file and per-code breakdown of a graph's diagnostics, for
// renderers that group findings. Both lists are sorted by key.
type Tally struct {
	Files []Count `json:"files"`
	Codes []Count `json:"codes"`
}

// TallyOf counts the diagnostics of g per file and per code. The result is
// deterministic: lists sorted by key, whatever the item order.
func TallyOf(g *evidence.Graph) Tally {
	files := map[string]*Count{}
	codes := map[string]*Count{}
	bump := func(m map[string]*Count, key string, sev evidence.Severity) {
		c := m[key]
		if c == nil {
			c = &Count{Key: key}
			m[key] = c
		}
		c.Total++
		switch sev {
		case evidence.SeverityError:
			c.Errors++
		case evidence.SeverityWarning:
			c.Warnings++
		default:
			c.Other++
		}
	}
	for i := range g.Items {
		it := &g.Items[i]
		if it.Kind != evidence.KindDiagnostic {
			continue
		}
		bump(files, it.File, it.Severity)
		bump(codes, it.Code, it.Severity)
	}
	flat := func(m map[string]*Count) []Count {
		out := make([]Count, 0, len(m))
		for _, k := range evidence.SortedKeys(m) {
			out = append(out, *m[k])
		}
		return out
	}
	return Tally{Files: flat(files), Codes: flat(codes)}
}

// ByWeight sorts counts most errors first, then most findings, then by key:
// the order a digest shows groups in.
func ByWeight(cs []Count) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Errors != b.Errors {
			return a.Errors > b.Errors
		}
		if a.Total != b.Total {
			return a.Total > b.Total
		}
		return a.Key < b.Key
	})
}
