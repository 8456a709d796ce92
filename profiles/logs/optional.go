package logs

// Optional words (RuleOptional): a format string's "%s" may print one word
// or several ("from [10.0.0.1]" and "from (helo) [10.0.0.1]", "client
// 10.0.0.1#53 (zone)" and "client 10.0.0.1#53/key xfr (zone)"), so one
// event's templates may differ by a constant word beside a variable. A
// new template that, with one such word absorbed into its neighbouring
// variable, is a known template (or is covered by a known cluster) joins
// that template's group; a new template that an earlier one reduces to
// that way absorbs it. Only lower-case words qualify: labels ("src:"),
// upper-case words (a protocol's verbs and states, "HTTPS", "AXFR") and
// the values of key=value fields are structure the program wrote, and the
// reduced template must keep mergeContext context words.
const (
	// maxReductions bounds the reductions tried for a new template.
	maxReductions = 4
)

// reductions fills m.reds with the keys the new key (m.elems and m.kinds
// as familyHashes left them) reduces to with one optional word absorbed
// into a variable beside it, as spans of m.redBuf (no allocation once the
// buffers have grown).
func (m *Miner) reductions() {
	m.reds = m.reds[:0]
	m.redBuf = m.redBuf[:0]
	if m.off&RuleOptional != 0 || len(m.kinds) != len(m.elems) {
		return
	}
	words := 0
	for i, k := range m.kinds {
		if contextElem(k, m.elems[i]) {
			words++
		}
	}
	if words-1 <= mergeContext { // the reduced key keeps more than mergeContext
		return
	}
	n := len(m.elems)
	for p, e := range m.elems {
		if len(m.reds) >= maxReductions-1 {
			break
		}
		if !optionalWord(m.kinds[p], e) {
			continue
		}
		if !bracketed(e) && p+1 < n && trimSeps(m.elems[p+1]) == Wildcard {
			// A plain word before a bare value names it ("port <*>",
			// "iar <*> dear <*>"): a label, not part of a value.
			continue
		}
		prev := p > 0 && varElem(m.elems[p-1])
		next := p+1 < n && varElem(m.elems[p+1]) && keyLen(m.elems[p+1]) == 0
		var lo, hi int // the span [lo, hi] becomes one variable
		switch {
		case prev && next:
			lo, hi = p-1, p+1
		case prev:
			lo, hi = p-1, p
		case next:
			lo, hi = p, p+1
		default:
			continue
		}
		first := m.elems[lo]
		pre := first[:len(first)-len(trimSeps(first))] // its separator
		if k := keyLen(first); k > 0 && lo < p {
			pre = first[:k] // "pid=<*> -qff": the key stays
		}
		m.addReduction(lo, hi, pre, true)
		// Or the word dropped, its neighbours as they are: "from (helo)
		// [<*>]" beside "from [<*>]", where the lone variable kept its
		// brackets.
		m.addReduction(p, p, "", false)
	}
}

// addReduction appends to m.reds the new key with elements [lo, hi]
// dropped, or with replaced by pre and a Wildcard, each run of bare
// Wildcards collapsed as collapsed does, unless it equals the reduction
// added last.
func (m *Miner) addReduction(lo, hi int, pre string, with bool) {
	start := len(m.redBuf)
	prev := false
	for i, e := range m.elems {
		var wild bool
		switch {
		case i == lo && with:
			wild = trimSeps(pre) == ""
			if !(wild && prev) {
				m.redBuf = append(append(m.redBuf, pre...), Wildcard...)
			}
		case i >= lo && i <= hi:
			continue
		default:
			wild = trimSeps(e) == Wildcard
			if !(wild && prev) {
				m.redBuf = append(m.redBuf, e...)
			}
		}
		prev = wild
	}
	r := [2]int{start, len(m.redBuf)}
	if k := len(m.reds); k > 0 && string(m.redBuf[m.reds[k-1][0]:m.reds[k-1][1]]) == string(m.redBuf[start:]) {
		m.redBuf = m.redBuf[:start]
		return
	}
	m.reds = append(m.reds, r)
}

// reduction returns the i-th of the new key's reductions.
func (m *Miner) reduction(i int) []byte {
	return m.redBuf[m.reds[i][0]:m.reds[i][1]]
}

// bracketed reports whether template element e is one group in
// parentheses or square brackets ("(vm)", "[main]").
func bracketed(e string) bool {
	e = trimSeps(e)
	for len(e) > 0 && isTrailPunct(e[len(e)-1]) && e[len(e)-1] != ')' && e[len(e)-1] != ']' {
		e = e[:len(e)-1]
	}
	return len(e) >= 3 && (e[0] == '(' && e[len(e)-1] == ')' || e[0] == '[' && e[len(e)-1] == ']')
}

// optionalWord reports whether element e, of kind k, may be absorbed
// into a neighbouring variable: a constant word with a lower-case letter
// that is neither a label nor a key=value field.
func optionalWord(k uint8, e string) bool {
	if k != wordElem || isLabel(e) || keyLen(e) > 0 {
		return false
	}
	core := elemCore(e)
	for i := 0; i < len(core); i++ {
		if 'a' <= core[i] && core[i] <= 'z' {
			return true
		}
	}
	return false
}

// reducedGroup returns the group of a known template the new key reduces
// to (m.reds), or of a cluster whose base covers a reduction, or -1.
func (m *Miner) reducedGroup() int32 {
	for i := range m.reds {
		if id, ok := m.index[string(m.reduction(i))]; ok {
			return id
		}
	}
	if len(m.leaves) == 0 || m.similarity <= 0 {
		return -1
	}
	for i := range m.reds {
		if n := elemCount(m.reduction(i)); n > 0 && (n > maxMergeElems || !m.clusterLens[n]) {
			continue
		}
		m.red = splitKey(string(m.reduction(i)), m.red)
		m.redKinds = m.redKinds[:0]
		for _, e := range m.red {
			m.redKinds = append(m.redKinds, elemKind(e))
		}
		if ci, _, _ := m.clusterFor(m.red, m.redKinds); ci >= 0 && coveredBy(m.clusters[ci].base, m.red) {
			return m.clusters[ci].rep
		}
	}
	return -1
}

// noteReductions lists the new group id under each key it reduces to, and
// unites with it every earlier group that reduces to its own key k.
func (m *Miner) noteReductions(id int32, k string) {
	if m.off&RuleOptional != 0 {
		return
	}
	head, ok := m.reducers[reductionHash(k)]
	for e := head; ok && e >= 0; e = m.lists[e].next {
		m.unite(id, m.lists[e].group)
	}
	for i := range m.reds {
		m.push(m.reducers, reductionHash(m.reduction(i)), id)
	}
}

// reductionHash is the hash under which the groups that reduce to key r
// are listed.
func reductionHash[T ~string | ~[]byte](r T) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(r); i++ {
		h ^= uint64(r[i])
		h *= fnvPrime
	}
	return mix64(h ^ 0x2545f4914f6cdd1d)
}

// elemCount returns how many elements splitKey splits key k into, or 0
// when k holds a '|' (which a key=value word may keep, RuleValueBar): then
// only splitting tells.
func elemCount(k []byte) int {
	n := 0
	for i, c := range k {
		switch {
		case c == '|':
			return 0
		case c == ' ' && i > 0 && k[i-1] != ' ':
			n++
		}
	}
	if len(k) > 0 {
		n++
	}
	return n
}
