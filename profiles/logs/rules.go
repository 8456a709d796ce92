package logs

// Rules is a set of the miner's rules, named so that each can be switched
// off to measure what it contributes (`ctx bench loghub --leave-out` scores
// every system with each rule off). A Miner with no rule off is the one
// ctx ships.
type Rules uint64

// The rules that can be switched off.
const (
	// RuleFrame learns the log's header from its first lines (frame.go).
	RuleFrame Rules = 1 << iota
	// RuleMerge makes a word position a variable once it takes
	// Options.MergeValues values in otherwise equal templates.
	RuleMerge
	// RuleKeyedMerge merges templates that differ only in the word values
	// of key=value fields.
	RuleKeyedMerge
	// RuleSubsume joins a template with an id-like word to the one with a
	// Wildcard there.
	RuleSubsume
	// RuleWordValues makes host names, e-mail addresses, booleans and null
	// variables although they have no digit.
	RuleWordValues
	// RuleUnits makes a unit after a number part of the number.
	RuleUnits
	// RuleDateWords makes a month or weekday name beside a variable part
	// of it.
	RuleDateWords
	// RuleKeyValue keeps the key of "key=value", "key:value" and
	// "name(arg)" words and makes the value variable (else the whole word
	// is one variable when it has a digit, or a constant).
	RuleKeyValue
	// RulePairSplit splits "a=1,b=2" after each comma that starts a pair.
	RulePairSplit
	// RuleCollapse renders a run of adjacent variables as one Wildcard, so
	// lists of any length share a template.
	RuleCollapse
	// RuleFrameNumbers lets a word field join the frame as a category (a
	// level, a logger) only after two number fields: after a lone number
	// (a counter, a descriptor) the word starts the message.
	RuleFrameNumbers
	// RuleCluster clusters templates Drain-style and makes a cluster
	// position variable once it takes Options.ClusterValues words
	// (cluster.go).
	RuleCluster
	// RuleClusterShared makes a cluster position variable at
	// Options.ClusterValues words only when its words are also seen in
	// other contexts (a host, a user); an enumeration's words, which
	// follow one word only, need maxClusterValues (cluster.go).
	RuleClusterShared
	// RuleFramePadding ends the frame after a header field that two or
	// more spaces follow on most lines: padding to a column sets the
	// message apart (frame.go).
	RuleFramePadding
	// RuleLabelValues makes labels ("git_dir:") part of a cluster's
	// constant skeleton and lets the value after one differ in any way
	// (cluster.go).
	RuleLabelValues
	// RuleQuoted makes a token wholly inside matching quotes ('x', "x",
	// `x`) a variable: a program quotes what it did not write itself.
	RuleQuoted
	// RuleDottedNames makes any lower-case dotted name (two or more labels
	// of letters, digits and '-', the last of two or more letters) a
	// variable, not only those ending in a common top-level domain.
	RuleDottedNames
	// RuleCollapseJoin unites a cluster whose new variable stands beside
	// another with the group already holding its collapsed template.
	RuleCollapseJoin
	// RuleLongKeyed lets templates of more than 32 elements, up to 96,
	// merge the word values of their key=value fields (keyed-merge).
	RuleLongKeyed
	// RuleValueBar keeps a '|' inside the value of a key=value token
	// ("cmd=config|get") in the token instead of splitting there.
	RuleValueBar
	// RuleOptional joins a template to the one it equals with one
	// lower-case word absorbed into a variable beside it (optional.go).
	RuleOptional
	// RuleFrameLabels ends the frame at the first word that does not end
	// in ':' after header words that do ("general: info: received …").
	RuleFrameLabels
	// RuleClusterIDs makes a cluster position whose words are id-like
	// (qualified names, hex runs, mixed-case identifiers) a variable at
	// Options.ClusterValues words without their being shared.
	RuleClusterIDs
	// RuleFrameTags gives a header field that is one token ending in ':'
	// with a letter (a program tag, "imap-login:" beside
	// "imap(alice)<5536>:") the shape of a word whether or not it has a
	// digit, so that a column of tags, some with a pid or user in them,
	// is one header column (frame.go).
	RuleFrameTags
	// RuleFrameNext takes a word column with few values per message for a
	// category (a level, a logger) only when its values stand before
	// several different next fields: a message's first word is followed
	// by the same word, or a variable, every time (frame.go).
	RuleFrameNext
	// RuleBracketed makes a word wholly inside square brackets ("[web]") a
	// variable, as RuleQuoted does a quoted one (bracketed.go).
	RuleBracketed
	// RuleClusterRecur counts a word as shared (RuleClusterShared) when it
	// varies at a position of two different clusters (recur.go).
	RuleClusterRecur
	// RuleQuotedValue makes the whole quoted value of key="…" one
	// variable, however many tokens it spans (quotedvalue.go).
	RuleQuotedValue
	// RuleFrameNextKeys lets a "key=value" field with a digit count, by
	// its key, as the next field in RuleFrameNext's test (framekeys.go).
	RuleFrameNextKeys
	// RuleValueRun makes the value of a line's last key=value field run
	// to the end of the line when no pair follows it (valuerun.go).
	RuleValueRun
	// RuleBracketGroups makes a group in square brackets that spans
	// several tokens one variable (bracketed.go).
	RuleBracketGroups
	// RuleClusterWild makes a cluster position variable when a member has
	// a bare variable where the base has a word (clusterwild.go).
	RuleClusterWild
	// RuleClusterShort lets a template of three or four elements without
	// labels join a cluster at a similarity of one half (clustershort.go).
	RuleClusterShort
	// RuleFrameSeparators lets the frame run on past a punctuation-only
	// header field (" : ", " - ") instead of ending there, so header fields
	// after it (a log domain, a program) are learnt as any other (frame.go).
	RuleFrameSeparators
	// RuleFrameHeadless learns the frame on the lines that start with
	// the commonest field shape when lines without a header (continuation
	// lines) are too many for the whole sample to show one (frame.go).
	RuleFrameHeadless
	// RuleFrameConstants lets the frame run on past a word that every
	// line has, when a number follows it (a month name, a time zone:
	// "01 Dec 2026 20:40:30", "20:07:34 UTC [12327]") (frame.go).
	RuleFrameConstants
)

// RuleNames names each rule as the loghub benchmark reports it, in bit
// order.
var RuleNames = []struct {
	Rule Rules
	Name string
}{
	{RuleFrame, "frame"}, {RuleMerge, "merge"}, {RuleKeyedMerge, "keyed-merge"}, {RuleSubsume, "subsume"},
	{RuleWordValues, "word-values"}, {RuleUnits, "units"}, {RuleDateWords, "date-words"},
	{RuleKeyValue, "key-value"}, {RulePairSplit, "pair-split"}, {RuleCollapse, "collapse"},
	{RuleFrameNumbers, "frame-numbers"}, {RuleCluster, "cluster"},
	{RuleClusterShared, "cluster-shared"}, {RuleFramePadding, "frame-padding"},
	{RuleLabelValues, "label-values"}, {RuleQuoted, "quoted"}, {RuleDottedNames, "dotted-names"},
	{RuleCollapseJoin, "collapse-join"}, {RuleLongKeyed, "long-keyed"}, {RuleValueBar, "value-bar"},
	{RuleOptional, "optional"}, {RuleFrameLabels, "frame-labels"}, {RuleClusterIDs, "cluster-ids"},
	{RuleFrameTags, "frame-tags"}, {RuleFrameNext, "frame-next"},
	{RuleBracketed, "bracketed"}, {RuleClusterRecur, "cluster-recur"},
	{RuleQuotedValue, "quoted-value"}, {RuleFrameNextKeys, "frame-next-keys"},
	{RuleValueRun, "value-run"}, {RuleBracketGroups, "bracket-groups"},
	{RuleClusterWild, "cluster-wild"}, {RuleClusterShort, "cluster-short"},
	{RuleFrameSeparators, "frame-separators"}, {RuleFrameHeadless, "frame-headless"}, {RuleFrameConstants, "frame-constants"},
}

// RuleNamed returns the rule RuleNames calls name.
func RuleNamed(name string) (Rules, bool) {
	for _, rn := range RuleNames {
		if rn.Name == name {
			return rn.Rule, true
		}
	}
	return 0, false
}

// RuleList returns the rules' names, in RuleNames order.
func RuleList() []string {
	names := make([]string, len(RuleNames))
	for i, rn := range RuleNames {
		names[i] = rn.Name
	}
	return names
}
