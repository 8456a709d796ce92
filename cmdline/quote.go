package cmdline

import "strings"

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
