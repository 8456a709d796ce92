package search

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

const (
	name    = "search"
	version = 2 // 2: hit text keeps its carriage returns (a CR no longer hides the path:line prefix)

	maxFiles  = 100000 // files named; the rest are counted with a loss
	maxText   = 300    // bytes of a hit's first line kept
	maxErrors = 100    // stderr lines listed as anomalies

	stdinName = "(standard input)" // grep's name for its input when no file is named
)

// Profile is the search-results profile: grep, rg, ag, ack and git grep.
var Profile = evidence.Profile{
	Name:    name,
	Version: version,
	Argv:    func(argv []string) bool { t, _ := toolOf(argv); return t != "" },
	Content: matchContent,
	Parse:   parse,
}

// mode is the layout of the output.
type mode int

const (
	modeFlat    mode = iota // path:12:text, path-13-context
	modePlain               // path:text (no line numbers)
	modeHeading             // a path line, then 12:text lines (rg and ag on a terminal)
	modeBareNum             // 12:text of one file, no path
	modeBare                // text of one file, no path, no number
	modeCount               // path:N
	modeFiles               // one path per line
	modeJSON                // rg --json
)

var modeNames = [...]string{"flat", "plain", "heading", "numbered", "bare", "count", "files", "json"}

// fileHits accumulates the hits of one file.
type fileHits struct {
	path     string
	count    int
	line     int // first hit's line in the file
	col      int
	text     string
	binary   bool
	stream   string
	from, to int // stream lines of the file's block
	ctxLines int
}

type parser struct {
	o     opts
	mode  mode
	files []*fileHits
	index map[string]*fileHits
	// Overflow past maxFiles.
	extraFiles, extraHits int

	hits, ctxLines, binary int
	unknown                int
	firstUnknown           int
	zeroFiles              int
	errors                 int
	stats                  map[string]int // the tool's own totals (rg --json summary)

	blanks       int
	anomalies    []evidence.Item // stderr error lines
	cur          *fileHits       // the file the last line belonged to
	pendingStart int             // first line of context seen before its file's first hit
	single       string
}

func (p *parser) file(path string, stream string, line int) *fileHits {
	if path == "" {
		path = stdinName
	}
	if f := p.index[path]; f != nil {
		return f
	}
	if len(p.files) >= maxFiles {
		p.extraFiles++
		return nil
	}
	f := &fileHits{path: path, stream: stream, from: line, to: line}
	if p.pendingStart > 0 && stream == evidence.Stdout {
		f.from = p.pendingStart
	}
	p.pendingStart = 0
	p.index[path] = f
	p.files = append(p.files, f)
	return f
}

// hit records a matching line of path at stream line n.
func (p *parser) hit(path string, n int, lineNo, col int, text string) {
	p.hits++
	f := p.file(path, evidence.Stdout, n)
	p.cur = f
	if f == nil {
		p.extraHits++
		return
	}
	if f.count == 0 && !f.binary {
		f.line, f.col, f.text = lineNo, col, evidence.Clip(text, maxText)
	}
	f.count++
	f.to = max(f.to, n)
}

// context records a context line, in the current file when it is path's.
func (p *parser) context(path string, n int) {
	p.ctxLines++
	if p.cur != nil && (path == "" || path == p.cur.path) {
		p.cur.ctxLines++
		p.cur.to = max(p.cur.to, n)
		return
	}
	if p.pendingStart == 0 {
		p.pendingStart = n
	}
}

func (p *parser) binaryHit(path, stream string, n int) {
	p.binary++
	f := p.file(path, stream, n)
	if f == nil {
		p.extraHits++
		return
	}
	if !f.binary {
		f.binary = true
		f.count++
		p.hits++
	}
	if f.stream == stream {
		f.to = max(f.to, n)
	}
}

func (p *parser) miss(n int) {
	p.unknown++
	if p.firstUnknown == 0 {
		p.firstUnknown = n
	}
}

func parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	argv := cmdline.Normalize(src.Argv)
	if cmdline.CompoundShell(src.Argv) {
		// grep inside a pipeline: the exit status is not grep's, so the
		// command line cannot tell what it means.
		argv = nil
	}
	o := parseArgs(argv)
	p := &parser{o: o, index: make(map[string]*fileHits), single: o.singleFile()}
	g := &evidence.Graph{Profile: name, Version: version, Tool: o.tool}
	if g.Tool == "" {
		g.Tool = "grep"
	}
	out := src.Stream(evidence.Stdout)
	p.mode = pickMode(o, p.single, sample(out.Head(), out.More()))
	if p.mode != modeBare && p.mode != modeBareNum && p.mode != modeCount {
		p.single = ""
	}
	if p.single == "" && (p.mode == modeBare || p.mode == modeBareNum) {
		p.single = stdinName
	}
	total := 0
	if err := scanStream(ctx, out, func(n int, line []byte) {
		total++
		p.line(n, line)
	}); err != nil {
		return nil, err
	}
	if err := scanStream(ctx, src.Stream(evidence.Stderr), func(n int, line []byte) {
		p.stderrLine(g, n, line)
	}); err != nil {
		return nil, err
	}
	nonblank := total - p.blanks
	if p.unknown > 0 && p.unknown*2 > nonblank {
		return nil, fmt.Errorf("search output: %d of %d lines not recognised", p.unknown, nonblank)
	}

	for _, f := range p.files {
		it := evidence.Item{Kind: evidence.KindHit, Tool: g.Tool, File: f.path, Count: f.count,
			Line: f.line, Col: f.col, Text: f.text,
			Span: evidence.Span{Stream: f.stream, From: f.from, To: f.to}}
		if f.binary {
			it.Attrs = map[string]string{"binary": "true"}
		}
		if p.mode == modeFiles {
			it.Attrs = map[string]string{"listed": "files-with-matches"}
			if o.without {
				it.Attrs["listed"] = "files-without-match"
			}
		}
		g.Add(it)
	}
	for _, it := range p.anomalies {
		g.Add(it)
	}
	counts := map[string]int{"hits": p.hits, "files": len(p.files) + p.extraFiles}
	if p.binary > 0 {
		counts["binary_files"] = p.binary
	}
	if p.ctxLines > 0 {
		counts["context_lines"] = p.ctxLines
	}
	if p.zeroFiles > 0 {
		counts["files_without_match"] = p.zeroFiles
	}
	if p.errors > 0 {
		counts["errors"] = p.errors
	}
	for k, v := range p.stats {
		counts[k] = v
	}
	sum := evidence.Item{Kind: evidence.KindSummary, Tool: g.Tool, Name: "search", Counts: counts,
		Text:  fmt.Sprintf("%d hits in %d files", p.hits, len(p.files)+p.extraFiles),
		Attrs: map[string]string{"layout": modeNames[p.mode]}}
	if out.Lines() > 0 {
		sum.Span = evidence.Span{Stream: evidence.Stdout, From: 1, To: out.Lines()}
	}
	if p.mode == modeFiles {
		sum.Text = fmt.Sprintf("%d files", len(p.files)+p.extraFiles)
	}
	g.Add(sum)

	if p.extraFiles > 0 {
		g.Lose("item-cap", "%d files named; %d more files with %d hits counted only", maxFiles, p.extraFiles, p.extraHits)
	}
	if p.unknown > 0 {
		g.Lose("partial-parse", "%d lines not recognised as %s search output (first at line %d)", p.unknown, modeNames[p.mode], p.firstUnknown)
	}
	g.Verdict = verdict(g, o, src.Exit())
	return g, nil
}

// verdict follows the search tools' exit convention: 0 found, 1 found
// nothing (a result, not a failure), 2 an error. Anything else means the
// search was stopped and its list may be incomplete.
func verdict(g *evidence.Graph, o opts, exit int) string {
	if o.tool == "" {
		return "" // the output alone says nothing about success
	}
	switch exit {
	case 0, 1:
		return "pass"
	case 2:
		return "error"
	}
	g.Lose("partial-parse", "the search stopped with exit status %d: the hits listed may be incomplete", exit)
	return ""
}

func scanStream(ctx context.Context, st evidence.Stream, fn func(n int, line []byte)) error {
	if st.Open == nil || len(st.Head()) == 0 {
		return nil
	}
	rc, err := st.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", st.Name, err)
	}
	defer rc.Close()
	return lines.Scan(ctx, rc, func(n int, line []byte, long bool) error {
		fn(n, lines.StripANSI(line)) // not Clean: the matched text is file content and may hold carriage returns
		return nil
	})
}

// line classifies one stdout line in the parser's mode.
func (p *parser) line(n int, line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		p.blanks++
		if p.mode == modeHeading {
			p.cur = nil
		}
		return
	}
	s := string(line)
	if s == "--" {
		return
	}
	if path, ok := binaryMessage(s, p.cur, p.single); ok {
		p.binaryHit(path, evidence.Stdout, n)
		return
	}
	switch p.mode {
	case modeJSON:
		p.jsonLine(n, line)
	case modeCount:
		p.countLine(n, s)
	case modeFiles:
		path := strings.TrimSuffix(s, "\x00")
		if path == "" {
			p.miss(n)
			return
		}
		if f := p.file(path, evidence.Stdout, n); f != nil {
			p.cur = f
		} else {
			p.extraHits++
		}
	case modeHeading:
		p.headingLine(n, s)
	case modeBareNum:
		if num, col, text, hit, ok := numbered(s, p.o.column); ok {
			if hit {
				p.hit(p.single, n, num, col, text)
			} else {
				p.context(p.single, n)
			}
			return
		}
		p.miss(n)
	case modeBare:
		p.hit(p.single, n, 0, 0, s)
	case modeFlat:
		p.flatLine(n, s)
	case modePlain:
		p.plainLine(n, s)
	}
}

// headingLine: a path line opens a file; numbered lines are its hits.
func (p *parser) headingLine(n int, s string) {
	if p.cur != nil {
		if num, col, text, hit, ok := numbered(s, p.o.column); ok {
			if hit {
				p.hit(p.cur.path, n, num, col, text)
			} else {
				p.context(p.cur.path, n)
			}
			return
		}
		if p.o.numbers == 0 {
			p.hit(p.cur.path, n, 0, 0, s)
			return
		}
	}
	// A new file (git grep --heading without --break has no blank line).
	path := strings.TrimSuffix(s, "\x00")
	if strings.TrimSpace(path) == "" {
		p.miss(n)
		return
	}
	f := p.file(path, evidence.Stdout, n)
	if f == nil {
		p.cur = nil
		return
	}
	p.cur = f
}

// flatLine: path:12:text or path-12-text (context).
func (p *parser) flatLine(n int, s string) {
	if path, rest, ok := p.splitPath(s, ':'); ok {
		if num, col, text, hit, ok := numbered(rest, p.o.column); ok && hit {
			p.hit(path, n, num, col, text)
			return
		}
	}
	if path, rest, ok := p.splitPath(s, '-'); ok {
		if _, _, _, hit, ok := numbered(rest, false); ok && !hit {
			p.context(path, n)
			return
		}
	}
	p.miss(n)
}

// plainLine: path:text, or path-text as context.
func (p *parser) plainLine(n int, s string) {
	if p.cur != nil && p.o.context && strings.HasPrefix(s, p.cur.path+"-") && !strings.HasPrefix(s, p.cur.path+":") {
		p.context(p.cur.path, n)
		return
	}
	if path, rest, ok := p.splitPath(s, ':'); ok {
		col := 0
		if p.o.column {
			if c, r, ok := leadingNumber(rest, ':'); ok {
				col, rest = c, r
			}
		}
		p.hit(path, n, 0, col, rest)
		return
	}
	if p.o.context {
		if path, _, ok := p.splitPath(s, '-'); ok {
			p.context(path, n)
			return
		}
	}
	p.miss(n)
}

// countLine: path:N, or N alone for one file.
func (p *parser) countLine(n int, s string) {
	path, num := p.single, s
	if i := strings.LastIndexAny(s, ":\x00"); i >= 0 {
		path, num = s[:i], s[i+1:]
	}
	c, err := strconv.Atoi(num)
	if err != nil || c < 0 {
		p.miss(n)
		return
	}
	if path == "" {
		path = stdinName
	}
	if c == 0 {
		p.zeroFiles++
		return
	}
	p.hits += c
	f := p.file(path, evidence.Stdout, n)
	if f == nil {
		p.extraHits += c
		return
	}
	f.count += c
	f.to = n
}

// splitPath cuts the path off a flat line: up to a NUL with -Z, the current
// file's path when the line starts with it, else the first sep that is
// followed by a line number and the same sep (so paths may hold sep).
func (p *parser) splitPath(s string, sep byte) (string, string, bool) {
	if p.o.null {
		if i := strings.IndexByte(s, 0); i > 0 {
			return s[:i], s[i+1:], true
		}
	}
	if p.cur != nil && len(s) > len(p.cur.path) && strings.HasPrefix(s, p.cur.path) && s[len(p.cur.path)] == sep {
		rest := s[len(p.cur.path)+1:]
		if p.mode != modeFlat || startsNumbered(rest, sep) {
			return p.cur.path, rest, true
		}
	}
	for i := 1; i < len(s); i++ {
		if s[i] != sep {
			continue
		}
		if p.mode != modeFlat || startsNumbered(s[i+1:], sep) {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}

// startsNumbered reports whether s starts with digits and then sep.
func startsNumbered(s string, sep byte) bool {
	_, _, ok := leadingNumber(s, sep)
	return ok
}

// leadingNumber parses "12<sep>rest".
func leadingNumber(s string, sep byte) (int, string, bool) {
	i := 0
	for i < len(s) && i < 10 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != sep {
		return 0, "", false
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i+1:], true
}

// numbered parses "12:text" (a hit), "12:5:text" with column, or "12-text"
// (a context line).
func numbered(s string, column bool) (num, col int, text string, hit, ok bool) {
	if n, rest, ok := leadingNumber(s, ':'); ok {
		if column {
			if c, r, ok := leadingNumber(rest, ':'); ok {
				return n, c, r, true, true
			}
		}
		return n, 0, rest, true, true
	}
	if n, rest, ok := leadingNumber(s, '-'); ok {
		return n, 0, rest, false, true
	}
	return 0, 0, "", false, false
}

// binaryMessage recognises the tools' notes that a binary file matched.
func binaryMessage(s string, cur *fileHits, single string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "Binary file ") && (strings.HasSuffix(s, " matches") || strings.HasSuffix(s, " matches.")):
		return strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(s, "Binary file "), "."), " matches"), true
	case strings.HasPrefix(s, "binary file matches (found"):
		if cur != nil {
			return cur.path, true
		}
		if single != "" {
			return single, true
		}
		return stdinName, true
	}
	if i := strings.Index(s, ": binary file matches"); i > 0 {
		rest := s[i+len(": binary file matches"):]
		if rest == "" || strings.HasPrefix(rest, " (found") {
			path := s[:i]
			for _, tool := range []string{"grep: ", "rg: ", "ugrep: "} {
				path = strings.TrimPrefix(path, tool)
			}
			return path, true
		}
	}
	return "", false
}

// stderrLine reads a line the tool wrote to stderr: a binary-file note is a
// hit without text; anything else is an error message worth showing.
func (p *parser) stderrLine(g *evidence.Graph, n int, line []byte) {
	s := strings.TrimSpace(string(line))
	if s == "" {
		return
	}
	if path, ok := binaryMessage(s, nil, p.single); ok {
		p.binaryHit(path, evidence.Stderr, n)
		return
	}
	p.errors++
	if p.errors > maxErrors {
		if p.errors == maxErrors+1 {
			g.Lose("item-cap", "only the first %d error lines of stderr are listed", maxErrors)
		}
		return
	}
	p.anomalies = append(p.anomalies, evidence.Item{Kind: evidence.KindAnomaly, Tool: g.Tool, Line: n,
		Text: evidence.Clip(s, maxText), Why: "error-message", Severity: evidence.SeverityError,
		Span: evidence.Span{Stream: evidence.Stderr, From: n, To: n}})
}
