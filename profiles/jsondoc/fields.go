package jsondoc

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// Field value counts: for each top-level key of the records, how often each
// short scalar value occurs (state: OPEN ×25, CLOSED ×5), while the field
// stays a category — at most maxFieldVals distinct values. A field that
// passes that bound, or whose values are long strings, numbers or
// containers, is dropped. Records holding a value that is rare next to a
// dominant one are remembered (a few per value) and shown as minority-value
// records, the JSON counterpart of an unusual status row.

const (
	maxFields     = 64 // fields tracked; further keys are not counted
	maxFieldVals  = 12 // distinct values of a category field
	maxValueRefs  = 5  // records remembered per value
	maxShownField = 8  // fields whose counts become items
	maxRareItems  = 20 // records with rare values listed in all
)

type fieldVal struct {
	val   string
	count int
	refs  []ref
}

type field struct {
	key     string
	present int
	dead    bool // too many values, or a value that is no category
	vals    []*fieldVal
}

type fields struct {
	order []*field
	index map[string]*field
}

// add counts the short scalar values of one record; mk makes the record's
// ref, called only when the record is remembered.
func (fs *fields) add(ri *recInfo, mk func() ref) {
	if ri.typ != tObject {
		return
	}
	if fs.index == nil {
		fs.index = map[string]*field{}
	}
	for i, kv := range ri.vals {
		kb := ri.arena[kv.koff:kv.kend]
		dup := false
		for _, prev := range ri.vals[:i] {
			dup = dup || string(ri.arena[prev.koff:prev.kend]) == string(kb)
		}
		if dup {
			continue
		}
		f := fs.index[string(kb)]
		if f == nil {
			if len(fs.order) >= maxFields {
				continue
			}
			f = &field{key: string(kb)}
			fs.index[f.key] = f
			fs.order = append(fs.order, f)
		}
		f.present++
		if f.dead {
			continue
		}
		vb := ri.valBuf[kv.voff:kv.vend]
		var fv *fieldVal
		for _, x := range f.vals {
			if x.val == string(vb) {
				fv = x
				break
			}
		}
		if fv == nil {
			if len(f.vals) >= maxFieldVals {
				f.dead, f.vals = true, nil
				continue
			}
			fv = &fieldVal{val: string(vb)}
			f.vals = append(f.vals, fv)
		}
		fv.count++
		if len(fv.refs) < maxValueRefs {
			fv.refs = append(fv.refs, mk())
		}
	}
	// A key whose value was no short scalar in this record is no category.
	for _, kt := range ri.keys {
		kb := ri.arena[kt.off:kt.end]
		scalar := false
		for _, kv := range ri.vals {
			scalar = scalar || string(ri.arena[kv.koff:kv.kend]) == string(kb)
		}
		if scalar {
			continue
		}
		if f := fs.index[string(kb)]; f != nil {
			f.dead, f.vals = true, nil
		} else if len(fs.order) < maxFields {
			f = &field{key: string(kb), dead: true}
			fs.index[f.key] = f
			fs.order = append(fs.order, f)
		}
	}
}

// categories returns the fields worth counting for total records: present in
// most records, with 2..maxFieldVals values, fewer values than a third of the
// records (so names and ids are not mistaken for categories).
func (fs *fields) categories(total int) []*field {
	if total < 4 {
		return nil
	}
	var out []*field
	for _, f := range fs.order {
		if f.dead || len(f.vals) < 2 || f.present*2 < total || len(f.vals)*3 > total {
			continue
		}
		out = append(out, f)
	}
	// The most telling fields first: fewest values, then key order.
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].vals) < len(out[j].vals) })
	if len(out) > maxShownField {
		out = out[:maxShownField]
	}
	return out
}

// rare reports whether a value is rare next to the field's common ones: a
// handful (at most 3, and at most a tenth of the records that have the
// field), or — when one value covers two thirds of them, as a status column
// does — at most a fifth. An event-type field with no such dominant value
// (go test -json's Action: output, pass, fail, run…) yields only its
// handfuls.
func (f *field) rare(v *fieldVal) bool {
	top := 0
	for _, x := range f.vals {
		top = max(top, x.count)
	}
	if v.count == top {
		return false
	}
	if v.count <= 3 && v.count*10 <= f.present {
		return true
	}
	return top*3 >= f.present*2 && v.count*5 <= f.present
}

// fieldItems adds one shape per category field (its value counts, most
// common first) and the records holding rare values that no other item
// lists already, and returns how many records hold a rare value.
func fieldItems(g *evidence.Graph, stream string, fs *fields, total int) int {
	rareRecords, listed, capped := 0, 0, 0
	shown := map[string]bool{}
	for _, it := range g.Items {
		if it.Kind == evidence.KindRecord || it.Kind == evidence.KindAnomaly {
			shown[it.Name] = true
		}
	}
	for _, f := range fs.categories(total) {
		vals := append([]*fieldVal(nil), f.vals...)
		sort.SliceStable(vals, func(i, j int) bool {
			if vals[i].count != vals[j].count {
				return vals[i].count > vals[j].count
			}
			return vals[i].val < vals[j].val
		})
		parts := make([]string, 0, len(vals)+1)
		for _, v := range vals {
			parts = append(parts, strconv.Quote(v.val)+" "+strconv.Itoa(v.count))
		}
		if missing := total - f.present; missing > 0 {
			parts = append(parts, "absent "+strconv.Itoa(missing))
		}
		first := vals[0].refs[0] // a record holding the commonest value
		g.Add(evidence.Item{Kind: evidence.KindShape, Tool: "json", Name: "values of " + f.key + ": " + strings.Join(parts, " · "),
			Count: f.present, Attrs: map[string]string{"field": f.key, "values": strconv.Itoa(len(f.vals))},
			Span: evidence.Span{Stream: stream, From: first.from, To: first.to}})
		for _, v := range f.vals {
			if !f.rare(v) {
				continue
			}
			rareRecords += v.count
			for _, r := range v.refs {
				name := "record " + strconv.Itoa(r.num)
				if r.ptr != "" {
					name = r.ptr
				}
				if shown[name] {
					continue
				}
				shown[name] = true
				if listed >= maxRareItems {
					capped++
					continue
				}
				listed++
				attrs := map[string]string{"record": strconv.Itoa(r.num), "field": f.key, "value": v.val}
				if r.ptr != "" {
					attrs["pointer"] = r.ptr
					delete(attrs, "record")
				}
				g.Add(evidence.Item{Kind: evidence.KindRecord, Tool: "json", Name: name, Line: r.from,
					Text: r.preview, Why: "minority-value", Attrs: attrs,
					Span: evidence.Span{Stream: stream, From: r.from, To: r.to}})
			}
			if v.count > len(v.refs) {
				g.Lose("item-cap", "field %s = %s: %d of %d records listed", f.key, evidence.Clip(strings.TrimSpace(v.val), 60), len(v.refs), v.count)
			}
		}
	}
	if capped > 0 {
		g.Lose("item-cap", "%d more records with rare field values not listed (cap %d)", capped, maxRareItems)
	}
	return rareRecords
}
