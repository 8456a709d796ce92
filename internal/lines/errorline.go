package lines

import "bytes"

// Error-looking lines are found by where a marker stands, not by a word
// anywhere: a path (`./src/error_test.go`), a diff of code (`-	if err !=
// nil`) or a source file is not an error report. A line reports an error when
//
//   - it starts (after indentation, a file:line: location, [bracketed] or
//     timestamp prefixes) with a marker followed by `:`, `]`, `!`, `[code]:`
//     or the end of the line (`error: …`, `fatal error: …`, `panic: …`,
//     `x.c:3:1: error: …`), or with an upper-case marker (`FAILED test_x`),
//     or with an exception's class and `:` (`SyntaxError: invalid syntax`,
//     `java.lang.IllegalStateException: closed`: the last line of a
//     traceback);
//   - it carries an upper-case log level as a field (`… app[12]: ERROR …`,
//     `level=error`);
//   - it holds a phrase that only failures print (`Traceback (most recent
//     call last)`, `segmentation fault`, `undefined reference to`, make's
//     `*** … Error 2`).
//
// Lines that read like code (ending in `,` `{` `(` `;`) do not count by a
// lower-case marker, and lines that say there are no errors (`0 errors`) do
// not count at all. It is a heuristic: it decides what a digest or a zoom view
// surfaces, never what a run's outcome is. This is the one definition: the
// text profile's error items and `ctx get`'s zoom view both use it.
var (
	errStartRE  = Lazy(`^\s*(?:(?:\S+:\d+(?::\d+)?:|\[[^\]]*\]|\d{4}-\d\d-\d\d[T ][\d:.,]+Z?|\d\d:\d\d:\d\d[.,\d]*)\s*)*(?:(?i:fatal error|fatal|error|errors|err|panic|failed|failure|fail|critical|emerg|alert|severe|exception|abort|aborted)(?:\[[^\]]*\])?(?::|!|\]|$)|(?:ERROR|FATAL|FAILED|FAIL|FAILURE|PANIC|CRITICAL|SEVERE|EMERG|ALERT)\b|[A-Za-z_$][\w.$]*[a-z](?:Error|Exception)(?::\s|:?$))`)
	errLevelRE  = Lazy(`(?:^|[\s\[|<])(?:ERROR|FATAL|CRITICAL|PANIC|SEVERE|EMERG|ALERT)(?:[\]\s:|>]|$)|\blevel=(?i:error|fatal|panic|crit|critical)\b|"level":\s*"(?i:error|fatal|panic|critical)"`)
	errPhraseRE = Lazy(`(?i:traceback \(most recent call last\)|segmentation fault|core dumped|undefined reference to|exception in thread|no such file or directory|permission denied|command not found|out of memory)|\*\*\* .*Error \d+`)
	errUpperRE  = Lazy(`^\s*(?:ERROR|FATAL|FAILED|FAIL|FAILURE|PANIC|CRITICAL|SEVERE|EMERG|ALERT)\b`)
	// errCalmRE matches lines that mention errors only to say there are none.
	errCalmRE = Lazy(`(?i)(\b(0|no|zero|without)\s+(errors?|failures?|failed)\b|\b(errors?|failures?|failed)\s*[:=]\s*0\b)`)
)

// maxErrorLine bounds the bytes of a line the error patterns read.
const maxErrorLine = 4096

// LooksLikeError reports whether a raw captured line (escapes and all) reads
// as an error report.
func LooksLikeError(line []byte) bool {
	if !MayLookLikeError(line) {
		return false
	}
	clean := Clean(line)
	if len(clean) > maxErrorLine {
		clean = clean[:maxErrorLine]
	}
	return CleanLooksLikeError(clean)
}

// MayLookLikeError is a fast necessary condition for LooksLikeError: a line
// holding none of the letters every marker contains is no error report.
// Callers that scan floods use it before cleaning a line.
func MayLookLikeError(line []byte) bool {
	for _, c := range line {
		switch c | 0x20 {
		case 'e', 'f', 'p', 't', 'a', 'd', 'n', 'c', 'u', 'k':
			return true
		}
	}
	return false
}

// CleanLooksLikeError is LooksLikeError for a line already passed through
// Clean (and cut to a few KiB by the caller when it can be long).
func CleanLooksLikeError(clean []byte) bool {
	if !hasMarkerWord(clean) {
		return false // the patterns below cost microseconds a line
	}
	return gatedErrorPatterns(clean)
}

// gatedErrorPatterns is matchesErrorPatterns with each pattern skipped
// where a literal it needs is absent: on real logs the marker words pass
// one line in eight, and the patterns then cost 20–70 µs a line each. The
// case-insensitive literals are checked only on ASCII lines (the patterns
// fold the Kelvin sign to k, ſ to s); the level pattern's literals are
// case-sensitive, checked on every line.
func gatedErrorPatterns(clean []byte) bool {
	ascii := isASCII(clean)
	if (!ascii || mayBeCalm(clean)) && errCalmRE.Match(clean) {
		return false
	}
	if (!ascii || hasFoldWord(clean, phraseWords[:]) || bytes.Contains(clean, []byte("*** "))) && errPhraseRE.Match(clean) {
		return true
	}
	if hasWord(clean, levelWords[:]) && errLevelRE.Match(clean) {
		return true
	}
	return startsAsError(clean)
}

// mayBeCalm is a necessary condition for errCalmRE on an ASCII line: an
// error or failure word ("error", "fail…", any case) with, before it,
// white space after a 0, "no", "zero" or "without" (ending in 0, o or t), or,
// after the rest of its letters and any white space, a ':' or '='.
func mayBeCalm(b []byte) bool {
	for i := range b {
		n := 0
		switch {
		case hasFoldPrefix(b[i:], "error"):
			n = len("error")
		case hasFoldPrefix(b[i:], "fail"):
			n = len("fail")
		default:
			continue
		}
		j := i
		for j > 0 && isRESpace(b[j-1]) {
			j--
		}
		if j < i && j > 0 {
			if c := b[j-1] | 0x20; c == '0' || c == 'o' || c == 't' {
				return true
			}
		}
		k := i + n
		for k < len(b) && ('a' <= b[k]|0x20 && b[k]|0x20 <= 'z') {
			k++
		}
		for k < len(b) && isRESpace(b[k]) {
			k++
		}
		if k < len(b) && (b[k] == ':' || b[k] == '=') {
			return true
		}
	}
	return false
}

// isRESpace reports whether c is white space as \s means it in a pattern.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// phraseWords are the literals of errPhraseRE's
// case-insensitive part, and levelWords the literals of which every match
// of errLevelRE holds one, in their case.
var (
	phraseWords = [...]string{"traceback (most recent call last)", "segmentation fault", "core dumped",
		"undefined reference to", "exception in thread", "no such file or directory", "permission denied",
		"command not found", "out of memory"}
	levelWords = [...]string{"ERROR", "FATAL", "CRITICAL", "PANIC", "SEVERE", "EMERG", "ALERT", "level=", `"level":`}
)

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// hasFoldWord reports whether b holds one of the lower-case words ws, ASCII
// letters compared in either case.
func hasFoldWord(b []byte, ws []string) bool {
	for i, c := range b {
		c |= 0x20
		for _, w := range ws {
			if w[0] == c && hasFoldPrefix(b[i:], w) {
				return true
			}
		}
	}
	return false
}

// hasWord reports whether b holds one of ws as it is spelt.
func hasWord(b []byte, ws []string) bool {
	for _, w := range ws {
		if bytes.Contains(b, []byte(w)) {
			return true
		}
	}
	return false
}

// matchesErrorPatterns is CleanLooksLikeError by the patterns alone.
func matchesErrorPatterns(clean []byte) bool {
	if errCalmRE.Match(clean) {
		return false
	}
	if errPhraseRE.Match(clean) || errLevelRE.Match(clean) {
		return true
	}
	return startsAsError(clean)
}

// startsAsError is the last test of matchesErrorPatterns: a marker where a
// report starts, unless the line reads as code.
func startsAsError(clean []byte) bool {
	if !errStartRE.Match(clean) {
		return false
	}
	t := bytes.TrimSpace(clean)
	if len(t) > 0 && bytes.IndexByte([]byte(",{(;"), t[len(t)-1]) >= 0 {
		// Code (a struct field `Error: err,`, a call): only an upper-case
		// marker counts.
		return errUpperRE.Match(clean)
	}
	return true
}

// markerWords are the words, in lower case, of which every match of the error
// patterns holds one: a marker (err covers error and errors, fail failed and
// failure, crit critical, abort aborted; Error and Exception end a class
// name) or a word of a failure phrase.
var markerWords = [...]string{"err", "fatal", "panic", "fail", "crit", "emerg", "alert", "severe",
	"exception", "abort", "traceback", "segmentation fault", "core dumped", "undefined reference",
	"no such file", "permission denied", "command not found", "out of memory"}

// markersByFirst lists markerWords by their first letter (a literal, so
// nothing runs at start-up).
var markersByFirst = [256][]string{
	'e': {"err", "emerg", "exception"}, 'f': {"fatal", "fail"}, 'p': {"panic", "permission denied"},
	'c': {"crit", "core dumped", "command not found"}, 'a': {"alert", "abort"}, 's': {"severe", "segmentation fault"},
	't': {"traceback"}, 'u': {"undefined reference"}, 'n': {"no such file"}, 'o': {"out of memory"},
}

// hasMarkerWord reports whether an ASCII line holds one of markerWords in
// any case: a necessary condition for the patterns, checked in a pass over
// its bytes. A line with other bytes says true: the patterns' case folding
// knows letters beyond ASCII (the Kelvin sign is a k, ſ an s).
func hasMarkerWord(line []byte) bool {
	for i, c := range line {
		if c >= 0x80 {
			return true
		}
		ws := markersByFirst[c|0x20]
		if len(ws) == 0 {
			continue
		}
		if i+1 == len(line) {
			return false // every marker word has more than one letter
		}
		// The second letter first: a marker's first letters are the
		// commonest in text (e, a, s, t…), its first two much rarer.
		c2 := line[i+1] | 0x20
		for _, w := range ws {
			if w[1] == c2 && hasFoldPrefix(line[i:], w) {
				return true
			}
		}
	}
	return false
}

// hasFoldPrefix reports whether b starts with the lower-case word w, ASCII
// letters compared in either case.
func hasFoldPrefix(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		c := b[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}
