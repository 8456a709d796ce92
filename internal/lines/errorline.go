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
	m, exact := markersIn(clean)
	if !exact || len(clean) > maxErrorLine {
		return matchesErrorPatterns(clean)
	}
	if m == 0 {
		return false // no pattern can match
	}
	return matchesErrorASCII(clean, m)
}

// matchesErrorASCII is matchesErrorPatterns on a line of at most
// maxErrorLine bytes without ſ or the Kelvin sign, holding the marker words m, by the hand-written
// matchers (match.go, start.go) instead of the patterns, which cost 20–70
// µs a line each on real logs.
func matchesErrorASCII(clean []byte, m markerSet) bool {
	if m&(markErr|markFail) != 0 && matchCalm(clean) {
		return false
	}
	if matchPhrase(clean, m) || matchLevel(clean, m) {
		return true
	}
	return matchStart(clean) && (!endsLikeCode(clean) || matchUpper(clean))
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
	return errStartRE.Match(clean) && (!endsLikeCode(clean) || errUpperRE.Match(clean))
}

// endsLikeCode reports whether a line ends as code does (a struct field
// `Error: err,`, a call): there only an upper-case marker counts.
func endsLikeCode(clean []byte) bool {
	t := bytes.TrimSpace(clean)
	return len(t) > 0 && bytes.IndexByte([]byte(",{(;"), t[len(t)-1]) >= 0
}
