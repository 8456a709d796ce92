package query_test

import (
	"context"
	"fmt"

	"github.com/ctxhq/ctx/query"
)

// facts is a tiny in-memory fact plane: two failing frames in calc.go, one
// inside Div, which changed.
type facts struct{}

func (facts) Rows(_ context.Context, src string, _ int) ([]query.Row, []string, error) {
	return []query.Row{
		{"n": int64(1), "run": "run:ba3d1020ee8f", "test": "TestDiv", "file": "calc.go", "line": int64(5)},
		{"n": int64(1), "run": "run:ba3d1020ee8f", "test": "TestSub", "file": "calc.go", "line": int64(9)},
	}, []string{"run:ba3d1020ee8f"}, nil
}

func (facts) Locate(_ context.Context, file string, line int, _ string) (query.Symbol, bool, error) {
	if line >= 4 && line <= 6 {
		return query.Symbol{Name: "Div", Kind: "function", Start: 4, End: 6, Handle: "repo:calc.go:L4-6@f3c01c24"}, true, nil
	}
	return query.Symbol{Name: "Sub", Kind: "function", Start: 8, End: 10}, true, nil
}

func (facts) RunOrdinal(context.Context, string) (int, error) { return 1, nil }

func (facts) Changed(_ context.Context, _ string, from, to int, _ string) (bool, error) {
	return from <= 5 && 5 <= to, nil
}

func Example() {
	p, err := query.Compile(`from frames | where file.endsWith(".go") | locate | in-changed | select test, symbol, symbol_handle`)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := p.Run(context.Background(), facts{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rows {
		fmt.Println(r["test"], r["symbol"], r["symbol_handle"])
	}
	fmt.Println("cost bound:", res.Cost)
	// Output:
	// TestDiv Div repo:calc.go:L4-6@f3c01c24
	// cost bound: 870000
}

func ExampleCompile_syntaxError() {
	_, err := query.Compile(`from runs | where exit == "0"`)
	fmt.Println(err)
	// Output:
	// query syntax error at column 24: where expression: == compares int with string; both sides must be the same type
	//   from runs | where exit == "0"
	//                          ^
}
