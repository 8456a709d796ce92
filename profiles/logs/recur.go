package logs

// Recurring values (RuleClusterRecur): a word that varies at a position of
// three different clusters is shared, as a word seen after two different
// elements is (noteContexts).
//
// A variable's values are things the program names in several messages;
// when they are, they are often printed in the same place of each message,
// after the same word or after another variable ("USER alice (Login
// failed)" and "USER alice …"; "<*> static <*> A IN" and "<*> redirect <*>
// A IN"), so the word before them is no evidence. That the same word is
// one of the values that tell apart the members of three different events
// is: an enumeration's words (states, verbs) vary in their one message, or
// in a request's and its reply's ("Sending X", "Received X": a protocol's
// vocabulary, which the labels keep apart).

// maxRecurWords bounds the words whose first cluster is remembered.
const maxRecurWords = 1 << 16

// recurWords is how many of a position's words must have varied in
// another cluster too for the position to be a variable.
const recurWords = 3

// Miner.recur holds, per word, the first two clusters it varied in;
// recurNone marks no second one yet, recurShared a word that has varied in
// a third.
const (
	recurNone   = -1
	recurShared = -2
)

// noteRecur records that the word e varies at a position of cluster ci;
// when it has now varied in recurClusters clusters, the positions waiting
// for shared words are looked at again (recheck).
func (m *Miner) noteRecur(ci int32, e string) {
	if m.off&(RuleClusterRecur|RuleClusterShared) != 0 {
		return
	}
	h := wordHash(e)
	if m.recur == nil {
		m.recur = make(map[uint32][2]int32)
	}
	seen, ok := m.recur[h]
	switch {
	case !ok:
		if len(m.recur) < maxRecurWords {
			m.recur[h] = [2]int32{ci, recurNone}
		}
	case seen[0] == recurShared || seen[0] == ci || seen[1] == ci:
	case seen[1] == recurNone:
		m.recur[h] = [2]int32{seen[0], ci}
	default:
		m.recur[h] = [2]int32{recurShared, recurShared}
		if len(m.waiting) > 0 {
			m.recheck(h)
		}
	}
}

// recurring reports whether at least recurWords of a position's words
// (hashes) have varied in two clusters.
func (m *Miner) recurring(vals []uint32) bool {
	if m.off&RuleClusterRecur != 0 || m.recur == nil {
		return false
	}
	n := 0
	for _, v := range vals {
		if m.recur[v][0] == recurShared {
			n++
		}
	}
	return n >= recurWords
}
