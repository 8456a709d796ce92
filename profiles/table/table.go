// Package table is the profile for column-aligned CLI tables: kubectl get,
// docker ps, gh pr list, ps, df, ss, lsblk and the like. It finds the
// columns from the data — the character positions that are blank in the
// header and every row — never from a list of known headers, and gives per
// table its row count and columns, the value counts of its category columns
// (few distinct, non-numeric values), and, inline, the rows whose value in a
// column dominated by one value is rare: the unusual status rows (a
// CrashLoopBackOff among Running, an Exited among Up).
//
// A table is a header line followed by rows, up to a blank line; an output
// may hold several (kubectl get all). The profile claims no verdict: a
// table says nothing about pass or fail. It keeps counts and a bounded
// number of rows, never the whole table; every row stays reachable by span.
package table

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Name and Version identify the profile.
const (
	Name    = "table"
	Version = 1
)

// Profile is the table profile.
var Profile = evidence.Profile{Name: Name, Version: Version, Argv: matchArgv, Content: matchContent, Parse: Parse}

// Bounds.
const (
	maxTables     = 64   // tables read; later ones are counted in a loss
	maxRows       = 5000 // rows whose cells are kept per table for column detection
	maxWidth      = 4096 // columns of a line considered
	maxCatValues  = 12   // distinct values of a category column
	maxUnusual    = 20   // unusual rows listed per output
	maxShownCols  = 6    // category columns whose counts become items, per table
	maxValueWidth = 48   // a longer cell is free text, not a category
)

// matchArgv claims the commands that print tables by default.
func matchArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	prog := cmdline.Program(argv[0])
	sub := ""
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") {
			if strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output") || strings.HasPrefix(a, "--format") ||
				a == "--json" || strings.HasPrefix(a, "--template") || a == "-q" || a == "--quiet" {
				return false // a machine format, or ids only
			}
			continue
		}
		if sub == "" {
			sub = a
		}
	}
	switch prog {
	case "kubectl", "oc", "k3s":
		return sub == "get" || sub == "top"
	case "docker", "podman", "nerdctl":
		switch sub {
		case "ps", "images", "image", "container", "volume", "network", "node", "service", "stack":
			return true
		}
	case "gh":
		return sub == "pr" || sub == "issue" || sub == "run" || sub == "repo" || sub == "release" || sub == "workflow"
	case "ps", "df", "lsblk", "ss", "netstat", "free", "lsof", "helm", "kubens", "virsh":
		return true
	}
	return false
}

// matchContent looks for a header of capitalised words over aligned rows.
func matchContent(src *evidence.Source) bool {
	for _, st := range src.Streams {
		ls := strings.SplitN(string(st.Head()), "\n", 12)
		for i := 0; i+2 < len(ls); i++ {
			h := string(lines.Clean([]byte(ls[i])))
			if headerLike(h) && strings.Contains(h, "  ") {
				rows := 0
				for _, r := range ls[i+1:] {
					if strings.TrimSpace(r) == "" {
						break
					}
					rows++
				}
				if rows >= 2 {
					return true
				}
			}
			break // only the first non-table line is tried
		}
	}
	return false
}

// headerLike reports whether a line reads as a table header: at least two
// words, each starting with a capital (NAME, CONTAINER ID, Filesystem, USE%),
// none long, and either mostly upper case or spaced apart as columns are. A
// few lower-case words may continue a header word ("Mounted on").
func headerLike(s string) bool {
	fs := strings.Fields(s)
	if len(fs) < 2 {
		return false
	}
	upper, lower := 0, 0
	for i, f := range fs {
		if len(f) > 24 {
			return false
		}
		r, _ := utf8.DecodeRuneInString(f)
		if !unicode.IsUpper(r) && r != '%' && r != '#' {
			if i == 0 || !unicode.IsLower(r) {
				return false
			}
			lower++
			if lower*3 >= len(fs) {
				return false
			}
			continue
		}
		if strings.ToUpper(f) == f {
			upper++
		}
	}
	return upper*2 >= len(fs) || strings.Contains(strings.TrimSpace(s), "  ")
}

type line struct {
	n    int
	text string
}

type parser struct {
	g       *evidence.Graph
	stream  string
	header  *line
	rows    []line
	tables  int
	skipped int
	unusual int
	capped  int
}

// Parse extracts the tables of the output. It fails when no stream holds a
// table, so the registry falls back to text.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := &parser{g: &evidence.Graph{Profile: Name, Version: Version, Tool: "table"}}
	for _, st := range src.Streams {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return nil, fmt.Errorf("table: open %s: %w", st.Name, err)
		}
		p.stream = st.Name
		err = lines.Scan(ctx, rc, func(n int, b []byte, _ bool) error {
			p.line(n, string(lines.Clean(b)))
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("table: read %s: %w", st.Name, err)
		}
		p.flush()
	}
	if p.tables == 0 {
		return nil, fmt.Errorf("table: no column-aligned table with a header")
	}
	if p.skipped > 0 {
		p.g.Lose("item-cap", "%d more tables past the cap of %d; the output has them all", p.skipped, maxTables)
	}
	if p.capped > 0 {
		p.g.Lose("item-cap", "%d more unusual rows past the cap of %d", p.capped, maxUnusual)
	}
	return p.g, nil
}

func (p *parser) line(n int, s string) {
	s = strings.TrimRight(s, " \t")
	if s == "" {
		p.flush()
		return
	}
	if p.header == nil {
		if headerLike(s) {
			p.header = &line{n, expandTabs(s)}
		}
		return
	}
	if len(p.rows) == 0 && strings.Trim(s, "- =") == "" {
		return // a rule under the header (pip list, mysql)
	}
	if len(p.rows) < maxRows {
		p.rows = append(p.rows, line{n, expandTabs(s)})
	} else {
		p.rows[len(p.rows)-1].n = n // count the span, keep the cells bounded
	}
}

func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			pad := 8 - col%8
			b.WriteString(strings.Repeat(" ", pad))
			col += pad
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// flush turns the header and rows read so far into a table's items.
func (p *parser) flush() {
	h, rows := p.header, p.rows
	p.header, p.rows = nil, nil
	if h == nil || len(rows) == 0 {
		return
	}
	cols := columns(h.text, rows)
	if len(cols) < 2 {
		return
	}
	if p.tables >= maxTables {
		p.skipped++
		return
	}
	p.tables++
	last := rows[len(rows)-1].n
	span := evidence.Span{Stream: p.stream, From: h.n, To: last}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	nrows := last - h.n
	p.g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "table", Name: "L" + strconv.Itoa(h.n),
		Counts: map[string]int{"rows": nrows, "columns": len(cols)},
		Attrs:  map[string]string{"columns": strings.Join(names, " | ")}, Span: span})
	p.g.Add(evidence.Item{Kind: evidence.KindShape, Tool: "table", Name: "columns " + strings.Join(names, " | "),
		Count: nrows, FirstLine: h.n, Span: span})
	p.categories(cols, rows)
}

// column is one detected column: its header text and the byte range its
// cells start in.
type column struct {
	name       string
	start, end int // [start, end) in the header's and rows' runes
	cells      []string
}

// columns splits the header and rows at the positions blank in all of them.
// A header word one space after the previous, with no row text under it, is
// part of that header ("Mounted on"); a run whose header is blank is the
// overflow of the column before it.
func columns(header string, rows []line) []column {
	hr := []rune(header)
	width := len(hr)
	rr := make([][]rune, len(rows))
	for i, r := range rows {
		rr[i] = []rune(r.text)
		width = max(width, len(rr[i]))
	}
	width = min(width, maxWidth)
	blank := make([]bool, width)
	for x := range width {
		blank[x] = x >= len(hr) || hr[x] == ' '
		for _, r := range rr {
			if !blank[x] {
				break
			}
			blank[x] = x >= len(r) || r[x] == ' '
		}
	}
	var segs [][2]int
	for x := 0; x < width; {
		if blank[x] {
			x++
			continue
		}
		s := x
		for x < width && !blank[x] {
			x++
		}
		segs = append(segs, [2]int{s, x})
	}
	text := func(r []rune, a, b int) string {
		if a >= len(r) {
			return ""
		}
		return strings.TrimSpace(string(r[a:min(b, len(r))]))
	}
	var cols []column
	for _, sg := range segs {
		hText := text(hr, sg[0], sg[1])
		rowsBlank := true
		for _, r := range rr {
			if text(r, sg[0], sg[1]) != "" {
				rowsBlank = false
				break
			}
		}
		// A header word one space after the last ("Mounted on") continues
		// it when no row has text under it; two spaces make an empty
		// column (docker's PORTS).
		if len(cols) > 0 && (hText == "" || rowsBlank && sg[0]-cols[len(cols)-1].end <= 1) {
			cols[len(cols)-1].end = sg[1]
			continue
		}
		cols = append(cols, column{start: sg[0], end: sg[1]})
	}
	for i := range cols {
		// A cell runs to the next column's start, so left-aligned text that
		// overflows its header is kept whole; the last runs to the line's end.
		end := maxWidth
		if i+1 < len(cols) {
			end = cols[i+1].start
		}
		start := cols[i].start
		if i > 0 {
			start = cols[i-1].end
		}
		cols[i].name = text(hr, start, end)
		for _, r := range rr {
			cols[i].cells = append(cols[i].cells, text(r, start, end))
		}
	}
	return cols
}

// categories adds the value counts of category columns and the rows that
// hold a rare value of a column dominated by one value.
func (p *parser) categories(cols []column, rows []line) {
	shown := 0
	listed := map[int]bool{}
	for _, c := range cols {
		counts := map[string]int{}
		ok := true
		for _, v := range c.cells {
			if len(v) > maxValueWidth {
				ok = false
				break
			}
			counts[v]++
			if len(counts) > maxCatValues {
				ok = false
				break
			}
		}
		if !ok || len(counts) < 2 || numeric(counts) {
			continue
		}
		top := 0
		for _, n := range counts {
			top = max(top, n)
		}
		// Few values for the rows (names and ids have many), or a value
		// that covers half the rows with the rest in few.
		if len(counts)*3 > len(c.cells) && !(top*2 >= len(c.cells) && len(counts)*2 <= len(c.cells)) {
			continue
		}
		if shown >= maxShownCols {
			break
		}
		shown++
		vals := evidence.SortedKeys(counts)
		sort.SliceStable(vals, func(i, j int) bool { return counts[vals[i]] > counts[vals[j]] })
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = quoteEmpty(v) + " " + strconv.Itoa(counts[v])
		}
		p.g.Add(evidence.Item{Kind: evidence.KindShape, Tool: "table", Name: "values of " + c.name + ": " + strings.Join(parts, " · "),
			Count: len(c.cells), Attrs: map[string]string{"column": c.name, "values": strconv.Itoa(len(counts))},
			Span: evidence.Span{Stream: p.stream, From: rows[0].n, To: rows[len(rows)-1].n}})
		for i, v := range c.cells {
			if !rare(counts[v], top, len(c.cells)) || listed[i] {
				continue
			}
			listed[i] = true
			if p.unusual >= maxUnusual {
				p.capped++
				continue
			}
			p.unusual++
			r := rows[i]
			p.g.Add(evidence.Item{Kind: evidence.KindRecord, Tool: "table", Name: "row L" + strconv.Itoa(r.n), Line: r.n,
				Text: r.text, Why: "unusual-row", Attrs: map[string]string{"column": c.name, "value": v},
				Span: evidence.Span{Stream: p.stream, From: r.n, To: r.n}})
		}
	}
}

// rare: a handful next to many (at most 3 and at most a tenth), or at most a
// fifth when one value covers two thirds of the rows, as a status column's
// does.
func rare(n, top, total int) bool {
	if n == top {
		return false
	}
	if n <= 3 && n*10 <= total {
		return true
	}
	return top*3 >= total*2 && n*5 <= total
}

// numeric reports whether every value is a number, size, percentage or
// duration: counts, not categories.
func numeric(counts map[string]int) bool {
	for v := range counts {
		if v == "" || v == "-" {
			continue
		}
		r, _ := utf8.DecodeRuneInString(v)
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func quoteEmpty(v string) string {
	if v == "" {
		return `""`
	}
	return v
}
