package bench

import "strings"

// Drain is the classic Drain log parser (He, Zhu, Zheng and Lyu, "Drain: An
// Online Log Parsing Approach with Fixed Depth Tree", ICWS 2017), the
// baseline `ctx bench loghub --miner drain` scores beside ctx's miner. It
// follows the paper and the reference implementation in logpai's logparser:
//
//   - preprocessing is generic only: a token that contains a digit (numbers,
//     IPs, ids, times) or is a run of at least eight hex digits is masked to
//     "<*>"; there are no per-dataset regular expressions, and the raw line
//     is parsed whole (no per-dataset log format cuts the header off);
//   - a line's tokens are its fields split at white space;
//   - a fixed-depth tree: the root's children are keyed by token count,
//     theirs by the first DrainDepth-2 tokens (a token with a digit goes
//     to the "<*>" child, and once a node has DrainMaxChildren children
//     every new token does too), and the leaves hold log groups;
//   - in a leaf, the group whose template has the most tokens equal to the
//     line's at the same positions (a "<*>" in the template counts as
//     neither, and breaks ties: more "<*>" wins) is chosen when that share
//     reaches DrainSimilarity; the line then joins it and every position
//     where they differ becomes "<*>"; otherwise the line starts a group.
//
// Two details differ from logparser's Drain.py, where that code does not do
// what the paper says: a line shorter than the tree's token layers has its
// leaf after its last token (Drain.py never files such a group in the tree,
// so each one-token line started a group of its own), and an empty line has
// the leaf of length zero.
type Drain struct {
	Depth      int
	Similarity float64
	MaxChild   int
	root       map[int]*drainNode
	groups     []*drainGroup
}

// The paper's parameters, used by the loghub benchmark for every system.
const (
	DrainDepth       = 4
	DrainSimilarity  = 0.5
	DrainMaxChildren = 100
)

type drainNode struct {
	children map[string]*drainNode
	groups   []*drainGroup // in a leaf
}

type drainGroup struct {
	id       int
	template []string
}

const drainWild = "<*>"

// NewDrain returns a Drain parser with the paper's parameters.
func NewDrain() *Drain {
	return &Drain{Depth: DrainDepth, Similarity: DrainSimilarity, MaxChild: DrainMaxChildren, root: map[int]*drainNode{}}
}

// Add parses one line and returns the id of its group.
func (d *Drain) Add(line string) int {
	toks := drainTokens(line)
	if leaf := d.search(toks); leaf != nil {
		if g := d.match(leaf.groups, toks); g != nil {
			for i, t := range toks {
				if g.template[i] != t {
					g.template[i] = drainWild
				}
			}
			return g.id
		}
	}
	g := &drainGroup{id: len(d.groups), template: toks}
	d.groups = append(d.groups, g)
	leaf := d.grow(toks)
	leaf.groups = append(leaf.groups, g)
	return g.id
}

// Template returns group id's template as it stands.
func (d *Drain) Template(id int) string {
	return strings.Join(d.groups[id].template, " ")
}

// search returns the leaf toks' group is looked for in, nil when the tree
// has none: a token without a node of its own goes to the wildcard child.
func (d *Drain) search(toks []string) *drainNode {
	n := d.root[len(toks)]
	for depth := 0; n != nil && depth < d.Depth-2 && depth < len(toks); depth++ {
		c := n.children[toks[depth]]
		if c == nil {
			c = n.children[drainWild]
		}
		n = c
	}
	return n
}

// grow returns the leaf a new group of toks is filed in, adding the nodes
// on the way as Drain does: a token with a digit goes to the wildcard
// child; a word gets a node of its own while the node has room (when it has
// no wildcard child yet, the last place is kept for one), else the wildcard
// child.
func (d *Drain) grow(toks []string) *drainNode {
	n := d.root[len(toks)]
	if n == nil {
		n = &drainNode{children: map[string]*drainNode{}}
		d.root[len(toks)] = n
	}
	for depth := 0; depth < d.Depth-2 && depth < len(toks); depth++ {
		tok := toks[depth]
		if c := n.children[tok]; c != nil {
			n = c
			continue
		}
		_, hasWild := n.children[drainWild]
		key := drainWild
		switch {
		case hasDigit(tok):
		case hasWild && len(n.children) < d.MaxChild:
			key = tok
		case !hasWild && len(n.children)+1 < d.MaxChild:
			key = tok
		}
		c := n.children[key]
		if c == nil {
			c = &drainNode{children: map[string]*drainNode{}}
			n.children[key] = c
		}
		n = c
	}
	return n
}

// match returns the group of groups most similar to toks, nil when none
// reaches the similarity threshold.
func (d *Drain) match(groups []*drainGroup, toks []string) *drainGroup {
	var best *drainGroup
	bestSim, bestPar := -1.0, -1
	for _, g := range groups {
		same, par := 0, 0
		for i, t := range g.template {
			switch {
			case t == drainWild:
				par++
			case t == toks[i]:
				same++
			}
		}
		sim := 1.0 // an empty template equals an empty line
		if len(toks) > 0 {
			sim = float64(same) / float64(len(toks))
		}
		if sim > bestSim || (sim == bestSim && par > bestPar) {
			best, bestSim, bestPar = g, sim, par
		}
	}
	if best != nil && bestSim >= d.Similarity {
		return best
	}
	return nil
}

// drainTokens splits line at white space and masks each token with a digit
// or of eight or more hex digits.
func drainTokens(line string) []string {
	toks := strings.Fields(line)
	for i, t := range toks {
		if hasDigit(t) || isLongHex(t) {
			toks[i] = drainWild
		}
	}
	return toks
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

func isLongHex(s string) bool {
	if len(s) < 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// DrainLabels parses lines with a fresh Drain and labels each line with its
// group's final template, as loghub's evaluation does (groups whose final
// templates are equal share a label).
func DrainLabels(lines [][]byte) []string {
	d := NewDrain()
	ids := make([]int, len(lines))
	for i, l := range lines {
		ids[i] = d.Add(string(l))
	}
	pred := make([]string, len(lines))
	for i, id := range ids {
		pred[i] = d.Template(id)
	}
	return pred
}
