package logs

// Words beside values (RuleClusterWild): when a cluster's base has a plain
// word at a position where a member, equal elsewhere, has a bare variable
// (a value with a digit: "from client localhost port <*>" beside "from
// client <*> port <*>"), the position is a variable at once. The program
// printed a value there, an address once and a name another time; an
// enumeration's words (states, verbs) are never printed as numbers. Only a
// member with enough context words counts (more than mergeContext besides
// the position), so a short message ("VM Paused" beside "VM <*>") is no
// evidence, and nor is an upper-case word (a protocol's verb or state,
// "via HTTPS" beside "via <*>"), as for optional words.

// wildWord reports whether position i, where the base has the word b and
// the new key a bare variable, is a variable by RuleClusterWild.
func (m *Miner) wildWord(i int, b string) bool {
	if m.off&RuleClusterWild != 0 || elemKind(b) != wordElem || keyLen(b) > 0 || !hasLower(trimPunctString(trimSep(b))) {
		return false
	}
	e := m.elems[i]
	if !varElem(e) || keyLen(e) > 0 || trimSep(e) != Wildcard {
		return false
	}
	words := 0
	for j, k := range m.kinds {
		if j != i && k == wordElem {
			words++
		}
	}
	return words > mergeContext
}

// hasLower reports whether w has a lower-case ASCII letter.
func hasLower(w string) bool {
	for i := 0; i < len(w); i++ {
		if 'a' <= w[i] && w[i] <= 'z' {
			return true
		}
	}
	return false
}
