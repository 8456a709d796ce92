package jest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// vitestLine reads vitest's reporter lines; false means the line is not
// vitest's.
func (p *parser) vitestLine(n int, s string) bool {
	st := &p.st
	if st.inTree { // jest's verbose tree uses the same marks
		return false
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	ind := indent(s)
	if ind <= 1 && (strings.HasPrefix(t, "stdout | ") || strings.HasPrefix(t, "stderr | ")) {
		st.vconsole = true
		return true
	}
	if ind <= 1 && strings.HasPrefix(t, "RUN  v") {
		p.vitestSeen = true
		return true
	}
	if rest, ok := strings.CutPrefix(t, "FAIL  "); ok && ind <= 1 && p.vitestFailHeader(n, rest) {
		return true
	}
	if strings.HasPrefix(t, "⎯") {
		p.closeVBlock()
		p.closeUDiag()
		switch {
		case strings.Contains(t, "Unhandled Error") || strings.Contains(t, "Unhandled Rejection"):
			st.unhandl = true
		case strings.Contains(t, "Failed Tests") || strings.Contains(t, "Failed Suites"):
			st.unhandl = false
		}
		return true
	}
	if st.unhandl {
		p.unhandledLine(n, s, t)
		return true
	}
	if ind >= 2 {
		if msg, ok := strings.CutPrefix(t, "→ "); ok {
			switch v := st.vlast.(type) {
			case *rec:
				if fi := v.info(); fi.alt == "" {
					fi.alt = capText(msg)
				}
			case *treeFail:
				if v.msg == "" {
					v.msg = capText(msg)
				}
			}
			return true
		}
	}
	return p.vitestMarkLine(n, ind, t)
}

// vitestFailHeader opens the failure report a "FAIL  file > test" line
// starts; it reports whether the line was one.
func (p *parser) vitestFailHeader(n int, rest string) bool {
	st := &p.st
	file, name, suite, ok := parseVitestFail(rest)
	if !ok {
		return false
	}
	p.vitestSeen = true
	p.closeVBlock()
	p.closeUDiag()
	st.unhandl = false
	if suite {
		name = SuiteName
	}
	r := p.get("vitest", file, name, n)
	if r != nil {
		r.suite = r.suite || suite
		p.markFail(r, n)
	}
	st.vblk = &block{r: r, from: n, to: n, first: true}
	return true
}

// vitestMarkLine reads a line that starts with a vitest mark (✓ × ↓ □ ❯): a
// verbose test line, a file line, or the tree under a file.
func (p *parser) vitestMarkLine(n, ind int, t string) bool {
	st := &p.st
	mark, rest, ok := vitestMark(t)
	if !ok {
		return false
	}
	st.vlast = nil
	if ind <= 1 && strings.Contains(rest, " > ") {
		p.vitestVerbose(n, mark, rest)
		return true
	}
	if ind <= 1 {
		if file, failed, ok := parseVitestFileLine(rest); ok {
			p.vitestSeen = true
			st.vfile = file
			if mark == "fail" || mark == "open" || failed > 0 {
				p.fileFailed[file] = true
			}
			return true
		}
		return false
	}
	// The tree under a file.
	if mark == "open" && strings.Contains(rest, " > ") { // vitest 1: ❯ src/a.test.ts > describe > test
		file, name, _ := strings.Cut(rest, " > ")
		if r := p.get("vitest", file, strings.TrimSpace(name), n); r != nil {
			p.markFail(r, n)
			st.vlast = r
		}
		return true
	}
	if mark == "fail" && st.vfile != "" && len(p.trees) < MaxItems {
		tf := &treeFail{stream: st.name, line: n, file: st.vfile, title: stripDuration(rest)}
		p.trees = append(p.trees, tf)
		st.vlast = tf
		return true
	}
	return mark != "open"
}

// vitestVerbose records a verbose reporter's test line:
// ✓ src/a.test.ts > describe > test 2ms
func (p *parser) vitestVerbose(n int, mark, rest string) {
	file, name, _ := strings.Cut(rest, " > ")
	if mark == "pass" || mark == "fail" {
		name = stripDuration(name)
	}
	r := p.get("vitest", file, strings.TrimSpace(name), n)
	if r == nil {
		return
	}
	p.vitestSeen = true
	p.mark(r, mark, n)
	p.st.vlast = r
}

// vitestMark reads the leading status mark of a vitest line.
func vitestMark(t string) (mark, rest string, ok bool) {
	for _, m := range []struct{ sym, mark string }{
		{"✓ ", "pass"}, {"√ ", "pass"}, {"× ", "fail"}, {"✗ ", "fail"}, {"↓ ", "skip"}, {"□ ", "todo"}, {"❯ ", "open"},
	} {
		if r, found := strings.CutPrefix(t, m.sym); found {
			return m.mark, strings.TrimSpace(r), true
		}
	}
	return "", "", false
}

// parseVitestFail reads `src/a.test.ts > describe > test` or
// `src/a.test.ts [ src/a.test.ts ]`.
func parseVitestFail(rest string) (file, name string, suite, ok bool) {
	rest = strings.TrimSpace(rest)
	if i := strings.Index(rest, " [ "); i > 0 && strings.HasSuffix(rest, " ]") && !strings.Contains(rest[:i], " > ") {
		return rest[:i], "", true, true
	}
	file, name, found := strings.Cut(rest, " > ")
	if !found || file == "" || strings.TrimSpace(name) == "" || strings.ContainsAny(file, " \t") {
		return "", "", false, false
	}
	return file, strings.TrimSpace(name), false, true
}

// parseVitestFileLine reads `src/a.test.ts (9 tests | 4 failed) 14ms`,
// `src/a.test.ts  (2 tests) 2ms` and `src/a.test.ts (3)`.
func parseVitestFileLine(rest string) (file string, failed int, ok bool) {
	file, tail, found := strings.Cut(rest, " ")
	if !found || !strings.ContainsAny(file, "./\\") {
		return "", 0, false
	}
	tail = strings.TrimSpace(tail)
	if !strings.HasPrefix(tail, "(") {
		return "", 0, false
	}
	end := strings.IndexByte(tail, ')')
	if end < 0 {
		return "", 0, false
	}
	inner := tail[1:end]
	first, _, _ := strings.Cut(inner, " ")
	first, _, _ = strings.Cut(first, "|")
	if _, err := strconv.Atoi(strings.TrimSpace(first)); err != nil {
		return "", 0, false
	}
	for part := range strings.SplitSeq(inner, "|") {
		num, word, ok := strings.Cut(strings.TrimSpace(part), " ")
		if ok && word == "failed" {
			failed, _ = strconv.Atoi(num)
		}
	}
	return file, failed, true
}

// stripDuration removes vitest's trailing " 12ms" / " 1.2s".
func stripDuration(s string) string {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return s
	}
	d := s[i+1:]
	var num string
	switch {
	case strings.HasSuffix(d, "ms"):
		num = d[:len(d)-2]
	case strings.HasSuffix(d, "s"):
		num = d[:len(d)-1]
	default:
		return s
	}
	if _, err := strconv.ParseFloat(num, 64); err != nil || num == "" {
		return s
	}
	return strings.TrimSpace(s[:i])
}

// vblockLine feeds a line to an open vitest FAIL block; false means the
// block ended and the line is for the caller.
func (p *parser) vblockLine(n int, s string) bool {
	b := p.st.vblk
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "⎯") || strings.HasPrefix(t, "FAIL  ") && indent(s) <= 1 ||
		strings.HasPrefix(t, "Test Files ") || strings.HasPrefix(t, "RUN  v") {
		p.closeVBlock()
		return false
	}
	if t == "" {
		return true
	}
	b.to = n
	if b.r == nil {
		return true
	}
	fi := b.r.info()
	if b.first {
		b.first = false
		if cls, ok := errorClass(t); ok {
			fi.class, fi.message = cls, capText(t)
			if strings.HasPrefix(t, "Error: Test timed out") {
				fi.class = "timeout"
			}
		} else {
			fi.class, fi.message = "Error", capText(t)
		}
		b.more = strings.HasSuffix(t, ":")
		return true
	}
	if b.more {
		// "Error: Transform failed with 1 error:" — the next line says which.
		b.more = false
		if _, _, _, isFrame := frame(t); !isFrame && !strings.HasPrefix(t, "╭─") {
			fi.message = capText(fi.message + " " + t)
		}
	}
	if d := parseTSError(t); d != nil && b.r.suite {
		fi.class, fi.message = "build", capText(t)
		fi.file, fi.line, fi.col = d.file, d.line, d.col
		return true
	}
	if loc, ok := strings.CutPrefix(t, "╭─["); ok && b.r.suite && fi.file == "" { // oxc's code frame
		if f, l, c, ok := evidence.SplitLocation(strings.TrimSuffix(strings.TrimSpace(loc), "]")); ok {
			fi.file, fi.line, fi.col = strings.TrimSpace(f), l, c
		}
		return true
	}
	if b.r.suite && fi.file == "" && strings.Contains(t, ": ERROR: ") { // esbuild: /abs/src/a.test.ts:2:11: ERROR: …
		loc, _, _ := strings.Cut(t, ": ERROR: ")
		if f, l, c, ok := evidence.SplitLocation(loc); ok && (f == b.r.pkg || strings.HasSuffix(f, "/"+b.r.pkg)) {
			fi.file, fi.line, fi.col = b.r.pkg, l, c
		}
		return true
	}
	if f, l, c, ok := frame(t); ok {
		fi.location(f, l, c)
	}
	return true
}

func (p *parser) closeVBlock() {
	b := p.st.vblk
	p.st.vblk = nil
	if b == nil || b.r == nil {
		return
	}
	if b.r.detail.IsZero() {
		b.r.detail = evidence.Span{Stream: p.st.name, From: b.from, To: b.to}
	}
}

// unhandledLine reads the Unhandled Errors section: each error becomes a
// diagnostic.
func (p *parser) unhandledLine(n int, s, t string) {
	st := &p.st
	if cls, ok := errorClass(t); ok && indent(s) <= 1 {
		p.closeUDiag()
		p.unhandled++
		st.udiag = &diag{tool: "vitest", stream: st.name, from: n, to: n, code: cls, msg: capText(t)}
		return
	}
	d := st.udiag
	if d == nil {
		return
	}
	if t != "" {
		d.to = n
	}
	if d.file == "" {
		if f, l, c, ok := frame(t); ok && projectFile(f) {
			d.file, d.line, d.col = f, l, c
		}
	}
}

func (p *parser) closeUDiag() {
	if d := p.st.udiag; d != nil && p.admit() {
		p.diags = append(p.diags, d)
	}
	p.st.udiag = nil
}

// mark sets a test's outcome from its reporter mark (pass, fail, skip,
// todo) on line n.
func (p *parser) mark(r *rec, mark string, n int) {
	switch mark {
	case "pass":
		r.pass = true
	case "fail":
		p.markFail(r, n)
	case "skip":
		r.skip = true
	case "todo":
		r.skip, r.todo = true, true
	}
}
