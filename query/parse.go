package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits that make every query total.
const (
	MaxStages = 12       // stages in one pipeline, the source included
	RowCap    = 10000    // rows out of any source or stage
	MaxCost   = 1e9      // the static cost bound a query may not exceed
	maxQuery  = 16 << 10 // bytes of query text
)

// SyntaxError is a malformed query, with the 1-based column where the
// problem is.
type SyntaxError struct {
	Col int
	Msg string
	Src string
}

func (e *SyntaxError) Error() string {
	caret := ""
	if e.Col >= 1 && e.Col <= len(e.Src)+1 {
		src, at := window(e.Src, e.Col-1)
		caret = "\n  " + src + "\n  " + strings.Repeat(" ", at) + "^"
	}
	return fmt.Sprintf("query syntax error at column %d: %s%s", e.Col, e.Msg, caret)
}

// errorContext is how many bytes of a long query an error shows on either
// side of the problem.
const errorContext = 60

// window is the part of a query line an error shows around byte i, with "…"
// where it is cut, and i's offset in it: a 16 KiB query's error is two
// short lines, not the query again.
func window(src string, i int) (string, int) {
	if len(src) <= 2*errorContext {
		return src, i
	}
	from, to := max(0, i-errorContext), min(len(src), i+errorContext)
	for from > 0 && !utf8.RuneStart(src[from]) {
		from--
	}
	for to < len(src) && !utf8.RuneStart(src[to]) {
		to++
	}
	out, at := src[from:to], i-from
	if from > 0 {
		out, at = "…"+out, at+1 // the caret line counts columns, one per "…"
	}
	if to < len(src) {
		out += "…"
	}
	return out, at
}

// Stage is one parsed stage of a pipeline.
type Stage struct {
	Op     string   // from, where, select, sort, limit, distinct, group, join, except, locate, in-changed, since
	Source string   // from, join: the source name
	Expr   string   // where, join: the expression (see expr.go)
	Fields []string // select, sort (a leading - sorts descending), distinct, group by
	N      int      // limit
	Col    int      // where the stage starts (1-based), for errors
	exprAt int      // column of Expr
}

// Parse splits a query into stages and checks each one's form. Expressions
// are compiled later, by Plan, against the fields their stage sees.
func Parse(q string) ([]Stage, error) {
	if len(q) > maxQuery {
		return nil, &SyntaxError{Col: maxQuery, Msg: fmt.Sprintf("the query is %d bytes, over the %d-byte limit", len(q), maxQuery), Src: ""}
	}
	parts, err := split(q)
	if err != nil {
		return nil, err
	}
	if len(parts) > MaxStages {
		return nil, &SyntaxError{Col: parts[MaxStages].col, Src: q,
			Msg: fmt.Sprintf("%d stages, over the cap of %d; split the question or use ctx py for general computation", len(parts), MaxStages)}
	}
	var out []Stage
	for i, p := range parts {
		st, err := parseStage(q, p, i == 0)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

type part struct {
	text string
	col  int // 1-based column of text's first byte
}

// split cuts the query at | outside quotes and parentheses (|| is an
// operator, not a stage separator).
func split(q string) ([]part, error) {
	var parts []part
	start, depth := 0, 0
	var quote byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == '|' && depth == 0:
			if i+1 < len(q) && q[i+1] == '|' {
				i++
				continue
			}
			parts = append(parts, part{q[start:i], start + 1})
			start = i + 1
		}
	}
	if quote != 0 {
		return nil, &SyntaxError{Col: len(q), Msg: "unterminated string", Src: q}
	}
	parts = append(parts, part{q[start:], start + 1})
	for i := range parts {
		t := parts[i].text
		lead := len(t) - len(strings.TrimLeft(t, " \t\n"))
		parts[i] = part{strings.TrimSpace(t), parts[i].col + lead}
		switch {
		case parts[i].text == "" && len(parts) == 1:
			return nil, &SyntaxError{Col: 1, Msg: "empty query: start with from SOURCE, e.g. from runs | limit 5", Src: q}
		case parts[i].text == "":
			return nil, &SyntaxError{Col: parts[i].col, Msg: "empty stage: remove the extra |, or put a stage between the two", Src: q}
		}
	}
	return parts, nil
}

var sources = map[string]bool{"runs": true, "tests": true, "failures": true, "frames": true, "diagnostics": true,
	"templates": true, "anomalies": true,
	"symbols": true, "files": true, "changes": true, "changed_symbols": true, "generations": true}

func parseStage(q string, p part, first bool) (Stage, error) {
	word, rest, _ := strings.Cut(p.text, " ")
	rest = strings.TrimSpace(rest)
	restCol := p.col + len(p.text) - len(rest)
	st := Stage{Op: word, Col: p.col}
	bad := func(col int, format string, args ...any) (Stage, error) {
		return Stage{}, &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...), Src: q}
	}
	if first {
		if word != "from" {
			if sources[p.text] {
				st.Op, st.Source = "from", p.text
				return st, nil
			}
			return bad(p.col, "a query starts with from SOURCE (sources: %s)", sourceList())
		}
	} else if word == "from" {
		return bad(p.col, "from only starts a query; use join to bring in another source")
	}
	switch word {
	case "from":
		if !sources[rest] {
			return bad(restCol, "unknown source %q (sources: %s)", rest, sourceList())
		}
		st.Source = rest
	case "where":
		if rest == "" {
			return bad(p.col+len(word), "where needs an expression")
		}
		st.Expr, st.exprAt = rest, restCol
	case "join", "except":
		src, cond, ok := strings.Cut(rest, " on ")
		src = strings.TrimSpace(src)
		if !ok || strings.TrimSpace(cond) == "" {
			return bad(restCol, "want %s SOURCE on EXPR (the expression sees the left row's fields and the right row by its source's name: tests.name)", word)
		}
		if !sources[src] {
			return bad(restCol, "unknown source %q (sources: %s)", src, sourceList())
		}
		st.Source = src
		st.Expr = strings.TrimSpace(cond)
		st.exprAt = restCol + strings.Index(rest, " on ") + 4 + (len(cond) - len(strings.TrimLeft(cond, " ")))
	case "select", "sort", "distinct":
		if rest == "" && word != "distinct" {
			return bad(p.col+len(word), "%s needs field names", word)
		}
		f, err := fields(rest, word == "sort")
		if err != nil {
			return bad(restCol, "%v", err)
		}
		st.Fields = f
	case "group":
		by, ok := strings.CutPrefix(rest, "by ")
		by, ok2 := strings.CutSuffix(strings.TrimSpace(by), " count")
		if !ok || !ok2 {
			return bad(p.col, "want group by FIELD[, FIELD] count")
		}
		f, err := fields(by, false)
		if err != nil {
			return bad(restCol, "group by: %v", err)
		} else if len(f) == 0 {
			return bad(restCol, "want group by FIELD[, FIELD] count")
		}
		st.Fields = f
	case "limit":
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > RowCap {
			return bad(restCol, "limit wants a number from 1 to %d", RowCap)
		}
		st.N = n
	case "since":
		gen, isGen := strings.CutPrefix(rest, "gen:")
		if isGen && (len(gen) != 16 || strings.Trim(gen, "0123456789abcdef") != "") {
			return bad(restCol, "want since gen:ID with the generation's 16 hex digits (from generations or runs.generation)")
		}
		if !isGen && (!strings.HasPrefix(rest, "run:") || len(rest) < len("run:")+6) {
			return bad(restCol, "want since run:ID or since gen:ID (rows from that run, or the generation's newest run, and older are dropped)")
		}
		st.Fields = []string{rest}
	case "in-changed":
		if rest == "" {
			break
		}
		h, ok := strings.CutPrefix(rest, "since ")
		if h = strings.TrimSpace(h); !ok || !strings.HasPrefix(h, "run:") || len(h) < len("run:")+6 {
			col := restCol
			if ok {
				col += strings.Index(rest, h)
			}
			return bad(col, "want in-changed, or in-changed since run:ID (lines that differ from the work tree that run ran against)")
		}
		st.Fields = []string{h}
	case "locate":
		if rest != "" {
			return bad(restCol, "%s takes no arguments", word)
		}
	default:
		return bad(p.col, "unknown stage %q (stages: where, select, join, except, locate, group by … count, sort, limit, distinct, in-changed, since)", word)
	}
	return st, nil
}

// fields parses "a, b.c, -d".
func fields(s string, signed bool) ([]string, error) {
	var out []string
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		name := f
		if signed {
			name = strings.TrimPrefix(f, "-")
		}
		if name == "" {
			return nil, fmt.Errorf("empty field name")
		}
		for _, c := range name {
			if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return nil, fmt.Errorf("field %q: names are letters, digits, _ and . (r.file)", f)
			}
		}
		for _, o := range out {
			if strings.TrimPrefix(o, "-") == name {
				return nil, fmt.Errorf("field %q given twice", name)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func sourceList() string {
	return "anomalies, changed_symbols, changes, diagnostics, failures, files, frames, generations, runs, symbols, templates, tests"
}
