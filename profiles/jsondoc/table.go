package jsondoc

import (
	"hash/fnv"
	"strconv"
	"unicode/utf8"
)

// The shape table counts records by shape in one pass, remembering only the
// first few records of each shape and of each error-looking record, so its
// memory is bounded whatever the number of records.

const (
	maxShapes     = 1000 // distinct shapes counted; the rest go to one overflow bucket
	maxRefs       = 20   // records remembered per shape
	maxErrorItems = 1000 // error-looking records listed
	previewCap    = 1024 // bytes of a record captured for its preview
	previewLen    = 200  // bytes of a preview
	maxSigLen     = 1024 // bytes of a signature kept as the shape's identity
)

// ref is one remembered record.
type ref struct {
	num      int    // record number, 1-based
	from, to int    // stream lines
	ptr      string // JSON pointer when the record is an element of a document
	preview  string
}

type shape struct {
	sig   string
	count int
	refs  []ref
}

type table struct {
	shapes   []*shape
	index    map[string]*shape
	other    *shape // records whose shape came after the cap
	total    int
	errs     []ref
	errCount int
	fields   fields
}

func newTable() *table { return &table{index: make(map[string]*shape)} }

// add counts one record. raw is the start of its bytes, for the preview.
func (t *table) add(num, from, to int, ptr string, ri *recInfo, raw []byte) {
	t.total++
	sig := ri.signature()
	if len(sig) > maxSigLen {
		sig = clipSig(sig)
	}
	sh := t.index[string(sig)]
	if sh == nil {
		if len(t.shapes) < maxShapes {
			sh = &shape{sig: string(sig)}
			t.index[sh.sig] = sh
			t.shapes = append(t.shapes, sh)
		} else {
			if t.other == nil {
				t.other = &shape{sig: "(other shapes)"}
			}
			sh = t.other
		}
	}
	sh.count++
	var r *ref
	if len(sh.refs) < maxRefs {
		sh.refs = append(sh.refs, ref{num: num, from: from, to: to, ptr: ptr, preview: preview(raw)})
		r = &sh.refs[len(sh.refs)-1]
	}
	t.fields.add(ri, func() ref {
		if r != nil {
			return *r
		}
		return ref{num: num, from: from, to: to, ptr: ptr, preview: preview(raw)}
	})
	if ri.errorish {
		t.errCount++
		if len(t.errs) < maxErrorItems {
			p := ""
			if r != nil {
				p = r.preview
			} else {
				p = preview(raw)
			}
			t.errs = append(t.errs, ref{num: num, from: from, to: to, ptr: ptr, preview: p})
		}
	}
}

// clipSig keeps the head of an enormous signature and a hash of the rest, so
// the identity stays exact while its size stays bounded.
func clipSig(sig []byte) []byte {
	h := fnv.New64a()
	h.Write(sig)
	out := append([]byte(nil), sig[:maxSigLen-24]...)
	out = append(out, "…#"...)
	return strconv.AppendUint(out, h.Sum64(), 16)
}

// dominant returns the count of the most common shape when it covers more
// than half the records, else 0.
func (t *table) dominant() int {
	top := 0
	for _, sh := range t.shapes {
		if sh.count > top {
			top = sh.count
		}
	}
	if top*2 > t.total {
		return top
	}
	return 0
}

// minority reports whether a shape is rare next to a dominant one: at most 3
// records, or under 1% of them.
func (t *table) minority(sh *shape, top int) bool {
	if top == 0 || sh == t.other || sh.count >= top {
		return false
	}
	return sh.count <= 3 || sh.count*100 < t.total
}

// preview renders the start of a record on one line: whitespace outside
// strings removed, cut at previewLen bytes on a rune boundary, "…" when cut.
func preview(raw []byte) string {
	out := make([]byte, 0, previewLen+8)
	inStr, esc := false, false
	cut := len(raw) >= previewCap
	for _, c := range raw {
		if len(out) >= previewLen {
			cut = true
			break
		}
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			out = append(out, c)
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			inStr = true
		}
		out = append(out, c)
	}
	if cut {
		if i := lastRuneStart(out); i >= 0 && !utf8.FullRune(out[i:]) {
			out = out[:i]
		}
		out = append(out, "…"...)
	}
	return string(out)
}

// lastRuneStart is the index where the last (possibly partial) rune begins.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		if b[i]&0xC0 != 0x80 {
			return i
		}
	}
	return len(b) - 1
}
