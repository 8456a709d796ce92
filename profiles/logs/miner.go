package logs

import (
	"strings"
	"unicode/utf8"
)

// DefaultMaxTemplates is the template cap used when Options.MaxTemplates is
// zero or negative.
const DefaultMaxTemplates = 10000

// OverflowID is the group id Add returns for a line whose template would
// exceed the cap. Such lines are counted by Overflow and have no Template.
const OverflowID = -1

// OverflowText is what WriteTemplates prints for a line in the overflow group.
const OverflowText = "<overflow>"

// Options configures a Miner. The zero value is ready to use.
type Options struct {
	// MaxTemplates caps the number of groups; later lines with a new
	// template go to the overflow group. Zero or negative means
	// DefaultMaxTemplates.
	MaxTemplates int
}

// Template is one group of lines that share a template.
type Template struct {
	ID        int    // dense, in order of first appearance
	Text      string // constant tokens with variable parts as Wildcard
	Count     int    // lines in the group
	FirstLine int    // 1-based number of the first line in the group, counting Add calls
}

// Merging: a constant word that takes many values at one position, all
// other tokens being equal, is a variable the token rules did not recognise
// ("Invalid user alice from <*>"). Lines whose templates differ only at
// position p form a family; when a family reaches mergeValues distinct
// values it is merged into one group with a Wildcard at p.
const (
	// mergeValues is how many distinct values a position needs before it
	// is taken for a variable.
	mergeValues = 8
	// mergeContext is how many other constant words a template needs
	// before one of its words may be generalised.
	mergeContext = 3
	// maxMergeElems bounds the positions of a template that may merge.
	maxMergeElems = 32
	// indexFactor bounds the key index at indexFactor × MaxTemplates keys.
	indexFactor = 4
)

// Miner groups log lines by template in one pass. A Miner is not safe for
// concurrent use; it is deterministic: the same lines added in the same order
// always produce the same ids and templates.
type Miner struct {
	max      int
	tok      tokenizer
	index    map[string]int32 // template key → group id (not necessarily a representative)
	groups   []group
	families map[uint64]int32 // family hash → index in fams
	fams     []family
	lines    int
	overflow int

	// scratch for splitting keys and hashing families
	elems []string
	pre   []uint64
	suf   []uint64
	hash  []famHash
}

// group is one group of lines; merged groups point at their representative.
type group struct {
	Template
	parent int32    // itself when the group is a representative
	elems  []string // the template split at separators, each with its separator
}

// family is the set of groups whose templates are equal except at one
// position.
type family struct {
	merged  int32 // representative once merged, else -1
	n       int32
	members [mergeValues]int32
}

type famHash struct {
	pos  int
	hash uint64
}

// NewMiner returns an empty Miner.
func NewMiner(opts Options) *Miner {
	max := opts.MaxTemplates
	if max <= 0 {
		max = DefaultMaxTemplates
	}
	return &Miner{max: max, index: make(map[string]int32), families: make(map[uint64]int32)}
}

// Add mines one line, given without its newline (a trailing CR, ANSI colour
// escapes and invalid UTF-8 are tolerated), and returns its group id, or
// OverflowID when the template cap has been reached. The id is that of the
// group the line joined when it was added; pass it to Resolve for the group
// that holds it now.
func (m *Miner) Add(line []byte) int {
	m.lines++
	key := m.tok.template(line)
	if id, ok := m.index[string(key)]; ok {
		m.count(id)
		return int(id)
	}
	// A new key: it may belong to a merged family, else it starts a group.
	k := string(key)
	m.familyHashes(k)
	for _, fh := range m.hash {
		if fi, ok := m.families[fh.hash]; ok && m.fams[fi].merged >= 0 {
			id := m.find(m.fams[fi].merged)
			if len(m.index) < (indexFactor-1)*m.max {
				m.index[k] = id
			}
			m.count(id)
			return int(id)
		}
	}
	if len(m.groups) >= m.max {
		m.overflow++
		return OverflowID
	}
	id := int32(len(m.groups))
	m.index[k] = id
	g := group{Template: Template{ID: int(id), Text: printable(k), Count: 1, FirstLine: m.lines}, parent: id}
	if len(m.hash) > 0 {
		g.elems = append([]string(nil), m.elems...)
	}
	m.groups = append(m.groups, g)
	for _, fh := range m.hash {
		fi, ok := m.families[fh.hash]
		if !ok {
			fi = int32(len(m.fams))
			m.fams = append(m.fams, family{merged: -1})
			m.families[fh.hash] = fi
		}
		f := &m.fams[fi]
		if f.merged >= 0 {
			continue
		}
		f.members[f.n] = id
		f.n++
		if f.n == mergeValues {
			m.merge(f, fh.pos)
		}
	}
	return int(id)
}

// count adds one line to the group that now holds id.
func (m *Miner) count(id int32) {
	m.groups[m.find(id)].Count++
}

// find returns the representative of id, compressing the path to it.
func (m *Miner) find(id int32) int32 {
	r := id
	for m.groups[r].parent != r {
		r = m.groups[r].parent
	}
	for m.groups[id].parent != r {
		next := m.groups[id].parent
		m.groups[id].parent = r
		id = next
	}
	return r
}

// merge joins the members of f, which differ only at position pos, into the
// member with the smallest id, and generalises its template.
func (m *Miner) merge(f *family, pos int) {
	rep := m.find(f.members[0])
	for _, id := range f.members[1:f.n] {
		if r := m.find(id); r < rep {
			rep = r
		}
	}
	rg := &m.groups[rep]
	for _, id := range f.members[:f.n] {
		r := m.find(id)
		if r == rep {
			continue
		}
		g := &m.groups[r]
		g.parent = rep
		rg.Count += g.Count
		if g.FirstLine < rg.FirstLine {
			rg.FirstLine = g.FirstLine
		}
		generalise(rg.elems, g.elems)
		g.elems = nil
	}
	if pos < len(rg.elems) {
		rg.elems[pos] = wildcardElem(rg.elems[pos])
	}
	rg.Text = printable(strings.Join(rg.elems, ""))
	f.merged = rep
}

// generalise replaces by a Wildcard every element of dst that differs from
// the element of src at the same position.
func generalise(dst, src []string) {
	if len(dst) != len(src) {
		return
	}
	for i := range dst {
		if dst[i] != src[i] {
			dst[i] = wildcardElem(dst[i])
		}
	}
}

// wildcardElem returns e with its text replaced by a Wildcard, keeping its
// leading separator.
func wildcardElem(e string) string {
	if len(e) > 0 && (e[0] == ' ' || e[0] == '|') {
		return e[:1] + Wildcard
	}
	return Wildcard
}

// splitKey splits a template key before each separator, so that joining the
// elements gives the key back.
func splitKey(k string, dst []string) []string {
	dst = dst[:0]
	start := 0
	for i := 1; i < len(k); i++ {
		if (k[i] == ' ' || k[i] == '|') && k[i-1] != ' ' && k[i-1] != '|' {
			dst = append(dst, k[start:i])
			start = i
		}
	}
	if start < len(k) {
		dst = append(dst, k[start:])
	}
	return dst
}

// familyHashes fills m.hash with the family of each position of key that may
// be generalised: a constant word with enough constant words around it.
func (m *Miner) familyHashes(key string) {
	m.hash = m.hash[:0]
	m.elems = splitKey(key, m.elems)
	elems := m.elems
	n := len(elems)
	if n > maxMergeElems {
		return
	}
	words := 0
	for _, e := range elems {
		if isWordElem(e) {
			words++
		}
	}
	if words < mergeContext+1 {
		return
	}
	m.pre = append(m.pre[:0], make([]uint64, n+1)...)
	m.suf = append(m.suf[:0], make([]uint64, n+1)...)
	m.pre[0] = fnvOffset
	for i, e := range elems {
		m.pre[i+1] = fnvString(m.pre[i], e)
	}
	m.suf[n] = fnvOffset ^ 0x9e3779b97f4a7c15
	for i := n - 1; i >= 0; i-- {
		m.suf[i] = fnvString(m.suf[i+1], elems[i])
	}
	for p, e := range elems {
		if !isWordElem(e) {
			continue
		}
		h := mix64(m.pre[p] ^ mix64(m.suf[p+1]+uint64(p)<<32+uint64(n)))
		m.hash = append(m.hash, famHash{pos: p, hash: h})
	}
}

// isWordElem reports whether a key element is a constant word: it has a
// letter and no Wildcard.
func isWordElem(e string) bool {
	if strings.Contains(e, Wildcard) {
		return false
	}
	for i := 0; i < len(e); i++ {
		if isLetter(e[i]) {
			return true
		}
	}
	return false
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	h ^= 0xff // element terminator
	h *= fnvPrime
	return h
}

// mix64 is the splitmix64 finaliser.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Resolve maps a group id returned by Add to the group that holds it now,
// which differs from id when the group has since been merged. OverflowID
// resolves to itself.
func (m *Miner) Resolve(id int) int {
	if id < 0 || id >= len(m.groups) {
		return id
	}
	return int(m.find(int32(id)))
}

// Templates returns the current templates (representatives of merged groups
// only), sorted by id.
func (m *Miner) Templates() []Template {
	var out []Template
	for i := range m.groups {
		if m.groups[i].parent == int32(i) {
			out = append(out, m.groups[i].Template)
		}
	}
	return out
}

// Template returns the current template of the group that holds id; ok is
// false for OverflowID and unknown ids.
func (m *Miner) Template(id int) (t Template, ok bool) {
	if id < 0 || id >= len(m.groups) {
		return Template{}, false
	}
	return m.groups[m.find(int32(id))].Template, true
}

// Lines returns the number of lines added.
func (m *Miner) Lines() int { return m.lines }

// Overflow returns the number of lines that went to the overflow group
// because the template cap had been reached.
func (m *Miner) Overflow() int { return m.overflow }

// printable returns s with invalid UTF-8 replaced by U+FFFD.
func printable(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
