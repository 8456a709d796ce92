package secrets

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Version names the rule set, in the profile/N form of the digest header
// (a name that holds no rule's keyword, so the header alone loads no rule):
// redact/1 is gitleaks v8.30.1's default rules with ctx's stream rules,
// revision 1. Any change to either bumps it. It is part of every digest
// header and receipt, so a digest can be replayed byte for byte.
const Version = "redact/1"

// Upstream is the gitleaks release the embedded rules come from.
const Upstream = "gitleaks v8.30.1"

//go:generate go test -run TestGeneratedRules -update-rules

// rule is one detection rule: gitleaks' or ctx's own.
type rule struct {
	id       string
	pattern  string
	keywords []string // lower case; the rule runs only on a line holding one
	entropy  float64  // the secret's Shannon entropy must exceed it (0: no check)
	group    int      // capture group holding the secret (0: the first non-empty one)
	allow    []*allowlist
	// check, when set, is a further test of the secret (ctx's rules).
	check func(secret string) bool
	// pre replaces keywords for a rule that has none: a cheap test of the
	// line that must pass before the regexp runs.
	pre func(line []byte) bool
	// assign > 0: the rule matches only where a keyword is followed, within
	// assign name characters and a quote or space, by an assignment
	// operator; a cheap test that spares the regexp most lines that merely
	// mention a keyword (TestKeyParse, "PASS: TestToken").
	assign int

	once sync.Once
	re   *regexp.Regexp
}

func (r *rule) regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

// allowlist says when a finding is not a secret.
type allowlist struct {
	target    string // "secret" (default), "match" or "line"
	patterns  []string
	stopwords []string

	once    sync.Once
	regexes []*regexp.Regexp
}

func (a *allowlist) allows(secret, match, line string) bool {
	a.once.Do(func() {
		for _, p := range a.patterns {
			a.regexes = append(a.regexes, regexp.MustCompile(p))
		}
	})
	var hit bool
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	for _, re := range a.regexes {
		if re.MatchString(target) {
			hit = true
			break
		}
	}
	if !hit {
		low := strings.ToLower(secret)
		for _, w := range a.stopwords {
			if strings.Contains(low, w) {
				hit = true
				break
			}
		}
	}
	return hit
}

// ruleSet is every rule with the keyword index that selects them.
type ruleSet struct {
	rules  []*rule
	global []*allowlist
	// byPair indexes keywords by their first two bytes; pairs is the
	// set of those pairs, one bit each, tested at every byte.
	pairs  [1 << 16 / 64]uint64
	byPair map[uint16][]keyword
	// pre are the rules selected by a test of the line, not a keyword.
	pre []int
}

type keyword struct {
	word  string
	rules []int
}

var (
	loadOnce sync.Once
	loaded   *ruleSet
	loadErr  error
)

// rules returns the rule set, loading it on first use.
func rules() *ruleSet {
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		// The embedded rules are part of the binary and tested: a failure
		// here is a build defect, not bad input.
		panic(loadErr)
	}
	return loaded
}

// ruleSpec is a gitleaks rule as data: rules_gen.go holds the default
// rules in this form, generated from gitleaks.toml (TestGeneratedRules), so
// that nothing is parsed when ctx starts or when a line holds no keyword.
type ruleSpec struct {
	ID       string
	Regex    string
	Entropy  float64
	Group    int
	Keywords []string
	Allow    []allowSpec
}

// allowSpec is an allowlist as data; one that needs a file path (which an
// output stream has none of) is not generated.
type allowSpec struct {
	Target    string
	Regexes   []string
	Stopwords []string
}

// skipped are gitleaks rules that do not apply to a command's output.
var skipped = map[string]string{
	// Needs the file name (a Kubernetes manifest) and a multi-line
	// fragment; the kubernetes-secret-data rule covers kubectl's output.
	"kubernetes-secret-yaml": "file rule",
}

func load() (*ruleSet, error) {
	s := &ruleSet{byPair: map[uint16][]keyword{}, global: []*allowlist{newAllow(gitleaksGlobal)}}
	for _, sp := range gitleaksSpecs {
		r := &rule{id: sp.ID, pattern: sp.Regex, entropy: sp.Entropy, group: sp.Group, keywords: sp.Keywords}
		if strings.Contains(sp.Regex, assignShape) {
			r.assign = 20
		}
		for _, a := range sp.Allow {
			r.allow = append(r.allow, newAllow(a))
		}
		s.rules = append(s.rules, r)
	}
	s.rules = append(s.rules, streamRules()...)
	kw := map[string][]int{}
	for i, r := range s.rules {
		if r.pre != nil {
			s.pre = append(s.pre, i)
			continue
		}
		if len(r.keywords) == 0 {
			return nil, fmt.Errorf("secrets: rule %s has no keyword: it would run on every line", r.id)
		}
		for _, k := range r.keywords {
			if len(k) < 2 {
				return nil, fmt.Errorf("secrets: rule %s: keyword %q is shorter than 2 bytes", r.id, k)
			}
			if !slices.Contains(kw[k], i) {
				kw[k] = append(kw[k], i)
			}
		}
	}
	words := make([]string, 0, len(kw))
	for k := range kw {
		words = append(words, k)
	}
	slices.Sort(words)
	for _, k := range words {
		p := pairOf(k[0], k[1])
		s.pairs[p/64] |= 1 << (p % 64)
		s.byPair[p] = append(s.byPair[p], keyword{word: k, rules: kw[k]})
	}
	return s, nil
}

// assignShape is how gitleaks' rules for KEYWORD = value begin after the
// keyword: up to 20 name characters, up to 3 quotes or spaces, an operator.
const assignShape = `)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// assigned reports whether some keyword of r occurs in line followed by an
// assignment operator (see rule.assign).
func (r *rule) assigned(line []byte) bool {
	for _, k := range r.keywords {
		for i := 0; i+len(k) <= len(line); i++ {
			if !hasPrefixFold(line[i:], k) {
				continue
			}
			j, n := i+len(k), 0
			for j < len(line) && n < r.assign && isNameByte(line[j]) {
				j, n = j+1, n+1
			}
			for q := 0; j < len(line) && q < 3 && (line[j] == ' ' || line[j] == '\t' || line[j] == '"' || line[j] == '\''); q++ {
				j++
			}
			if j < len(line) && strings.IndexByte("=>:|?,", line[j]) >= 0 {
				return true
			}
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-' || c == ' ' || c == '\t'
}

func newAllow(a allowSpec) *allowlist {
	w := &allowlist{target: a.Target, patterns: a.Regexes}
	for _, x := range a.Stopwords {
		w.stopwords = append(w.stopwords, strings.ToLower(x))
	}
	return w
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func pairOf(a, b byte) uint16 { return uint16(lower(a))<<8 | uint16(lower(b)) }

// candidates returns the indexes of the rules whose keywords occur in line
// (ASCII case-insensitively), in rule order; nil when none does.
func (s *ruleSet) candidates(line []byte) []int {
	var hits []int
	for i := 0; i+1 < len(line); i++ {
		p := pairOf(line[i], line[i+1])
		if s.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, k := range s.byPair[p] {
			if hasPrefixFold(line[i:], k.word) {
				for _, r := range k.rules {
					if !slices.Contains(hits, r) {
						hits = append(hits, r)
					}
				}
			}
		}
	}
	for _, i := range s.pre {
		if s.rules[i].pre(line) {
			hits = append(hits, i)
		}
	}
	slices.Sort(hits)
	return hits
}

// maybe is the prefilter that runs before the rules are loaded: whether
// line holds any rule's keyword (from the generated keyword table) or a long
// run of token characters. Most lines of output hold neither.
func maybe(line []byte) bool {
	for i := 0; i+1 < len(line); i++ {
		if keywordAt(line, i) {
			return true
		}
	}
	return longRun(line)
}

// keywordAt reports whether a keyword starts at line[i].
func keywordAt(line []byte, i int) bool {
	p := pairOf(line[i], line[i+1])
	if keywordPairs[p/64]&(1<<(p%64)) == 0 {
		return false
	}
	j := sort.Search(len(keywordList), func(k int) bool { return pairOf(keywordList[k][0], keywordList[k][1]) >= p })
	return keywordFrom(line[i:], p, j)
}

// keywordFrom reports whether b starts with one of the keywords with first
// bytes p, which start at keywordList[j].
func keywordFrom(b []byte, p uint16, j int) bool {
	for ; j < len(keywordList) && pairOf(keywordList[j][0], keywordList[j][1]) == p; j++ {
		if hasPrefixFold(b, keywordList[j]) {
			return true
		}
	}
	return false
}

// maybeText is maybe over many lines at once (keywords and token runs
// never cross a newline), faster: a bitmap of the byte pairs (in either
// case) that begin a keyword rules out most positions with one test, a
// table gives where a pair's keywords start in keywordList (no search per
// pair), and token runs are looked for by skipping (hasLongRun).
func maybeText(text []byte) bool {
	t := keywordTables()
	for i := 0; i+1 < len(text); i++ {
		if q := uint16(text[i])<<8 | uint16(text[i+1]); t.raw[q/64]&(1<<(q%64)) == 0 {
			continue
		}
		p := pairOf(text[i], text[i+1])
		if keywordFrom(text[i:], p, int(t.start[p])) {
			return true
		}
	}
	return hasLongRun(text)
}

const noKeyword = 0xffff

// keywordIndex is maybeText's tables: raw has a bit for every pair of
// bytes (as they are, either case) that begins a keyword; start is, for
// every such pair in lower case, the index of its first keyword in
// keywordList (noKeyword for the others).
type keywordIndex struct {
	raw   [1 << 16 / 64]uint64
	start [1 << 16]uint16
}

// keywordTables is made on first use (136 KiB).
var keywordTables = sync.OnceValue(func() *keywordIndex {
	t := &keywordIndex{}
	for i := range t.start {
		t.start[i] = noKeyword
	}
	for j := len(keywordList) - 1; j >= 0; j-- {
		t.start[pairOf(keywordList[j][0], keywordList[j][1])] = uint16(j)
	}
	for q := range 1 << 16 {
		if t.start[pairOf(byte(q>>8), byte(q))] != noKeyword {
			t.raw[q/64] |= 1 << (q % 64)
		}
	}
	return t
})

// sortKeywords orders keywords by their first two bytes, then as strings.
func sortKeywords(w []string) {
	sort.Slice(w, func(i, j int) bool {
		pi, pj := pairOf(w[i][0], w[i][1]), pairOf(w[j][0], w[j][1])
		if pi != pj {
			return pi < pj
		}
		return w[i] < w[j]
	})
}

func hasPrefixFold(b []byte, word string) bool {
	if len(b) < len(word) {
		return false
	}
	for i := 0; i < len(word); i++ {
		if lower(b[i]) != word[i] {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of s in bits per character, as gitleaks
// computes it.
func entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, c := range s {
		counts[c]++
		n++
	}
	cs := make([]int, 0, len(counts))
	for _, c := range counts {
		cs = append(cs, c)
	}
	slices.Sort(cs) // a fixed order of summation: the same bits every time
	var e float64
	for _, c := range cs {
		p := float64(c) / float64(n)
		e -= p * math.Log2(p)
	}
	return e
}
