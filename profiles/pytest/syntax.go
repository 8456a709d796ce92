package pytest

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the line grammar: pure functions that recognise one line of
// pytest's terminal output. They never look at state; parse.go decides which
// of them apply where.

// banner splits a separator line drawn by pytest's TerminalWriter.sep:
// "==== title ====", with at least one fill character on each side. fill is the
// length of the left fill. A line of fill characters alone, and the "_ _ _ _"
// separator between traceback entries, are not banners.
func banner(s string, c byte) (title string, fill int, ok bool) {
	if len(s) < 5 || s[0] != c || s[len(s)-1] != c {
		return "", 0, false
	}
	i := 0
	for i < len(s) && s[i] == c {
		i++
	}
	j := len(s)
	for j > i && s[j-1] == c {
		j--
	}
	if j-i < 3 || s[i] != ' ' || s[j-1] != ' ' {
		return "", 0, false
	}
	title = s[i+1 : j-1]
	if title == "" || title[0] == ' ' || title[len(title)-1] == ' ' {
		return "", 0, false
	}
	if strings.Trim(title, string(c)+" ") == "" {
		return "", 0, false
	}
	return title, i, true
}

// width is the printed width of a line in characters, as pytest measures it.
func width(s string) int { return utf8.RuneCountInString(s) }

// Section titles pytest prints between "=" fills.
const (
	titleSession  = "test session starts"
	titleErrors   = "ERRORS"
	titleFailures = "FAILURES"
	titleWarnings = "warnings summary"
	titlePasses   = "PASSES"
	titleSummary  = "short test summary info"
	titleXFails   = "XFAILURES" // pytest 8, -rx
	titleXPasses  = "XPASSES"   // pytest 8, -rX
)

// countWords are the words pytest itself puts in its counts line. A counts
// line must use at least one of them; plugins may add others (pytest-subtests:
// "3 subtests passed"), which are kept as printed.
var countWords = map[string]string{
	"passed":     "passed",
	"failed":     "failed",
	"error":      "errors",
	"errors":     "errors",
	"skipped":    "skipped",
	"xfailed":    "xfailed",
	"xpassed":    "xpassed",
	"warning":    "warnings",
	"warnings":   "warnings",
	"deselected": "deselected",
	"rerun":      "rerun",
	"reruns":     "rerun",
}

// stats is pytest's final counts line: "6 failed, 10 passed, 2 errors in 0.27s",
// drawn between "=" fills, or bare under -q.
type stats struct {
	text   string         // the counts without the duration: "6 failed, 10 passed, 2 errors"
	counts map[string]int // keyed by pytest's own words, singulars folded: errors, warnings
	banner bool           // drawn between "=" fills
}

// mayStartCounts reports whether a counts line's body can start with c: a
// count as strconv.Atoi reads it (a digit or a sign) or "no tests ran".
func mayStartCounts(c byte) bool {
	return '0' <= c && c <= '9' || c == '+' || c == '-' || c == 'n'
}

// parseStats recognises a counts line. The duration is checked for shape and
// then dropped: it differs on every run.
func parseStats(s string) (stats, bool) {
	t := s
	isBanner := false
	if len(s) > 0 && s[0] == '=' {
		title, _, ok := banner(s, '=')
		if !ok {
			return stats{}, false
		}
		t, isBanner = title, true
	}
	if t == "" || !mayStartCounts(t[0]) {
		return stats{}, false // skips the search below on nearly every line
	}
	i := strings.LastIndex(t, " in ")
	if i <= 0 || !isDuration(t[i+4:]) {
		return stats{}, false
	}
	body := t[:i]
	if body == "no tests ran" {
		return stats{text: body, banner: isBanner}, true
	}
	counts := map[string]int{}
	known := false
	for _, part := range strings.Split(body, ", ") {
		sp := strings.IndexByte(part, ' ')
		if sp <= 0 {
			return stats{}, false
		}
		n, err := strconv.Atoi(part[:sp])
		if err != nil || n < 0 {
			return stats{}, false
		}
		word := part[sp+1:]
		if !isCountWord(word) {
			return stats{}, false
		}
		if w, ok := countWords[word]; ok {
			word, known = w, true
		} else {
			word = strings.Clone(word)
		}
		counts[word] += n
	}
	if !known {
		return stats{}, false
	}
	return stats{text: strings.Clone(body), counts: counts, banner: isBanner}, true
}

func isCountWord(w string) bool {
	if w == "" || w[0] < 'a' || w[0] > 'z' || len(w) > 40 {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c == ' ' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isDuration accepts "0.27s", "65.32s (0:01:05)", "1 day, 0:00:01" in brackets,
// and the "0.12 seconds" of older pytest.
func isDuration(d string) bool {
	j := 0
	for j < len(d) && (d[j] >= '0' && d[j] <= '9' || d[j] == '.') {
		j++
	}
	if j == 0 {
		return false
	}
	rest := d[j:]
	switch {
	case rest == "s" || rest == " seconds":
		return true
	case strings.HasPrefix(rest, "s (") && strings.HasSuffix(rest, ")"):
		return true
	}
	return false
}

// entry is one line of the short test summary: "FAILED path::name - message".
type entry struct {
	word   string // FAILED, ERROR, PASSED, XFAIL, XPASS, SKIPPED
	nodeid string // empty for SKIPPED, which names a location, not a test
	msg    string
}

var entryWords = []string{"FAILED", "ERROR", "PASSED", "XFAIL", "XPASS", "SKIPPED"}

// parseEntry recognises a short-summary line. Node ids may hold spaces and
// " - " inside their parameter brackets, so the message separator is the first
// " - " after which the brackets balance.
func parseEntry(s string) (entry, bool) {
	for _, w := range entryWords {
		if len(s) <= len(w)+1 || !strings.HasPrefix(s, w) || s[len(w)] != ' ' {
			continue
		}
		rest := s[len(w)+1:]
		if w == "SKIPPED" {
			return entry{word: w, msg: rest}, true
		}
		if rest == "" || rest[0] == ' ' {
			return entry{}, false
		}
		id, msg := splitNodeMsg(rest, w == "XPASS")
		if id == "" {
			return entry{}, false
		}
		return entry{word: w, nodeid: id, msg: msg}, true
	}
	return entry{}, false
}

func splitNodeMsg(rest string, spaceSep bool) (id, msg string) {
	depth := 0 // "[" minus "]" so far: one pass, whatever the line holds
	firstSpace := -1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ' ':
			if depth != 0 {
				continue
			}
			if strings.HasPrefix(rest[i:], " - ") {
				return rest[:i], rest[i+3:]
			}
			if firstSpace < 0 {
				firstSpace = i
			}
		}
	}
	if spaceSep && firstSpace > 0 { // pytest 7 prints "XPASS path::name reason"
		return rest[:firstSpace], rest[firstSpace+1:]
	}
	return rest, ""
}

// resultWords are the words of verbose result lines.
var resultWords = []string{"PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS"}

func isResultWord(w string) bool {
	switch w {
	case "PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS":
		return true
	}
	return false
}

// parseVerbose recognises a -v result line:
// "path::name PASSED    [ 10%]", "path::name SKIPPED (reason)  [ 20%]", and
// the xdist form "[gw0] [ 10%] PASSED path::name".
func parseVerbose(s string) (nodeid, word, reason string, ok bool) {
	if strings.HasPrefix(s, "[gw") {
		return parseXdist(s)
	}
	if !strings.Contains(s, "::") {
		return "", "", "", false
	}
	t := strings.TrimRight(cutProgress(s), " ")
	best := -1
	if sp := strings.LastIndexByte(t, ' '); sp > 0 && isResultWord(t[sp+1:]) {
		best, word = sp, t[sp+1:] // the common form: "path::name PASSED"
	} else if strings.HasSuffix(t, ")") { // "path::name SKIPPED (reason)"
		for _, w := range resultWords {
			i := strings.LastIndex(t, " "+w+" (")
			if i > best {
				best, word, reason = i, w, t[i+len(w)+3:len(t)-1]
			}
		}
	}
	if best <= 0 {
		return "", "", "", false
	}
	nodeid = t[:best]
	if !plausibleID(nodeid) {
		return "", "", "", false
	}
	return nodeid, word, reason, true
}

// plausibleID accepts a node id as -v prints it: "path::name", blanks only
// inside parameter brackets (which rules out lines of other tools, such as
// cargo's "test tests::it_fails ... FAILED").
func plausibleID(id string) bool {
	if !strings.Contains(id, "::") || strings.HasPrefix(id, "::") {
		return false
	}
	if strings.IndexByte(id, ' ') < 0 && strings.IndexByte(id, '\t') < 0 {
		return true // the common id: no blank to place
	}
	depth := 0
	for i := 0; i < len(id); i++ {
		switch id[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ' ', '\t':
			if depth <= 0 {
				return false
			}
		}
	}
	return true
}

func parseXdist(s string) (nodeid, word, reason string, ok bool) {
	i := strings.Index(s, "] ")
	if i < 0 {
		return "", "", "", false
	}
	t := s[i+2:]
	if strings.HasPrefix(t, "[") {
		j := strings.Index(t, "] ")
		if j < 0 {
			return "", "", "", false
		}
		t = t[j+2:]
	}
	for _, w := range resultWords {
		if strings.HasPrefix(t, w+" ") {
			id := strings.TrimRight(t[len(w)+1:], " ")
			if plausibleID(id) {
				return id, w, "", true
			}
		}
	}
	return "", "", "", false
}

// cutProgress removes a trailing "[ 10%]" or "[ 3/19]" progress marker.
func cutProgress(s string) string {
	if !strings.HasSuffix(s, "]") {
		return s
	}
	i := strings.LastIndexByte(s, '[')
	if i < 0 {
		return s
	}
	if _, ok := progressPct(s[i:]); !ok {
		return s
	}
	return s[:i]
}

// progressPct reads "[ 10%]" or "[ 3/19]" and returns the percentage.
func progressPct(m string) (int, bool) {
	if len(m) < 3 || m[0] != '[' || m[len(m)-1] != ']' {
		return 0, false
	}
	in := strings.TrimLeft(m[1:len(m)-1], " ")
	if strings.HasSuffix(in, "%") {
		n, err := strconv.Atoi(in[:len(in)-1])
		if err != nil || n < 0 || n > 100 {
			return 0, false
		}
		return n, true
	}
	a, b, found := strings.Cut(in, "/")
	if !found {
		return 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || y <= 0 || x < 0 || x > y {
		return 0, false
	}
	return x * 100 / y, true
}

// parseProgress recognises the progress lines of the default and -q modes:
// "test_a.py ..F.s   [ 40%]" and "..F.s   [ 40%]". pct is -1 when the line
// carries no marker (the last line of an interrupted run, or classic style).
func parseProgress(s string) (chars string, pct int, ok bool) {
	pct = -1
	t := s
	if strings.HasSuffix(t, "]") {
		if i := strings.LastIndexByte(t, '['); i >= 0 {
			if n, ok := progressPct(t[i:]); ok {
				pct, t = n, t[:i]
			}
		}
	}
	t = strings.TrimRight(t, " ")
	if t == "" {
		return "", 0, false
	}
	if onlyProgress(t) {
		return t, pct, true
	}
	sp := strings.IndexByte(t, ' ')
	if sp <= 0 {
		return "", 0, false
	}
	file, rest := t[:sp], t[sp+1:]
	if !looksLikePath(file) || strings.Contains(file, "::") {
		return "", 0, false
	}
	if rest == "" && pct < 0 || rest != "" && !onlyProgress(rest) {
		return "", 0, false
	}
	return rest, pct, true
}

// onlyProgress reports whether s is a non-empty run of the progress
// characters pytest prints, one per test: . F E s x X R.
func onlyProgress(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', 'F', 'E', 's', 'x', 'X', 'R':
		default:
			return false
		}
	}
	return s != ""
}

// looksLikePath accepts a test file as pytest names it in progress lines.
func looksLikePath(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	return dot > 0 && dot < len(s)-1 && !strings.ContainsAny(s, " \t")
}

// loc is a source location inside a traceback.
type loc struct {
	file string
	line int
	msg  string // what follows "path:N: " — an exception class, "in func", or nothing
}

// parseLoc recognises the location lines of long and short tracebacks:
// "test_a.py:13: AssertionError", "helpers.py:2: in ratio", "conftest.py:15: ",
// and the bare "/abs/test_a.py:14" that ends a missing-fixture report.
func parseLoc(s string) (loc, bool) {
	if s == "" || s[0] == ' ' || s[0] == '>' || s[0] == '\t' {
		return loc{}, false
	}
	if len(s) > 1 && s[0] == 'E' && (s[1] == ' ' || s[1] == '\t') {
		return loc{}, false
	}
	// path: no blanks, then ":N" and either the end or ": msg".
	end := strings.IndexAny(s, " \t")
	head := s
	if end >= 0 {
		head = s[:end]
	}
	// head is "path:N:" or "path:N" (when nothing follows)
	h := strings.TrimSuffix(head, ":")
	c := strings.LastIndexByte(h, ':')
	if c <= 0 {
		return loc{}, false
	}
	n, err := strconv.Atoi(h[c+1:])
	if err != nil || n <= 0 {
		return loc{}, false
	}
	file := h[:c]
	if end < 0 {
		return loc{file: file, line: n}, true
	}
	if !strings.HasSuffix(head, ":") {
		return loc{}, false
	}
	return loc{file: file, line: n, msg: strings.TrimSpace(s[end:])}, true
}

// parseNativeFrame recognises `  File "/abs/x.py", line 8, in func` of
// --tb=native tracebacks (and of E lines quoting a SyntaxError).
func parseNativeFrame(s string) (loc, bool) {
	t := strings.TrimLeft(s, " ")
	if !strings.HasPrefix(t, `File "`) {
		return loc{}, false
	}
	t = t[len(`File "`):]
	q := strings.Index(t, `", line `)
	if q <= 0 {
		return loc{}, false
	}
	file := t[:q]
	t = t[q+len(`", line `):]
	j := 0
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(t[:j])
	if err != nil || n <= 0 {
		return loc{}, false
	}
	return loc{file: file, line: n}, true
}

// exceptionClass returns the class named at the start of an exception line —
// "ZeroDivisionError: division by zero", "KeyError", "requests.HTTPError: …" —
// or "" when the line does not start with one. The last dotted component must
// start with a capital letter.
func exceptionClass(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || i > 0 && c >= '0' && c <= '9' {
			i++
			continue
		}
		break
	}
	if i == 0 || i > 200 {
		return ""
	}
	name := s[:i]
	if i < len(s) && s[i] != ':' {
		return ""
	}
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return ""
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' {
		return ""
	}
	return name
}

// classFromMessage infers the failure class from a one-line failure message,
// as the short summary and --tb=line print it.
func classFromMessage(m string) string {
	switch {
	case strings.HasPrefix(m, "assert ") || m == "assert":
		return "AssertionError"
	case strings.HasPrefix(m, "[XPASS(strict)]"):
		return "XPASS(strict)"
	case strings.HasPrefix(m, "fixture '") && strings.HasSuffix(m, "' not found"):
		return "FixtureLookupError"
	}
	return exceptionClass(m)
}

// headOf is the title pytest gives a test's failure block: the node id without
// its file, with "::" between classes and function shown as "."; parameter ids
// are kept as printed. "a.py::TestC::test_x[1-2]" → "TestC.test_x[1-2]".
func headOf(nodeid string) string {
	i := strings.Index(nodeid, "::")
	if i < 0 {
		return nodeid
	}
	rest := nodeid[i+2:]
	b := strings.IndexByte(rest, '[')
	if b < 0 {
		return strings.ReplaceAll(rest, "::", ".")
	}
	if !strings.Contains(rest[:b], "::") {
		return rest // a parametrised function: nothing to replace, nothing to join
	}
	return strings.ReplaceAll(rest[:b], "::", ".") + rest[b:]
}

// fileOf is the file part of a node id.
func fileOf(nodeid string) string {
	if i := strings.Index(nodeid, "::"); i >= 0 {
		return nodeid[:i]
	}
	return nodeid
}

// maxKeep bounds every piece of a line kept after the line is read: enough to
// clip a message to maxMsg and to read a class from it.
const maxKeep = 512

// keep copies at most maxKeep bytes of s, so that the line it was cut from (up
// to lines.Max bytes) is not kept alive by it.
func keep(s string) string {
	if len(s) > maxKeep {
		cut := maxKeep
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return strings.Clone(s)
}

func keepLoc(l loc) loc {
	l.file, l.msg = keep(l.file), keep(l.msg)
	return l
}
