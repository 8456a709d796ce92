package gotest

import (
	"strconv"
	"strings"
)

// This file recognises single lines of go test output. Each function looks at
// one cleaned line (colour removed, no newline) and says what it is; none
// keeps state.

// header is a `=== RUN   TestX` line (also PAUSE, CONT, NAME).
type header struct {
	verb string // RUN, PAUSE, CONT, NAME
	name string // "" for a bare `=== CONT` (output of the package, not a test)
}

func parseHeader(s string) (header, bool) {
	rest, ok := strings.CutPrefix(s, "=== ")
	if !ok {
		return header{}, false
	}
	// The verb is what comes before the first blank (or all of rest), one
	// of four: read as a prefix, without searching the line for the blank.
	var verb string
	switch {
	case strings.HasPrefix(rest, "RUN"):
		verb = "RUN"
	case strings.HasPrefix(rest, "PAUSE"):
		verb = "PAUSE"
	case strings.HasPrefix(rest, "CONT"):
		verb = "CONT"
	case strings.HasPrefix(rest, "NAME"):
		verb = "NAME"
	default:
		return header{}, false
	}
	name := rest[len(verb):]
	if name != "" && name[0] != ' ' {
		return header{}, false
	}
	name = strings.TrimSpace(name)
	if verb == "RUN" && name == "" {
		return header{}, false
	}
	return header{verb: verb, name: name}, true
}

// result is a `--- FAIL: TestX (0.00s)` line, indented by depth for subtests.
type result struct {
	indent int
	verb   string // PASS, FAIL, SKIP, BENCH
	name   string
	timed  bool // carried a duration: every test result does, benchmarks' do not
}

func parseResult(s string) (result, bool) {
	t := trimBlanks(s)
	rest, ok := strings.CutPrefix(t, "--- ")
	if !ok {
		return result{}, false
	}
	// The verb is what comes before the first ": ", one of four: read as
	// a prefix, without searching the line for ": ".
	verb := resultVerb(rest)
	if verb == "" {
		return result{}, false
	}
	name := rest[len(verb)+2:]
	r := result{indent: indentWidth(s[:len(s)-len(t)]), verb: verb}
	// A name has no blanks: its first blank must start the elapsed time,
	// " (0.06s)", and end the name. One scan finds it, where searching
	// for the last " (" and then the name for a blank took two.
	if i := blankAt(name); i >= 0 {
		tail := name[i:]
		if i == 0 || len(tail) < 4 || tail[0] != ' ' || tail[1] != '(' || tail[len(tail)-1] != ')' || !isElapsed(tail[2:len(tail)-1]) {
			return result{}, false
		}
		name, r.timed = name[:i], true
	}
	if name == "" {
		return result{}, false
	}
	r.name = name
	return r, true
}

// resultVerb is the verb a result line's rest (past "--- ") starts with,
// followed by ": "; "" when it is none of them.
func resultVerb(rest string) string {
	if len(rest) < 6 {
		return ""
	}
	var verb string
	switch rest[0] {
	case 'P':
		verb = "PASS"
	case 'F':
		verb = "FAIL"
	case 'S':
		verb = "SKIP"
	case 'B':
		verb = "BENCH"
	default:
		return ""
	}
	if len(rest) < len(verb)+2 || rest[:len(verb)] != verb || rest[len(verb)] != ':' || rest[len(verb)+1] != ' ' {
		return ""
	}
	return verb
}

// findResult finds a result line that a test's own output ran into, as in
// "some text--- PASS: TestZ (0.06s)". Only timed results are accepted.
func findResult(s string) (result, int, bool) {
	for _, v := range [...]string{"--- PASS: ", "--- FAIL: ", "--- SKIP: "} {
		i := strings.Index(s, v)
		if i <= 0 {
			continue
		}
		if r, ok := parseResult(s[i:]); ok && r.timed {
			return r, i, true
		}
	}
	return result{}, 0, false
}

// isElapsed matches "0.06s", "1.5 seconds", "0.00 s".
func isElapsed(d string) bool {
	switch {
	case strings.HasSuffix(d, " seconds"):
		d = d[:len(d)-len(" seconds")]
	case strings.HasSuffix(d, "s"):
		d = strings.TrimSuffix(d[:len(d)-1], " ")
	default:
		return false
	}
	return isDecimal(d)
}

func isDecimal(d string) bool {
	if d == "" {
		return false
	}
	dot := false
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 0 && i < len(d)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

func isDigits(d string) bool {
	if d == "" {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// indentWidth counts leading whitespace, a tab as four columns.
func indentWidth(ws string) int {
	n := 0
	for i := 0; i < len(ws); i++ {
		switch ws[i] {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

func indentOf(s string) int {
	t := trimBlanks(s)
	return indentWidth(s[:len(s)-len(t)])
}

// pkgLine is a package result line: `ok pkg 0.1s`, `FAIL pkg [build failed]`,
// `? pkg [no test files]`.
type pkgLine struct {
	status   string // "ok", "FAIL", "?"
	pkg      string
	cached   bool
	coverage string // "80.0% of statements"
	build    string // "build failed", "setup failed"
	noTests  bool   // [no tests to run]
	timed    bool   // carried an elapsed time or (cached): the package's tests ran
}

func parsePkgLine(s string) (pkgLine, bool) {
	if s == "" || s[0] != 'o' && s[0] != 'F' && s[0] != '?' {
		return pkgLine{}, false // most lines: no prefix to compare
	}
	if !strings.HasPrefix(s, "ok ") && !strings.HasPrefix(s, "ok\t") && !strings.HasPrefix(s, "FAIL") && !strings.HasPrefix(s, "? ") {
		return pkgLine{}, false
	}
	f := strings.Fields(s)
	if len(f) < 3 {
		return pkgLine{}, false
	}
	pl := pkgLine{status: f[0], pkg: strings.Clone(f[1])}
	rest := strings.Join(f[2:], " ")
	switch f[0] {
	case "?":
		if rest != "[no test files]" {
			return pkgLine{}, false
		}
		pl.status = "?"
		return pl, true
	case "ok":
		pl.status = "ok"
	case "FAIL":
		pl.status = "FAIL"
	default:
		return pkgLine{}, false
	}
	switch {
	case rest == "[build failed]" || rest == "[setup failed]":
		if f[0] != "FAIL" {
			return pkgLine{}, false
		}
		pl.build = "build failed" // constants: not views of the line
		if rest == "[setup failed]" {
			pl.build = "setup failed"
		}
		return pl, true
	case f[2] == "(cached)":
		pl.cached = true
	case isElapsed(f[2]):
	default:
		return pkgLine{}, false
	}
	pl.timed = true
	tail := strings.TrimSpace(strings.Join(f[3:], " "))
	if c, ok := strings.CutPrefix(tail, "coverage: "); ok {
		pl.coverage = strings.Clone(c)
	} else if tail == "[no tests to run]" {
		pl.noTests = true
	}
	return pl, true
}

// parseBench reads a benchmark result: `BenchmarkX-8   1000   123 ns/op   16 B/op`.
// It returns the name as printed and the metrics keyed by unit, with the
// iteration count under "iterations".
func parseBench(s string) (string, map[string]string, bool) {
	if !strings.HasPrefix(s, "Benchmark") {
		return "", nil, false
	}
	f := strings.Fields(s)
	if len(f) < 4 || !isDigits(f[1]) {
		return "", nil, false
	}
	m := map[string]string{"iterations": f[1]}
	for i := 2; i+1 < len(f); i += 2 {
		if !isDecimal(f[i]) || isDecimal(f[i+1]) {
			return "", nil, false
		}
		m[f[i+1]] = f[i]
	}
	if len(f)%2 != 0 { // a value without its unit
		return "", nil, false
	}
	return f[0], m, true
}

// benchBase strips the GOMAXPROCS suffix of a benchmark name: BenchmarkX-8 → BenchmarkX.
func benchBase(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 || !isDigits(name[i+1:]) {
		return name
	}
	return name[:i]
}

// logLine is an indented `file_test.go:12: message` line written by t.Log,
// t.Error and friends.
type logLine struct {
	indent int
	file   string
	line   int
	msg    string
}

func parseLog(s string) (logLine, bool) {
	t := trimBlanks(s)
	if len(t) == len(s) {
		return logLine{}, false
	}
	i := strings.Index(t, ".go:")
	if i <= 0 {
		return logLine{}, false
	}
	file := t[:i+3]
	if hasBlank(file) {
		return logLine{}, false
	}
	rest := t[i+4:]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if j == 0 || j >= len(rest) || rest[j] != ':' {
		return logLine{}, false
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return logLine{}, false
	}
	msg := strings.TrimPrefix(rest[j+1:], " ")
	return logLine{indent: indentWidth(s[:len(s)-len(t)]), file: file, line: n, msg: msg}, true
}

// location is a compiler-style `file.go:L:C: message` or `file.go:L: message`.
type location struct {
	file string
	line int
	col  int
	msg  string
}

// parseLocation reads an unindented compiler or vet diagnostic.
func parseLocation(s string) (location, bool) {
	if s == "" || s[0] == ' ' || s[0] == '\t' {
		return location{}, false
	}
	i := strings.Index(s, ".go:")
	if i <= 0 {
		return location{}, false
	}
	file := s[:i+3]
	if hasBlank(file) {
		return location{}, false
	}
	nums := s[i+4:]
	var loc location
	loc.file = file
	for k := 0; k < 2; k++ {
		j := 0
		for j < len(nums) && nums[j] >= '0' && nums[j] <= '9' {
			j++
		}
		if j == 0 || j >= len(nums) || nums[j] != ':' {
			break
		}
		n, _ := strconv.Atoi(nums[:j])
		if k == 0 {
			loc.line = n
		} else {
			loc.col = n
		}
		nums = nums[j+1:]
	}
	if loc.line == 0 {
		return location{}, false
	}
	loc.msg = strings.TrimPrefix(nums, " ")
	return loc, true
}

// frameFile reads the file line of a goroutine trace frame:
// "\t/src/pkg/a_test.go:9 +0x39" (race reports indent with spaces).
func frameFile(s string) (string, int, bool) {
	t := strings.TrimSpace(s)
	if t == "" {
		return "", 0, false
	}
	if i := strings.LastIndex(t, " +0x"); i > 0 {
		t = t[:i]
	}
	i := strings.LastIndex(t, ".go:")
	if i <= 0 || !isDigits(t[i+4:]) {
		return "", 0, false
	}
	n, err := strconv.Atoi(t[i+4:])
	if err != nil {
		return "", 0, false
	}
	return t[:i+3], n, true
}

// cut bounds a stored message, cutting at a rune boundary.
// The result is always a copy: the parser keeps what it cuts, and a text
// line's string is a view of bytes it does not own (see arena).
func cut(s string, n int) string {
	if len(s) <= n {
		return strings.Clone(s)
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// trimBlanks is strings.TrimLeft(s, " \t") without building a set for
// its two bytes (it runs on every line).
func trimBlanks(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// blankAt is the index of s's first blank or tab, -1 when it has none.
func blankAt(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return i
		}
	}
	return -1
}

// hasBlank is strings.ContainsAny(s, " \t") for the short strings
// (names, file paths) it is asked of.
func hasBlank(s string) bool { return blankAt(s) >= 0 }
