package diag

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// A loc is a location found at the start of a line, with the text after it.
type loc struct {
	file      string
	line, col int
	rest      string // the text after the location and its separator
	sev       evidence.Severity
	code      string
	msg       string // set by shapes that split the message themselves
	shape     string // which recogniser matched: "colon", "paren", "bracket", "compact", …
	tool      string // a tool the shape names unambiguously, else ""
	spaceSep  bool   // "file:12 message" with no colon after the line
	explicit  bool   // the severity was printed (not inferred)
	emptyBody bool   // nothing after the location
}

// Line shapes that need a regular expression. Everything else is hand-parsed.
var (
	// eslint compact: "/path/a.js: line 2, col 10, Error - msg (rule)"
	reCompact = lines.Lazy(`^(.+?): line (\d+), col (\d+), (Error|Warning|Info) - (.*)$`)
	// puppet-lint: "/m/init.pp - ERROR: msg on line 7" (optionally "(check: name)")
	rePuppet = lines.Lazy(`^(\S.*?) - (ERROR|WARNING|FIXED|IGNORED): (.*) on line (\d+)(?::(\d+))?(?: \(check: ([\w-]+)\))?$`)
	// scalastyle: "warning file=/a.scala message=msg line=6 column=7"
	reScalastyle = lines.Lazy(`^(error|warning|info) file=(\S+) message=(.*?)(?: line=(\d+))?(?: column=(\d+))?$`)
	// protolint and old cppcheck: "[a.proto:11:5] msg", "[a.c:3]: (error) msg"
	reBracketLoc = lines.Lazy(`^\[((?:[A-Za-z]:)?[^\s\[\]:]+):(\d+)(?::(\d+))?\]:?\s*(.*)$`)
	// tslint: "a.ts[418, 38]: msg", optionally "ERROR: (rule) a.ts[3, 5]: msg"
	reTslint = lines.Lazy(`^(?:(ERROR|WARNING): )?(?:\(([\w-]+)\) )?(\S+)\[(\d+), (\d+)\]: (.*)$`)
	// Maven/javac via maven: "/a/App.java:[12,5] msg"
	reMaven = lines.Lazy(`^(\S+?):\[(\d+),(\d+)\]\s*(.*)$`)
	// Kotlin: "e: /a/b.kt: (3, 5): msg"
	reKotlinOld = lines.Lazy(`^(\S+?): \((\d+), (\d+)\): (.*)$`)
	// The linker: "main.c:(.text+0x9): undefined reference to `f'"
	reLinkerLoc = lines.Lazy(`^([^\s:]+):\((\.?[\w.$@]+)(?:\+0x[0-9a-fA-F]+)?\): (.*)$`)
	// black: "error: cannot format a.py: Cannot parse: 1:3: text" (newer: "Cannot parse for target version …: 1:3: text")
	reBlackParse = lines.Lazy(`^error: cannot format (.+?): (Cannot parse.*?): (\d+):(\d+): (.*)$`)
	reBlackWould = lines.Lazy(`^(?:would reformat|Would reformat:) (.+)$`)
	// eslint stylish and stylelint rows under a file header: "  1:7  error  msg  rule"
	reStylishRow = lines.Lazy(`^\s+(\d+):(\d+)\s+(error|warning|info|✖|⚠|×|‼|ℹ)\s+(.*)$`)
)

// msbuildPrefix strips the "12>" node prefix msbuild puts on lines.
var reMSBuildNode = lines.Lazy(`^\d+>`)

// findLoc recognises a diagnostic location at the start of s (which has its
// indentation removed). It reports ok=false when s does not start with one.
func findLoc(s string) (l loc, ok bool) {
	if s == "" {
		return l, false
	}
	switch s[0] {
	case '[':
		if m := reBracketLoc.FindStringSubmatch(s); m != nil {
			l = loc{file: m[1], line: atoi(m[2]), col: atoi(m[3]), rest: m[4], shape: "bracket"}
			return l, plausiblePath(l.file, true)
		}
		return l, false
	}
	if m := compactMatch(s); m != nil {
		l = loc{file: m[1], line: atoi(m[2]), col: atoi(m[3]), shape: "compact", tool: "eslint", explicit: true}
		l.sev = normSeverity(m[4])
		l.msg, l.code = splitTrailingCode(m[5])
		return l, true
	}
	if strings.Contains(s, " - ") && strings.Contains(s, " on line ") {
		if m := rePuppet.FindStringSubmatch(s); m != nil {
			l = loc{file: m[1], line: atoi(m[4]), col: atoi(m[5]), shape: "puppet", tool: "puppet-lint", explicit: true}
			l.sev = normSeverity(m[2])
			l.msg = m[3]
			l.code = m[6]
			return l, true
		}
	}
	if strings.HasPrefix(s, "error file=") || strings.HasPrefix(s, "warning file=") || strings.HasPrefix(s, "info file=") {
		if m := reScalastyle.FindStringSubmatch(s); m != nil {
			l = loc{file: m[2], line: atoi(m[4]), col: atoi(m[5]), shape: "scalastyle", tool: "scalastyle", explicit: true}
			l.sev = normSeverity(m[1])
			l.msg = m[3]
			return l, true
		}
	}
	if strings.Contains(s, ", ") && strings.Contains(s, "]: ") {
		if m := reTslint.FindStringSubmatch(s); m != nil && plausiblePath(m[3], true) {
			l = loc{file: m[3], line: atoi(m[4]), col: atoi(m[5]), shape: "tslint", tool: "tslint"}
			if m[1] != "" {
				l.sev, l.explicit = normSeverity(m[1]), true
			}
			l.code = m[2]
			l.msg = m[6]
			return l, true
		}
	}
	if l, ok := parenLoc(s); ok {
		return l, true
	}
	if strings.Contains(s, ":[") {
		if m := reMaven.FindStringSubmatch(s); m != nil && plausiblePath(m[1], true) {
			return loc{file: m[1], line: atoi(m[2]), col: atoi(m[3]), rest: m[4], shape: "maven"}, true
		}
	}
	if strings.Contains(s, ": (") {
		if m := reKotlinOld.FindStringSubmatch(s); m != nil && plausiblePath(m[1], true) {
			return loc{file: m[1], line: atoi(m[2]), col: atoi(m[3]), rest: m[4], shape: "kotlin"}, true
		}
	}
	return colonLoc(s)
}

// parenLoc recognises "path(12,5): rest" and "path(12): rest" (msbuild, dotnet,
// tsc, Fortran). The path may hold spaces and parentheses; the location is the
// first "(digits[,digits]):" group.
func parenLoc(s string) (loc, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '(' || i == 0 {
			continue
		}
		j := i + 1
		line, j2 := digits(s, j)
		if j2 == j {
			continue
		}
		j = j2
		col := 0
		if j < len(s) && s[j] == ',' {
			c, k := digits(s, j+1)
			if k == j+1 {
				continue
			}
			col, j = c, k
			// msbuild ranges: (line,col,endline,endcol)
			for n := 0; n < 2 && j < len(s) && s[j] == ','; n++ {
				_, k := digits(s, j+1)
				if k == j+1 {
					break
				}
				j = k
			}
		}
		if j+1 >= len(s) || s[j] != ')' || s[j+1] != ':' {
			continue
		}
		path := strings.TrimSpace(s[:i])
		if !plausibleSpacedPath(path) {
			return loc{}, false
		}
		return loc{file: path, line: line, col: col, rest: strings.TrimLeft(s[j+2:], " \t"), shape: "paren"}, true
	}
	return loc{}, false
}

// colonLoc recognises "path:line[:col]<sep>rest" where sep is ":", " - " (tsc
// pretty) or a space (fasterer, kotlin), and "path:line:" with nothing after.
func colonLoc(s string) (loc, bool) {
	start := 0
	if len(s) >= 3 && isLetter(s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/') {
		start = 2
	}
	i := strings.IndexByte(s[start:], ':')
	if i <= 0 {
		return loc{}, false
	}
	i += start
	path := s[:i]
	line, j := digits(s, i+1)
	if j == i+1 {
		return loc{}, false
	}
	l := loc{file: path, line: line, shape: "colon"}
	if j+1 < len(s) && s[j] == ':' && isDigit(s[j+1]) {
		c, k := digits(s, j+1)
		l.col, j = c, k
		// "path:l:c-c2:" or "path:l:c:l2:c2:" ranges: skip the end.
		if j+1 < len(s) && s[j] == '-' && isDigit(s[j+1]) {
			_, j = digits(s, j+1)
		}
	}
	switch {
	case j == len(s):
		l.emptyBody = true
	case s[j] == ':':
		l.rest = s[j+1:]
	case s[j] == ' ' || s[j] == '\t':
		l.rest = s[j:]
		if !strings.HasPrefix(strings.TrimLeft(l.rest, " \t"), "- ") {
			l.spaceSep = true
		}
	default:
		return loc{}, false
	}
	if !plausiblePath(path, l.col > 0) {
		return loc{}, false
	}
	if l.spaceSep {
		// "file:12 message" only for paths with an extension, and never a Go
		// stack frame ("panic.go:770 +0x132").
		r := strings.TrimLeft(l.rest, " \t")
		if l.col == 0 && !hasExt(path) || r == "" || strings.HasPrefix(r, "+0x") || isDigit(r[0]) {
			return loc{}, false
		}
	}
	if l.rest != "" && l.rest[0] != ' ' && l.rest[0] != '\t' && !l.spaceSep {
		// buf prints "file:17:1:Message" with no space; accept it only with a column.
		if l.col == 0 {
			return loc{}, false
		}
	}
	return l, true
}

// plausiblePath reports whether p can be a file path as tools print them.
// Bare names without a slash or a dot (Gemfile) need a column to count.
func plausiblePath(p string, haveCol bool) bool {
	if p == "" || len(p) > 4096 || p[0] == '-' {
		return false
	}
	if p[0] == '<' && p[len(p)-1] == '>' {
		return true // <stdin>, <string>
	}
	letter, sep := false, false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '|' || c == '*' || c == '?' || c == '=' || c == ',' || c == ';':
			return false
		case c == '/' || c == '\\' || c == '.':
			sep = true
		case isLetter(c) || c >= 0x80:
			letter = true
		}
	}
	if !letter {
		return false
	}
	switch strings.ToLower(p) {
	case "http", "https", "ftp", "file", "mailto", "data":
		return false
	}
	if !sep && !haveCol {
		return false
	}
	if !sep && isLogLevel(p) {
		return false
	}
	return true
}

// plausibleSpacedPath accepts Windows paths with spaces ("C:\Program Files (x86)\…").
func plausibleSpacedPath(p string) bool {
	if p == "" || len(p) > 4096 || strings.ContainsAny(p, "\"'`<>|*?\t") {
		return false
	}
	if strings.IndexByte(p, ' ') >= 0 {
		// Spaces only inside something that is clearly a path.
		if !(len(p) > 2 && isLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) && p[0] != '/' {
			return false
		}
	}
	return plausiblePath(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(p, " ", "_"), "(", "_"), ")", "_"), true) && hasExt(p)
}

func isLogLevel(s string) bool {
	switch strings.ToUpper(s) {
	case "INFO", "WARN", "WARNING", "ERROR", "DEBUG", "TRACE", "FATAL", "NOTE", "HINT", "LOG", "TIME", "AT", "LINE":
		return true
	}
	return false
}

func hasExt(p string) bool {
	base := p
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	dot := strings.LastIndexByte(base, '.')
	return dot > 0 && dot < len(base)-1 || dot == 0 && len(base) > 1
}

// A severity word at the start of a message: "error:", "warning[W0]:",
// "[warning]", "(error)", "error TS2322:", "- error TS2322:".
var (
	reLeadSev    = lines.Lazy(`^(?i)(fatal error|internal compiler error|error|warning|warn|note|info|information|hint|help|remark|suggestion|style|performance|portability|convention|refactor|fatal|critical|ignore|ignored|fixed|message)(?:\[([^\]\s]+)\]|\s+([A-Z]{1,5}\d{2,6}))?\s*:\s*`)
	reBracketSev = lines.Lazy(`^(?i)[\[(](fatal error|error|warning|warn|note|info|information|hint|style|performance|portability|debug)[\])]\s+`)
	// Rubocop-style single letters: "C: ", "W: ", "E: ", "F: ", "R: ", "I: ".
	reLetterSev = lines.Lazy(`^([CWEFRI]): (?:\[(?:Correctable|Corrected|Todo)\] )?`)
	// pylint: "C0114: msg (symbol)"
	rePylintCode = lines.Lazy(`^([CRWEFI]\d{4}): `)
	// flake8, pycodestyle, ruff, luacheck with codes: "E501 line too long", "F401 [*] msg"
	rePyCode = lines.Lazy(`^([A-Z]{1,8}\d{2,4})(?:\s+\[\*\])?\s+`)
	// ansible-lint and friends: "[E201] msg"
	reBracketCode = lines.Lazy(`^\[([A-Za-z][\w.-]*\d[\w.-]*|[a-z][\w-]*\[[\w-]+\])\]\s+`)
	// rubocop/standard cop names and reek smells: "Style/Foo: msg", "FeatureEnvy: msg"
	reCopCode = lines.Lazy(`^([A-Z][A-Za-z0-9]+(?:/[A-Z][A-Za-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+): `)
	// Trailing codes: "[-Wunused]" (gcc), "  [arg-type]" (mypy), "(SA4006)", "(errcheck)", "(no-unused-vars)".
	reTrailBracket = lines.Lazy(`\s\[([\w=+-]*[A-Za-z][\w=+.-]*(?:,[\w=+.-]+)*)\]$`)
	reTrailParen   = lines.Lazy(`\s\(([@\w][\w@/.-]*\w)\)$`)
)

// classify splits the text after a location into severity, code and message.
func classify(rest string) (sev evidence.Severity, code, msg string, explicit bool, tscPretty bool) {
	msg = strings.TrimSpace(rest)
	if strings.HasPrefix(msg, "- ") {
		msg = strings.TrimLeft(msg[2:], " ")
		tscPretty = true
	}
	if m := reLeadSev.FindStringSubmatchIndex(msg); m != nil {
		word := msg[m[2]:m[3]]
		sev, explicit = normSeverity(word), true
		if m[4] >= 0 {
			code = msg[m[4]:m[5]]
		} else if m[6] >= 0 {
			code = msg[m[6]:m[7]]
		}
		msg = msg[m[1]:]
		if !tscPretty || !strings.HasPrefix(code, "TS") {
			tscPretty = false
		}
	} else if m := reBracketSev.FindStringSubmatchIndex(msg); m != nil {
		sev, explicit = normSeverity(msg[m[2]:m[3]]), true
		msg = msg[m[1]:]
		tscPretty = false
	} else {
		tscPretty = false
		if m := reLetterSev.FindStringSubmatchIndex(msg); m != nil {
			sev, explicit = letterSeverity(msg[m[2]]), true
			msg = msg[m[1]:]
		} else if m := rePylintCode.FindStringSubmatchIndex(msg); m != nil {
			code = msg[m[2]:m[3]]
			sev, explicit = letterSeverity(code[0]), true
			msg = msg[m[1]:]
		}
	}
	if code == "" {
		if m := rePyCode.FindStringSubmatchIndex(msg); m != nil {
			code = msg[m[2]:m[3]]
			msg = msg[m[1]:]
		} else if m := reBracketCode.FindStringSubmatchIndex(msg); m != nil {
			code = msg[m[2]:m[3]]
			msg = msg[m[1]:]
		} else if m := reCopCode.FindStringSubmatchIndex(msg); m != nil {
			code = msg[m[2]:m[3]]
			msg = msg[m[1]:]
			if sev == "" {
				switch {
				case strings.HasSuffix(code, "Error") && !strings.Contains(code, "/"):
					sev, explicit = evidence.SeverityError, true
				case strings.HasSuffix(code, "Warning") && !strings.Contains(code, "/"):
					sev, explicit = evidence.SeverityWarning, true
				}
			}
		}
	}
	if code == "" {
		var c string
		if msg, c = splitTrailingCode(msg); c != "" {
			code = c
		}
	}
	// "[*]" marks a fixable finding (ruff); it is not part of the message.
	msg = strings.TrimPrefix(msg, "[*] ")
	return sev, code, msg, explicit, tscPretty
}

// splitTrailingCode removes a trailing "[code]" or " (code)" from msg.
func splitTrailingCode(msg string) (string, string) {
	msg = strings.TrimRight(msg, " \t")
	if m := reTrailBracket.FindStringSubmatchIndex(msg); m != nil {
		return strings.TrimRight(msg[:m[0]], " \t"), msg[m[2]:m[3]]
	}
	if m := reTrailParen.FindStringSubmatchIndex(msg); m != nil {
		c := msg[m[2]:m[3]]
		if hasLetter(c) && len(c) >= 2 {
			return strings.TrimRight(msg[:m[0]], " \t"), c
		}
	}
	return msg, ""
}

// normSeverity maps a tool's severity word to the four levels.
func normSeverity(w string) evidence.Severity {
	switch strings.ToLower(strings.TrimSpace(w)) {
	case "error", "fatal error", "fatal", "critical", "internal compiler error", "err", "e", "failure", "✖", "×":
		return evidence.SeverityError
	case "warning", "warn", "w", "⚠", "‼":
		return evidence.SeverityWarning
	case "note", "remark", "help", "n":
		return evidence.SeverityNote
	case "info", "information", "hint", "suggestion", "style", "performance", "portability",
		"convention", "refactor", "ignore", "ignored", "fixed", "message", "i", "ℹ", "debug":
		return evidence.SeverityInfo
	}
	return ""
}

// letterSeverity maps pylint's and rubocop's category letters: E and F
// (error, fatal) are errors, W warnings, C and R (convention, refactor) and I
// (informational) are info.
func letterSeverity(c byte) evidence.Severity {
	switch c {
	case 'E', 'F':
		return evidence.SeverityError
	case 'W':
		return evidence.SeverityWarning
	default:
		return evidence.SeverityInfo
	}
}

// pySeverity maps flake8, pycodestyle and ruff codes. Codes that mean the file
// cannot run are errors: E9 (syntax and I/O errors), F63 (invalid comparisons),
// F7 (syntax errors pyflakes finds: return or break outside their scope), F82
// (undefined names). Everything else — style (E, W), pyflakes hygiene (other F),
// complexity (C), naming (N), docstrings (D), plugins — is a warning.
func pySeverity(code string) evidence.Severity {
	switch {
	case strings.HasPrefix(code, "E9"), strings.HasPrefix(code, "F63"),
		strings.HasPrefix(code, "F7"), strings.HasPrefix(code, "F82"):
		return evidence.SeverityError
	case code == "invalid-syntax", code == "syntax-error":
		return evidence.SeverityError
	}
	return evidence.SeverityWarning
}

// isPyCode reports whether code looks like a flake8/ruff code.
func isPyCode(code string) bool {
	n := 0
	for n < len(code) && code[n] >= 'A' && code[n] <= 'Z' {
		n++
	}
	if n == 0 || n > 8 {
		return false
	}
	d := len(code) - n
	if d < 2 || d > 4 {
		return false
	}
	for i := n; i < len(code); i++ {
		if !isDigit(code[i]) {
			return false
		}
	}
	return true
}

// caretCol returns the 1-based column of the first '^' in a caret line.
func caretCol(s string) int {
	if i := strings.IndexByte(s, '^'); i >= 0 {
		return i + 1
	}
	return 0
}

// isCaretLine reports whether s is a caret/underline line: "   ^~~~", "  ~~^~~", "^^^".
func isCaretLine(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return false
	}
	marks := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '^', '~':
			marks++
		case ' ', '\t', '-', '+', '|':
		default:
			return false
		}
	}
	return marks > 0
}

// isGutterLine reports whether s is a source excerpt line with a gutter:
// "    3 | int x;", "      |     ^", "  |", "11 -     takes(1, 2);" (rust suggestions).
func isGutterLine(s string) bool {
	t := strings.TrimLeft(s, " \t")
	if t == "" {
		return false
	}
	if t[0] == '|' {
		return true
	}
	n, j := digits(t, 0)
	_ = n
	if j == 0 {
		return false
	}
	r := strings.TrimLeft(t[j:], " ")
	return r == "|" || strings.HasPrefix(r, "| ") || strings.HasPrefix(r, "|\t") ||
		(len(r) > 1 && (r[0] == '-' || r[0] == '+' || r[0] == '~') && r[1] == ' ' && len(t[j:]) > len(r))
}

// indentOf is the width of the leading whitespace (a tab counts as one).
func indentOf(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func digits(s string, i int) (int, int) {
	n, j := 0, i
	for j < len(s) && isDigit(s[j]) && j-i < 9 {
		n = n*10 + int(s[j]-'0')
		j++
	}
	if j < len(s) && isDigit(s[j]) { // too many digits: not a line number
		return 0, i
	}
	return n, j
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
}

func compactMatch(s string) []string {
	if !strings.Contains(s, ": line ") {
		return nil
	}
	return reCompact.FindStringSubmatch(s)
}
