package logs

import (
	"strings"
)

// Clustering (RuleCluster): Drain's fixed-depth tree and similarity
// threshold, with a position made variable by evidence rather than at the
// first difference.
//
// A template key that the exact index, the merge families and subsumption
// did not place is looked up in a leaf of the tree: its number of elements
// and its first constant word (Drain's depth-3 tree: length, then first
// token). Among the leaf's clusters, the one whose base template is most
// similar to it, with a similarity (equal constant elements over the
// elements that are not variable in both) of at least Options.Similarity,
// is its cluster; elements that differ must both be words (or the new one a
// variable): punctuation and keys of "key=value" must agree. If the key
// differs from the base only where the base is already variable, the line
// joins the cluster's group at once. Otherwise the key starts a group of
// its own, and each position where it differs records the new word: when a
// position has taken Options.ClusterValues distinct words it becomes a
// variable of the base (a Wildcard), and every member that now differs
// only at variable positions is united with the cluster's group. This is
// position-wise variability — a position whose values are many among
// templates that agree elsewhere is a variable, whatever its characters —
// with Drain's similarity deciding which templates "agree elsewhere", so
// that it needs no fixed count of context words and works where two
// positions vary at once.
const (
	// maxLeafClusters bounds the clusters of one leaf; a key whose leaf is
	// full and matches none of them is mined as without clustering.
	maxLeafClusters = 16
	// maxClusterPending bounds the members a cluster remembers that are
	// not yet united with it.
	maxClusterPending = 16
	// maxClusterValues bounds Options.ClusterValues; a position that takes
	// this many words is a variable whether or not they are shared.
	maxClusterValues = 8
	// maxContextWords bounds the words whose contexts are remembered
	// (RuleClusterShared).
	maxContextWords = 1 << 16
	// maxWaiting bounds the cluster positions that wait for their words
	// to be shared (recheck).
	maxWaiting = 256
	// sharedWords is how many of a position's words must be shared for
	// Options.ClusterValues of them to make it a variable.
	sharedWords = 2
)

// DefaultClusterValues is the number of distinct words a cluster position
// must take before it is a variable, when Options.ClusterValues is zero or
// negative.
const DefaultClusterValues = 3

// DefaultSimilarity is the similarity threshold used when
// Options.Similarity is zero or negative: Drain's published default is
// 0.4–0.5 over all tokens; here variables are left out of the share, so
// the same lines agree on a larger share of what is compared.
const DefaultSimilarity = 0.6

// cluster is one Drain log group: a base template and, per position, the
// distinct words seen there.
type cluster struct {
	rep     int32    // a group holding the cluster's united lines (find it)
	base    []string // the first member's elements, Wildcards where found variable
	vals    []uint32 // len(base) × maxClusterValues word hashes
	nvals   []uint8
	pending []member
}

// waiting is a cluster position with enough words that are not yet shared
// enough (Miner.recheck).
type waiting struct {
	cluster int32
	pos     uint8
}

// member is a group of a cluster not yet united with it, and the positions
// (a bit each; templates that cluster have at most maxMergeElems elements)
// where its template differs from the base.
type member struct {
	group int32
	diff  uint32
}

// leafHash is the leaf of the tree for a key split into elems: its length
// and its first constant word; ok is false when it has none.
func leafHash(elems []string, kinds []uint8) (h uint64, ok bool) {
	for i, k := range kinds {
		if k == wordElem {
			return mix64(fnvString(fnvOffset, elems[i]) + uint64(len(elems))*0x9e3779b97f4a7c15), true
		}
	}
	return 0, false
}

// similarity compares the key split into elems with a cluster's base: the
// share of equal constant elements among those not variable in the base,
// and whether the two may be one event at all (equal lengths; differences
// only between words).
//
// With RuleLabelValues, labels (elements ending in ':', "git_dir:") must
// agree as keys do, and the value after a label may differ in any way: a
// word, punctuation or a variable (".git", ".", "<*>").
func similarity(base, elems []string, kinds []uint8, off Rules) (sim float64, ok bool) {
	if len(base) != len(elems) {
		return 0, false
	}
	labels := off&RuleLabelValues == 0
	equal, total := 0, 0
	for i, b := range base {
		e := elems[i]
		if b == e {
			if !varElem(b) {
				equal++
				total++
			}
			continue
		}
		if labels && (isLabel(b) || isLabel(e)) {
			return 0, false
		}
		if labels && afterLabel(elems, i) && sameSep(b, e) {
			if !varElem(b) {
				total++
			}
			continue
		}
		if varElem(b) {
			if kinds[i] == otherElem || !sameKey(b, e) || !sameSep(b, e) {
				return 0, false
			}
			continue
		}
		keyed := keyLen(b) > 0 // a named field's value, whatever it holds
		if !keyed && (elemKind(b) != wordElem || !(kinds[i] == wordElem || varElem(e))) || !sameKey(b, e) || !sameSep(b, e) {
			return 0, false
		}
		total++
	}
	if total == 0 || equal == 0 {
		return 0, false
	}
	return float64(equal) / float64(total), true
}

// varElem reports whether a template element is a variable slot: besides
// one Wildcard and the key of "key=", it holds no letter ("<*>", "(<*>),",
// "user=<*>,"; not "instruction......<*>", a label whose value varies).
func varElem(e string) bool {
	v := e[keyLen(e):]
	i := strings.Index(v, Wildcard)
	return i >= 0 && !hasLetterString(v[:i]+v[i+len(Wildcard):])
}

// sameKey reports whether two elements have the same "key=" prefix, or
// neither has one.
func sameKey(a, b string) bool {
	ka, kb := keyLen(a), keyLen(b)
	return ka == kb && a[:ka] == b[:kb]
}

// sameSep reports whether two elements start with the same separator (or
// neither with one).
func sameSep(a, b string) bool { return sepOf(a) == sepOf(b) }

func sepOf(e string) byte {
	if len(e) > 0 && (e[0] == ' ' || e[0] == '|') {
		return e[0]
	}
	return 0
}

// clusterOf returns the index of the most similar cluster in the new key's
// leaf (m.elems and m.kinds as familyHashes left them), or -1; leaf is the
// leaf's hash and ok false when the key takes no part in clustering.
func (m *Miner) clusterOf() (ci int32, leaf uint64, ok bool) {
	return m.clusterFor(m.elems, m.kinds)
}

// clusterFor is clusterOf for a key split into elems of the given kinds.
func (m *Miner) clusterFor(elems []string, kinds []uint8) (ci int32, leaf uint64, ok bool) {
	if m.similarity <= 0 || len(kinds) != len(elems) || len(elems) == 0 || len(elems) > maxMergeElems {
		return -1, 0, false
	}
	leaf, ok = leafHash(elems, kinds)
	if !ok {
		return -1, 0, false
	}
	ci, best := int32(-1), -1.0
	threshold := m.shortSimilarity(elems, m.similarity)
	for _, c := range m.leaves[leaf] {
		if sim, fits := similarity(m.clusters[c].base, elems, kinds, m.off); fits && sim >= threshold && sim > best {
			ci, best = c, sim
		}
	}
	return ci, leaf, true
}

// coveredBy reports whether elems differ from base only where base is
// variable.
func coveredBy(base, elems []string) bool {
	for i, b := range base {
		if b != elems[i] && !varElem(b) {
			return false
		}
	}
	return true
}

// newCluster starts a cluster in leaf with the new group id as its base, if
// the leaf has room.
func (m *Miner) newCluster(leaf uint64, id int32) {
	if len(m.leaves[leaf]) >= maxLeafClusters {
		return
	}
	n := len(m.elems)
	m.clusterLens[n] = true
	m.leaves[leaf] = append(m.leaves[leaf], int32(len(m.clusters)))
	m.clusters = append(m.clusters, cluster{rep: id, base: append([]string(nil), m.elems...),
		vals: make([]uint32, n*maxClusterValues), nvals: make([]uint8, n)})
}

// observe records the new group id, whose key differs from cluster ci's
// base at some word position, as a member: each differing position notes
// the word; a position that reaches the threshold becomes variable, and
// the members it leaves differing only at variable positions are united
// with the cluster's group.
func (m *Miner) observe(ci int32, id int32) {
	c := &m.clusters[ci]
	grew := false
	m.diff = c.diffs(m.elems, m.diff)
	for _, i := range m.diff {
		b := c.base[i]
		c.note(i, b)
		n := c.note(i, m.elems[i])
		m.noteRecur(ci, b)
		m.noteRecur(ci, m.elems[i])
		switch {
		case m.wildWord(i, b):
			c.generalize(i)
			grew = true
		case n < int(m.clusterN):
		case keyLen(b) > 0 || afterLabel(m.elems, i) || m.idWords(b, m.elems[i]) || m.variable(c, i, n):
			c.generalize(i)
			grew = true
		case len(m.waiting) < maxWaiting:
			// Enough words, not yet shared: look again when one of
			// them is seen in another context (recheck).
			m.waiting = append(m.waiting, waiting{cluster: ci, pos: uint8(i)})
		}
	}
	c.pending = append(c.pending, member{group: id, diff: c.diffMask(m.elems)})
	if grew {
		m.uniteCovered(c)
	}
	if len(c.pending) > maxClusterPending {
		c.pending = c.pending[len(c.pending)-maxClusterPending:]
	}
}

// generalize makes position i of the base a variable (keeping the key of
// "key=value").
func (c *cluster) generalize(i int) {
	b := c.base[i]
	c.base[i] = wildcardElem(b)
	if k := keyLen(b); k > 0 {
		c.base[i] = b[:k] + Wildcard
	}
}

// uniteCovered unites with c's group every pending member that now differs
// from the base only at variable positions.
func (m *Miner) uniteCovered(c *cluster) {
	kept := c.pending[:0]
	for _, p := range c.pending {
		if c.covers(p.diff) {
			m.uniteCluster(c, p.group)
		} else {
			kept = append(kept, p)
		}
	}
	c.pending = kept
}

// recheck looks again at the waiting cluster positions that hold the word
// h, which has just been seen in a second context: a position whose words
// are now shared enough becomes a variable. Without it, whether a word
// variable is found would depend on whether its values were first seen in
// another message before or after it took its third word.
func (m *Miner) recheck(h uint32) {
	kept := m.waiting[:0]
	for _, w := range m.waiting {
		c := &m.clusters[w.cluster]
		i := int(w.pos)
		if varElem(c.base[i]) {
			continue
		}
		if c.holds(i, h) && m.variable(c, i, int(c.nvals[i])) {
			c.generalize(i)
			m.uniteCovered(c)
			continue
		}
		kept = append(kept, w)
	}
	m.waiting = kept
}

// holds reports whether position i has taken the word hashed h.
func (c *cluster) holds(i int, h uint32) bool {
	for _, v := range c.vals[i*maxClusterValues : i*maxClusterValues+int(c.nvals[i])] {
		if v == h {
			return true
		}
	}
	return false
}

// diffs returns the positions where elems differ from the base outside its
// variables, or nil when they differ at none or at more than one word that
// is not the value of a "key=value": only templates that agree everywhere
// else are evidence that a position is a variable. Two plain words that
// vary together are more often a phrase or a pair of states the program
// chose ("from NEW to INITED") than two values; the values of named fields
// ("user=alice,db=shop") vary together by design.
func (c *cluster) diffs(elems []string, dst []int) []int {
	dst = dst[:0]
	plain := 0
	for i, b := range c.base {
		if b == elems[i] || varElem(b) {
			continue
		}
		if keyLen(b) == 0 {
			plain++
		}
		dst = append(dst, i)
	}
	if plain > 1 {
		return dst[:0]
	}
	return dst
}

// diffMask returns the positions where elems differ from the base outside
// its variables.
func (c *cluster) diffMask(elems []string) uint32 {
	var mask uint32
	for i, b := range c.base {
		if b != elems[i] && !varElem(b) {
			mask |= 1 << i
		}
	}
	return mask
}

// covers reports whether the base is variable at every position of mask.
func (c *cluster) covers(mask uint32) bool {
	for i := range c.base {
		if mask&(1<<i) != 0 && !varElem(c.base[i]) {
			return false
		}
	}
	return true
}

// note adds the word e to the values of position i, if it is new and there
// is room, and returns how many distinct values position i has.
func (c *cluster) note(i int, e string) int {
	h := wordHash(e)
	vs := c.vals[i*maxClusterValues : i*maxClusterValues+int(c.nvals[i])]
	for _, v := range vs {
		if v == h {
			return len(vs)
		}
	}
	if int(c.nvals[i]) < maxClusterValues {
		c.vals[i*maxClusterValues+int(c.nvals[i])] = h
		c.nvals[i]++
	}
	return int(c.nvals[i])
}

// variable reports whether position i of cluster c, with n distinct words
// (at least Options.ClusterValues), is a variable: with RuleClusterShared,
// when at least sharedWords of its words are shared by now or it has taken
// maxClusterValues words (see noteContexts). The value of a "key=value"
// field, or of a word after a label ("request: GET"), needs no such
// evidence: a key names a field that varies by design.
func (m *Miner) variable(c *cluster, i, n int) bool {
	if m.off&RuleClusterShared != 0 || n >= maxClusterValues {
		return true
	}
	shared := 0
	vals := c.vals[i*maxClusterValues : i*maxClusterValues+int(c.nvals[i])]
	for _, v := range vals {
		if m.contexts[v][1] != 0 {
			shared++
		}
	}
	return shared >= sharedWords || m.recurring(vals)
}

// idWords reports whether the base's word b and the new word e at a
// position are both id-like (RuleClusterIDs): qualified names, hex runs,
// mixed-case identifiers (idLike), which name things (classes, packages,
// objects) and need no sharing to be a variable, as a key=value's value
// does not.
func (m *Miner) idWords(b, e string) bool {
	return m.off&RuleClusterIDs == 0 && idLike(elemCore(b)) && idLike(elemCore(e))
}

// afterLabel reports whether element i follows a label, an element ending
// in ':' other than a lone ':' ("status:", "(descriptor <*>):").
func afterLabel(elems []string, i int) bool {
	return i > 0 && isLabel(elems[i-1])
}

// isLabel reports whether template element e ends in ':' and is more than
// a lone ':'.
func isLabel(e string) bool {
	e = trimSep(e)
	return len(e) > 1 && strings.HasSuffix(e, ":")
}

// noteContexts records, for each constant word of the new key (m.elems and
// m.kinds as familyHashes left them), the element before it: a word seen
// after two different elements is shared (Miner.variable).
//
// This is how an enumeration is told from a word-valued variable without a
// list of words: a variable's values are things (a host, a user, a topic)
// that the program names in other messages too ("query router", "router
// is up", "forwarded router"), while the words of an enumeration (states,
// verbs, region kinds: "VM Paused", "Eden regions") belong to their one
// message and always follow the same word.
func (m *Miner) noteContexts() {
	if m.off&RuleClusterShared != 0 || m.similarity <= 0 || len(m.kinds) != len(m.elems) {
		return
	}
	prev := uint32(1) // the start of the message
	for i, e := range m.elems {
		h := wordHash(e)
		if m.kinds[i] == wordElem {
			ctx, ok := m.contexts[h]
			switch {
			case !ok && len(m.contexts) < maxContextWords:
				m.contexts[h] = [2]uint32{prev, 0}
			case ok && ctx[1] == 0 && ctx[0] != prev:
				m.contexts[h] = [2]uint32{ctx[0], prev}
				if len(m.waiting) > 0 {
					m.recheck(h)
				}
			}
		}
		prev = h
	}
}

// wordHash is the hash of a template element under which its contexts
// are kept: the word without its separator, quotes, brackets and
// punctuation ("'home/energy'," is the word "home/energy"), never zero.
func wordHash(e string) uint32 {
	return uint32(fnvString(fnvOffset, trimPunctString(trimSep(e)))) | 1
}

// trimSep drops the separator a template element starts with.
func trimSep(e string) string {
	if len(e) > 0 && (e[0] == ' ' || e[0] == '|') {
		return e[1:]
	}
	return e
}

// uniteCluster unites group g with cluster c's group and gives the result
// the cluster's base as its template, indexing that key (and its collapsed
// form) so later lines with it join at once.
func (m *Miner) uniteCluster(c *cluster, g int32) {
	m.unite(m.find(c.rep), g)
	r := m.find(c.rep)
	c.rep = r
	rg := &m.groups[r]
	rg.elems = append(rg.elems[:0:0], c.base...)
	k := strings.Join(c.base, "")
	rg.Text = printable(k)
	if _, ok := m.index[k]; !ok && len(m.index) < (indexFactor-1)*m.max {
		m.index[k] = r
	}
	// Beside another variable, the new Wildcard is what a value with a
	// digit would have joined, as for a merged family (Miner.merge): a
	// group already under the collapsed key is this one too.
	ck := collapsed(c.base)
	if ck == k {
		return
	}
	if id, ok := m.index[ck]; ok {
		if m.off&RuleCollapseJoin == 0 && m.find(id) != r {
			m.unite(r, id)
			c.rep = m.find(r)
		}
	} else if len(m.index) < (indexFactor-1)*m.max {
		m.index[ck] = r
	}
}
