package query

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Schemas are the fields of each source, in display order.
var Schemas = map[string][]string{
	"runs":        {"n", "run", "argv", "exit", "status", "profile", "generation", "generation_lag_ms"},
	"tests":       {"n", "run", "generation", "name", "package", "outcome", "file", "line", "span"},
	"failures":    {"n", "run", "generation", "name", "package", "outcome", "file", "line", "span"},
	"frames":      {"n", "run", "generation", "test", "file", "line", "span"},
	"diagnostics": {"n", "run", "generation", "tool", "file", "line", "severity", "code", "message", "span"},
	"templates":   {"n", "run", "generation", "template", "count", "first_line", "span"},
	"anomalies":   {"n", "run", "generation", "text", "severity", "why", "span"},
	"symbols":     {"path", "name", "kind", "start", "end", "test", "handle"},
	"files":       {"path", "lang"},
	"changes":     {"generation", "n", "path", "status", "hash"},
	// changed_symbols is changed-in per declaration: one row per symbol a
	// generation's change touched (by "lines"), or per file where that is
	// not known (by "file", symbol "").
	"changed_symbols": {"generation", "n", "path", "symbol", "kind", "start", "end", "status", "by"},
	"generations":     {"n", "id", "head", "changed", "run", "lag_ms"},
}

// sourceCap is the most rows a source yields: the static bound uses it.
var sourceCap = map[string]int{"runs": RowCap, "tests": 2000, "failures": 2000, "frames": 2000, "diagnostics": 2000,
	"templates": 2000, "anomalies": 2000,
	"symbols": RowCap, "files": RowCap, "changes": 2000, "changed_symbols": 2000, "generations": 1001}

// locateFields are what the locate stage adds.
var locateFields = []string{"symbol", "kind", "symbol_start", "symbol_end", "symbol_handle", "located_in"}

// Plan is a checked query: every stage's fields and compiled expression,
// and the static bounds, computed without reading anything.
type Plan struct {
	Query  string
	Stages []PlannedStage
	Cost   uint64 // static bound over the whole pipeline
}

// PlannedStage is one stage with its static bounds.
type PlannedStage struct {
	Stage
	Fields   []string // the fields its rows carry
	MaxRows  int      // bound on the rows out
	Cost     uint64   // bound on its cost
	ExprCost uint64   // bound on one evaluation of the expression, for where and join
	expr     *node
}

// OverBudgetError refuses a query whose static cost bound is over MaxCost.
type OverBudgetError struct {
	Cost  uint64
	Plan  *Plan
	Worst string // the stage that costs most
}

func (e *OverBudgetError) Error() string {
	return fmt.Sprintf("query refused before running: its cost bound is %d, over the limit of %d (the %s stage costs most); filter earlier with where or limit, or locate instead of join",
		e.Cost, uint64(MaxCost), e.Worst)
}

// Compile parses and plans a query, refusing it when the static bound is
// over MaxCost. Nothing is read.
func Compile(q string) (*Plan, error) {
	stages, err := Parse(q)
	if err != nil {
		return nil, err
	}
	p := &Plan{Query: q}
	var fields []string
	rows := 0
	for _, st := range stages {
		ps := PlannedStage{Stage: st}
		switch st.Op {
		case "from":
			fields = Schemas[st.Source]
			rows = sourceCap[st.Source]
			ps.Cost = uint64(rows)
		case "where":
			prg, c, err := compileExpr(q, st, fields, "")
			if err != nil {
				return nil, err
			}
			ps.expr, ps.ExprCost = prg, c
			ps.Cost = uint64(rows) * c
		case "join", "except":
			// except is an anti-join: the rows no row of the source
			// matches; as costly as a join, never more rows than came in.
			if st.Op == "join" && slices.Contains(fields, st.Source+"."+Schemas[st.Source][0]) {
				return nil, &SyntaxError{Col: st.Col, Src: q, Msg: fmt.Sprintf("%s is joined already", st.Source)}
			}
			prg, c, err := compileExpr(q, st, fields, st.Source)
			if err != nil {
				return nil, err
			}
			ps.expr, ps.ExprCost = prg, c
			right := sourceCap[st.Source]
			ps.Cost = uint64(right) + uint64(rows)*uint64(right)*c
			if st.Op == "join" {
				for _, f := range Schemas[st.Source] {
					fields = append(slices.Clone(fields), st.Source+"."+f)
				}
				rows = min(rows*right, RowCap)
			}
		case "locate":
			if err := need(q, st, fields, "file", "line"); err != nil {
				return nil, err
			}
			fields = append(slices.Clone(fields), locateFields...)
			ps.Cost = uint64(rows) * 16
		case "in-changed":
			if !hasAll(fields, "symbol_start", "symbol_end") && !hasAll(fields, "path", "start", "end") &&
				!hasAll(fields, "symbols.path", "symbols.start") && !hasAll(fields, "file", "line") {
				return nil, &SyntaxError{Col: st.Col, Src: q, Msg: "in-changed needs rows with a location: locate first, or symbols, or file and line"}
			}
			ps.Cost = uint64(rows) * 4
		case "select", "distinct", "sort":
			for _, f := range st.Fields {
				if err := need(q, st, fields, strings.TrimPrefix(f, "-")); err != nil {
					return nil, err
				}
			}
			if st.Op == "select" {
				fields = slices.Clone(st.Fields)
			}
			ps.Cost = uint64(rows)
			if st.Op == "sort" && rows > 1 {
				ps.Cost = uint64(float64(rows) * math.Log2(float64(rows)))
			}
		case "group":
			for _, f := range st.Fields {
				if err := need(q, st, fields, f); err != nil {
					return nil, err
				}
			}
			if slices.Contains(st.Fields, "count") {
				// The group's own column would overwrite the key.
				return nil, &SyntaxError{Col: st.Col, Src: q, Msg: `group by count … count: the count column group adds would overwrite the field count; group by other fields (a count of counts needs ctx py)`}
			}
			fields = append(slices.Clone(st.Fields), "count")
			ps.Cost = uint64(rows)
		case "since":
			if err := need(q, st, fields, "n"); err != nil {
				return nil, err
			}
			ps.Cost = uint64(rows) + 1
		case "limit":
			rows = min(rows, st.N)
			ps.Cost = uint64(rows)
		}
		ps.Fields, ps.MaxRows = fields, rows
		p.Cost += ps.Cost
		p.Stages = append(p.Stages, ps)
	}
	if p.Cost > MaxCost {
		worst := p.Stages[0]
		for _, s := range p.Stages {
			if s.Cost > worst.Cost {
				worst = s
			}
		}
		return nil, &OverBudgetError{Cost: p.Cost, Plan: p, Worst: worst.Op}
	}
	return p, nil
}

func hasAll(fields []string, want ...string) bool {
	for _, w := range want {
		if !slices.Contains(fields, w) {
			return false
		}
	}
	return true
}

func need(q string, st Stage, fields []string, want ...string) error {
	for _, w := range want {
		if !slices.Contains(fields, w) {
			return &SyntaxError{Col: st.Col, Src: q, Msg: fmt.Sprintf("%s: no field %q here (fields: %s)", st.Op, w, strings.Join(fields, ", "))}
		}
	}
	return nil
}

// Explain renders the plan: each stage, its fields, its bounds.
func (p *Plan) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan for: %s\n", p.Query)
	for i, s := range p.Stages {
		what := s.Op
		switch s.Op {
		case "from", "join", "except":
			what += " " + s.Source
		case "limit":
			what += fmt.Sprintf(" %d", s.N)
		}
		if s.Expr != "" {
			what += fmt.Sprintf(" [%s] (cost ≤ %d per evaluation)", s.Expr, s.ExprCost)
		}
		if len(s.Fields) > 0 && s.Op != "from" && s.Op != "join" && s.Op != "except" {
			what += " " + strings.Join(s.Stage.Fields, ",")
		}
		fmt.Fprintf(&b, "%2d. %s\n    rows ≤ %d, cost ≤ %d, fields: %s\n", i+1, what, s.MaxRows, s.Cost, strings.Join(s.Fields, ", "))
	}
	fmt.Fprintf(&b, "cost bound: %d (limit %d); stages %d of at most %d; rows per stage ≤ %d\n", p.Cost, uint64(MaxCost), len(p.Stages), MaxStages, RowCap)
	return b.String()
}
