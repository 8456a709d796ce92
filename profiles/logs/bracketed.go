package logs

import "bytes"

// bracketed reports whether tk's core is one word wholly enclosed in one
// pair of square brackets, "[web]" or "[web],": a program that prints a
// name in brackets prints a value it did not write (a jail, a section, a
// worker's name), as it does a quoted one (RuleBracketed). An upper-case
// word ("[DONE]", "[OK]") is not: programs bracket their own status words.
func (t *tokenizer) bracketed(tk *token) bool {
	if tk.cs == tk.start || tk.ce >= tk.end || upperWord(t.buf[tk.cs:tk.ce]) {
		return false
	}
	return t.buf[tk.cs-1] == '[' && t.buf[tk.ce] == ']'
}

// bracketGroups makes each group in square brackets that spans several
// tokens ("[ivan/<via Auth-Type = PAP>]", "[web, mail]") one
// variable token (RuleBracketGroups): a program that prints a value in
// brackets prints it whole, spaces and all, as it does a single word
// (RuleBracketed). The group runs from a token that opens with '[' to the
// token, at most maxBracketTokens on, whose ']' closes it; a group whose
// words are all upper-case status words ("[NOT FOUND]") stays, as "[OK]"
// does, and so does one that opens with a label ("[instance: 5f2…]"),
// whose key the token rules keep. Header fields are left to the frame.
func (t *tokenizer) bracketGroups() {
	if t.off&(RuleBracketGroups|RuleBracketed) != 0 || bytes.IndexByte(t.buf, '[') < 0 {
		return
	}
	for i := 0; i < len(t.toks); i++ {
		tk := &t.toks[i]
		if tk.header || tk.has&bCall == 0 || t.buf[tk.start] != '[' {
			continue
		}
		last, close := t.groupClose(i)
		if last <= i || t.upperGroup(i, last) || t.buf[tk.ce] == ':' {
			continue
		}
		tk.kind = variable
		tk.numeric = false
		tk.cs, tk.ce = tk.start+1, int32(close)
		tk.end = t.toks[last].end
		t.toks = append(t.toks[:i+1], t.toks[last+1:]...)
	}
}

// groupClose returns the token holding the ']' that closes the '[' that
// token i opens with, and that bracket's offset, or -1.
func (t *tokenizer) groupClose(i int) (int, int) {
	b := t.buf
	depth := 0
	for j := i; j < len(t.toks) && j < i+maxBracketTokens; j++ {
		tk := t.toks[j]
		if tk.header {
			return -1, -1
		}
		s := int(tk.start)
		if j == i {
			s++
		}
		for k := s; k < int(tk.end); k++ {
			switch b[k] {
			case '[':
				depth++
			case ']':
				if depth == 0 {
					return j, k
				}
				depth--
			}
		}
	}
	return -1, -1
}

// upperGroup reports whether every token i..last has an upper-case core.
func (t *tokenizer) upperGroup(i, last int) bool {
	for j := i; j <= last; j++ {
		tk := t.toks[j]
		if !upperWord(t.buf[tk.cs:tk.ce]) {
			return false
		}
	}
	return true
}
