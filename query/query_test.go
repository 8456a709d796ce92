package query

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// memFacts is an in-memory Facts that counts what it was asked.
type memFacts struct {
	rows    map[string][]Row
	symbols map[string][]Symbol // file → declarations
	changed map[string][2]int   // file → one changed range
	reads   int
}

func (m *memFacts) Rows(_ context.Context, src string, limit int) ([]Row, []string, error) {
	m.reads++
	var out []Row
	for _, r := range m.rows[src] {
		c := Row{}
		for k, v := range r {
			c[k] = v
		}
		out = append(out, c)
	}
	return out, []string{"mem:" + src}, nil
}

func (m *memFacts) Locate(_ context.Context, file string, line int, _ string) (Symbol, bool, error) {
	for _, s := range m.symbols[file] {
		if s.Start <= line && line <= s.End {
			return s, true, nil
		}
	}
	return Symbol{}, false, nil
}

func (m *memFacts) RunOrdinal(_ context.Context, handle string) (int, error) {
	if handle == "run:bbbbbb" {
		return 2, nil
	}
	return 0, errors.New("unknown run")
}

func (m *memFacts) Changed(_ context.Context, file string, from, to int, _ string) (bool, error) {
	r, ok := m.changed[file]
	return ok && r[0] <= to && from <= r[1], nil
}

func facts() *memFacts {
	return &memFacts{
		rows: map[string][]Row{
			"frames": {
				{"n": int64(1), "run": "run:aaaa", "test": "TestAdd", "file": "calc.go", "line": int64(4), "span": "run:aaaa#stdout:L3"},
				{"n": int64(1), "run": "run:aaaa", "test": "TestSub", "file": "calc.go", "line": int64(8), "span": "run:aaaa#stdout:L9"},
				{"n": int64(1), "run": "run:aaaa", "test": "TestAdd", "file": "calc_test.go", "line": int64(5), "span": "run:aaaa#stdout:L4"},
			},
			"failures": {
				{"n": int64(1), "run": "run:aaaa", "name": "TestAdd", "outcome": "fail"},
				{"n": int64(2), "run": "run:bbbb", "name": "TestAdd", "outcome": "fail"},
				{"n": int64(2), "run": "run:bbbb", "name": "TestSub", "outcome": "fail"},
				{"n": int64(5), "run": "run:cccc", "name": "TestSub", "outcome": "fail"},
			},
		},
		symbols: map[string][]Symbol{"calc.go": {{Name: "Add", Kind: "function", Start: 3, End: 5, Handle: "repo:calc.go:L3-5@00000000"},
			{Name: "Sub", Kind: "function", Start: 7, End: 9}}},
		changed: map[string][2]int{"calc.go": {4, 4}},
	}
}

func run(t *testing.T, q string, f Facts) *Result {
	t.Helper()
	p, err := Compile(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	res, err := p.Run(context.Background(), f)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}

func rowsText(res *Result) string {
	var b strings.Builder
	for _, r := range res.Rows {
		for i, f := range res.Fields {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprint(&b, get(r, f))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestFramesInChangedSymbols(t *testing.T) {
	res := run(t, "from frames | locate | in-changed | select test, symbol, symbol_handle", facts())
	if got, want := rowsText(res), "TestAdd Add repo:calc.go:L3-5@00000000\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(res.Stages) != 4 || res.Stages[0].From[0] != "mem:frames" || res.Stages[0].Out != 3 || res.Stages[2].Out != 1 {
		t.Errorf("provenance: %+v", res.Stages)
	}
}

func TestGroupSortLimitWhere(t *testing.T) {
	res := run(t, `from failures | where n <= 3 && outcome == "fail" | group by name count | sort -count, name | limit 5`, facts())
	if got, want := rowsText(res), "TestAdd 2\nTestSub 1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	res = run(t, `from failures | since run:bbbbbb | select name`, facts())
	if got := rowsText(res); got != "TestAdd\n" {
		t.Errorf("since: %q", got)
	}
	res = run(t, `failures | distinct name | select name`, facts())
	if got := rowsText(res); got != "TestAdd\nTestSub\n" {
		t.Errorf("distinct: %q", got)
	}
	res = run(t, `from failures | where n == 1 | limit 10 | join frames on frames.test == name && frames.file == "calc.go" | select name, frames.line`, facts())
	if got := rowsText(res); got != "TestAdd 4\n" {
		t.Errorf("join: %q", got)
	}
	// except: the failures of runs 2 and older that no newer run repeated.
	res = run(t, `from failures | where n >= 2 | limit 100 | except failures on failures.name == name && failures.n < n | select name, n`, facts())
	if got := rowsText(res); got != "TestSub 2\n" {
		t.Errorf("except: %q", got)
	}
}

func TestSyntaxErrorsHavePositions(t *testing.T) {
	cases := []struct {
		q, msg string
		col    int
	}{
		{"from nowhere", "unknown source", 6},
		{"from runs | wher exit != 0", "unknown stage", 13},
		{"from runs | where exit !=", "where expression", 26},
		{"from runs | where nosuch == 1", "undeclared reference", 19},
		{"from runs | select run, bogus", "no field \"bogus\"", 13},
		{"from runs | limit 0", "limit wants", 19},
		{"from runs || where x", "", 0},
		{"from runs | where 'open", "unterminated string", 23},
		{"from runs | where exit + 1", "true/false", 19},
		{"from frames | locate | in-changed since gen:0123", "in-changed since run:ID", 41},
		{"from frames | locate | in-changed HEAD", "in-changed since run:ID", 35},
		{"from runs | since gen:12ab", "16 hex digits", 19},
		{"from runs | since HEAD", "since run:ID or since gen:ID", 19},
		{"  ", "empty query: start with from SOURCE", 1},
		{"from runs | | limit 1", "empty stage: remove the extra |", 13},
		// A second column of one name, and a group count that would be
		// added onto a count field it groups by (it summed them).
		{"from runs | select n, n", `field "n" given twice`, 20},
		{"from runs | sort -n, n", `field "n" given twice`, 18},
		{"from runs | group by exit, exit count", `group by: field "exit" given twice`, 19},
		{"from templates | group by count count", "the count column group adds would overwrite the field count", 18},
	}
	for _, c := range cases {
		_, err := Compile(c.q)
		var se *SyntaxError
		if c.msg == "" {
			if err == nil {
				t.Errorf("%q compiled", c.q)
			}
			continue
		}
		if !errors.As(err, &se) || !strings.Contains(se.Msg, c.msg) || se.Col != c.col {
			t.Errorf("%q: %v (col %d), want %q at column %d", c.q, err, colOf(se), c.msg, c.col)
		}
	}
	_, err := Compile(strings.Repeat("from runs | ", 0) + "from runs" + strings.Repeat(" | limit 1", MaxStages))
	if err == nil || !strings.Contains(err.Error(), "over the cap") {
		t.Errorf("stage cap: %v", err)
	}
}

func colOf(se *SyntaxError) int {
	if se == nil {
		return -1
	}
	return se.Col
}

func TestOverBudgetRefusedBeforeReading(t *testing.T) {
	f := facts()
	q := `from symbols | join symbols2 on true`
	if _, err := Compile(q); err == nil {
		t.Fatal("unknown source compiled")
	}
	q = `from files | join symbols on symbols.path == path && symbols.name.contains(path) | join changes on changes.path == path`
	p, err := Compile(q)
	var ob *OverBudgetError
	if !errors.As(err, &ob) || p != nil || ob.Cost <= MaxCost || !strings.Contains(err.Error(), "join") {
		t.Fatalf("over-budget query: plan %v, err %v", p, err)
	}
	if f.reads != 0 {
		t.Errorf("the refused query read %d sources", f.reads)
	}
	// The same question, filtered before the join, fits.
	if _, err := Compile(`from changes | limit 50 | join symbols on symbols.path == path | in-changed | limit 20`); err != nil {
		t.Errorf("bounded join refused: %v", err)
	}
}

func TestExplain(t *testing.T) {
	p, err := Compile(`from frames | where file.endsWith(".py") | locate | in-changed | limit 20`)
	if err != nil {
		t.Fatal(err)
	}
	ex := p.Explain()
	for _, want := range []string{"1. from frames", "rows ≤ 2000", "cost ≤ ", "5. limit 20", "rows ≤ 20", fmt.Sprintf("cost bound: %d", p.Cost)} {
		if !strings.Contains(ex, want) {
			t.Errorf("explain lacks %q:\n%s", want, ex)
		}
	}
	if p.Cost == 0 || p.Stages[1].ExprCost == 0 {
		t.Errorf("zero cost estimates: %+v", p)
	}
}
