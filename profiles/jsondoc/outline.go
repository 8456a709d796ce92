package jsondoc

import (
	"strconv"
	"strings"
)

// The outline of one document: every object key and array level down to a
// bounded depth, with the types seen there, how often, container lengths and
// the lines of the first occurrence. The elements of an array are merged into
// one child named "*", so an array of a million objects outlines as one node
// per distinct key.

// star names the merged elements of an array in an outline path.
var star = []byte{'*'}

// Outline bounds.
const (
	outlineDepth = 3   // nodes below the root: /a/b/c
	outlineNodes = 200 // nodes in all
	outlineKids  = 50  // children of one node
)

type onode struct {
	name   string // display path: "/items/*/id"; the root is ""
	ptr    string // RFC 6901 pointer of the first occurrence: "/items/0/id"
	depth  int
	types  uint8 // bit 1<<vtype for every type seen
	count  int   // values seen at this path
	minLen int   // container lengths seen (-1 before the first)
	maxLen int
	from   int // lines of the first occurrence
	to     int
	kids   []*onode
	index  map[string]*onode
}

type outline struct {
	root    *onode
	nodes   int
	dropped int // children not added because a cap was reached
	path    []seg
}

// seg is one step of the current concrete path while scanning.
type seg struct {
	key   []byte
	idx   int
	isIdx bool
}

func newOutline() *outline {
	o := &outline{path: make([]seg, outlineDepth+1)}
	o.root = &onode{minLen: -1, maxLen: -1}
	o.nodes = 1
	return o
}

// reset forgets everything below the root and the root's counts.
func (o *outline) reset() {
	*o.root = onode{minLen: -1, maxLen: -1}
	o.nodes, o.dropped = 1, 0
}

// open reports whether the children of n are outlined.
func (o *outline) open(n *onode) bool { return n.depth < outlineDepth }

func (o *outline) setKey(depth int, key []byte) {
	o.path[depth].key = append(o.path[depth].key[:0], key...)
	o.path[depth].isIdx = false
}

func (o *outline) setIndex(depth, i int) {
	o.path[depth].idx = i
	o.path[depth].isIdx = true
}

// child returns the child of n named key, adding it when the caps allow.
func (o *outline) child(n *onode, key []byte) *onode {
	if c := n.index[string(key)]; c != nil {
		return c
	}
	if o.nodes >= outlineNodes || len(n.kids) >= outlineKids {
		o.dropped++
		return nil
	}
	var name string
	if len(key) == 1 && key[0] == '*' && o.path[n.depth].isIdx {
		name = n.name + "/*"
	} else {
		name = n.name + "/" + escapeToken(string(key))
	}
	c := &onode{name: name, ptr: o.pointer(n.depth + 1), depth: n.depth + 1, minLen: -1, maxLen: -1}
	if n.index == nil {
		n.index = make(map[string]*onode)
	}
	n.index[string(key)] = c
	n.kids = append(n.kids, c)
	o.nodes++
	return c
}

// pointer renders the first depth steps of the current path.
func (o *outline) pointer(depth int) string {
	var b strings.Builder
	for _, sg := range o.path[:depth] {
		b.WriteByte('/')
		if sg.isIdx {
			b.WriteString(strconv.Itoa(sg.idx))
		} else {
			b.WriteString(escapeToken(string(sg.key)))
		}
	}
	return b.String()
}

// seen records one value at n.
func (o *outline) seen(n *onode, t vtype, size, from, to int) {
	if n.count == 0 {
		n.from, n.to = from, to
	}
	n.count++
	n.types |= 1 << t
	if t == tObject || t == tArray {
		if n.minLen < 0 || size < n.minLen {
			n.minLen = size
		}
		if size > n.maxLen {
			n.maxLen = size
		}
	}
}

// walk visits the nodes depth first in the order they were found.
func (n *onode) walk(fn func(*onode)) {
	fn(n)
	for _, k := range n.kids {
		k.walk(fn)
	}
}

// typeText names the types seen at a node: "object", "string|null".
func (n *onode) typeText() string {
	var parts []string
	for t := tNull; t <= tObject; t++ {
		if n.types&(1<<t) != 0 {
			parts = append(parts, t.String())
		}
	}
	return strings.Join(parts, "|")
}

// lenText is the container length: "12", or "0..7" when it varied.
func (n *onode) lenText() string {
	if n.maxLen < 0 {
		return ""
	}
	if n.minLen == n.maxLen {
		return strconv.Itoa(n.maxLen)
	}
	return strconv.Itoa(n.minLen) + ".." + strconv.Itoa(n.maxLen)
}

// escapeToken escapes a key as an RFC 6901 reference token.
func escapeToken(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
