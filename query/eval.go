package query

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// env is what an expression reads: the row and, inside a join, the
// joined source's row under its name.
type env struct {
	left  Row
	name  string // the joined source, or ""
	right Row
}

// eval evaluates a checked expression. It cannot fail: types were checked
// when it was compiled, and a field missing from a row reads as its type's
// zero value.
func (n *node) eval(e env) any {
	switch n.op {
	case "lit":
		return n.val
	case "field":
		return n.field(e)
	case "list":
		out := make([]any, len(n.args))
		for i, a := range n.args {
			out[i] = a.eval(e)
		}
		return out
	case "!":
		return !n.args[0].eval(e).(bool)
	case "neg":
		return -n.args[0].eval(e).(int64)
	case "&&":
		return n.args[0].eval(e).(bool) && n.args[1].eval(e).(bool)
	case "||":
		return n.args[0].eval(e).(bool) || n.args[1].eval(e).(bool)
	case "+":
		return n.args[0].eval(e).(int64) + n.args[1].eval(e).(int64)
	case "-":
		return n.args[0].eval(e).(int64) - n.args[1].eval(e).(int64)
	case "in":
		return slices.Contains(n.args[1].eval(e).([]any), n.args[0].eval(e))
	case "==", "!=", "<", "<=", ">", ">=":
		return order(n.op, n.args[0].eval(e), n.args[1].eval(e))
	}
	return n.call(e)
}

// call evaluates a string function.
func (n *node) call(e env) any {
	x := n.args[0].eval(e)
	if n.op == "size" {
		if l, ok := x.([]any); ok {
			return int64(len(l))
		}
		return int64(len(x.(string)))
	}
	s := x.(string)
	switch n.op {
	case "lower":
		return strings.ToLower(s)
	case "upper":
		return strings.ToUpper(s)
	case "matches":
		return n.re.MatchString(s)
	}
	arg := n.args[1].eval(e).(string)
	switch n.op {
	case "startsWith":
		return strings.HasPrefix(s, arg)
	case "endsWith":
		return strings.HasSuffix(s, arg)
	case "contains":
		return strings.Contains(s, arg)
	}
	panic("query: unchecked function " + n.op)
}

// field reads a field as its static type: a value of another type from a
// fact plane is converted, a missing one is the zero value.
func (n *node) field(e env) any {
	name := n.val.(string)
	var v any
	if n.right != "" {
		v = e.right[name[len(n.right)+1:]]
	} else {
		v = get(e.left, name)
	}
	switch n.t {
	case tInt:
		switch x := v.(type) {
		case int64:
			return x
		case int:
			return int64(x)
		case string:
			i, _ := strconv.ParseInt(x, 10, 64)
			return i
		}
		return int64(0)
	default:
		switch x := v.(type) {
		case string:
			return x
		case nil:
			return ""
		}
		return fmt.Sprint(v)
	}
}

// order compares two values of one type (checked at compile time).
func order(op string, a, b any) bool {
	c := 0
	switch x := a.(type) {
	case int64:
		c = cmpInt(x, b.(int64))
	case string:
		c = strings.Compare(x, b.(string))
	case bool:
		if x != b.(bool) {
			c = 1
		}
	}
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
