package secrets

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// Version names the rule set, in the profile/N form of the digest header:
// secrets/1 is gitleaks v8.30.1's default rules with ctx's stream rules,
// revision 1. Any change to either bumps it. It is part of every digest
// header and receipt, so a digest can be replayed byte for byte.
const Version = "secrets/1"

// Upstream is the gitleaks release the embedded rules come from.
const Upstream = "gitleaks v8.30.1"

// GitleaksRules is gitleaks' default rule set (config/gitleaks.toml of
// v8.30.1), embedded rather than imported: importing its config package costs
// about 10 ms of package initialisation (viper, go-version) on every ctx
// start, and ctx needs only the rules. TestEmbeddedRulesAreUpstream holds the
// copy to the module's bytes. Refresh with `go generate ./secrets`.
//
//go:generate sh -c "cp $(go list -m -f '{{.Dir}}' github.com/zricethezav/gitleaks/v8)/config/gitleaks.toml gitleaks.toml && chmod 644 gitleaks.toml"
//go:embed gitleaks.toml
var GitleaksRules []byte

// rule is one detection rule: gitleaks' or ctx's own.
type rule struct {
	id       string
	pattern  string
	keywords []string // lower case; the rule runs only on a line holding one
	entropy  float64  // the secret's Shannon entropy must exceed it (0: no check)
	group    int      // capture group holding the secret (0: the first non-empty one)
	allow    []allowlist
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
	regexes   []*regexp.Regexp
	stopwords []string
}

func (a *allowlist) allows(secret, match, line string) bool {
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
	global []allowlist
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

type tomlAllowlist struct {
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	Stopwords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Condition   string   `toml:"condition"`
}

type tomlConfig struct {
	Allowlist tomlAllowlist `toml:"allowlist"`
	Rules     []struct {
		ID          string          `toml:"id"`
		Regex       string          `toml:"regex"`
		Path        string          `toml:"path"`
		Entropy     float64         `toml:"entropy"`
		SecretGroup int             `toml:"secretGroup"`
		Keywords    []string        `toml:"keywords"`
		Allowlists  []tomlAllowlist `toml:"allowlists"`
	} `toml:"rules"`
}

// skipped are gitleaks rules that do not apply to a command's output.
var skipped = map[string]string{
	// Needs the file name (a Kubernetes manifest) and a multi-line
	// fragment; secret-assignment covers the keys of data: blocks.
	"kubernetes-secret-yaml": "file rule",
}

func load() (*ruleSet, error) {
	var cfg tomlConfig
	if err := toml.Unmarshal(GitleaksRules, &cfg); err != nil {
		return nil, fmt.Errorf("secrets: gitleaks rules: %v", err)
	}
	s := &ruleSet{byPair: map[uint16][]keyword{}}
	g, err := compileAllow(cfg.Allowlist)
	if err != nil {
		return nil, err
	}
	if g != nil {
		s.global = append(s.global, *g)
	}
	for _, tr := range cfg.Rules {
		if tr.Regex == "" || skipped[tr.ID] != "" {
			continue // a rule about file names only
		}
		r := &rule{id: tr.ID, pattern: tr.Regex, entropy: tr.Entropy, group: tr.SecretGroup}
		if strings.Contains(tr.Regex, assignShape) {
			r.assign = 20
		}
		for _, k := range tr.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		for _, a := range tr.Allowlists {
			al, err := compileAllow(a)
			if err != nil {
				return nil, fmt.Errorf("secrets: rule %s: %v", tr.ID, err)
			}
			if al != nil {
				r.allow = append(r.allow, *al)
			}
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

// compileAllow compiles an allowlist; one that can only match file paths or
// commits (which an output stream has none of) is dropped.
func compileAllow(t tomlAllowlist) (*allowlist, error) {
	if len(t.Regexes) == 0 && len(t.Stopwords) == 0 {
		return nil, nil
	}
	if strings.EqualFold(t.Condition, "AND") && len(t.Paths) > 0 {
		return nil, nil // needs a path to match as well
	}
	a := &allowlist{target: t.RegexTarget}
	for _, p := range t.Regexes {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		a.regexes = append(a.regexes, re)
	}
	for _, w := range t.Stopwords {
		a.stopwords = append(a.stopwords, strings.ToLower(w))
	}
	return a, nil
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
