package cmdline

import (
	"fmt"
	"strings"
	"unicode/utf8"
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
// character (newline, ESC, BEL…, and the C1 controls U+0080–U+009F, which
// some terminals obey as ESC sequences) in the quoted text is written as an
// escape (\n, \e, \a, \xHH, \u0080), and so is a byte that is not UTF-8, so a
// command's argv can neither break a digest header or a ctx ls row nor drive
// the terminal. Without such characters it is Quote, and pasting it into sh
// runs argv; with them, it is for reading.
func Display(argv []string) string { return Escape(Quote(argv)) }

// Escape is Display for any text shown on one line (a title, a name): every
// control character, C1 control and byte that is not UTF-8 is written as an
// escape, so the text can neither break the line nor drive the terminal.
func Escape(q string) string {
	if !hasControl(q) {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); {
		r, n := utf8.DecodeRuneInString(q[i:])
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0x1b:
			b.WriteString(`\e`)
		case r == 0x07:
			b.WriteString(`\a`)
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, q[i])
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(q[i : i+n])
		}
		i += n
	}
	return b.String()
}

// hasControl reports whether s holds a character Display escapes.
func hasControl(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == utf8.RuneError && n == 1 {
			return true
		}
		i += n
	}
	return false
}
