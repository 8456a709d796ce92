package logs

// Next keys (RuleFrameNextKeys): when the field after a word column is a
// "key=value" token whose value has a digit (dn="…,dc=ho8", tag=97), its
// key tells which field comes next as a word would, so it counts as the
// next field in RuleFrameNext's test. A message's first word (a command,
// an operation: "BIND dn=…", "RESULT tag=…") is followed by the same key
// every time; a level or logger by the first fields of many messages.
// Without it such a first word, followed by values with digits only, was
// no evidence either way, and a column of operation names after two
// numbers ("conn=7 op=2 BIND …") was taken for a level and masked.

// fieldKey returns a hash of field f's key when f is one keyValue token
// with a digit in it, or 0.
func (t *tokenizer) fieldKey(f field) uint64 {
	if f.end != f.start+1 {
		return 0
	}
	tk := t.toks[f.start]
	if tk.kind != keyValue || !hasDigit(t.buf[tk.start:tk.end]) {
		return 0
	}
	return fnvString(14695981039346656037, "\x02"+string(t.buf[tk.start:tk.split]))
}

// nextValue returns what identifies next field f in RuleFrameNext's test,
// and whether it counts: a field without a digit by its value, one
// "key=value" token by its key (RuleFrameNextKeys).
func nextValue(f sampleField, off Rules) (uint64, bool) {
	switch {
	case !f.digit:
		return f.value, true
	case f.key != 0 && off&RuleFrameNextKeys == 0:
		return f.key, true
	}
	return 0, false
}
