package logs

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
