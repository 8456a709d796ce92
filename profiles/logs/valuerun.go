package logs

// Value runs (RuleValueRun): the value of a line's last "key=value" field
// runs to the end of the line when no other pair follows it
// ("… err=0 text=no such object", "… text="), for a key that the log's
// first lines (the frame's sample) show with an empty value at the end of
// a line. A record of key=value fields prints each value after its key;
// when the last value is free text its words follow the '=' with spaces
// between them, and nothing else marks where it ends, so each text made
// its own template. That a key ends lines with nothing after its '=' is
// the log's own evidence that its value is text the program filled in,
// which may be empty or many words; other keys whose value is followed by
// words ("T=smtp defer (…): Connection refused") are followed by the
// message, which tells events apart. The run is one variable, as a quoted
// value is (RuleQuotedValue), and so is the empty value: "text=" and
// "text=invalid DN" are the same field. A pair followed by another pair ("name= age=0") is left
// alone, and so is one whose value has a digit ("op=3 UNBIND": a number
// ends with its token, and the words after it are the message's).

// maxRunTokens bounds the tokens a value run may span.
const maxRunTokens = 16

// valueRun joins the line's last key=value token and the plain tokens
// after it into one keyValue token whose whole value is variable.
func (t *tokenizer) valueRun() {
	if t.off&RuleValueRun != 0 || len(t.toks) == 0 || t.truncated || t.frame.runs.n == 0 {
		return
	}
	n := len(t.toks)
	i := n - 1
	for ; i >= 0 && i >= n-1-maxRunTokens; i-- {
		if t.toks[i].has&bKey != 0 && t.pairKey(&t.toks[i]) > 0 {
			break
		}
	}
	if i < 0 || i < n-1-maxRunTokens || t.toks[i].header {
		return
	}
	tk := &t.toks[i]
	k := t.pairKey(tk)
	if !t.frame.runKey(t.buf[tk.start : k-1]) {
		return
	}
	if i == n-1 && k < int(tk.end) || hasDigit(t.buf[k:tk.end]) {
		// A value within the token, or one with a digit (a counter, an
		// id: "op=3 UNBIND"), which ends where its token does.
		return
	}
	tk.kind = keyValue
	tk.split = int32(k)
	tk.end = t.toks[n-1].end
	tk.cs, tk.ce = tk.start, tk.end
	tk.numeric = false
	t.toks = t.toks[:i+1]
}

// pairKey returns the offset in t.buf just past the '=' of tk when tk
// starts with an identifier key and '=' (its value may be empty), or 0.
func (t *tokenizer) pairKey(tk *token) int {
	b := t.buf
	s, e := int(tk.start), int(tk.end)
	if s >= e || !isLetter(b[s]) {
		return 0
	}
	for k := s + 1; k < e; k++ {
		switch c := b[k]; {
		case c == '=':
			return k + 1
		case isAlnum(c) || c == '_' || c == '-' || c == '.':
		default:
			return 0
		}
	}
	return 0
}

// maxRunKeys bounds the keys a log's value runs may follow.
const maxRunKeys = 8

// runKeys are the keys (hashes) whose values run to the end of a line.
type runKeys struct {
	n    int
	keys [maxRunKeys]uint64
}

// runKey reports whether key is one of fr's run keys.
func (fr *frame) runKey(key []byte) bool {
	h := fnvString(14695981039346656037, string(key))
	for _, k := range fr.runs.keys[:fr.runs.n] {
		if k == h {
			return true
		}
	}
	return false
}

// learnRunKeys returns the keys that end a sample line with an empty
// value ("… text="), the first maxRunKeys of them in the lines' order.
// learnFrame gathers them as it reads the sample (sampleRows); this pass
// is for a miner without a frame.
func learnRunKeys(sample [][]byte, off Rules) runKeys {
	var rk runKeys
	var t tokenizer
	t.off = off
	for _, line := range sample {
		t.clean(line)
		t.split()
		rk.note(&t)
	}
	return rk
}

// note adds the key of t's last token when it is "key=" with an empty
// value, if it is new and there is room.
func (rk *runKeys) note(t *tokenizer) {
	if t.off&RuleValueRun != 0 || rk.n == maxRunKeys || len(t.toks) == 0 || t.truncated {
		return
	}
	tk := &t.toks[len(t.toks)-1]
	if t.buf[tk.end-1] != '=' {
		return
	}
	k := t.pairKey(tk)
	if k == 0 || k != int(tk.end) {
		return
	}
	h := fnvString(14695981039346656037, string(t.buf[tk.start:k-1]))
	for _, x := range rk.keys[:rk.n] {
		if x == h {
			return
		}
	}
	rk.keys[rk.n] = h
	rk.n++
}
