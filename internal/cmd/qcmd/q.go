// Package qcmd holds ctx q (bounded questions over the runs ctx kept and the
// repository's source; package query answers them) with its MCP tool ctx_q,
// and ctx outline (the symbols of source files, package source's).
package qcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/query"
	"github.com/ctxhq/ctx/source"
)

type qOptions struct {
	query   string
	explain bool
	json    bool
	runs    int
	show    int
}

// qShowRows bounds the rows a digest shows; the stored result has them all.
const qShowRows = 40

// NewQCmd is ctx q.
func NewQCmd(ios *cli.IO) *cobra.Command {
	o := &qOptions{}
	c := &cobra.Command{
		Use:   "q QUERY",
		Short: "Ask a bounded question across runs, tests, failures and source",
		Long: `Query the evidence ctx keeps with a pipeline of stages over typed sources.

Sources: runs (n = 1 is the newest), tests, failures, frames (file:line
locations inside failed tests' output), diagnostics, templates (log
templates), anomalies (these six from the newest --runs runs; each row
names its run's generation), symbols (declarations of the repository's
files), files, changes (files differing from HEAD in each generation: the
live tree is n = 0, then those recorded by the newest --runs executions),
changed_symbols (the declarations each generation's change touched, by
"lines"; by "file", symbol empty, where that generation's content of the
file is gone from the work tree and HEAD, or ctx cannot outline it),
generations (one row each; lag_ms > 0 for one observed after its command
ended, a late generation; runs.generation_lag_ms likewise).

Stages: where EXPR, select F, ..., sort [-]F, ..., limit N,
distinct [F, ...], group by F, ... count, join SOURCE on EXPR (the joined row
is a map named after its source: symbols.path), except SOURCE on EXPR (keeps
the rows no row of SOURCE matches), locate (adds the innermost symbol around
file:line, found in the file as the row's run saw it: symbol, kind,
symbol_start, symbol_end, symbol_handle as it is today, located_in: run,
"run, gone today" or today),
in-changed (keeps rows whose symbol, or line, differs from HEAD),
in-changed since run:ID (differs from the work tree that run recorded:
commits since included), since run:ID (keeps rows of runs newer than it),
since gen:ID (of runs newer than the newest that recorded it).

EXPR: == != < <= > >= on ints and strings, && || !, + and - on ints,
x in ["a", "b"], and on strings startsWith, endsWith, contains,
matches("RE2 pattern"), lower(), upper(), size(); e.g.
file.endsWith("_test.go") && line > 10. Types are checked before running.

Every query is total: at most 12 stages, at most 10,000 rows out of any
stage, and a static cost bound (rows times the expression's cost per
evaluation) computed before anything is read; a query over 1,000,000,000
is refused with its estimate. --explain prints the plan and bounds without
running. The answer is stored as a blob (ctx get blob:ID for all rows); the
digest shows the first 40 rows and what each stage read.

Exit status: 0 answered; 1 a syntax error (with its column), a query over
the cost bound, or no store; 2 usage error.`,
		Example: `  # failing frames inside functions changed since HEAD (this generation)
  ctx q 'from frames | locate | in-changed | select test, symbol, file, line, symbol_handle'
  # ... changed since the last passing run of the same command: find it, then
  ctx q 'from runs | where argv == "go test ./..." && exit == 0 | limit 1 | select run'
  ctx q 'from frames | where n == 1 | locate | in-changed since run:ba3d1020ee8f | select test, symbol, symbol_handle'
  # ... inside the symbols changed in the generation the failing run ran against
  ctx q 'from frames | where n == 1 | limit 200 | locate | join changed_symbols on changed_symbols.generation == generation && changed_symbols.path == file && changed_symbols.symbol == symbol | select test, symbol'
  # diagnostics grouped by the symbol they fall in
  ctx q 'from diagnostics | where n == 1 | locate | group by symbol count | sort -count'
  # tests that failed in each of the last three runs
  ctx q 'from failures | where n <= 3 | group by name count | where count == 3'
  # tests failing in the newest run that passed the run before
  ctx q 'from failures | where n == 1 | limit 100 | join tests on tests.name == name && tests.n == 2 && tests.outcome == "pass" | select name'
  # tests that failed in runs after run:ba3d1020ee8f (the last green one)
  ctx q 'from failures | since run:ba3d1020ee8f | distinct name | select name'
  # the files that differed from HEAD when the newest run ran (changed-in)
  ctx q 'from runs | where n == 1 | limit 1 | join changes on changes.generation == generation | select changes.path, changes.status'
  # the newest run's log templates, most frequent first
  ctx q 'from templates | where n == 1 | sort -count | limit 20'
  # log templates that first appeared after generation gen:0123456789abcdef
  # (in runs after its newest one, and in no run of it)
  ctx q 'from templates | since gen:0123456789abcdef | limit 200 | except templates on templates.template == template && templates.generation == "gen:0123456789abcdef" | distinct template | select template'
  # the symbols the newest run's generation changed
  ctx q 'from runs | where n == 1 | limit 1 | join changed_symbols on changed_symbols.generation == generation | select changed_symbols.path, changed_symbols.symbol, changed_symbols.by'
  ctx q --explain 'from symbols | where kind == "function" | in-changed'`,
		Args: cli.ExactArgs(1, "ctx q QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.query = args[0]
			return runQ(cmd.Context(), ios, o)
		},
	}
	f := c.Flags()
	f.BoolVar(&o.explain, "explain", false, "print the plan and its cost bound; run nothing")
	f.BoolVar(&o.json, "json", false, "print the result as JSON")
	f.IntVar(&o.runs, "runs", 20, "newest runs whose output the dynamic sources parse")
	f.IntVar(&o.show, "rows", qShowRows, "rows shown in the digest")
	return c
}

func runQ(ctx context.Context, ios *cli.IO, o *qOptions) error {
	if o.runs < 1 || o.runs > 1000 {
		return cli.Usagef("--runs %d: want 1 to 1000", o.runs)
	}
	plan, err := query.Compile(o.query)
	var se *query.SyntaxError
	var ob *query.OverBudgetError
	switch {
	case errors.As(err, &ob):
		fmt.Fprint(ios.Err, ob.Plan.Explain())
		return cli.WithCode(cli.ExitBad, err)
	case errors.As(err, &se):
		return cli.WithCode(cli.ExitBad, err)
	case err != nil:
		return cli.WithCode(cli.ExitBad, err)
	}
	if o.explain {
		_, err := fmt.Fprint(ios.Out, plan.Explain())
		return err
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	res, err := plan.Run(ctx, &query.Planes{Store: st, Root: source.Root(ctx, cwd), Runs: o.runs})
	if err != nil {
		return cli.WithCode(cli.ExitBad, err)
	}
	body, err := json.Marshal(res)
	if err != nil {
		return err
	}
	id, err := st.PutBlob(append(body, '\n'))
	if err != nil {
		return err
	}
	handle := "blob:" + id.Short()
	if o.json {
		return cli.WriteJSON(ios.Out, struct {
			Handle string `json:"handle"`
			*query.Result
		}{handle, res})
	}
	_, err = ios.Out.Write(renderQ(res, handle, o.show))
	return err
}

// renderQ is the digest of a query result: rows as aligned columns (the
// first max), provenance, and the handle of the stored result.
func renderQ(res *query.Result, handle string, max int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "ctx q: %d rows (cost bound %d)\n", len(res.Rows), res.Cost)
	rows := res.Rows
	if len(rows) > max {
		rows = rows[:max]
	}
	if len(rows) > 0 {
		cells := [][]string{res.Fields}
		for _, r := range rows {
			var line []string
			for _, f := range res.Fields {
				line = append(line, cell(r, f))
			}
			cells = append(cells, line)
		}
		width := make([]int, len(res.Fields))
		for _, l := range cells {
			for i, c := range l {
				width[i] = maxInt(width[i], len(c))
			}
		}
		for _, l := range cells {
			for i, c := range l {
				if i == len(l)-1 {
					b.WriteString(c)
				} else {
					fmt.Fprintf(&b, "%-*s  ", width[i], c)
				}
			}
			b.WriteByte('\n')
		}
	}
	if len(res.Rows) > len(rows) {
		fmt.Fprintf(&b, "… %d more rows in %s\n", len(res.Rows)-len(rows), handle)
	}
	var prov []string
	for _, s := range res.Stages {
		p := fmt.Sprintf("%s %d→%d", s.Stage, s.In, s.Out)
		if s.Capped {
			p += " (capped)"
		}
		if len(s.From) > 0 {
			from := s.From
			if len(from) > 3 {
				from = append(from[:3:3], fmt.Sprintf("+%d", len(s.From)-3))
			}
			p += " from " + strings.Join(from, ",")
		}
		prov = append(prov, p)
	}
	fmt.Fprintf(&b, "stages: %s\nresult: %s\n", strings.Join(prov, " | "), handle)
	return b.Bytes()
}

func cell(r query.Row, f string) string {
	v, ok := r[f]
	if !ok {
		if a, c, dot := strings.Cut(f, "."); dot {
			if sub, isRow := r[a].(query.Row); isRow {
				v = sub[c]
			}
		}
	}
	s := fmt.Sprint(v)
	if v == nil {
		s = "-"
	}
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

type qInput struct {
	Query   string `json:"query" jsonschema:"the pipeline, e.g. from frames | locate | in-changed | select test, symbol"`
	Explain bool   `json:"explain,omitempty" jsonschema:"print the plan and cost bound without running"`
}

// AddTools registers ctx_q on the MCP server.
func AddTools(s *mcp.Server, ios *cli.IO) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "ctx_q",
		Description: `Ask a bounded question over the runs ctx kept and the repository's source:
a pipeline such as "from frames | locate | in-changed | select test, symbol,
symbol_handle" (failing frames inside functions changed since HEAD). Sources:
runs, tests, failures, frames, diagnostics, templates, anomalies, symbols,
files, changes, changed_symbols, generations. Stages: where, select, sort,
limit, distinct, group by … count, join … on …, except … on …, locate,
in-changed [since run:ID], since run:ID|gen:ID. Queries over the static cost bound
are refused with the estimate; the result is stored as a blob handle.`,
	}, func(ctx context.Context, req *mcp.CallToolRequest, in qInput) (*mcp.CallToolResult, any, error) {
		var out, errb bytes.Buffer
		if err := runQ(ctx, cli.Buffered(ios, &out, &errb), &qOptions{query: in.Query, explain: in.Explain, runs: 20, show: qShowRows}); err != nil {
			return hostsmcp.Error(err, errb.String()), nil, nil
		}
		return hostsmcp.Text(out.String()), nil, nil
	})
}
