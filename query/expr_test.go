package query

import (
	"errors"
	"strings"
	"testing"
)

var exprFields = []string{"n", "run", "name", "file", "line", "outcome"}

func compileWhere(t testing.TB, expr string) (*node, uint64, error) {
	t.Helper()
	q := "from tests | where " + expr
	st := Stage{Op: "where", Expr: expr, exprAt: len("from tests | where ") + 1}
	return compileExpr(q, st, exprFields, "")
}

func TestExprEval(t *testing.T) {
	row := Row{"n": int64(2), "run": "run:abc", "name": "TestDiv/zero", "file": "calc/div.go", "line": int64(14), "outcome": "fail"}
	cases := []struct {
		expr string
		want bool
	}{
		{`outcome == "fail"`, true},
		{`outcome != "fail"`, false},
		{`line > 10 && line <= 14`, true},
		{`line < 14 || n >= 3`, false},
		{`!(line == 14)`, false},
		{`line - 4 == 10 && -line + 14 == 0`, true},
		{`outcome in ["fail", "error"]`, true},
		{`n in [1, 3]`, false},
		{`name in []`, false},
		{`file.startsWith("calc/") && file.endsWith(".go")`, true},
		{`name.contains("/zero")`, true},
		{`name.matches("^Test[A-Z][a-z]+/")`, true},
		{`file.matches("_test\\.go$")`, false},
		{`name.lower() == "testdiv/zero" && name.upper().startsWith("TEST")`, true},
		{`size(name) == 12 && name.size() == 12 && size(["a", "b"]) == 2`, true},
		{`'a\'b' == "a'b" && "tab\there" != 'tab there'`, true},
		{`run < "run:b" && "a" < "b"`, true},
		{`true == !false`, true},
	}
	for _, c := range cases {
		n, _, err := compileWhere(t, c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got := n.eval(env{left: row}).(bool); got != c.want {
			t.Errorf("%s = %v, want %v", c.expr, got, c.want)
		}
	}
}

func TestExprJoinReadsTheRightRow(t *testing.T) {
	st := Stage{Op: "join", Expr: `frames.test == name && frames.line > line`, exprAt: 1}
	n, _, err := compileExpr(st.Expr, st, exprFields, "frames")
	if err != nil {
		t.Fatal(err)
	}
	l := Row{"name": "TestA", "line": int64(3)}
	for _, c := range []struct {
		r    Row
		want bool
	}{
		{Row{"test": "TestA", "line": int64(4)}, true},
		{Row{"test": "TestA", "line": int64(3)}, false},
		{Row{"test": "TestB", "line": int64(9)}, false},
	} {
		if got := n.eval(env{left: l, name: "frames", right: c.r}).(bool); got != c.want {
			t.Errorf("right row %v: %v, want %v", c.r, got, c.want)
		}
	}
}

func TestExprErrorsHavePositions(t *testing.T) {
	base := len("from tests | where ") + 1
	cases := []struct {
		expr, msg string
		off       int // byte offset in expr of the problem
	}{
		{`line == "14"`, "compares int with string", 5},
		{`outcome = "fail"`, "unexpected character '=': compare with ==", 8},
		{`name ~ "x"`, "unexpected character '~': match a pattern with name.matches", 5},
		{`name.startsWith(1)`, "startsWith wants a string", 5},
		{`name.frobnicate()`, "unknown function \"frobnicate\"", 5},
		{`name.matches(file)`, "literal pattern", 13},
		{`name.matches("(")`, "matches: error parsing regexp", 13},
		{`line in ["a"]`, "in: int on the left", 5},
		{`line in name`, "in wants a list", 5},
		{`(line > 1`, "want \")\"", 9},
		{`line > 1 line`, "unexpected \"line\"", 9},
		{`true < false`, "does not order", 5},
		{`name + "x" == "y"`, "+ wants numbers", 5},
		{`!line`, "! wants bool", 0},
		{`[1, "a"] == [1]`, "a list holds one type", 4},
		{`line && true`, "&& wants true/false", 5},
		{`99999999999999999999 > 1`, "out of range", 0},
		{`name == "a\q"`, "unknown escape", 10},
		{`line`, "true/false expression", 0},
		{`frames.test == ""`, "undeclared reference to \"frames.test\"", 0},
	}
	for _, c := range cases {
		_, _, err := compileWhere(t, c.expr)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, c.msg) || se.Col != base+c.off {
			t.Errorf("%s: %v (column %d), want %q at column %d", c.expr, err, colOf(se), c.msg, base+c.off)
		}
	}
	deep := strings.Repeat("(", 200) + "true" + strings.Repeat(")", 200)
	if _, _, err := compileWhere(t, deep); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep nesting: %v", err)
	}
}

func TestExprCostGrowsWithWork(t *testing.T) {
	cost := func(e string) uint64 {
		_, c, err := compileWhere(t, e)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		return c
	}
	small, str := cost(`line == 1`), cost(`name == "x"`)
	contains, matches := cost(`name.contains("x")`), cost(`name.matches("a.*b.*c")`)
	in3, in1 := cost(`outcome in ["a", "b", "c"]`), cost(`outcome in ["a"]`)
	both := cost(`line == 1 && name.contains("x")`)
	if !(small < str && str < contains && contains < matches) {
		t.Errorf("costs do not grow with string work: int %d, eq %d, contains %d, matches %d", small, str, contains, matches)
	}
	if in3 <= in1 || both != 1+small+contains {
		t.Errorf("in over 3 costs %d, over 1 %d; a && b costs %d, want %d", in3, in1, both, 1+small+contains)
	}
}

// FuzzExpr checks totality: whatever the text, compiling never panics,
// and an expression that compiles evaluates to a bool on any row.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{`line > 1 && name.contains("a")`, `outcome in ["fail"]`, `!(n == 1) || file.matches("x+")`, `size(name) - 1 > -line`, `"a" < 'b'`} {
		f.Add(s, "fail", int64(3))
	}
	f.Fuzz(func(t *testing.T, expr, s string, i int64) {
		n, c, err := compileWhere(t, expr)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %v is not a SyntaxError", expr, err)
			}
			return
		}
		if c == 0 {
			t.Fatalf("%q: zero cost", expr)
		}
		rows := []Row{{}, {"n": i, "name": s, "file": s, "line": s, "outcome": i}}
		for _, r := range rows {
			if _, ok := n.eval(env{left: r}).(bool); !ok {
				t.Fatalf("%q on %v: not a bool", expr, r)
			}
		}
	})
}
