package query

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Row is one record: field name to string, int or (for a joined row) a
// nested Row.
type Row map[string]any

// Symbol is the declaration that holds a location.
type Symbol struct {
	Name, Kind string
	Start, End int
	Handle     string // repo: handle with its anchor
	// In says which content the line was located in: LocatedRun, LocatedGone
	// or LocatedToday.
	In string
}

// Which content locate found a row's line in (the located_in field).
const (
	// LocatedRun: the file as the row's run saw it (its generation's
	// content); the symbol's lines and handle are today's (the same
	// declaration by name and kind).
	LocatedRun = "run"
	// LocatedGone: the run's content, and the symbol is not in the file
	// today; its lines are the run's and it has no handle.
	LocatedGone = "run, gone today"
	// LocatedToday: today's file, the run's content being unknown (no
	// generation, or that content is no longer at hand).
	LocatedToday = "today"
)

// Facts are what a query reads. The caller wires them to the store and
// the work tree; tests pass an in-memory implementation.
type Facts interface {
	// Rows returns at most limit rows of a source, and the handles they
	// came from (provenance).
	Rows(ctx context.Context, source string, limit int) ([]Row, []string, error)
	// Locate returns the innermost declaration holding file:line as the
	// file was in generation gen (a row's generation, gen:ID, or "").
	Locate(ctx context.Context, file string, line int, gen string) (Symbol, bool, error)
	// RunOrdinal is the n of a run among the executions (1 = newest), or
	// for a gen: handle the n of the newest execution that recorded it.
	RunOrdinal(ctx context.Context, handle string) (int, error)
	// Changed reports whether lines from..to of file differ from HEAD, or,
	// with since set (a run handle), from the work tree that run recorded.
	Changed(ctx context.Context, file string, from, to int, since string) (bool, error)
}

// StageReport is what one stage did: its provenance.
type StageReport struct {
	Stage  string   `json:"stage"`
	In     int      `json:"in"`
	Out    int      `json:"out"`
	Capped bool     `json:"capped,omitempty"` // rows past RowCap were dropped
	From   []string `json:"from,omitempty"`   // handles the rows came from
}

// Result is a query's answer.
type Result struct {
	Query  string        `json:"query"`
	Cost   uint64        `json:"cost_bound"`
	Fields []string      `json:"fields"`
	Rows   []Row         `json:"rows"`
	Stages []StageReport `json:"stages"`
}

// Run executes a compiled plan.
func (p *Plan) Run(ctx context.Context, f Facts) (*Result, error) {
	res := &Result{Query: p.Query, Cost: p.Cost}
	var rows []Row
	for _, s := range p.Stages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rep := StageReport{Stage: s.Op, In: len(rows)}
		var err error
		if rows, err = s.run(ctx, f, rows, &rep); err != nil {
			return nil, fmt.Errorf("stage %d (%s): %w", len(res.Stages)+1, s.Op, err)
		}
		if len(rows) > RowCap {
			rows, rep.Capped = rows[:RowCap], true
		}
		rep.Out = len(rows)
		res.Stages = append(res.Stages, rep)
		res.Fields = s.Fields
	}
	if rows == nil {
		rows = []Row{}
	}
	res.Rows = rows
	return res, nil
}

// since is an in-changed stage's run handle, or "" (against HEAD).
func (s PlannedStage) since() string {
	if s.Op == "in-changed" && len(s.Stage.Fields) == 1 {
		return s.Stage.Fields[0]
	}
	return ""
}

// run applies one stage to the rows, recording what it read in rep.
func (s PlannedStage) run(ctx context.Context, f Facts, rows []Row, rep *StageReport) ([]Row, error) {
	var err error
	switch s.Op {
	case "from":
		rep.Stage += " " + s.Source
		rows, rep.From, err = f.Rows(ctx, s.Source, sourceCap[s.Source])
		if len(rows) > sourceCap[s.Source] {
			rows, rep.Capped = rows[:sourceCap[s.Source]], true
		}
	case "where":
		rows = keep(rows, func(r Row) bool { return s.expr.eval(env{left: r}).(bool) })
	case "join", "except":
		rep.Stage += " " + s.Source
		var right []Row
		if right, rep.From, err = f.Rows(ctx, s.Source, sourceCap[s.Source]); err == nil && s.Op == "join" {
			rows, rep.Capped = join(s, rows, right)
		} else if err == nil {
			rows = keep(rows, func(l Row) bool { return !matchesAny(s, l, right) })
		}
	case "locate":
		err = locate(ctx, f, rows)
	case "in-changed":
		rows, err = filter(rows, func(r Row) (bool, error) {
			file, from, to, ok := location(r)
			if !ok {
				return false, nil
			}
			return f.Changed(ctx, file, from, to, s.since())
		})
		if s.since() != "" {
			rep.From = []string{s.since()}
		}
	case "select":
		for i, r := range rows {
			out := Row{}
			for _, fl := range s.Stage.Fields {
				out[fl] = get(r, fl)
			}
			rows[i] = out
		}
	case "distinct":
		keys := s.Stage.Fields
		if len(keys) == 0 {
			keys = s.Fields
		}
		seen := map[string]bool{}
		rows = keep(rows, func(r Row) bool {
			k := key(r, keys)
			if seen[k] {
				return false
			}
			seen[k] = true
			return true
		})
	case "group":
		rows = group(rows, s.Stage.Fields)
	case "sort":
		sortRows(rows, s.Stage.Fields)
	case "since":
		var ord int
		if ord, err = f.RunOrdinal(ctx, s.Stage.Fields[0]); err == nil {
			rep.From = []string{s.Stage.Fields[0]}
			rows = keep(rows, func(r Row) bool { n, _ := r["n"].(int64); return int(n) < ord })
		}
	case "limit":
		if len(rows) > s.N {
			rows = rows[:s.N]
		}
	}
	return rows, err
}

// locate adds to each row the innermost symbol holding its file and line:
// the relation located-at.
func locate(ctx context.Context, f Facts, rows []Row) error {
	for _, r := range rows {
		file, _ := r["file"].(string)
		line, _ := r["line"].(int64)
		gen, _ := r["generation"].(string)
		sym, ok, err := f.Locate(ctx, file, int(line), gen)
		if err != nil {
			return err
		}
		if !ok {
			sym = Symbol{}
		}
		r["symbol"], r["kind"], r["symbol_start"], r["symbol_end"], r["symbol_handle"], r["located_in"] =
			sym.Name, sym.Kind, int64(sym.Start), int64(sym.End), sym.Handle, sym.In
	}
	return nil
}

// group counts the rows of each distinct value of fields, in first-seen order.
func group(rows []Row, fields []string) []Row {
	idx := map[string]int{}
	var out []Row
	for _, r := range rows {
		k := key(r, fields)
		i, ok := idx[k]
		if !ok {
			g := Row{"count": int64(0)}
			for _, fl := range fields {
				g[fl] = get(r, fl)
			}
			i, idx[k] = len(out), len(out)
			out = append(out, g)
		}
		out[i]["count"] = out[i]["count"].(int64) + 1
	}
	return out
}

// sortRows sorts stably by fields, a leading - sorting descending.
func sortRows(rows []Row, fields []string) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		for _, fl := range fields {
			name := strings.TrimPrefix(fl, "-")
			c := compare(get(a, name), get(b, name))
			if name != fl {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}

// location is where a row points: its located symbol, a symbol row, or a
// file and line.
func location(r Row) (file string, from, to int, ok bool) {
	if sym, isRow := r["symbols"].(Row); isRow {
		r = sym
	}
	file, _ = r["file"].(string)
	if s, _ := r["symbol"].(string); s != "" {
		a, _ := r["symbol_start"].(int64)
		b, _ := r["symbol_end"].(int64)
		return file, int(a), int(b), file != ""
	}
	if p, isSym := r["path"].(string); isSym {
		a, _ := r["start"].(int64)
		b, _ := r["end"].(int64)
		if a > 0 {
			return p, int(a), int(b), true
		}
	}
	l, _ := r["line"].(int64)
	return file, int(l), int(l), file != "" && l > 0
}

func filter(rows []Row, pred func(Row) (bool, error)) ([]Row, error) {
	out := rows[:0]
	for _, r := range rows {
		ok, err := pred(r)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// keep is filter for a predicate that cannot fail.
func keep(rows []Row, pred func(Row) bool) []Row {
	out, _ := filter(rows, func(r Row) (bool, error) { return pred(r), nil })
	return out
}

// join pairs each left row with every right row the expression accepts;
// capped reports rows past RowCap dropped.
func join(s PlannedStage, left, right []Row) (out []Row, capped bool) {
	for _, l := range left {
		for _, r := range right {
			if !s.expr.eval(env{left: l, name: s.Source, right: r}).(bool) {
				continue
			}
			if len(out) == RowCap {
				return out, true
			}
			m := make(Row, len(l)+1)
			for k, v := range l {
				m[k] = v
			}
			m[s.Source] = r
			out = append(out, m)
		}
	}
	return out, false
}

// matchesAny reports whether any right row satisfies the stage's
// expression with l (except).
func matchesAny(s PlannedStage, l Row, right []Row) bool {
	for _, r := range right {
		if s.expr.eval(env{left: l, name: s.Source, right: r}).(bool) {
			return true
		}
	}
	return false
}

// get reads a field, following one dot into a joined row.
func get(r Row, f string) any {
	if v, ok := r[f]; ok {
		return v
	}
	if a, b, ok := strings.Cut(f, "."); ok {
		if sub, ok := r[a].(Row); ok {
			return sub[b]
		}
	}
	return nil
}

func key(r Row, fields []string) string {
	var b strings.Builder
	for _, f := range fields {
		fmt.Fprintf(&b, "%v\x00", get(r, f))
	}
	return b.String()
}

func compare(a, b any) int {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}
