package diag

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Limits that bound memory whatever the output.
const (
	// MaxItems caps the diagnostics and summaries itemised from one run; the
	// rest are counted in an item-cap loss and stay reachable in the streams.
	MaxItems = 100_000
	// MaxMessage caps the bytes of message text kept on an item; the full text
	// is always behind the item's span.
	MaxMessage = 400
)

// ErrNoDiagnostics is returned when a non-empty output holds nothing this
// profile recognises, so the registry can fall back to a general profile.
var ErrNoDiagnostics = errors.New("diag: no diagnostics or tool summary in the output")

// Parse extracts diagnostics and tool summaries from stdout, then stderr.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	p := newParser(src)
	for _, st := range orderedStreams(src) {
		if st.Open == nil {
			continue
		}
		rc, err := st.Open()
		if err != nil {
			return nil, fmt.Errorf("diag: open %s: %w", st.Name, err)
		}
		p.beginStream(st.Name)
		err = lines.Scan(ctx, rc, func(n int, line []byte, _ bool) error {
			p.line(n, line)
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("diag: read %s: %w", st.Name, err)
		}
		p.endStream()
	}
	// The exit status once the streams are read: a capture parsed while it
	// runs knows it only at its end.
	p.exit = src.Exit()
	return p.finish()
}

func orderedStreams(src *evidence.Source) []evidence.Stream {
	var out []evidence.Stream
	for _, name := range []string{evidence.Stdout, evidence.Stderr} {
		for _, st := range src.Streams {
			if st.Name == name {
				out = append(out, st)
			}
		}
	}
	for _, st := range src.Streams {
		if st.Name != evidence.Stdout && st.Name != evidence.Stderr {
			out = append(out, st)
		}
	}
	return out
}

type blockKind int

const (
	blockPlain blockKind = iota
	blockRust            // rustc/ruff: header, "--> loc", gutter lines, "= note:", until a blank line
	blockTSC             // tsc --pretty: header, blank, numbered source, caret
)

// open is the diagnostic whose block is still being read.
type open struct {
	kind      blockKind
	indent    int
	last      int    // last line attached
	unknownAt int    // an unclassified line right after the block: maybe a source line above a caret
	sbt       string // the "[error]" prefix of an sbt/maven header
	haveLoc   bool   // rust: the "-->" location was seen
	helped    bool   // rust: the first "help:" line was added to the message
	parent    int    // for notes: the item they belong to, else -1
	mypy      bool   // mypy --pretty wraps messages onto unindented lines
}

type prevLine struct {
	n        int
	text     string
	indent   int
	unknown  bool
	unparsed bool
}

type parser struct {
	curN     int    // the line being read
	curText  string // its text, cleaned and trimmed
	g        *evidence.Graph
	argvTool string
	exit     int
	stream   string

	cur     int // index of the open item in g.Items, -1 when none
	st      open
	ctxFrom int // first line of pending gcc context ("In file included from"), 0 when none
	lastTop int // the last diagnostic that was not a note, for notes to attach to
	fileHdr string
	hdrAt   int // line of the last unclassified unindented line (an eslint file header?)
	hdrText string
	goPkg   string
	recap   bool // msbuild repeats every diagnostic after "Build FAILED."
	// recapShape is set while adding an msbuild-shaped diagnostic, the only
	// kind the recap repeats; only those keys are remembered.
	recapShape bool
	keys       map[string]bool // diagnostic keys seen, for the recap
	prev       prevLine

	diags, dropped int
	unparsed       int
	lineUnparsed   bool // the line being read was counted in unparsed
	firstUnparsed  string
	reported       map[string]int  // errors the tools' summaries count, per tool
	summarised     map[string]bool // tools that printed a summary
	sumFail        bool
	sumPass        bool
	nonBlank       int
}

func newParser(src *evidence.Source) *parser {
	tool := ToolOf(src.Argv)
	return &parser{
		g:        &evidence.Graph{Profile: Name, Version: Version, Tool: tool, Items: []evidence.Item{}},
		argvTool: tool,
		cur:      -1,
		lastTop:  -1,
		keys:     map[string]bool{},
		reported: map[string]int{}, summarised: map[string]bool{},
	}
}

func (p *parser) beginStream(name string) {
	p.stream = name
	p.cur, p.ctxFrom, p.lastTop = -1, 0, -1
	p.fileHdr, p.hdrAt, p.hdrText, p.goPkg = "", 0, "", ""
	p.recap = false
	p.prev = prevLine{}
}

func (p *parser) endStream() { p.closeCur() }

func (p *parser) line(n int, raw []byte) {
	text := strings.TrimRight(string(lines.Clean(raw)), " \t")
	t := strings.TrimLeft(text, " \t")
	indent := len(text) - len(t)
	p.curN, p.curText = n, t
	p.lineUnparsed = false
	unknown := false
	defer func() {
		p.prev = prevLine{n: n, text: t, indent: indent, unknown: unknown, unparsed: p.lineUnparsed}
	}()
	if t == "" {
		p.blank()
		return
	}
	p.nonBlank++
	if p.cur >= 0 && p.continues(n, text, t, indent) {
		return
	}
	if summaryPrefilter(t) {
		if s, ok := matchSummary(text); ok {
			p.closeCur()
			p.ctxFrom = 0
			if !s.noise {
				p.addSummary(n, s)
			}
			return
		}
	}
	if gccContext(text) {
		p.closeCur()
		if p.ctxFrom == 0 {
			p.ctxFrom = n
		}
		return
	}
	if p.header(n, t, indent) {
		return
	}
	if strings.HasPrefix(t, "--> ") && p.arrowHeader(n, t) {
		return
	}
	if p.location(n, text, t, indent) {
		return
	}
	if indent == 0 && p.rustHeader(n, t) {
		return
	}
	if p.progLine(n, t) {
		return
	}
	if m := reStylishRow.FindStringSubmatch(text); m != nil {
		p.stylishRow(n, m)
		return
	}
	unknown = true
	p.unclassified(n, t, indent)
}

func (p *parser) blank() {
	if p.cur >= 0 {
		if p.st.kind == blockTSC {
			p.st.unknownAt = 0
		} else {
			p.closeCur()
		}
	}
	p.ctxFrom, p.hdrAt = 0, 0
}

var (
	reRustSub     = lines.Lazy(`^(?:note|help|warning|suggestion)(?:\[[^\]]*\])?: `)
	reLintAttr    = lines.Lazy("#\\[(?:warn|deny|forbid)\\(([\\w:]+)\\)\\]")
	reHlintCont   = lines.Lazy(`^(?:Found|Perhaps|Note|Why not|Why Not):`)
	reTSCSource   = lines.Lazy(`^\d+ `)
	reSbtPrefix   = lines.Lazy(`^\[(error|warn|warning|info|ERROR|WARNING|WARN|INFO)\]\s`)
	reGoPkg       = lines.Lazy(`^# (\[?[\w./~-]+(?: \[[\w./~-]+\.test\])?\]?)$`)
	rePylintMod   = lines.Lazy(`^\*{5,} Module (\S+)`)
	reReekHeader  = lines.Lazy(`^(\S.*?) -- (\d+) warnings?:$`)
	reBuildResult = lines.Lazy(`^Build (FAILED|succeeded)\.$`)
	reRustHeader  = lines.Lazy(`^(error|warning|note|help)(?:\[([^\]\s]+)\])?: (.*)$`)
	reArrowHead   = lines.Lazy(`^([A-Z][A-Z0-9]*[0-9]+|[a-z][a-z0-9-]*(?:\[[\w-]+\])?)(?:\s+\[\*\])?:?\s+(.+)$`)
	reProgSev     = lines.Lazy(`^([\w.+/\\-]+): (fatal error|internal compiler error|error|warning|note): (.*)$`)
	reLinker      = lines.Lazy(`^(?:\S*/)?(ld|ld\.\w+|lld|ld64\.lld|gold|collect2): (.*)$`)
	reMakeLoc     = lines.Lazy(`^(\S+):(\d+): \*\*\* (.*)$`)
	reMakeErr     = lines.Lazy(`^g?make(?:\[\d+\])?: \*\*\* (.*)$`)
	reSevPrefix   = lines.Lazy(`^(error|warning|ERROR|WARNING|Error|Warning|fatal error)\s*:\s*`)
	reErrorish    = lines.Lazy(`(?:(?i:(?:^|[\s\[(])(?:error|fatal)(?:\]|:|\[|\s+[A-Z]+\d+:))|\bERROR\b)`)
	reGccContext  = lines.Lazy(`^(?:In file included from \S+:\d+|\s+from \S+:\d+[,:]$|\S.*?: (?:In (?:member |static member |)function|In constructor|In destructor|In instantiation of|In substitution of|In lambda function|In copy constructor|At global scope|At top level)\b.*:$|\S+:\d+:\d+:\s+(?:required from|required by|in expansion of|in definition of|instantiated from|recursively required|in 'constexpr' expansion|in instantiation))`)
)

func gccContext(text string) bool {
	c := strings.TrimLeft(text, " \t")
	if c == "" {
		return false
	}
	switch c[0] {
	case 'I', 'f':
	default:
		if !strings.Contains(text, ": In ") && !strings.Contains(text, ": At ") && !strings.Contains(text, ":   ") {
			return false
		}
	}
	return reGccContext.MatchString(text)
}

// continues reports whether the line belongs to the open diagnostic's block,
// and attaches it when it does.
func (p *parser) continues(n int, text, t string, indent int) bool {
	st := &p.st
	it := &p.g.Items[p.cur]
	switch st.kind {
	case blockRust:
		switch {
		case strings.HasPrefix(t, "--> "):
			if !st.haveLoc {
				if l, ok := colonLoc(strings.TrimSpace(t[4:]) + ":"); ok {
					it.File, it.Line, it.Col = l.file, l.line, l.col
					if it.Tool == "" && strings.HasSuffix(l.file, ".rs") {
						it.Tool = "rustc"
					}
				}
				st.haveLoc = true
			}
		case strings.HasPrefix(t, "::: "), strings.HasPrefix(t, "|"), strings.HasPrefix(t, "= "), strings.HasPrefix(t, "..."),
			isGutterLine(text):
			if it.Code == "" {
				if m := reLintAttr.FindStringSubmatch(t); m != nil {
					it.Code = m[1]
				}
			}
		case indent > 0 && !reCargoStatus.MatchString(text):
		case indent == 0 && reRustSub.MatchString(t) && !strings.HasPrefix(t, "warning: "):
			// The fix the compiler suggests is part of the finding:
			// "help: remove `return`".
			if h, ok := strings.CutPrefix(t, "help: "); ok && !st.helped {
				st.helped = true
				it.Message = capMsg(it.Message + " (help: " + strings.TrimSuffix(h, ":") + ")")
			}
		default:
			return false
		}
		p.attach(n)
		return true
	case blockTSC:
		if indent > 0 || isGutterLine(text) || isCaretLine(text) || reTSCSource.MatchString(t) && !p.looksNewCheap(t) {
			p.attach(n)
			return true
		}
		return false
	}
	if st.sbt != "" {
		m := reSbtPrefix.FindStringSubmatch(t)
		if m == nil || "["+m[1]+"]" != st.sbt {
			return false
		}
		rest := t[len(m[0]):]
		if _, ok := findLoc(strings.TrimLeft(rest, " \t")); ok {
			return false
		}
		if _, ok := matchSummary(t); ok {
			return false
		}
		if isCaretLine(rest) && it.Col == 0 {
			it.Col = caretCol(rest)
		}
		p.attach(n)
		return true
	}
	if reCargoStatus.MatchString(text) || reStylishRow.MatchString(text) {
		return false
	}
	switch {
	case isGutterLine(text):
		p.attach(n)
		return true
	case isCaretLine(text):
		p.attach(n)
		return true
	case strings.HasPrefix(t, "= note:"), strings.HasPrefix(t, "= help:"):
		p.attach(n)
		return true
	case indent > st.indent:
		p.attach(n)
		return true
	case indent == 0 && reHlintCont.MatchString(t):
		p.attach(n)
		return true
	case (st.mypy || it.Tool == "mypy" && it.Code == "" && reTrailBracket.MatchString(t)) &&
		indent == 0 && n == st.last+1 && !p.looksNew(t):
		it.Message = capMsg(it.Message + " " + t)
		if it.Code == "" {
			it.Message, it.Code = splitTrailingCode(it.Message)
		}
		p.attach(n)
		return true
	}
	return false
}

// looksNewCheap is looksNew for lines that start with a digit: only a
// location or a summary can start there.
func (p *parser) looksNewCheap(t string) bool {
	if _, ok := colonLoc(t); ok {
		return true
	}
	_, ok := matchSummary(t)
	return ok
}

// looksNew reports whether t starts something of its own: a location or a summary.
func (p *parser) looksNew(t string) bool {
	if _, ok := findLoc(t); ok {
		return true
	}
	if summaryPrefilter(t) {
		if _, ok := matchSummary(t); ok {
			return true
		}
	}
	return reBlackWould.MatchString(t) || reRustHeader.MatchString(t) || reProgSev.MatchString(t) ||
		reLinker.MatchString(t) || gccContext(t)
}

func (p *parser) attach(n int) {
	p.st.last = n
	p.st.unknownAt = 0
}

// closeCur ends the open block and fixes its span, and a note's parent detail.
func (p *parser) closeCur() {
	if p.cur < 0 {
		return
	}
	it := &p.g.Items[p.cur]
	it.Span.To = p.st.last
	if it.Tool == "rustc" && strings.HasPrefix(it.Code, "clippy::") {
		it.Tool = "clippy"
	}
	if par := p.st.parent; par >= 0 {
		pi := &p.g.Items[par]
		from := pi.Span.From
		if !pi.Detail.IsZero() {
			from = pi.Detail.From
		}
		if it.Span.To > pi.Span.To {
			pi.Detail = evidence.Span{Stream: p.stream, From: from, To: it.Span.To}
		}
	}
	p.cur = -1
	p.st = open{}
}

func (p *parser) header(n int, t string, indent int) bool {
	switch {
	case t[0] == '#' && indent == 0:
		if m := reGoPkg.FindStringSubmatch(t); m != nil {
			p.closeCur()
			p.goPkg = strings.Trim(m[1], "[]")
			if i := strings.IndexByte(p.goPkg, ' '); i > 0 {
				p.goPkg = p.goPkg[:i]
			}
			p.ctxFrom = 0
			return true
		}
	case t[0] == '*':
		if m := rePylintMod.FindStringSubmatch(t); m != nil {
			p.closeCur()
			return true
		}
	case strings.HasPrefix(t, "Build "):
		if m := reBuildResult.FindStringSubmatch(t); m != nil {
			p.closeCur()
			p.recap = true
			v := "pass"
			if m[1] == "FAILED" {
				v = "fail"
			}
			p.addSummary(n, summary{tool: "msbuild", verdict: v, attrs: map[string]string{"result": m[1]}})
			return true
		}
	}
	if strings.HasSuffix(t, ":") && strings.Contains(t, " -- ") {
		if m := reReekHeader.FindStringSubmatch(t); m != nil {
			p.closeCur()
			p.fileHdr = m[1]
			return true
		}
	}
	return false
}

// arrowHeader handles a "--> file:l:c" line that follows a header with no
// location of its own (ruff's newer full format: "F401 [*] `os` imported but unused").
func (p *parser) arrowHeader(n int, t string) bool {
	if p.prev.n != n-1 || p.prev.indent != 0 || p.prev.text == "" {
		return false
	}
	// The header line must be free: unclassified, or a continuation line the
	// open block took (never the open block's own header).
	attached := p.cur >= 0 && p.st.last == n-1 && p.g.Items[p.cur].Span.From < n-1
	if !p.prev.unknown && !attached {
		return false
	}
	m := reArrowHead.FindStringSubmatch(p.prev.text)
	if m == nil {
		return false
	}
	l, ok := colonLoc(strings.TrimSpace(t[4:]) + ":")
	if !ok {
		return false
	}
	if p.cur >= 0 && p.st.last == n-1 {
		p.st.last = n - 2
	}
	p.closeCur()
	if p.prev.unparsed {
		p.unparsed--
	}
	code := m[1]
	tool := p.argvTool
	if tool == "" && (strings.HasSuffix(l.file, ".py") || strings.HasSuffix(l.file, ".pyi")) && isPyCode(code) {
		tool = "ruff"
	}
	sev := pySeverity(code)
	it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: tool, File: l.file, Line: l.line, Col: l.col,
		Severity: sev, Code: code, Message: capMsg(strings.TrimPrefix(m[2], "[*] ")),
		Span: evidence.Span{Stream: p.stream, From: n - 1, To: n}}
	if p.add(it, n-1, blockRust, 0, "") {
		p.st.haveLoc = true
		p.st.last = n
	}
	return true
}

// location handles lines that start with a file location, in every shape.
func (p *parser) location(n int, text, t string, indent int) bool {
	body, prefixSev, sbt, prefixTool := stripPrefixes(t)
	l, ok := findLoc(body)
	if !ok {
		if m := reSevPrefix.FindStringSubmatch(body); m != nil {
			if l2, ok2 := findLoc(body[len(m[0]):]); ok2 && !l2.emptyBody {
				l, ok = l2, true
				prefixSev = normSeverity(m[1])
			}
		}
	}
	if !ok {
		return p.specialLocation(n, t, indent)
	}
	if l.emptyBody {
		return false
	}
	sev, code, msg, explicit := l.sev, l.code, l.msg, l.explicit
	tsc := false
	if l.msg == "" && l.rest != "" || l.shape == "bracket" || l.shape == "paren" || l.shape == "colon" || l.shape == "maven" || l.shape == "kotlin" {
		var s2 evidence.Severity
		var c2 string
		var e2 bool
		s2, c2, msg, e2, tsc = classify(l.rest)
		if s2 != "" {
			sev, explicit = s2, e2
		}
		if c2 != "" && code == "" {
			code = c2
		}
	} else if l.shape == "tslint" {
		msg, code = l.msg, l.code
		if m2, c2 := splitTrailingCode(msg); c2 != "" && code == "" {
			msg, code = m2, c2
		}
	}
	if msg == "" && sev == "" && code == "" {
		return false
	}
	tool := p.locationTool(l, msg, code, explicit, sbt, prefixTool)
	if !explicit && prefixSev != "" {
		sev, explicit = prefixSev, true
	}
	attrs := map[string]string(nil)
	if sev == "" {
		sev = p.inferSeverity(tool, l.file, code, prefixTool)
		if sev == "" {
			sev = evidence.SeverityWarning
			attrs = map[string]string{"severity": "default"}
		}
	}
	if (tool == "golangci-lint" && code == "typecheck") || (isPyTool(tool) && isPyCode(code) && !explicit) {
		if tool == "golangci-lint" {
			sev = evidence.SeverityError
		} else {
			sev = pySeverity(code)
		}
	}
	if l.shape == "paren" {
		msg, attrs = msbuildProject(msg, attrs)
	}
	if code == "" {
		if m := reSorbetCode.FindStringSubmatch(msg); m != nil {
			code = m[1]
		}
	}
	it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: tool, File: l.file, Line: l.line, Col: l.col,
		Severity: sev, Code: code, Message: capMsg(msg), Attrs: attrs}
	if strings.HasSuffix(l.file, ".go") && p.goPkg != "" {
		it.Package = p.goPkg
	}
	kind := blockPlain
	if tsc {
		kind = blockTSC
	}
	p.recapShape = l.shape == "paren"
	added := p.add(it, n, kind, indent, sbt)
	p.recapShape = false
	if added {
		p.st.mypy = (p.argvTool == "mypy" || p.argvTool == "dmypy") && code == ""
	}
	return true
}

// locationTool names the tool behind a located diagnostic: the command's
// own, the line's, its prefix's, or a guess from the file and code.
func (p *parser) locationTool(l loc, msg, code string, explicit bool, sbt, prefixTool string) string {
	tool := p.argvTool
	if tool == "" {
		tool = l.tool
	}
	if tool == "" {
		tool = prefixTool
	}
	if tool == "" && strings.HasPrefix(msg, "cannot format") {
		tool = "black"
	}
	if tool == "" {
		tool = p.guessTool(l.file, code, explicit, sbt)
	}
	return tool
}

// msbuildProject moves the project msbuild names last in a message
// ("… [C:\src\App.csproj]") into the project attribute.
func msbuildProject(msg string, attrs map[string]string) (string, map[string]string) {
	if m := reProject.FindStringSubmatchIndex(msg); m != nil {
		if attrs == nil {
			attrs = map[string]string{}
		}
		attrs["project"] = msg[m[2]:m[3]]
		msg = strings.TrimRight(msg[:m[0]], " ")
	}
	return msg, attrs
}

// specialLocation handles locations only one tool prints: black's parse
// failures and check list, the linker's section offsets, make's own errors.
func (p *parser) specialLocation(n int, t string, indent int) bool {
	mk := func(tool, file string, line, col int, sev evidence.Severity, code, msg string) bool {
		if p.argvTool != "" && tool == "" {
			tool = p.argvTool
		}
		it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: tool, File: file, Line: line, Col: col,
			Severity: sev, Code: code, Message: capMsg(msg)}
		p.add(it, n, blockPlain, indent, "")
		return true
	}
	switch {
	case strings.HasPrefix(t, "error: cannot format "):
		if m := reBlackParse.FindStringSubmatch(t); m != nil {
			return mk("black", m[1], atoi(m[3]), atoi(m[4]), evidence.SeverityError, "", m[2]+": "+m[5])
		}
	case strings.HasPrefix(t, "would reformat ") || strings.HasPrefix(t, "Would reformat: "):
		if m := reBlackWould.FindStringSubmatch(t); m != nil {
			tool := "black"
			if strings.HasPrefix(t, "Would") {
				tool = "ruff"
			}
			return mk(tool, m[1], 0, 0, evidence.SeverityWarning, "", "would reformat")
		}
	}
	if strings.Contains(t, ":(") {
		if m := reLinkerLoc.FindStringSubmatch(t); m != nil && plausiblePath(m[1], true) {
			return mk("ld", m[1], 0, 0, evidence.SeverityError, "", m[3])
		}
	}
	if strings.Contains(t, ": *** ") {
		if m := reMakeLoc.FindStringSubmatch(t); m != nil {
			return mk("make", m[1], atoi(m[2]), 0, evidence.SeverityError, "", m[3])
		}
		if m := reMakeErr.FindStringSubmatch(t); m != nil {
			return mk("make", "", 0, 0, evidence.SeverityError, "", m[1])
		}
	}
	return false
}

// rustHeader opens a block for "error[E0308]: msg" / "warning: msg" at column
// 0; its location arrives on a following "-->" line, if at all.
func (p *parser) rustHeader(n int, t string) bool {
	m := reRustHeader.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	tool := p.argvTool
	it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: tool, Severity: normSeverity(m[1]), Code: m[2], Message: capMsg(m[3])}
	p.add(it, n, blockRust, 0, "")
	return true
}

// progLine handles diagnostics a program prints about itself, with no file:
// "collect2: error: ld returned 1 exit status", "gcc: fatal error: no input
// files", "/usr/bin/ld: cannot find -lfoo".
func (p *parser) progLine(n int, t string) bool {
	if m := reLinker.FindStringSubmatch(t); m != nil {
		rest := m[2]
		if lm := reLinkerLoc.FindStringSubmatch(rest); lm != nil {
			it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: "ld", File: lm[1], Severity: evidence.SeverityError, Message: capMsg(lm[3])}
			p.add(it, n, blockPlain, 0, "")
			return true
		}
		if strings.Contains(rest, ": in function ") || strings.HasSuffix(rest, ":") {
			p.closeCur()
			if p.ctxFrom == 0 {
				p.ctxFrom = n
			}
			return true
		}
		sev := evidence.SeverityError
		if w, r, ok := strings.Cut(rest, ": "); ok && normSeverity(w) != "" {
			sev, rest = normSeverity(w), r
		}
		it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: m[1], Severity: sev, Message: capMsg(rest)}
		p.add(it, n, blockPlain, 0, "")
		return true
	}
	if m := reProgSev.FindStringSubmatch(t); m != nil {
		it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: m[1], Severity: normSeverity(m[2]), Message: capMsg(m[3])}
		if hasExt(m[1]) {
			// A finding about a whole file: "pkg/a.py: error: Duplicate module named 'a'".
			it.Tool, it.File = p.argvTool, m[1]
		}
		p.add(it, n, blockPlain, 0, "")
		return true
	}
	return false
}

// stylishRow handles an eslint stylish or stylelint row under a file header.
func (p *parser) stylishRow(n int, m []string) {
	if p.hdrAt == n-1 && p.hdrAt > 0 {
		p.fileHdr = p.hdrText
		if p.prev.unparsed {
			p.unparsed--
		}
	}
	sev := normSeverity(m[3])
	tool := p.argvTool
	if tool == "" {
		tool = "eslint"
		if !isLetter(m[3][0]) {
			tool = "stylelint"
		}
	}
	msg, code := m[4], ""
	if parts := reWide.Split(m[4], -1); len(parts) >= 2 {
		last := parts[len(parts)-1]
		if reRule.MatchString(last) {
			code = last
			msg = strings.Join(parts[:len(parts)-1], "  ")
		}
	}
	it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: tool, File: p.fileHdr, Line: atoi(m[1]), Col: atoi(m[2]),
		Severity: sev, Code: code, Message: capMsg(strings.TrimSpace(msg))}
	p.add(it, n, blockPlain, indentOf(m[0]), "")
}

var (
	reProject    = lines.Lazy(`\s\[([^\[\]]+\.[a-z]*proj)\]$`)
	reSorbetCode = lines.Lazy(`\shttps://srb\.help/(\d+)$`)
	reWide       = lines.Lazy(`\s{2,}`)
	reRule       = lines.Lazy(`^[@\w][\w@/.-]*$`)
)

func (p *parser) unclassified(n int, t string, indent int) {
	if p.cur >= 0 {
		if p.st.unknownAt == 0 && n == p.st.last+1 {
			p.st.unknownAt = n
		} else {
			p.closeCur()
		}
	}
	p.ctxFrom = 0
	if indent == 0 {
		p.hdrAt, p.hdrText = n, t
	}
	if reErrorish.MatchString(t) {
		p.unparsed++
		p.lineUnparsed = true
		if p.firstUnparsed == "" {
			p.firstUnparsed = fmt.Sprintf("%s:L%d", p.stream, n)
		}
	}
}

// add appends a diagnostic and opens its block. It reports false when the
// item was not added (cap reached, or an msbuild recap repeat).
func (p *parser) add(it evidence.Item, n int, kind blockKind, indent int, sbt string) bool {
	p.closeCur()
	if p.recap && p.recapShape {
		if p.keys[it.Key()] {
			return false
		}
	}
	if p.diags >= MaxItems {
		p.dropped++
		p.ctxFrom = 0
		return false
	}
	if it.Severity == evidence.SeverityError && it.Class == "" && n == p.curN {
		// An error that stops the tool says so: "fatal error" is not
		// just "error".
		for _, w := range []string{"fatal error", "internal compiler error"} {
			if strings.Contains(p.curText, w+":") {
				it.Class = w
				break
			}
		}
	}
	from := n
	if p.ctxFrom > 0 && p.ctxFrom < n {
		from = p.ctxFrom
	}
	p.ctxFrom = 0
	it.Span = evidence.Span{Stream: p.stream, From: from, To: n}
	parent := -1
	if it.Severity == evidence.SeverityNote && p.lastTop >= 0 && kind != blockRust {
		parent = p.lastTop
		it.Rel = []evidence.Relation{{Type: "part-of", To: p.g.Items[parent].Key()}}
	}
	if kind == blockPlain && it.Code != "" && p.recapShape {
		p.keys[it.Key()] = true
	}
	p.g.Add(it)
	p.diags++
	p.cur = len(p.g.Items) - 1
	p.st = open{kind: kind, indent: indent, last: n, sbt: sbt, parent: parent}
	if it.Severity != evidence.SeverityNote {
		p.lastTop = p.cur
	}
	return true
}

func (p *parser) addSummary(n int, s summary) {
	switch s.tool {
	case "", "tsc", "ruff", "eslint", "scalastyle", "rubocop":
		// Lines several tools share ("Found 3 errors.", "7 problems"): argv knows better.
		if p.argvTool != "" {
			s.tool = p.argvTool
		}
	}
	p.summarised[s.tool] = true
	if countsErrors[s.tool] {
		p.reported[s.tool] += s.counts["errors"]
	}
	switch s.verdict {
	case "fail":
		p.sumFail = true
	case "pass":
		p.sumPass = true
	}
	if p.diags >= MaxItems {
		p.dropped++
		return
	}
	it := evidence.Item{Kind: evidence.KindSummary, Tool: s.tool, Name: s.name, Counts: s.counts, Attrs: s.attrs,
		Span: evidence.Span{Stream: p.stream, From: n, To: n}}
	p.g.Add(it)
	p.diags++
}

// stripPrefixes removes line prefixes that wrap a diagnostic: msbuild's
// "12>", sbt and maven's "[error] ", go vet's "vet: ", kotlinc's "e: ".
func stripPrefixes(t string) (body string, sev evidence.Severity, sbt string, tool string) {
	body = t
	if loc := reMSBuildNode.FindStringIndex(body); loc != nil {
		body = body[loc[1]:]
	}
	if m := reSbtPrefix.FindStringSubmatch(body); m != nil {
		sbt = "[" + m[1] + "]"
		sev = normSeverity(m[1])
		body = strings.TrimLeft(body[len(m[0]):], " \t")
		tool = "sbt"
		if m[1] == "ERROR" || m[1] == "WARNING" || m[1] == "INFO" {
			tool = "maven"
		}
		return body, sev, sbt, tool
	}
	switch {
	case strings.HasPrefix(body, "vet: "):
		return body[5:], evidence.SeverityError, "", "go vet"
	case strings.HasPrefix(body, "e: "), strings.HasPrefix(body, "w: "):
		s := evidence.SeverityError
		if body[0] == 'w' {
			s = evidence.SeverityWarning
		}
		return strings.TrimPrefix(body[3:], "file://"), s, "", "kotlinc"
	}
	return body, "", "", ""
}

// guessTool names the tool behind a diagnostic when argv did not, from what
// the line itself shows.
func (p *parser) guessTool(file, code string, explicit bool, sbt string) string {
	isPy := strings.HasSuffix(file, ".py") || strings.HasSuffix(file, ".pyi")
	switch {
	case sbt != "":
		return "sbt"
	case strings.HasPrefix(code, "TS") && len(code) > 2 && isDigit(code[2]):
		return "tsc"
	case strings.HasPrefix(code, "CS") || strings.HasPrefix(code, "MSB") || strings.HasPrefix(code, "NU") && len(code) > 2 && isDigit(code[2]):
		return "msbuild"
	case isPy && len(code) == 5 && rePylintCode.MatchString(code+": "):
		return "pylint"
	case isPy && isPyCode(code):
		return "flake8"
	case isPy && explicit:
		return "mypy"
	case strings.HasSuffix(file, ".go") && p.goPkg != "":
		return "go"
	}
	return ""
}

// inferSeverity decides the severity of a diagnostic that printed none.
// Compilers print only errors without a word; linters print findings. It
// returns "" when nothing is known.
func (p *parser) inferSeverity(tool, file, code, prefixTool string) evidence.Severity {
	if isPyTool(tool) && isPyCode(code) {
		return pySeverity(code)
	}
	switch tool {
	case "go", "tsc", "rustc", "cargo", "javac", "kotlinc", "scalac", "swiftc", "msbuild", "sorbet", "sbt", "maven":
		return evidence.SeverityError
	case "gcc", "clang":
		return evidence.SeverityNote // context such as "required from here"
	case "golangci-lint":
		if code == "typecheck" {
			return evidence.SeverityError
		}
		return evidence.SeverityWarning
	case "go vet":
		if prefixTool == "go vet" {
			return evidence.SeverityError
		}
		return evidence.SeverityWarning
	case "":
		if strings.HasSuffix(file, ".go") && p.goPkg != "" {
			return evidence.SeverityError
		}
		return ""
	}
	return evidence.SeverityWarning
}

func isPyTool(tool string) bool {
	switch tool {
	case "flake8", "pycodestyle", "pep8", "pyflakes", "ruff":
		return true
	}
	return false
}

// capMsg bounds message text, cutting at a rune boundary.
func capMsg(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
