package cmdline

import (
	"fmt"
	"strings"
)

// Quote renders argv as it would be typed at a POSIX shell: words joined by
// spaces, each quoted by QuoteWord. Pasting the result into sh runs argv.
func Quote(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(QuoteWord(a))
	}
	return b.String()
}

// QuoteWord returns s as one shell word: unchanged when it holds only
// letters, digits and -_./=:,+@%^ (characters no shell treats specially
// inside a word), otherwise in single quotes, with each ' written '\”.
// The empty word is ”.
func QuoteWord(s string) string {
	if s == "" {
		return "''"
	}
	if plain(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%^", c) >= 0) {
			return false
		}
	}
	return true
}

// Display is Quote for showing argv on one line of a terminal: every control
// byte (newline, ESC, BEL…) in the quoted text is written as an escape (\n,
// \e, \a, \xHH), so a command's argv can neither break a digest header or a
// ctx ls row nor drive the terminal. Without control bytes it is Quote, and
// pasting it into sh runs argv; with them, it is for reading.
func Display(argv []string) string {
	q := Quote(argv)
	if !hasControl(q) {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == 0x1b:
			b.WriteString(`\e`)
		case c == 0x07:
			b.WriteString(`\a`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}
