package logs

import (
	"context"
	"io"

	"github.com/ctxhq/ctx/internal/lines"
)

// Why an anomaly is reported: the Why of an anomaly item, and what
// Findings returns for a line.
const (
	// WhyErrorLevel: the line's level field says error (or fatal, critical).
	WhyErrorLevel = "error-level"
	// WhyFailure: the message is phrased as a failure ("failed to",
	// "refused", "core dumped", "FooException"), whatever its level.
	WhyFailure = "failure"
	// WhyRare: the line's template occurs once among many busy ones.
	WhyRare = "rare-template"
)

// lineWhy returns WhyErrorLevel, WhyFailure or "" for a cleaned line. It
// looks at the line alone, so it works as well on a line past the template
// cap as on any other.
func lineWhy(clean []byte) string { return levelWhy(level(clean), clean) }

// levelWhy is lineWhy for a line whose level is lvl.
func levelWhy(lvl string, clean []byte) string {
	if lvl == "error" {
		return WhyErrorLevel
	}
	// A warning, or a line at any other level, phrased as a failure is a
	// failure.
	if failure(clean) {
		return WhyFailure
	}
	return ""
}

// failureWords are words that, on their own, say that something went wrong.
// They are the phrasings of failure common to programs in general (C
// library and kernel messages, service managers, language runtimes, network
// clients), not the wording of one program.
var failureWords = map[string]bool{
	"fail": true, "fails": true, "failed": true, "failing": true, "failure": true, "failures": true,
	"error": true, "errors": true, "errno": true,
	"refused": true, "denied": true, "killed": true,
	"traceback": true, "exception": true, "fatal": true, "panic": true, "panicked": true,
	"segfault": true, "aborted": true, "abort": true, "aborting": true,
	"crash": true, "crashed": true, "crashing": true,
	"timeout": true, "timeouts": true, "unreachable": true,
	"corrupt": true, "corrupted": true, "corruption": true, "deadlock": true,
	"unable": true, "cannot": true, "can't": true, "couldn't": true,
	"emerg": true, "emergency": true, "crit": true, "critical": true,
	"sigkill": true, "sigsegv": true, "sigabrt": true, "oom": true,
	"exceeded": true, "violates": true, "violation": true, "mismatch": true,
	"unhealthy": true, "unrecoverable": true, "unhandled": true,
}

// failurePairs are two-word phrasings whose words are ordinary alone.
var failurePairs = map[[2]string]bool{
	{"core", "dumped"}: true, {"timed", "out"}: true, {"could", "not"}: true, {"can", "not"}: true,
	{"of", "memory"}: true, {"space", "left"}: true, {"no", "route"}: true, {"broken", "pipe"}: true,
	{"not", "responding"}: true, {"lost", "connection"}: true, {"connection", "lost"}: true,
	{"connection", "reset"}: true, {"segmentation", "fault"}: true, {"bad", "gateway"}: true,
	{"service", "unavailable"}: true, {"internal", "server"}: true,
}

// calmWords before a failure word say there was none: "0 errors", "no
// failures", "without error".
var calmWords = map[string]bool{"0": true, "no": true, "zero": true, "without": true, "never": true}

// maxFailureWords bounds the words of a line that failure looks at.
const maxFailureWords = 64

// failure reports whether a cleaned line is phrased as a failure: it has a
// failure word or pair (case-insensitive, whole words, not after "no" or
// "0" and not "errors=0"), "ERR!", or a word that names an exception or
// error type in CamelCase ("NullPointerException", "OSError").
func failure(line []byte) bool {
	words, pi, pj := 0, -1, -1
	f := failureFilters()
	for i := 0; i < len(line) && words < maxFailureWords; {
		// A word: letters, digits and apostrophes between other bytes.
		for i < len(line) && !isWordByte(line[i]) {
			i++
		}
		j := i
		for j < len(line) && isWordByte(line[j]) {
			j++
		}
		if i == j {
			break
		}
		words++
		if f.mayFail(line, i, j, pi, pj) && failureAt(line, i, j, pi, pj) {
			return true
		}
		pi, pj = prevWord(i, j)
		i = j
	}
	return false
}

// maxPairWord is the longest word failure lower-cases and looks up: no
// failure word or pair's word is longer.
const maxPairWord = 24

// prevWord returns the word line[i:j] as the word before the next one, for
// failureAt: -1, -1 when it is too long to be the first of a pair.
func prevWord(i, j int) (int, int) {
	if j-i > maxPairWord {
		return -1, -1
	}
	return i, j
}

// mayFail reports whether failureAt may be true of the word line[i:j]
// after the word line[pi:pj] (pi < 0: none). It is a filter, cheap enough
// for every word: most are refused by their length and first, second and
// last bytes, case-blind, before any is lower-cased.
func (f *failureWordFilters) mayFail(line []byte, i, j, pi, pj int) bool {
	if c := line[j-1]; j-i >= 6 && line[j-2] == 'o' && (c == 'n' || c == 'r') || j < len(line) && line[j] == '!' {
		return true // an exception or error type ("…Exception", "…Error"), or "ERR!"
	}
	w := line[i:j]
	return len(w) <= maxPairWord && (f.words.may(w) || pi >= 0 && f.seconds.may(w) && f.firsts.may(line[pi:pj]))
}

// failureAt reports whether the word line[i:j], after the word
// line[pi:pj] (pi < 0: none, or one too long for a pair), makes the line
// a failure.
func failureAt(line []byte, i, j, pi, pj int) bool {
	w := line[i:j]
	if c := w[len(w)-1]; (c == 'n' || c == 'r') && camelFailure(w) || (j < len(line) && line[j] == '!' && string(w) == "ERR") {
		return true
	}
	if len(w) > maxPairWord {
		return false
	}
	var prev []byte
	if pi >= 0 {
		prev = line[pi:pj]
	}
	f := failureFilters()
	word := f.words.may(w)
	pair := prev != nil && f.seconds.may(w) && f.firsts.may(prev)
	if !word && !pair {
		return false
	}
	var buf [2][maxPairWord]byte
	lw, lp := lowerASCII(buf[0][:0], w), lowerASCII(buf[1][:0], prev)
	if word && failureWords[string(lw)] && !calmWords[string(lp)] && !zeroAfter(line[j:]) {
		return true
	}
	return pair && isFailurePair(lp, lw)
}

func isWordByte(c byte) bool { return wordBytes[c] }

// zeroAfter reports whether rest, what follows a failure word, gives it the
// value zero: "errors=0", "failures: 0".
func zeroAfter(rest []byte) bool {
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == ':' || rest[i] == '=') {
		i++
	}
	return i > 0 && i < len(rest) && rest[i] == '0' && (i+1 == len(rest) || !isDigit(rest[i+1]))
}

// camelFailure reports whether w names an exception or error type:
// CamelCase ending in "Exception" or "Error" after at least one more letter
// ("IOException", "TypeError"), as language runtimes print them.
func camelFailure(w []byte) bool {
	for _, suf := range [...]string{"Exception", "Error"} {
		n := len(w) - len(suf)
		if n >= 1 && string(w[n:]) == suf && isLetter(w[n-1]) {
			return true
		}
	}
	return false
}

// Findings mines the lines of r as the logs profile does and returns, for
// each line in order, why it is reported as an anomaly: WhyErrorLevel,
// WhyFailure, WhyRare, or "" for an ordinary line. It holds one id per line
// and is meant for measuring the detector, not for unbounded input.
func Findings(ctx context.Context, r io.Reader) ([]string, error) {
	m := NewMiner(Options{})
	var ids []int32
	var why []string
	err := lines.Scan(ctx, r, func(n int, line []byte, long bool) error {
		ids = append(ids, int32(m.Add(line)))
		why = append(why, lineWhy(lines.Clean(line)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	tmpls := m.Templates()
	if !rarityApplies(m.Lines(), tmpls) {
		return why, nil
	}
	for i, id := range ids {
		if why[i] != "" || id == OverflowID {
			continue
		}
		if t, ok := m.Template(int(id)); ok && t.Count == 1 {
			why[i] = WhyRare
		}
	}
	return why, nil
}

// rarityApplies reports whether a template that occurs once means anything
// in a log of total lines with tmpls: the log is long enough, has more than
// one template, and few enough of them occur once.
func rarityApplies(total int, tmpls []Template) bool {
	singletons := 0
	for _, t := range tmpls {
		if t.Count == 1 {
			singletons++
		}
	}
	return total >= minLinesForRarity && singletons <= maxRare && len(tmpls) > 1
}
