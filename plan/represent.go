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
