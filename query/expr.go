package query

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The expression language of where and join: a small, total language
// checked against the fields its stage sees before anything runs.
//
//	expr    = or
//	or      = and { "||" and }
//	and     = rel { "&&" rel }
//	rel     = sum [ ("==" | "!=" | "<" | "<=" | ">" | ">=" | "in") sum ]
//	sum     = unary { ("+" | "-") unary }
//	unary   = ("!" | "-") unary | postfix
//	postfix = primary { "." method "(" [ expr ] ")" }
//	primary = INT | STRING | "true" | "false" | "(" expr ")"
//	        | "[" [ expr { "," expr } ] "]" | FIELD | "size" "(" expr ")"
//
// FIELD is a field of the row (file, line, frames.test after a join).
// Methods on strings: startsWith, endsWith, contains, matches (RE2, a
// literal pattern), lower, upper, size. Every expression is typed (int,
// string, bool, list) when compiled; nothing can loop, recurse or fail at
// run time, so an evaluation always ends, within its cost estimate.

// typ is an expression's static type.
type typ uint8

const (
	tBool typ = iota + 1
	tInt
	tString
	tList // a list literal; its elements share one type, elem
)

func (t typ) String() string {
	return [...]string{"?", "bool", "int", "string", "list"}[t]
}

// node is a checked expression.
type node struct {
	op    string // lit, field, list, !, neg, ||, &&, ==, …, in, method names
	t     typ
	elem  typ // list: the elements' type
	val   any // lit: bool, int64 or string; field: its name
	args  []*node
	re    *regexp.Regexp // matches
	size  int            // bound on a string's or list's length
	cost  uint64         // bound on one evaluation of this node, children included
	pos   int            // byte offset in the expression, for errors
	right string         // field: the joined source it reads from, or ""
}

// exprError is a problem at a byte offset of the expression.
type exprError struct {
	off int
	msg string
}

func (e *exprError) Error() string { return e.msg }

func errAt(off int, format string, args ...any) *exprError {
	return &exprError{off, fmt.Sprintf(format, args...)}
}

// compileExpr parses and type-checks a where or join expression over the
// stage's fields (and, for a join, the joined source's fields, named
// SOURCE.FIELD) and returns it with its cost bound per evaluation.
func compileExpr(q string, st Stage, fields []string, right string) (*node, uint64, error) {
	scope := map[string]string{} // field → "" (left row) or the joined source
	for _, f := range fields {
		scope[f] = ""
	}
	if right != "" {
		for _, f := range Schemas[right] {
			scope[right+"."+f] = right
		}
	}
	p := &exprParser{src: st.Expr, scope: scope}
	n, err := p.parse()
	if err == nil && n.t != tBool {
		err = errAt(0, "%s wants a true/false expression, this one is %s", st.Op, n.t)
	}
	if err != nil {
		e := err.(*exprError)
		return nil, 0, &SyntaxError{Col: st.exprAt + e.off, Src: q, Msg: st.Op + " expression: " + e.msg}
	}
	return n, max(n.cost, 1), nil
}

// exprParser is a recursive-descent parser over one expression; the
// grammar's depth is bounded by maxDepth, so it cannot recurse without end.
type exprParser struct {
	src   string
	scope map[string]string
	toks  []token
	i     int
	depth int
}

const maxDepth = 64

func (p *exprParser) parse() (*node, error) {
	toks, err := lex(p.src)
	if err != nil {
		return nil, err
	}
	p.toks = toks
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tkEOF {
		return nil, errAt(t.off, "unexpected %s", t)
	}
	return n, nil
}

func (p *exprParser) peek() token { return p.toks[p.i] }
func (p *exprParser) next() token { t := p.toks[p.i]; p.i++; return t }

// accept consumes the next token when it is the operator op.
func (p *exprParser) accept(op string) bool {
	if t := p.peek(); t.kind == tkOp && t.text == op {
		p.i++
		return true
	}
	return false
}

func (p *exprParser) expect(op string) error {
	if !p.accept(op) {
		t := p.peek()
		return errAt(t.off, "want %q, found %s", op, t)
	}
	return nil
}

func (p *exprParser) or() (*node, error)  { return p.logic("||", p.and) }
func (p *exprParser) and() (*node, error) { return p.logic("&&", p.rel) }

// logic parses a left-associative chain of one boolean operator.
func (p *exprParser) logic(op string, sub func() (*node, error)) (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, errAt(p.peek().off, "expression nested deeper than %d", maxDepth)
	}
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		at := p.peek().off
		if !p.accept(op) {
			return l, nil
		}
		r, err := sub()
		if err != nil {
			return nil, err
		}
		if l.t != tBool || r.t != tBool {
			return nil, errAt(at, "%s wants true/false on both sides, found %s and %s", op, l.t, r.t)
		}
		l = &node{op: op, t: tBool, args: []*node{l, r}, cost: 1 + l.cost + r.cost, pos: at}
	}
}

var relOps = []string{"==", "!=", "<=", ">=", "<", ">", "in"}

func (p *exprParser) rel() (*node, error) {
	l, err := p.sum()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if (t.kind != tkOp && t.kind != tkIdent) || !slices.Contains(relOps, t.text) {
		return l, nil
	}
	p.i++
	r, err := p.sum()
	if err != nil {
		return nil, err
	}
	return relation(t, l, r)
}

// relation checks a comparison or membership and bounds its cost.
func relation(t token, l, r *node) (*node, error) {
	n := &node{op: t.text, t: tBool, args: []*node{l, r}, pos: t.off}
	switch {
	case t.text == "in":
		if r.t != tList {
			return nil, errAt(t.off, "in wants a list on its right, like [\"a\", \"b\"]; found %s", r.t)
		}
		if len(r.args) > 0 && r.elem != l.t {
			return nil, errAt(t.off, "in: %s on the left, a list of %s on the right", l.t, r.elem)
		}
		n.cost = 1 + l.cost + r.cost + uint64(len(r.args))*cmpCost(l, r.args...)
		return n, nil
	case l.t != r.t || l.t == tList:
		return nil, errAt(t.off, "%s compares %s with %s; both sides must be the same type", t.text, l.t, r.t)
	case l.t == tBool && t.text != "==" && t.text != "!=":
		return nil, errAt(t.off, "%s does not order true/false", t.text)
	}
	n.cost = 1 + l.cost + r.cost + cmpCost(l, r)
	return n, nil
}

// cmpCost bounds one comparison of l with r: strings cost by length.
func cmpCost(l *node, rs ...*node) uint64 {
	if l.t != tString {
		return 1
	}
	worst := 0
	for _, r := range rs {
		worst = max(worst, min(l.size, r.size))
	}
	return strCost(worst)
}

// strCost is the cost of a pass over n bytes: one unit per 10 bytes,
// the rate CEL's estimator charges for string work.
func strCost(n int) uint64 { return 1 + uint64(n+9)/10 }

func (p *exprParser) sum() (*node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tkOp || (t.text != "+" && t.text != "-") {
			return l, nil
		}
		p.i++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		if l.t != tInt || r.t != tInt {
			return nil, errAt(t.off, "%s wants numbers on both sides, found %s and %s", t.text, l.t, r.t)
		}
		l = &node{op: t.text, t: tInt, args: []*node{l, r}, cost: 1 + l.cost + r.cost, pos: t.off}
	}
}

func (p *exprParser) unary() (*node, error) {
	t := p.peek()
	if t.kind == tkOp && (t.text == "!" || t.text == "-") {
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return nil, errAt(t.off, "expression nested deeper than %d", maxDepth)
		}
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		want, op := tBool, "!"
		if t.text == "-" {
			want, op = tInt, "neg"
		}
		if x.t != want {
			return nil, errAt(t.off, "%s wants %s, found %s", t.text, want, x.t)
		}
		return &node{op: op, t: want, args: []*node{x}, cost: 1 + x.cost, pos: t.off}, nil
	}
	return p.postfix()
}

func (p *exprParser) postfix() (*node, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.accept(".") {
		m := p.next()
		if m.kind != tkIdent {
			return nil, errAt(m.off, "want a method name after '.', found %s", m)
		}
		if err := p.expect("("); err != nil {
			return nil, err
		}
		var arg *node
		if t := p.peek(); !(t.kind == tkOp && t.text == ")") {
			if arg, err = p.or(); err != nil {
				return nil, err
			}
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		if x, err = method(m, x, arg); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func (p *exprParser) primary() (*node, error) {
	t := p.next()
	switch t.kind {
	case tkInt:
		return &node{op: "lit", t: tInt, val: t.num, cost: 0, pos: t.off}, nil
	case tkString:
		return &node{op: "lit", t: tString, val: t.text, size: len(t.text), pos: t.off}, nil
	case tkIdent:
		return p.ident(t)
	case tkOp:
		switch t.text {
		case "(":
			x, err := p.or()
			if err != nil {
				return nil, err
			}
			return x, p.expect(")")
		case "[":
			return p.list(t)
		}
	}
	if t.kind == tkEOF {
		return nil, errAt(t.off, "the expression ends where a value was expected")
	}
	return nil, errAt(t.off, "unexpected %s", t)
}

// ident is true, false, size(x) or a field, dotted names included
// (frames.test), as long as no "(" follows (a method call).
func (p *exprParser) ident(t token) (*node, error) {
	switch t.text {
	case "true", "false":
		return &node{op: "lit", t: tBool, val: t.text == "true", pos: t.off}, nil
	case "size":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		return method(t, x, nil)
	}
	name := t.text
	for p.i+2 < len(p.toks) && p.toks[p.i].text == "." && p.toks[p.i+1].kind == tkIdent &&
		!(p.toks[p.i+2].kind == tkOp && p.toks[p.i+2].text == "(") {
		name += "." + p.toks[p.i+1].text
		p.i += 2
	}
	right, ok := p.scope[name]
	if !ok {
		return nil, errAt(t.off, "undeclared reference to %q (fields here: %s)", name, p.fieldList())
	}
	n := &node{op: "field", val: name, right: right, t: tString, size: maxFieldSize, cost: 1, pos: t.off}
	if fieldType(name) == tInt {
		n.t, n.size = tInt, 0
	}
	return n, nil
}

func (p *exprParser) fieldList() string {
	var fs []string
	for f := range p.scope {
		fs = append(fs, f)
	}
	slices.Sort(fs)
	return strings.Join(fs, ", ")
}

func (p *exprParser) list(open token) (*node, error) {
	n := &node{op: "list", t: tList, cost: 1, pos: open.off}
	if p.accept("]") {
		return n, nil
	}
	for {
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if len(n.args) > 0 && x.t != n.elem {
			return nil, errAt(x.pos, "a list holds one type: %s after %s", x.t, n.elem)
		}
		n.elem, n.size = x.t, max(n.size, x.size)
		n.args = append(n.args, x)
		n.cost += x.cost
		if !p.accept(",") {
			return n, p.expect("]")
		}
	}
}

// maxFieldSize bounds a string field's length for the cost estimate.
const maxFieldSize = 4096

// method checks x.NAME(arg) (or size(x)) and bounds its cost.
func method(m token, x, arg *node) (*node, error) {
	n := &node{op: m.text, args: []*node{x}, pos: m.off}
	switch m.text {
	case "startsWith", "endsWith", "contains", "matches":
		if x.t != tString || arg == nil || arg.t != tString {
			return nil, errAt(m.off, "%s wants a string before it and a string argument", m.text)
		}
		n.t, n.args = tBool, append(n.args, arg)
		n.cost = 1 + x.cost + arg.cost + strCost(x.size+arg.size)
		if m.text == "matches" {
			pat, ok := arg.val.(string)
			if arg.op != "lit" || !ok {
				return nil, errAt(arg.pos, "matches wants a literal pattern, so its cost is known before running")
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				return nil, errAt(arg.pos, "matches: %v", err)
			}
			// RE2 runs in time linear in the input for a given program;
			// charge the input's length times the pattern's.
			n.re, n.cost = re, 1+x.cost+strCost(x.size*max(len(pat), 1))
		}
	case "lower", "upper":
		if x.t != tString || arg != nil {
			return nil, errAt(m.off, "%s takes no argument and wants a string before it", m.text)
		}
		n.t, n.size, n.cost = tString, x.size, 1+x.cost+strCost(x.size)
	case "size":
		if (x.t != tString && x.t != tList) || arg != nil {
			return nil, errAt(m.off, "size wants a string or a list")
		}
		n.t, n.cost = tInt, 1+x.cost
	default:
		return nil, errAt(m.off, "unknown function %q (functions: startsWith, endsWith, contains, matches, lower, upper, size)", m.text)
	}
	return n, nil
}

// fieldType is the type of a field: counts, lines and exit codes are
// ints, the rest strings. A joined field (frames.line) has its own
// field's type.
func fieldType(f string) typ {
	if i := strings.LastIndexByte(f, '.'); i >= 0 {
		f = f[i+1:]
	}
	switch f {
	case "n", "exit", "line", "start", "end", "changed", "count", "first_line", "symbol_start", "symbol_end",
		"generation_lag_ms", "lag_ms":
		return tInt
	}
	return tString
}
