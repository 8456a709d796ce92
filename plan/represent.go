package plan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ctxhq/ctx/evidence"
)

// needleWidth is how much of an identity or message must appear for the
// digest to count as showing it: the start of its first line (a one-line
// form may clip the rest, which its span handle then recovers).
const needleWidth = 80

// Needles are the texts a digest must contain for an item to count as
// represented: its identity and its message (first line, whitespace
// collapsed, at most needleWidth bytes each). An item with no message needs
// only its identity.
func Needles(it *evidence.Item) []string {
	var out []string
	add := func(s string) {
		if n := needle(s); n != "" {
			out = append(out, n)
		}
	}
	switch it.Kind {
	case evidence.KindTest:
		name := it.Name
		if _, n, ok := strings.Cut(name, "::"); ok {
			name = n
		}
		add(firstNonEmpty(name, it.Package))
		add(it.Message)
	case evidence.KindDiagnostic:
		add(it.File)
		add(it.Message)
	case evidence.KindSummary:
		add(it.Message)
	case evidence.KindAnomaly:
		add(it.Text)
	case evidence.KindRecord:
		add(firstNonEmpty(it.Text, it.Message))
	case evidence.KindHit, evidence.KindFile:
		add(it.File)
	case evidence.KindTemplate:
		add(it.Template)
	case evidence.KindCommit:
		name := it.Name
		if len(name) > 10 {
			name = name[:10]
		}
		add(name)
	default:
		add(firstNonEmpty(it.Name, it.Text))
	}
	return out
}

// Represents reports whether text shows every needle of the item.
func Represents(it *evidence.Item, text string) bool {
	flat := collapse(text)
	for _, n := range Needles(it) {
		if !strings.Contains(flat, n) {
			return false
		}
	}
	return true
}

// needle is the start of s's first non-blank line, cleaned of terminal
// colour, whitespace collapsed, cut at a rune boundary.
func needle(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = collapse(cleanLine(s))
	if len(s) > needleWidth {
		cut := needleWidth
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimSpace(s[:cut])
	}
	return s
}

// collapse replaces each run of white space by one space.
func collapse(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, c := range s {
		if unicode.IsSpace(c) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(c)
	}
	return b.String()
}

// wordSet is the set of words (maximal runs of letters and digits) in s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words(s) {
		set[w] = true
	}
	return set
}

func words(s string) []string {
	return strings.FieldsFunc(s, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
}

// composedOf reports whether a needle that is not shown verbatim is made of
// words the shown output does contain: a message a profile composed from
// several output lines ("cannot find symbol; symbol: variable c" from three
// lines of javac) is represented by a whole output showing those lines. A
// message carrying ctx's own reading ("the test binary exited while the test
// ran") is made of words the output does not have, and is not. At most one
// word in ten may be missing (a joining label such as "last output"); a
// needle cut at needleWidth does not count its last, possibly cut, word.
func composedOf(needle string, set map[string]bool) bool {
	ws := words(needle)
	if len(needle) >= needleWidth-1 && len(ws) > 1 {
		ws = ws[:len(ws)-1]
	}
	if len(ws) == 0 {
		return false
	}
	missing := 0
	for _, w := range ws {
		if !set[w] {
			missing++
		}
	}
	return missing <= len(ws)/10
}
