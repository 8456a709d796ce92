package jest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// jestLine reads jest's default and verbose reporter lines.
func (p *parser) jestLine(n int, s string) {
	st := &p.st
	t := strings.TrimSpace(s)
	if status, file, ok := parseJestHeader(s); ok {
		st.inTree = false
		if status == "RUNS" {
			return
		}
		p.jestSeen = true
		st.file, st.inTree, st.stack = file, true, st.stack[:0]
		return
	}
	if title, ok := strings.CutPrefix(s, "  ● "); ok {
		st.inTree = false
		title = strings.TrimSpace(title)
		b := &block{from: n, to: n, first: true}
		switch {
		case title == "Console":
			b.console = true
		case title == SuiteName:
			if r := p.get("jest", st.file, SuiteName, n); r != nil {
				r.suite = true
				p.markFail(r, n)
				b.r = r
			}
		default:
			if r := p.get("jest", st.file, title, n); r != nil {
				p.markFail(r, n)
				b.r = r
			}
		}
		p.st.blk = b
		return
	}
	if isConsoleHeader(s) {
		st.inTree = false
		st.blk = &block{from: n, to: n, console: true}
		return
	}
	if !st.inTree {
		return
	}
	ind := indent(s)
	if t == "" || ind < 2 {
		st.inTree = false
		return
	}
	depth := (ind - 2) / 2
	if mark, title, ok := treeMark(t); ok {
		var r *rec
		if p.kept >= MaxItems && p.recsOf(st.file) == nil {
			p.dropped++ // what get would do, without building the name
		} else {
			r = p.get("jest", st.file, treeName(st.stack[:min(depth, len(st.stack))], title), n)
		}
		if r == nil {
			return
		}
		p.mark(r, mark, n)
		return
	}
	if depth < maxDepth {
		st.stack = append(st.stack[:min(depth, len(st.stack))], t)
	}
}

// treeName is a test's full name: its describe titles and its own, joined
// by " › " (built in one allocation: a verbose run names every test so).
func treeName(describes []string, title string) string {
	if len(describes) == 0 {
		return title
	}
	const sep = " › "
	n := len(title) + len(sep)*len(describes)
	for _, d := range describes {
		n += len(d)
	}
	var b strings.Builder
	b.Grow(n)
	for _, d := range describes {
		b.WriteString(d)
		b.WriteString(sep)
	}
	b.WriteString(title)
	return b.String()
}

// parseJestHeader recognises `PASS src/a.test.js`, ` FAIL  src/a.test.js
// (5.2 s)` (the colour badge leaves a space either side) and `RUNS …`.
func parseJestHeader(s string) (status, file string, ok bool) {
	if indent(s) > 1 {
		return "", "", false
	}
	t := strings.TrimLeft(s, " ")
	if len(t) < 6 || t[4] != ' ' {
		return "", "", false
	}
	status = t[:4]
	if status != "PASS" && status != "FAIL" && status != "RUNS" {
		return "", "", false
	}
	rest := strings.TrimSpace(t[5:])
	if strings.Contains(rest, " > ") || strings.Contains(rest, " [ ") {
		return "", "", false // vitest
	}
	if i := strings.LastIndex(rest, " ("); i > 0 && strings.HasSuffix(rest, ")") { // duration
		rest = strings.TrimSpace(rest[:i])
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return "", "", false
	}
	file = f[len(f)-1] // after a project badge, if any
	if !strings.ContainsAny(file, "./\\") {
		return "", "", false
	}
	return status, file, true
}

// treeMark reads a verbose tree line: `✓ adds (3 ms)`, `✕ fails`,
// `○ skipped name`, `✎ todo name`.
func treeMark(t string) (mark, title string, ok bool) {
	for _, m := range []struct{ sym, mark string }{
		{"✓ ", "pass"}, {"√ ", "pass"}, {"✕ ", "fail"}, {"× ", "fail"}, {"○ ", "skip"}, {"✎ ", "todo"},
	} {
		if rest, found := strings.CutPrefix(t, m.sym); found {
			mark, title = m.mark, rest
			break
		}
	}
	if mark == "" {
		return "", "", false
	}
	switch mark {
	case "skip":
		title = strings.TrimPrefix(title, "skipped ")
	case "todo":
		title = strings.TrimPrefix(title, "todo ")
	default:
		title = stripParenDuration(title)
	}
	title = strings.TrimSpace(title)
	return mark, title, title != ""
}

// stripParenDuration removes jest's " (12 ms)" / " (1.2 s)".
func stripParenDuration(s string) string {
	i := strings.LastIndex(s, " (")
	if i < 0 || !strings.HasSuffix(s, ")") {
		return s
	}
	d := strings.TrimSpace(s[i+2 : len(s)-1])
	d = strings.TrimSuffix(strings.TrimSuffix(d, "ms"), "s")
	d = strings.TrimSpace(d)
	if _, err := strconv.ParseFloat(d, 64); err != nil {
		return s
	}
	return s[:i]
}

func isConsoleHeader(s string) bool {
	rest, ok := strings.CutPrefix(s, "  console.")
	if !ok {
		return false
	}
	switch strings.TrimSpace(rest) {
	case "log", "warn", "error", "info", "debug", "trace", "dir", "table", "group", "assert":
		return true
	}
	return false
}

// blockLine feeds a line to an open `●` block or console section; false
// means the block ended and the line is for the caller.
func (p *parser) blockLine(n int, s string) bool {
	b := p.st.blk
	t := strings.TrimSpace(s)
	if t == "" {
		return true
	}
	if indent(s) < 4 {
		p.closeBlock()
		return false
	}
	b.to = n
	if b.console || b.r == nil {
		return true
	}
	p.readJestFailure(n, b, t)
	return true
}

func (p *parser) closeBlock() {
	b := p.st.blk
	p.st.blk = nil
	if b == nil || b.r == nil {
		return
	}
	if b.r.detail.IsZero() {
		b.r.detail.Stream, b.r.detail.From, b.r.detail.To = p.st.name, b.from, b.to
	}
}

// readJestFailure reads one line of a `●` block: the error line, Expected
// and Received, the stack, a suite's underlying error.
func (p *parser) readJestFailure(n int, b *block, t string) {
	r := b.r
	fi := r.info()
	if d := parseTSError(t); d != nil {
		if fi.class == "" || fi.class == "Error" || b.first {
			fi.class, fi.message = "build", capText(t)
			fi.file, fi.line, fi.col = d.file, d.line, d.col
			fi.set("code", d.code)
		}
		b.first = false
		d.tool, d.stream, d.from, d.to = "tsc", p.st.name, n, n
		if p.admit() {
			p.diags = append(p.diags, d)
		}
		return
	}
	if b.first {
		b.first = false
		switch {
		case strings.HasPrefix(t, "expect("):
			fi.class, fi.message = "AssertionError", capText(t)
			if i := strings.Index(t, ")."); i >= 0 {
				m := t[i+2:]
				if j := strings.IndexByte(m, '('); j > 0 {
					fi.set("matcher", m[:j])
				}
			}
		case strings.HasPrefix(t, `thrown: "Exceeded timeout`):
			fi.class, fi.message = "timeout", capText(strings.TrimPrefix(t, `thrown: "`))
		default:
			if cls, ok := errorClass(t); ok {
				fi.class, fi.message = cls, capText(t)
				p.syntaxLocation(r, cls, t)
			} else {
				fi.class, fi.message = "Error", capText(t)
				b.cause = true // a better error line may follow (suites)
			}
		}
		return
	}
	if b.cause && r.suite {
		if cls, ok := errorClass(t); ok {
			fi.class, fi.message = cls, capText(t)
			b.cause = false
			p.syntaxLocation(r, cls, t)
			return
		}
	}
	if v, ok := strings.CutPrefix(t, "Expected:"); ok {
		fi.set("expected", strings.TrimSpace(v))
		return
	}
	if v, ok := strings.CutPrefix(t, "Received:"); ok {
		fi.set("received", strings.TrimSpace(v))
		return
	}
	if f, l, c, ok := frame(t); ok {
		fi.location(f, l, c)
	}
}

// syntaxLocation reads babel's "SyntaxError: /abs/src/a.test.js: Unexpected
// token (1:11)" as a location in the suite's file.
func (p *parser) syntaxLocation(r *rec, cls, t string) {
	if !r.suite || r.fi != nil && r.fi.file != "" {
		return
	}
	i := strings.LastIndex(t, " (")
	if i < 0 || !strings.HasSuffix(t, ")") {
		return
	}
	l, c, ok := strings.Cut(t[i+2:len(t)-1], ":")
	if !ok {
		return
	}
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil {
		return
	}
	fi := r.info()
	fi.file, fi.line, fi.col = r.pkg, line, col
}

// parseTSError recognises "src/a.test.ts:8:11 - error TS2322: Type …".
func parseTSError(t string) *diag {
	i := strings.Index(t, " - error TS")
	if i <= 0 {
		return nil
	}
	file, line, col, ok := evidence.SplitLocation(t[:i])
	if !ok || strings.ContainsAny(file, " \t") {
		return nil
	}
	rest := t[i+len(" - error "):]
	code, msg, ok := strings.Cut(rest, ": ")
	if !ok {
		return nil
	}
	return &diag{file: file, line: line, col: col, code: code, msg: capText(msg)}
}
