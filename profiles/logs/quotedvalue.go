package logs

import "bytes"

// Quoted values (RuleQuotedValue): the value of key="…" or key='…' is one
// variable, whatever it holds and however many tokens it spans
// (dn="uid=ann,ou=people,dc=example", text="no such object",
// filter="(cn=x*)"). A program quotes a value it did not write, as
// RuleQuoted has it for a word alone; a key names the field. Without this
// the pair split cuts a quoted list of pairs into pieces whose word parts
// stay constant, and a quoted phrase keeps its words, so one event gets a
// template per value. Unlike a quoted word alone, an upper-case value
// is a variable too (tag="SCREEN_FROZEN"): the key says it is a value.

// maxQuotedTokens bounds the tokens a quoted value may span.
const maxQuotedTokens = 16

// quotedValues joins each key="…" value into one keyValue token whose
// value is the whole quoted text. It runs after classify; it touches only
// tokens holding '=' and a quote right after it.
func (t *tokenizer) quotedValues() {
	if t.off&RuleQuotedValue != 0 || bytes.IndexByte(t.buf, '=') < 0 {
		return
	}
	for i := 0; i < len(t.toks); i++ {
		tk := &t.toks[i]
		if tk.has&bKey == 0 || tk.header {
			continue
		}
		open := t.quotedKey(tk)
		if open < 0 {
			continue
		}
		last, end := t.quoteClose(i, open)
		if last < 0 {
			continue
		}
		tk.kind = keyValue
		tk.split = int32(open)
		tk.end = t.toks[last].end
		tk.cs, tk.ce = tk.start, int32(end)
		tk.numeric = false
		if last > i {
			t.toks = append(t.toks[:i+1], t.toks[last+1:]...)
		}
	}
}

// quotedKey returns the offset in t.buf of the opening quote of tk when tk
// starts with an identifier key, '=' and a quote, or -1.
func (t *tokenizer) quotedKey(tk *token) int {
	b := t.buf
	s, e := int(tk.start), int(tk.end)
	if s >= e || !isLetter(b[s]) {
		return -1
	}
	for k := s + 1; k+1 < e; k++ {
		switch c := b[k]; {
		case c == '=':
			if q := b[k+1]; q == '"' || q == '\'' {
				return k + 1
			}
			return -1
		case isAlnum(c) || c == '_' || c == '-' || c == '.':
		default:
			return -1
		}
	}
	return -1
}

// quoteClose finds the quote that closes the one at t.buf[open], in token
// i or one of the next maxQuotedTokens tokens. It returns the token that
// holds it and the offset just past it, or -1.
func (t *tokenizer) quoteClose(i, open int) (int, int) {
	b := t.buf
	q := b[open]
	for j := i; j < len(t.toks) && j < i+maxQuotedTokens; j++ {
		s := int(t.toks[j].start)
		if j == i {
			s = open + 1
		}
		for k := s; k < int(t.toks[j].end); k++ {
			if b[k] == q {
				return j, k + 1
			}
		}
	}
	return -1, -1
}
