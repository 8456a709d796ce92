package logs

// Short records (RuleClusterShort): a template of three or four elements
// joins a cluster at a similarity of one half, not Options.Similarity
// (0.6). With one variable and two constant words ("<*> get page:home"
// beside "<*> get user:bob"), a message that differs in one word agrees on
// half of what is compared, so at 0.6 such templates never share a cluster
// and their values never become a variable, however many there are. Half
// is Drain's own threshold; whether the differing position becomes a
// variable is still decided by its words (three shared ones, or eight).
// Templates with a label ("getRecentTasks: num=<*>") are left out: the
// value after a label may differ in any way (RuleLabelValues), so half
// would put two messages that share only their label in one cluster.

// shortSimilarity is the similarity at which the key split into elems may
// join a cluster: one half for a short record without labels, else
// threshold.
func (m *Miner) shortSimilarity(elems []string, threshold float64) float64 {
	if m.off&RuleClusterShort != 0 || len(elems) < 3 || len(elems) > 4 {
		return threshold
	}
	for _, e := range elems {
		if isLabel(e) {
			return threshold
		}
	}
	return min(threshold, 0.5)
}
