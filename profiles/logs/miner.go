package logs

import (
	"math/bits"
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
	// MergeValues is how many distinct constant words one position of
	// otherwise equal templates must take before it is made a variable.
	// Zero or negative means DefaultMergeValues; it is at most
	// MaxMergeValues.
	MergeValues int
	// KeyedMergeValues is how many templates that differ only in the word
	// values of "key=value" fields make those values variables. Zero or
	// negative means DefaultKeyedMergeValues; it is at most MaxMergeValues.
	KeyedMergeValues int
	// Similarity is the share of their constant elements a new template
	// and a cluster of its length and first word must agree on for the
	// template to join the cluster (cluster.go). Zero or negative means
	// DefaultSimilarity; it is at most 1.
	Similarity float64
	// ClusterValues is how many distinct words a cluster position must take
	// before it is a variable. Zero or negative means DefaultClusterValues;
	// it is between 2 and 8.
	ClusterValues int
	// Off switches rules off, to measure what each contributes; the zero
	// value is the shipped miner.
	Off Rules
}

// DefaultKeyedMergeValues is the keyed merge threshold used when
// Options.KeyedMergeValues is zero or negative.
const DefaultKeyedMergeValues = 3

// DefaultMergeValues is the merge threshold used when Options.MergeValues is
// zero or negative.
const DefaultMergeValues = 8

// MaxMergeValues is the largest merge threshold a Miner accepts; larger
// Options.MergeValues are clamped to it.
const MaxMergeValues = 16

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
// position p form a family; when a family reaches Options.MergeValues
// distinct values it is merged into one group with a Wildcard at p.
const (
	// mergeContext is how many other constant words a template needs
	// before one of its words may be generalised.
	mergeContext = 3
	// maxMergeElems bounds the positions of a template that may merge.
	maxMergeElems = 32
	// maxKeyedElems bounds the elements of a template whose key=value
	// words may merge (keyedHash).
	maxKeyedElems = 96
	// indexFactor bounds the key index at indexFactor × MaxTemplates keys.
	indexFactor = 4
	// maxSubsumeElems bounds the id-like words of a template that may fill
	// Wildcards of a more general one; it may be subsumed at any non-empty
	// subset of them (at most 2^maxSubsumeElems - 1 skeletons).
	maxSubsumeElems = 4
)

// Subsumption: a template with an id-like word where a known template has a
// Wildcard, all else being equal ("job fbaaafda finished" beside "job <*>
// finished"), is an instance of that template whose value happens to have
// no digit. The two meet under a skeleton hash: the template's elements with
// its Wildcard positions, and for the specific one the chosen id-like words,
// blanked. See idLike for which words qualify.

// Miner groups log lines by template in one pass. A Miner is not safe for
// concurrent use; it is deterministic: the same lines added in the same order
// always produce the same ids and templates.
type Miner struct {
	max      int
	mergeN   int32 // distinct values that make a position a variable
	keyedN   int32 // templates that make differing key=value words variables
	tok      tokenizer
	index    map[string]int32 // template key → group id (not necessarily a representative)
	groups   []group
	families map[uint64]int32 // family hash → index in fams
	fams     []family
	general  map[uint64]int32 // skeleton hash → head of a list in lists: groups whose Wildcards it blanks
	specific map[uint64]int32 // skeleton hash → head of a list in lists: groups with id-like words it blanks
	lists    []listEntry
	lines    int
	overflow int
	off      Rules

	similarity float64              // Options.Similarity; 0 for no clustering
	clusterN   int32                // Options.ClusterValues
	leaves     map[uint64][]int32   // leaf hash → indices in clusters
	contexts   map[uint32][2]uint32 // word hash → the first two elements seen before it (noteContexts)
	waiting    []waiting            // cluster positions waiting for shared words (recheck)
	recur      map[uint32][2]int32  // word hash → the first two clusters it varied in (recur.go)
	clusters   []cluster
	diff       []int // scratch for cluster.diffs

	reducers map[uint64]int32 // hash of a key with an optional word absorbed → head of a list in lists: the groups that reduce to it (optional.go)
	reds     [][2]int         // the new key's reductions: spans of redBuf
	redBuf   []byte
	red      []string // scratch: a reduction split into elements
	redKinds []uint8
	// clusterLens[n] is whether some cluster has n elements: a reduction
	// of another length needs no cluster lookup.
	clusterLens [maxMergeElems + 1]bool

	// While sampling, the first frameSampleLines lines are kept (each capped at
	// maxLineBytes) and get provisional ids; settle learns the log's frame
	// from them and mines them, and pend maps provisional ids to groups.
	sampling bool
	sample   [][]byte
	sampled  int // bytes in sample
	pend     []int32

	// scratch for splitting keys and hashing families and skeletons
	elems []string
	kinds []uint8 // elemKind of each element
	terms []uint64
	hash  []famHash
	skel  []uint64
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
	members [MaxMergeValues]int32
}

type famHash struct {
	pos  int
	hash uint64
}

// listEntry is one group in a list of groups that share a skeleton.
type listEntry struct {
	group, next int32 // next is -1 at the end of the list
}

// NewMiner returns an empty Miner.
func NewMiner(opts Options) *Miner {
	limit := opts.MaxTemplates
	if limit <= 0 {
		limit = DefaultMaxTemplates
	}
	mergeN := opts.MergeValues
	if mergeN <= 0 {
		mergeN = DefaultMergeValues
	}
	mergeN = min(max(mergeN, 2), MaxMergeValues)
	keyedN := opts.KeyedMergeValues
	if keyedN <= 0 {
		keyedN = DefaultKeyedMergeValues
	}
	keyedN = min(max(keyedN, 2), MaxMergeValues)
	m := &Miner{max: limit, mergeN: int32(mergeN), keyedN: int32(keyedN), index: make(map[string]int32), families: make(map[uint64]int32),
		general: make(map[uint64]int32), specific: make(map[uint64]int32), reducers: make(map[uint64]int32), off: opts.Off, sampling: true}
	m.tok.off = opts.Off
	if opts.Off&RuleCluster == 0 {
		m.similarity = opts.Similarity
		if m.similarity <= 0 {
			m.similarity = DefaultSimilarity
		}
		m.similarity = min(m.similarity, 1)
		cn := opts.ClusterValues
		if cn <= 0 {
			cn = DefaultClusterValues
		}
		m.clusterN = int32(min(max(cn, 2), maxClusterValues))
		m.leaves = make(map[uint64][]int32)
		m.contexts = make(map[uint32][2]uint32)
	}
	return m
}

// provisional is the id Add returns for the i-th sample line, below
// OverflowID so that it is never taken for a group.
func provisional(i int) int { return OverflowID - 1 - i }

// settle ends sampling, if it has not ended: it learns the log's frame from
// the sample lines and mines them, in order. Every method that reports
// groups calls it first.
func (m *Miner) settle() {
	if !m.sampling {
		return
	}
	m.sampling = false
	m.tok.frame = learnFrame(m.sample, m.off)
	m.pend = make([]int32, len(m.sample))
	for i, l := range m.sample {
		m.pend[i] = int32(m.add(l, i+1))
	}
	m.sample = nil
}

// real maps a provisional id to the id its line got when the sample was
// mined; other ids are returned as they are.
func (m *Miner) real(id int) int {
	if id >= OverflowID {
		return id
	}
	m.settle()
	if i := OverflowID - 1 - id; i < len(m.pend) {
		return int(m.pend[i])
	}
	return OverflowID
}

// Add mines one line, given without its newline (a trailing CR, ANSI colour
// escapes and invalid UTF-8 are tolerated), and returns its group id, or
// OverflowID when the template cap has been reached. The id is that of the
// group the line joined when it was added; pass it to Resolve for the group
// that holds it now. The first lines of a log, which the miner learns the
// log's header from, get provisional ids (below OverflowID) until the
// sample is complete or a method that reports groups is called; Resolve
// and Template accept them.
func (m *Miner) Add(line []byte) int {
	m.lines++
	if m.sampling {
		if len(line) > maxLineBytes+1 {
			line = line[:maxLineBytes+1]
		}
		m.sample = append(m.sample, append([]byte(nil), line...))
		m.sampled += len(line)
		id := provisional(len(m.sample) - 1)
		if len(m.sample) == frameSampleLines || m.sampled >= frameSampleBytes {
			m.settle()
		}
		return id
	}
	return m.add(line, m.lines)
}

// add mines line, the n-th line added.
func (m *Miner) add(line []byte, n int) int {
	key := m.tok.template(line)
	if id, ok := m.index[string(key)]; ok {
		m.count(id)
		return int(id)
	}
	// A new key: it may belong to a merged family or be subsumed by a more
	// general group; else it starts a group.
	k := string(key)
	m.familyHashes(k)
	m.noteContexts()
	if m.off&RuleMerge != 0 {
		m.hash = m.hash[:0]
	}
	for _, fh := range m.hash {
		if fi, ok := m.families[fh.hash]; ok && m.fams[fi].merged >= 0 {
			return m.join(k, m.fams[fi].merged)
		}
	}
	kh := m.keyedHash()
	if m.off&RuleKeyedMerge != 0 {
		kh = 0
	}
	if fi, ok := m.families[kh]; ok && kh != 0 && m.fams[fi].merged >= 0 {
		return m.join(k, m.fams[fi].merged)
	}
	m.skeletons()
	if m.off&RuleSubsume != 0 {
		m.skel = m.skel[:0]
	}
	for _, h := range m.skel {
		if len(m.general) == 0 {
			break
		}
		if r := m.subsumer(h); r >= 0 {
			return m.join(k, r)
		}
	}
	m.reductions()
	if r := m.reducedGroup(); r >= 0 {
		return m.join(k, r)
	}
	ci, leaf, clustered := m.clusterOf()
	if ci >= 0 && coveredBy(m.clusters[ci].base, m.elems) {
		return m.join(k, m.clusters[ci].rep)
	}
	if len(m.groups) >= m.max {
		m.overflow++
		return OverflowID
	}
	id := int32(len(m.groups))
	m.index[k] = id
	g := group{Template: Template{ID: int(id), Text: printable(k), Count: 1, FirstLine: n}, parent: id}
	wh := m.keySkeleton()
	if m.off&RuleSubsume != 0 {
		wh = 0
	}
	if len(m.hash) > 0 || len(m.skel) > 0 || wh != 0 || kh != 0 {
		g.elems = append([]string(nil), m.elems...)
	}
	m.groups = append(m.groups, g)
	for _, h := range m.skel {
		m.push(m.specific, h, id)
	}
	for _, fh := range m.hash {
		m.joinFamily(fh.hash, id, fh.pos, m.mergeN)
	}
	if kh != 0 && m.find(id) == id {
		m.joinFamily(kh, id, -1, m.keyedN)
	}
	if m.find(id) == id { // else merge has seen to it
		m.absorb(id, wh)
	}
	m.noteReductions(id, k)
	switch {
	case ci >= 0:
		m.observe(ci, id)
	case clustered:
		m.newCluster(leaf, id)
	}
	return int(id)
}

// joinFamily adds the new group id to the family under hash h, and merges
// the family when it reaches n members, generalising position pos (-1 for
// none beyond the positions where the members differ).
func (m *Miner) joinFamily(h uint64, id int32, pos int, n int32) {
	fi, ok := m.families[h]
	if !ok {
		fi = int32(len(m.fams))
		m.fams = append(m.fams, family{merged: -1})
		m.families[h] = fi
	}
	f := &m.fams[fi]
	if f.merged >= 0 {
		return
	}
	f.members[f.n] = id
	f.n++
	if f.n == n {
		m.merge(f, pos)
	}
}

// join adds a line with the new key k to the group that holds id, and
// remembers k for it while the index has room.
func (m *Miner) join(k string, id int32) int {
	id = m.find(id)
	if len(m.index) < (indexFactor-1)*m.max {
		m.index[k] = id
	}
	m.groups[id].Count++
	return int(id)
}

// subsumer returns the oldest group listed as general under the skeleton
// hash h whose template subsumes the new key split into m.elems, or -1.
func (m *Miner) subsumer(h uint64) int32 {
	best := int32(-1)
	head, ok := m.general[h]
	for e := head; ok && e >= 0; e = m.lists[e].next {
		r := m.find(m.lists[e].group)
		if (best < 0 || r < best) && covers(m.groups[r].elems, m.elems) {
			best = r
		}
	}
	return best
}

// push adds group id to the list under h in lists.
func (m *Miner) push(lists map[uint64]int32, h uint64, id int32) {
	head, ok := lists[h]
	if !ok {
		head = -1
	}
	lists[h] = int32(len(m.lists))
	m.lists = append(m.lists, listEntry{group: id, next: head})
}

// absorb lists the group that holds id as general under h, the skeleton
// hash of its template (0 when it has no Wildcard or too few constant
// words), and merges into it the groups listed as specific there that it
// subsumes.
func (m *Miner) absorb(id int32, h uint64) {
	if h == 0 {
		return
	}
	r := m.find(id)
	head, ok := m.general[h]
	listed := false
	for e := head; ok && e >= 0 && !listed; e = m.lists[e].next {
		listed = m.find(m.lists[e].group) == r
	}
	if !listed {
		m.push(m.general, h, r)
	}
	head, ok = m.specific[h]
	for e := head; ok && e >= 0; e = m.lists[e].next {
		g, s := m.find(id), m.find(m.lists[e].group)
		if g != s && covers(m.groups[g].elems, m.groups[s].elems) {
			m.unite(g, s)
		}
	}
}

// unite merges the groups holding gen and spec, where gen's template
// subsumes spec's, into the one with the smaller id, which takes gen's
// template.
func (m *Miner) unite(gen, spec int32) {
	gen, spec = m.find(gen), m.find(spec)
	if gen == spec {
		return
	}
	rep, other := gen, spec
	if spec < gen {
		rep, other = spec, gen
	}
	rg, og := &m.groups[rep], &m.groups[other]
	og.parent = rep
	rg.Count += og.Count
	if og.FirstLine < rg.FirstLine {
		rg.FirstLine = og.FirstLine
	}
	if rep != gen {
		rg.elems, rg.Text = og.elems, og.Text
	}
	og.elems = nil
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
	if pos >= 0 && pos < len(rg.elems) {
		rg.elems[pos] = wildcardElem(rg.elems[pos])
	}
	k := strings.Join(rg.elems, "")
	rg.Text = printable(k)
	f.merged = rep
	// The generalised template may come as a key of its own ("Invalid user
	// <*>" for a user with digits), and may subsume earlier groups.
	if _, ok := m.index[k]; !ok && len(m.index) < (indexFactor-1)*m.max {
		m.index[k] = rep
	}
	// Beside another variable, the new Wildcard is what a value with a
	// digit would have joined ("user <*> <*> port" and "user <*> port" for
	// "user1"): that template is this one too.
	if ck := collapsed(rg.elems); ck != k {
		if id, ok := m.index[ck]; ok {
			m.unite(rep, id)
		} else if len(m.index) < (indexFactor-1)*m.max {
			m.index[ck] = rep
		}
	}
	m.absorb(m.find(rep), wildSkeleton(m.groups[m.find(rep)].elems))
}

// collapsed joins elems with each run of bare Wildcards as one, as the
// tokenizer renders a run of variables.
func collapsed(elems []string) string {
	var b strings.Builder
	prev := false
	for _, e := range elems {
		wild := strings.TrimLeft(e, " |") == Wildcard
		if wild && prev {
			continue
		}
		b.WriteString(e)
		prev = wild
	}
	return b.String()
}

// generalise replaces by a Wildcard every element of dst that differs from
// the element of src at the same position.
func generalise(dst, src []string) {
	if len(dst) != len(src) {
		return
	}
	for i := range dst {
		if dst[i] == src[i] {
			continue
		}
		if k := keyLen(dst[i]); k > 0 && k == keyLen(src[i]) && dst[i][:k] == src[i][:k] {
			// The key and trailing punctuation stay: "name=<*>,".
			v, o := dst[i], src[i]
			if strings.Contains(v, Wildcard) {
				v, o = o, v
			}
			j := len(v)
			for j > k && isTrailPunct(v[j-1]) {
				j--
			}
			suf := v[j:]
			if !strings.HasSuffix(o, suf) {
				suf = ""
			}
			dst[i] = dst[i][:k] + Wildcard + suf
			continue
		}
		dst[i] = wildcardElem(dst[i])
	}
}

// contextElem reports whether a key element of kind k tells templates
// apart as a constant word does: a constant with a letter, or a
// "key=<*>" whose key is constant.
func contextElem(k uint8, e string) bool {
	return k == wordElem || k == wildElem && keyLen(e) > 0
}

// keyLen returns the length of the separator, key and '=' of a key element
// "key=value" (an identifier key, a value of at least one byte), or 0.
func keyLen(e string) int {
	i := 0
	for i < len(e) && (e[i] == ' ' || e[i] == '|') {
		i++
	}
	if i == len(e) || !isLetter(e[i]) {
		return 0
	}
	for j := i; j < len(e); j++ {
		switch c := e[j]; {
		case c == '=':
			if j+1 == len(e) {
				return 0
			}
			return j + 1
		case isAlnum(c) || c == '_' || c == '.' || c == '-':
		default:
			return 0
		}
	}
	return 0
}

// keyedHash returns the hash of the new key, as familyHashes left it, with
// the value of every "key=value" element whose value is a constant word
// blanked (the key kept), or 0 when it has no such element or does not take
// part in merging. A key of more than maxMergeElems elements, too long
// for the other rules, takes part up to maxKeyedElems (with RuleLongKeyed):
// a record of many named fields ("id=3 addr=… cmd=set user=default …")
// is the shape in which word values vary most.
func (m *Miner) keyedHash() uint64 {
	long := len(m.kinds) == 0 && len(m.elems) > maxMergeElems && len(m.elems) <= maxKeyedElems && m.off&RuleLongKeyed == 0
	if len(m.kinds) == 0 && !long {
		return 0
	}
	var h uint64
	keyed := false
	for i, e := range m.elems {
		word := long && elemKind(e) == wordElem || !long && m.kinds[i] == wordElem
		if word {
			if k := keyLen(e); k > 0 && hasLetterString(e[k:]) {
				keyed = true
				h += mix64(elemTerm(i, e[:k]) ^ 0x5bd1e9955bd1e995)
				continue
			}
		}
		if long {
			h += elemTerm(i, e)
		} else {
			h += m.terms[i]
		}
	}
	if !keyed {
		return 0
	}
	return mix64(h + uint64(len(m.elems))*0x27d4eb2f165667c5)
}

func hasLetterString(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
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
		if k[i] == '|' && k[i-1] != ' ' && k[i-1] != '|' && valueBarAt(k, start+len(k[start:i])-len(trimSeps(k[start:i])), i) {
			continue // "cmd=config|get" is one element, as it was one token
		}
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

// trimSeps drops the separators an element starts with.
func trimSeps(e string) string {
	return strings.TrimLeft(e, " |")
}

// Kinds of key elements.
const (
	otherElem = iota // constant without a letter
	wordElem         // constant with a letter
	wildElem         // holds a Wildcard
)

// elemKind returns the kind of a key element.
func elemKind(e string) uint8 {
	if strings.Contains(e, Wildcard) {
		return wildElem
	}
	for i := 0; i < len(e); i++ {
		if isLetter(e[i]) {
			return wordElem
		}
	}
	return otherElem
}

// familyHashes splits key into m.elems, classifies and hashes each element
// into m.kinds and m.terms, and fills m.hash with the family of each
// position of key that may be generalised: a constant word with enough
// constant words around it. It leaves m.kinds empty when key has too many
// elements to take part in merging or subsumption.
//
// A family hash, like a skeleton hash, is a sum of per-element terms with
// the term of each blanked position replaced by a blank of that position,
// so that any set of positions can be blanked at the cost of one term each.
func (m *Miner) familyHashes(key string) {
	m.hash = m.hash[:0]
	m.kinds = m.kinds[:0]
	m.terms = m.terms[:0]
	m.elems = splitKey(key, m.elems)
	elems := m.elems
	n := len(elems)
	if n > maxMergeElems {
		return
	}
	words := 0
	var sum uint64
	for i, e := range elems {
		k := elemKind(e)
		if contextElem(k, e) {
			words++
		}
		t := elemTerm(i, e)
		m.kinds = append(m.kinds, k)
		m.terms = append(m.terms, t)
		sum += t
	}
	if words < mergeContext+1 {
		return
	}
	for p, k := range m.kinds {
		if k == wordElem {
			h := sum - m.terms[p] + blankTerm(p)
			m.hash = append(m.hash, famHash{pos: p, hash: mix64(h + uint64(n))})
		}
	}
}

// skeletons fills m.skel with the skeleton hashes under which the new key,
// as familyHashes left it, may be subsumed: for each non-empty set of its
// first maxSubsumeElems id-like words that leaves enough constant words,
// the key with those words and its Wildcards blanked.
func (m *Miner) skeletons() {
	m.skel = m.skel[:0]
	words := 0
	for i, k := range m.kinds {
		if contextElem(k, m.elems[i]) {
			words++
		}
	}
	if words <= mergeContext {
		return
	}
	var ids [maxSubsumeElems]int
	nid := 0
	var base uint64 // the sum with Wildcards blanked
	for i, k := range m.kinds {
		switch {
		case k == wildElem:
			base += blankTerm(i)
			continue
		case k == wordElem && nid < maxSubsumeElems && idLike(elemCore(m.elems[i])):
			ids[nid] = i
			nid++
		}
		base += m.terms[i]
	}
	// Subsets in order of size, then of position, so that the most
	// specific general template is tried first.
	n := len(m.kinds)
	for size := 1; size <= nid && words-size >= mergeContext; size++ {
		for set := 1; set < 1<<nid; set++ {
			if bits.OnesCount(uint(set)) != size {
				continue
			}
			h := base
			for j := 0; j < nid; j++ {
				if set&(1<<j) != 0 {
					h += blankTerm(ids[j]) - m.terms[ids[j]]
				}
			}
			m.skel = append(m.skel, skeletonHash(h, n))
		}
	}
}

// keySkeleton is wildSkeleton for the new key as familyHashes left it.
func (m *Miner) keySkeleton() uint64 {
	wilds, words := 0, 0
	var h uint64
	for i, k := range m.kinds {
		if contextElem(k, m.elems[i]) {
			words++
		}
		if k == wildElem {
			wilds++
			h += blankTerm(i)
			continue
		}
		h += m.terms[i]
	}
	if wilds == 0 || words < mergeContext {
		return 0
	}
	return skeletonHash(h, len(m.kinds))
}

// wildSkeleton returns the skeleton hash of the template split into elems
// as a general template, with its Wildcards blanked, or 0 when it has no
// Wildcard, too few constant words or too many elements.
func wildSkeleton(elems []string) uint64 {
	n := len(elems)
	if n > maxMergeElems {
		return 0
	}
	wilds, words := 0, 0
	var h uint64
	for i, e := range elems {
		k := elemKind(e)
		if contextElem(k, e) {
			words++
		}
		if k == wildElem {
			wilds++
			h += blankTerm(i)
			continue
		}
		h += elemTerm(i, e)
	}
	if wilds == 0 || words < mergeContext {
		return 0
	}
	return skeletonHash(h, n)
}

// skeletonHash finishes the sum of the terms of a skeleton of n elements;
// it is never 0.
func skeletonHash(sum uint64, n int) uint64 {
	if h := mix64(sum + uint64(n)); h != 0 {
		return h
	}
	return 1
}

// elemTerm is the hash term of element e at position i.
func elemTerm(i int, e string) uint64 {
	return mix64(fnvString(fnvOffset, e) ^ uint64(i)*0x9e3779b97f4a7c15)
}

// blankTerm is the hash term of a blanked position i.
func blankTerm(i int) uint64 {
	return mix64(uint64(i)*0xc2b2ae3d27d4eb4f + 0x165667b19e3779f9)
}

// covers reports whether the template split into gen subsumes the one split
// into spec: they have as many elements, and each element of spec equals
// that of gen or fills a Wildcard of gen with an id-like token.
func covers(gen, spec []string) bool {
	if len(gen) != len(spec) || len(gen) == 0 {
		return false
	}
	for i := range gen {
		if gen[i] != spec[i] && !fills(gen[i], spec[i]) {
			return false
		}
	}
	return true
}

// fills reports whether element e is element w, which holds one Wildcard,
// with an id-like token in place of the Wildcard: " id=fbaaafda" for
// " id=<*>", " (fbaaafda)," for " (<*>),".
func fills(w, e string) bool {
	i := strings.Index(w, Wildcard)
	if i < 0 || strings.Contains(e, Wildcard) {
		return false
	}
	pre, suf := w[:i], w[i+len(Wildcard):]
	if strings.Contains(suf, Wildcard) || len(e) <= len(pre)+len(suf) ||
		!strings.HasPrefix(e, pre) || !strings.HasSuffix(e, suf) {
		return false
	}
	return idLike(trimPunctString(e[len(pre) : len(e)-len(suf)]))
}

// elemCore returns a key element without its separator and surrounding
// punctuation, or the value of a "key=value" or "key:value" word when that
// is id-like.
func elemCore(e string) string {
	i := 0
	for i < len(e) && (e[i] == ' ' || e[i] == '|') {
		i++
	}
	e = trimPunctString(e[i:])
	for i := 1; i+1 < len(e); i++ {
		if c := e[i]; c == '=' || c == ':' {
			if e[i+1] != ':' {
				if v := trimPunctString(e[i+1:]); idLike(v) {
					return v
				}
			}
			break
		}
	}
	return e
}

// trimPunctString is trimPunct for a string.
func trimPunctString(s string) string {
	i, j := 0, len(s)
	for i < j && isLeadPunct(s[i]) {
		i++
	}
	for j > i && isTrailPunct(s[j-1]) {
		j--
	}
	return s[i:j]
}

// idLike reports whether w, a token without digits, looks like an
// identifier rather than a word of the message, so that it may stand for a
// Wildcard of a more general template:
//
//   - a run of hex letters, all lower or all upper case, of at least
//     minIDLen letters ("fbaaafda": 0.04% of random 8-digit hex ids have no
//     digit);
//   - letters without a vowel, at least minIDLen of them ("xkqzbt");
//   - letters in mixed case other than a capitalised word or a plural
//     acronym, at least minCaseIDLen of them ("kQzTbWxa", "JobEventType",
//     "getUser", but not "Started" or "VMs"), possibly joined by '_'
//     ("aBc_DeF", but not "LOAD_MESSAGE", "block_id" or "Step_LSC");
//   - a qualified name: letters joined by '.', '$' or "::"
//     ("org.apache.EventType", "Outer$Inner", "std::vector").
//
// Plain words (lower case, upper case or capitalised, alone or joined by
// '_') never qualify: where another template has a Wildcard they are more
// likely an enumeration that tells events apart ("VM Paused" beside "VM
// <*>", "LOAD_MESSAGE") than a value; word values with many distinct values
// are caught by the merge rule instead.
func idLike(w string) bool {
	if len(w) < 3 || len(w) > 256 {
		return false
	}
	var letters, vowels, hexLower, hexUpper int
	qualified, irregular := false, false
	upper, lower := 0, 0 // in the current '_'-separated part
	for i := 0; i <= len(w); i++ {
		cl := uint8(0)
		if i < len(w) {
			cl = idClass[w[i]]
		}
		if cl&(cLower|cUpper) != 0 {
			letters++
			if cl&cVowel != 0 {
				vowels++
			}
			if cl&cLower != 0 {
				lower++
				if cl&cHex != 0 {
					hexLower++
				}
			} else {
				upper++
				if cl&cHex != 0 {
					hexUpper++
				}
			}
			continue
		}
		// The end of a part of letters, which may be plain: "Started",
		// "VMs", but not "JobType" or "aBc".
		if upper > 0 && lower > 0 && !plainWord(w[i-upper-lower:i]) {
			irregular = true
		}
		upper, lower = 0, 0
		if i < len(w) {
			// A joiner must stand between letters; "::" counts as one.
			c, j := w[i], i+1
			switch c {
			case '_', '.', '$':
			case ':':
				if j >= len(w) || w[j] != ':' {
					return false
				}
				j++
			default:
				return false
			}
			if i == 0 || j >= len(w) || !isLetter(w[i-1]) || !isLetter(w[j]) {
				return false
			}
			qualified = qualified || c != '_'
			i = j - 1
		}
	}
	switch {
	case qualified:
		return true
	case letters == len(w) && letters >= minIDLen && (hexLower == letters || hexUpper == letters || vowels == 0):
		return true
	}
	return irregular && letters >= minCaseIDLen
}

// Classes of bytes for idLike.
const (
	cLower = 1 << iota
	cUpper
	cVowel
	cHex
)

var idClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] |= cLower
		t[c-'a'+'A'] |= cUpper
	}
	for _, c := range "aeiouyAEIOUY" {
		t[c] |= cVowel
	}
	for _, c := range "abcdefABCDEF" {
		t[c] |= cHex
	}
	return t
}()

// plainWord reports whether the letters w form a plain word: all lower
// case, all upper case, capitalised, or an upper-case plural ("VMs").
func plainWord(w string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(w); i++ {
		if isUpper(w[i]) {
			upper++
		} else {
			lower++
		}
	}
	switch {
	case upper == 0 || lower == 0:
		return true
	case upper == 1 && isUpper(w[0]):
		return true
	case lower == 1 && w[len(w)-1] == 's' && len(w) >= 3:
		return true
	}
	return false
}

const (
	// minIDLen is the shortest all-hex or vowel-less word taken for an id.
	minIDLen = 6
	// minCaseIDLen is the fewest letters of a mixed-case id.
	minCaseIDLen = 5
)

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

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
	id = m.real(id)
	if id < 0 || id >= len(m.groups) {
		return id
	}
	return int(m.find(int32(id)))
}

// Templates returns the current templates (representatives of merged groups
// only), sorted by id.
func (m *Miner) Templates() []Template {
	m.settle()
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
	id = m.real(id)
	if id < 0 || id >= len(m.groups) {
		return Template{}, false
	}
	return m.groups[m.find(int32(id))].Template, true
}

// Lines returns the number of lines added.
func (m *Miner) Lines() int { return m.lines }

// Overflow returns the number of lines that went to the overflow group
// because the template cap had been reached.
func (m *Miner) Overflow() int {
	m.settle()
	return m.overflow
}

// printable returns s with invalid UTF-8 replaced by U+FFFD.
func printable(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
