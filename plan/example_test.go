package plan_test

import (
	"fmt"
	"os"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/plan"
)

type lines []string

func (l lines) Lines(stream string, from, to int64) ([]string, error) { return l[from-1 : to], nil }

// A failing test run: the plan picks a mode and budget, and the renderer
// prints the digest with its coverage receipt.
func Example() {
	out := lines{"--- FAIL: TestParse (0.00s)", "    parse_test.go:12: want 3, got 4"}
	for i := range 40 {
		out = append(out, fmt.Sprintf("--- PASS: TestOther%d (0.00s)", i))
	}
	out = append(out, "FAIL", "FAIL\texample.com/m\t0.01s")
	g := &evidence.Graph{Profile: "gotest", Version: 1, Verdict: "fail"}
	g.Add(evidence.Item{Kind: evidence.KindTest, Package: "example.com/m", Name: "TestParse", Outcome: evidence.OutcomeFail,
		File: "parse_test.go", Line: 12, Message: "want 3, got 4", Span: evidence.Span{Stream: "stdout", From: 1, To: 2}})
	g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "go test", Name: "total", Counts: map[string]int{"fail": 1, "pass": 40}})
	g.Seal("run:0123456789ab")

	streams := []plan.StreamInfo{{Name: "stdout", Size: 1400, Lines: int64(len(out))}, {Name: "stderr"}}
	in := plan.Inputs{Exit: 1, Status: "exited", Streams: streams}
	c, _ := contract.Load("gotest", "fail", "")
	p := plan.Decide(g, c, in)
	d, _ := plan.Render(plan.Input{Run: plan.RunInfo{Handle: "run:0123456789ab", Argv: []string{"go", "test", "./..."}, Dir: ".", Exit: 1, Status: "exited"},
		Streams: streams, Graph: g, Contract: c, Plan: p, Lines: out})
	os.Stdout.Write(d.Text)
	fmt.Println(p.Mode, p.Budget, p.Reasons)
	// Output:
	// $ go test ./...
	// run:0123456789ab · exit 1 · gotest/1 · failure-census · stdout 1.4 KiB/44 lines
	// FAIL example.com/m TestParse — want 3, got 4 @parse_test.go:12 [L1-2]
	// go test: 1 fail · 40 pass
	// coverage: identities 1 · inline 1 · retrievable 0 · unrepresented required 0 · shown 425 B of 1.4 KiB
	// next: ctx get run:0123456789ab#stdout:L1-2  (first failure; [L…] and L… above are lines of run:0123456789ab#stdout)
	// failure-census 1500 [outcome-fail budget-contract required-fit]
}
