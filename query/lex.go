package query

import (
	"fmt"
	"strconv"
	"strings"
)

type tokenKind uint8

const (
	tkEOF tokenKind = iota
	tkInt
	tkString
	tkIdent
	tkOp
)

// token is one lexical token of an expression; off is its byte offset.
type token struct {
	kind tokenKind
	text string // the identifier, operator or (unquoted) string
	num  int64
	off  int
}

func (t token) String() string {
	switch t.kind {
	case tkEOF:
		return "the end of the expression"
	case tkString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// ops are the operators, longest first so "<=" wins over "<".
var ops = []string{"==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "(", ")", "[", "]", ",", "."}

// opHint names the operator meant for a character people carry over from
// other query languages.
var opHint = map[byte]string{
	'=': ": compare with ==",
	'~': `: match a pattern with name.matches("RE")`,
	'&': ": and is &&",
	'|': ": or is ||",
}

// lex cuts an expression into tokens, ending with an EOF token.
func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.ParseInt(s[i:j], 10, 64)
			if err != nil {
				return nil, errAt(i, "number %s out of range", s[i:j])
			}
			out = append(out, token{kind: tkInt, num: n, text: s[i:j], off: i})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, token{kind: tkIdent, text: s[i:j], off: i})
			i = j
		case c == '"' || c == '\'':
			str, n, err := lexString(s, i)
			if err != nil {
				return nil, err
			}
			out = append(out, token{kind: tkString, text: str, off: i})
			i += n
		default:
			op := ""
			for _, o := range ops {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, errAt(i, "unexpected character %q%s", c, opHint[c])
			}
			out = append(out, token{kind: tkOp, text: op, off: i})
			i += len(op)
		}
	}
	return append(out, token{kind: tkEOF, off: len(s)}), nil
}

// lexString reads the quoted string at s[i] and returns its value and
// length. Escapes: \\ \" \' \n \t.
func lexString(s string, i int) (string, int, error) {
	q := s[i]
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == q:
			return b.String(), j + 1 - i, nil
		case c == '\\' && j+1 < len(s):
			j++
			switch e := s[j]; e {
			case '\\', '"', '\'':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return "", 0, errAt(j-1, "unknown escape \\%c (escapes: \\\\ \\\" \\' \\n \\t)", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, errAt(len(s), "unterminated string")
}
