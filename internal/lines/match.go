package lines

import "bytes"

// The error patterns, written out by hand for lines of at most maxErrorLine
// bytes that hold neither ſ nor the Kelvin sign: each function here answers
// exactly as its pattern's Match does on such a line (TestMatchersAgree and
// FuzzMatchers hold them to it), in a pass or two over the line instead of
// the 20–70 µs of backtracking a pattern costs. On such a line the
// patterns' (?i) is ASCII case folding (only those two runes fold to ASCII
// letters); \s, \d, \w and \b are ASCII; a non-ASCII or invalid byte is
// matched only by \S, [^\]] and `.`, as its rune is; and every literal and
// class being ASCII, a match starts and ends on rune boundaries whether
// runes or bytes are stepped.

// isWordByte reports whether c is a word byte as \w and \b read it.
func isWordByte(c byte) bool {
	l := c | 0x20
	return 'a' <= l && l <= 'z' || '0' <= c && c <= '9' || c == '_'
}

// isRESpace reports whether c is white space as \s means it in a pattern.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipSpace returns the first index from i that is not white space (\s).
func skipSpace(b []byte, i int) int {
	for i < len(b) && isRESpace(b[i]) {
		i++
	}
	return i
}

// digitsAt returns how many digits start at b[i:].
func digitsAt(b []byte, i int) int {
	n := 0
	for i+n < len(b) && isDigit(b[i+n]) {
		n++
	}
	return n
}

// wordEndsAt reports whether \b holds after a word byte ending at i.
func wordEndsAt(b []byte, i int) bool { return i == len(b) || !isWordByte(b[i]) }

// wordStartsAt reports whether \b holds before a word byte at i.
func wordStartsAt(b []byte, i int) bool { return i == 0 || !isWordByte(b[i-1]) }

// calmErrors and calmFailures are the alternatives of errCalmRE's
// (errors?|failures?|failed), by the prefix they share.
var (
	calmErrors   = []string{"error", "errors"}
	calmFailures = []string{"failure", "failures", "failed"}
)

// matchCalm is errCalmRE.Match: "0|no|zero|without", white space and an
// error word; or an error word, ':' or '=' and a 0.
func matchCalm(b []byte) bool {
	for p, c := range b {
		var ws []string
		switch l := c | 0x20; {
		case l == 'e' && hasFoldPrefix(b[p:], "error"):
			ws = calmErrors
		case l == 'f' && hasFoldPrefix(b[p:], "fail"):
			ws = calmFailures
		default:
			continue
		}
		for _, w := range ws {
			if !hasFoldPrefix(b[p:], w) {
				continue
			}
			e := p + len(w)
			if wordEndsAt(b, e) && noneBefore(b, p) {
				return true
			}
			if wordStartsAt(b, p) && zeroAfter(b, e) {
				return true
			}
		}
	}
	return false
}

// noneBefore reports whether \b(0|no|zero|without)\s+ ends at p.
func noneBefore(b []byte, p int) bool {
	j := p
	for j > 0 && isRESpace(b[j-1]) {
		j--
	}
	if j == p {
		return false
	}
	for _, x := range [...]string{"0", "no", "zero", "without"} {
		if k := j - len(x); k >= 0 && hasFoldPrefix(b[k:], x) && wordStartsAt(b, k) {
			return true
		}
	}
	return false
}

// zeroAfter reports whether \s*[:=]\s*0\b starts at e.
func zeroAfter(b []byte, e int) bool {
	k := skipSpace(b, e)
	if k == len(b) || b[k] != ':' && b[k] != '=' {
		return false
	}
	k = skipSpace(b, k+1)
	return k < len(b) && b[k] == '0' && wordEndsAt(b, k+1)
}

// phrases are errPhraseRE's case-insensitive literals, each with the
// marker word it holds.
var phrases = [...]struct {
	text string
	mark markerSet
}{
	{"traceback (most recent call last)", markTraceback}, {"segmentation fault", markSegfault},
	{"core dumped", markCoreDumped}, {"undefined reference to", markUndefined},
	{"exception in thread", markException}, {"no such file or directory", markNoSuchFile},
	{"permission denied", markPermission}, {"command not found", markNotFound},
	{"out of memory", markOutOfMemory},
}

// matchPhrase is errPhraseRE.Match, given the marker words of the line.
func matchPhrase(b []byte, m markerSet) bool {
	for _, ph := range phrases {
		if m&ph.mark != 0 && hasFoldWord(b, ph.text) {
			return true
		}
	}
	return m&markErr != 0 && matchMakeError(b)
}

// hasFoldWord reports whether b holds the lower-case word w, ASCII letters
// compared in either case.
func hasFoldWord(b []byte, w string) bool {
	for i := range b {
		if b[i]|0x20 == w[0] && hasFoldPrefix(b[i:], w) {
			return true
		}
	}
	return false
}

// matchMakeError is `\*\*\* .*Error \d+`: make's "*** … Error 2", the
// "Error " on the same line (`.` stops at a newline) as a "*** " before it.
func matchMakeError(b []byte) bool {
	for {
		i := bytes.Index(b, []byte("*** "))
		if i < 0 {
			return false
		}
		seg := b[i+4:]
		nl := bytes.IndexByte(seg, '\n')
		if nl >= 0 {
			seg, b = seg[:nl], seg[nl+1:]
		}
		// A later "*** " on this line would leave less of it to search.
		for s := seg; ; {
			j := bytes.Index(s, []byte("Error "))
			if j < 0 {
				break
			}
			if j+6 < len(s) && isDigit(s[j+6]) {
				return true
			}
			s = s[j+1:]
		}
		if nl < 0 {
			return false
		}
	}
}

// levelNames are errLevelRE's upper-case levels, with their marker words.
var levelNames = [...]struct {
	text string
	mark markerSet
}{
	{"ERROR", markErr}, {"FATAL", markFatal}, {"CRITICAL", markCrit}, {"PANIC", markPanic},
	{"SEVERE", markSevere}, {"EMERG", markEmerg}, {"ALERT", markAlert},
}

// matchLevel is errLevelRE.Match, given the marker words of the line: an
// upper-case level between separators, level=error, or "level": "error".
func matchLevel(b []byte, m markerSet) bool {
	for _, l := range levelNames {
		if m&l.mark != 0 && hasLevelName(b, l.text) {
			return true
		}
	}
	if m&(markErr|markFatal|markPanic|markCrit) == 0 {
		return false
	}
	for s, off := b, 0; ; {
		i := bytes.Index(s, []byte("level="))
		if i < 0 {
			break
		}
		if at := off + i; wordStartsAt(b, at) && foldWordAt(b, at+len("level="), "error", "fatal", "panic", "crit", "critical") {
			return true
		}
		s, off = s[i+1:], off+i+1
	}
	for s := b; ; {
		i := bytes.Index(s, []byte(`"level":`))
		if i < 0 {
			return false
		}
		s = s[i+len(`"level":`):]
		if k := skipSpace(s, 0); k < len(s) && s[k] == '"' && quotedLevel(s[k+1:]) {
			return true
		}
	}
}

// hasLevelName reports whether (?:^|[\s\[|<])name(?:[\]\s:|>]|$) matches b.
func hasLevelName(b []byte, name string) bool {
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte(name))
		if i < 0 {
			return false
		}
		at := off + i
		e := at + len(name)
		before := at == 0 || isRESpace(b[at-1]) || b[at-1] == '[' || b[at-1] == '|' || b[at-1] == '<'
		after := e == len(b) || isRESpace(b[e]) || b[e] == ']' || b[e] == ':' || b[e] == '|' || b[e] == '>'
		if before && after {
			return true
		}
		off = at + 1
	}
}

// foldWordAt reports whether one of the lower-case words ws, in any case,
// starts at b[i:] and ends a word (\b).
func foldWordAt(b []byte, i int, ws ...string) bool {
	for _, w := range ws {
		if hasFoldPrefix(b[i:], w) && wordEndsAt(b, i+len(w)) {
			return true
		}
	}
	return false
}

// quotedLevel reports whether b starts with (?i:error|fatal|panic|critical)".
func quotedLevel(b []byte) bool {
	for _, w := range [...]string{"error", "fatal", "panic", "critical"} {
		if hasFoldPrefix(b, w) && len(b) > len(w) && b[len(w)] == '"' {
			return true
		}
	}
	return false
}

// startMarkers are the case-insensitive markers of errStartRE, upperMarkers
// its upper-case ones (errUpperRE's too).
var (
	startMarkers = [...]string{"fatal error", "fatal", "error", "errors", "err", "panic", "failed", "failure",
		"fail", "critical", "emerg", "alert", "severe", "exception", "abort", "aborted"}
	upperMarkers = [...]string{"ERROR", "FATAL", "FAILED", "FAIL", "FAILURE", "PANIC", "CRITICAL", "SEVERE", "EMERG", "ALERT"}
)

// matchUpper is errUpperRE.Match: an upper-case marker after white space.
func matchUpper(b []byte) bool { return upperMarkerAt(b, skipSpace(b, 0)) }

// upperMarkerAt reports whether an upper-case marker and \b start at b[p:].
func upperMarkerAt(b []byte, p int) bool {
	for _, w := range upperMarkers {
		if bytes.HasPrefix(b[p:], []byte(w)) && wordEndsAt(b, p+len(w)) {
			return true
		}
	}
	return false
}
