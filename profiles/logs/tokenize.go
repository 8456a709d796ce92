package logs

import (
	"bytes"
	"encoding/binary"
)

// This file turns one log line into its template key: the line cleaned of
// terminal noise, split into tokens, each token classified as constant or
// variable, and the result rendered with every run of variables collapsed to
// a single "<*>". Two lines share a group exactly when their keys are equal.

// Wildcard is the text that stands for a variable part of a line.
const Wildcard = "<*>"

var wildcard = []byte(Wildcard)

// Limits on how much of one line is examined. A line longer than maxLineBytes
// or with more than maxTokens tokens is templated from its prefix, and the
// rest is represented by a trailing Wildcard.
const (
	maxLineBytes = 8 << 10
	maxTokens    = 256
	// maxBracketTokens bounds a bracketed header field such as
	// "[IPC Server handler 13 on 62270]".
	maxBracketTokens = 12
)

// kind classifies a token.
type kind uint8

const (
	constant kind = iota // kept verbatim
	variable             // replaced by Wildcard
	keyValue             // key kept, value replaced: "size=<*>"
)

// token is one field of a cleaned line. Offsets index tokenizer.buf.
type token struct {
	start, end int32  // the whole token (a cleaned line is at most maxLineBytes)
	cs, ce     int32  // its core, without surrounding punctuation
	split      int32  // for keyValue: end of the kept key and its separator
	sep        byte   // separator before the token: 0 at the start, ' ' or '|'
	has        uint16 // the tokenBytes classes of its bytes, ORed
	kind       kind
	numeric    bool // the core is a number such as 12, -3.5 or <1
	header     bool // a variable field of the log's frame (frame.go)
}

// tokenizer holds the scratch space reused for every line.
type tokenizer struct {
	buf       []byte  // the cleaned line: the input itself or scratch
	scratch   []byte  // space for cleaned copies
	toks      []token // its tokens
	key       []byte  // the rendered template key
	truncated bool    // the line was cut at maxLineBytes or maxTokens
	off       Rules   // rules switched off, for measurement
	frame     frame   // the log's header, once learnt
	// templates counts the lines templated; folded says that the last
	// one's cleaning dropped an escape sequence or met a CR, which
	// lines.Clean treats otherwise (lineFacts).
	templates int
	folded    bool
	control   bool // split met a control byte in t.buf and stopped
	// words are where the first nwords words of the line are (split).
	words  [maxLineWords][2]int32
	nwords int
}

// maxLineWords bounds the words of a line split records: failure reads
// at most maxFailureWords, and level's words start in the first
// maxLevelBytes bytes, which hold fewer.
const maxLineWords = maxFailureWords

// template cleans and tokenizes line and returns its template key. The
// returned slice is only valid until the next call.
func (t *tokenizer) template(line []byte) []byte {
	t.templates++
	// Most lines hold no control byte: split reads them as they are,
	// and stops at the first control byte it meets, which sends the line
	// through clean first. A line cut at maxTokens is checked to its
	// end, as split's look-ahead may have read past a control byte there.
	t.folded, t.truncated = false, false
	t.buf = line[:min(len(line), maxLineBytes)]
	t.truncated = len(line) > maxLineBytes
	t.split()
	if t.control || t.truncated && controlIndex(t.buf) >= 0 {
		t.clean(line)
		t.split()
	}
	t.markFrame()
	for i := range t.toks {
		if !t.toks[i].header {
			t.classify(&t.toks[i])
		}
	}
	t.bracketGroups()
	t.quotedValues()
	t.valueRun()
	t.context()
	return t.render()
}

// clean sets t.buf to line without ANSI escape sequences, with control
// bytes (CR, tab, NUL, …) mapped to spaces, one for one. Only the first
// maxLineBytes bytes of line are read, so a line's template depends on
// that prefix alone.
// A line without control bytes is used in place, not copied; t.buf is never
// written through.
func (t *tokenizer) clean(line []byte) {
	t.folded, t.truncated = false, false
	if len(line) > maxLineBytes {
		line = line[:maxLineBytes]
		t.truncated = true
	}
	first := controlIndex(line)
	if first < 0 {
		t.buf = line
		return
	}
	b := append(t.scratch[:0], line[:first]...)
	for i := first; i < len(line); i++ {
		c := line[i]
		switch {
		case c == 0x1b:
			i = skipEscape(line, i)
			t.folded = true
			continue
		case c == '\r':
			c = ' '
			t.folded = true
		case c < 0x20 || c == 0x7f:
			c = ' '
		}
		b = append(b, c)
	}
	t.scratch = b
	t.buf = b
}

// controlIndex returns the index of the first control byte of line (below
// 0x20, or DEL), or -1. It reads eight bytes at a time: most lines have
// none.
func controlIndex(line []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(line); i += 8 {
		x := binary.LittleEndian.Uint64(line[i:])
		// A byte below 0x20 has its high bit set in x - 0x20 (and not in
		// x); a DEL is a zero byte of x ^ 0x7f….
		d := x ^ 0x7f*ones
		if ((x-0x20*ones)&^x|(d-ones)&^d)&highs != 0 {
			break
		}
	}
	for ; i < len(line); i++ {
		if c := line[i]; c < 0x20 || c == 0x7f {
			return i
		}
	}
	return -1
}

// skipEscape returns the index of the last byte of the escape sequence that
// starts at line[i] (an ESC byte).
func skipEscape(line []byte, i int) int {
	if i+1 >= len(line) {
		return i
	}
	switch line[i+1] {
	case '[': // CSI: parameters and intermediates, then a final byte in @–~.
		j := i + 2
		for j < len(line) && j-i < 64 {
			if c := line[j]; c >= 0x40 && c <= 0x7e {
				return j
			}
			j++
		}
		return j - 1
	case ']': // OSC: terminated by BEL or ESC \.
		j := i + 2
		for j < len(line) && j-i < 512 {
			if line[j] == 0x07 {
				return j
			}
			if line[j] == 0x1b && j+1 < len(line) && line[j+1] == '\\' {
				return j + 1
			}
			j++
		}
		return j - 1
	default: // nF and Fp escapes: intermediates, then one final byte (ESC ( B, ESC =).
		j := i + 1
		for j < len(line)-1 && j-i < 8 && line[j] >= 0x20 && line[j] <= 0x2f {
			j++
		}
		return j
	}
}

// split fills t.toks from t.buf, splitting at spaces and at '|', which logs
// use as a field separator far more often than as text. A token ends at
// the next space or '|', or just after a ',' or ';' (past its first byte)
// that starts another pair ("index:3,flag:x": a list of pairs without
// spaces is split after each comma, so one pair's value does not swallow
// the next pair's key); a '|' inside a key's value does not end it
// (valueBar). Each token carries the tokenBytes classes of its bytes. In
// the same walk split records where the line's first maxLineWords words
// (runs of bText bytes) are, in t.words: the profile's level and failure
// checks read them (lineFacts) rather than walking the bytes again.
func (t *tokenizer) split() {
	toks := t.toks[:0] // locals, not written back on every token
	nw := 0
	t.control = false
	b := t.buf
	var sep byte
	for i := 0; i < len(b); {
		if c := b[i]; c == ' ' || c == '|' {
			if c == '|' || sep == 0 {
				sep = c
			}
			i++
			continue
		}
		if len(toks) >= maxTokens {
			t.truncated = true
			break
		}
		j, pair, has := i, i+1, uint16(0)
	scan:
		for j < len(b) {
			c := tokenBytes[b[j]]
			if c&bText != 0 { // a word: its bytes are neither separators nor pair ends
				w := j
				for j++; j < len(b) && tokenBytes[b[j]]&bText != 0; j++ {
					c |= tokenBytes[b[j]]
				}
				has |= c
				if nw < maxLineWords {
					t.words[nw] = [2]int32{int32(w), int32(j)}
					nw++
				}
				continue
			}
			if c&(bSep|bControl) != 0 {
				if c == bControl {
					t.control = true // a raw line to clean first (template)
					return
				}
				if b[j] == '|' && t.valueBar(i, j) {
					j++
					pair = j
					continue
				}
				break
			}
			has |= c
			j++
			if c&bPairEnd != 0 && j > pair && t.off&RulePairSplit == 0 && pairAt(b, j) {
				break scan
			}
		}
		if len(toks) == 0 {
			sep = 0
		}
		cs, ce := trimPunct(b, i, j)
		toks = append(toks, token{start: int32(i), end: int32(j), cs: int32(cs), ce: int32(ce), sep: sep, has: has})
		sep = 0
		i = j
	}
	t.toks, t.nwords = toks, nw
}

// valueBar reports whether the '|' at b[j] is part of the value of the
// "key=value" token that starts at b[i] ("cmd=config|get"): a key, then
// '|' between two letters or digits, and no pair after it. With
// RuleValueBar off every '|' separates.
func (t *tokenizer) valueBar(i, j int) bool {
	return t.off&RuleValueBar == 0 && valueBarAt(t.buf, i, j)
}

// valueBarAt reports whether the '|' at b[j] continues the "key=value"
// word that starts at b[i]. splitKey asks it of rendered keys, where such
// a value is kept verbatim, so that it splits them as the tokenizer did.
func valueBarAt[T ~string | ~[]byte](b T, i, j int) bool {
	if j+1 >= len(b) || j == 0 || !isAlnum(b[j-1]) || !isAlnum(b[j+1]) || pairAt(b, j+1) {
		return false
	}
	k := keyEnd([]byte(b[i:j]))
	return k > 0 && b[i+k-1] == '='
}

// Classes of bytes for the tokenizer: bSep ends a token, bPairEnd may end
// one before a pair; the others tell classify which of its tests can
// match a token at all.
const (
	bSep     = 1 << iota // ' ', '|'
	bPairEnd             // ',', ';'
	bDigit               // 0–9
	bLess                // '<', which a Wildcard starts with
	bPath                // '/', ':', a path's or a URL's
	bCall                // '(', '[', a call's
	bKey                 // '=', ':', '.', a key's separator
	bWord                // '@', '.', a host's or an address's
	bText                // a byte of the words failure reads (wordBytes)
	bControl             // below 0x20, or DEL: clean maps or drops it
)

var tokenBytes = func() (t [256]uint16) {
	for _, c := range []byte(" |") {
		t[c] |= bSep
	}
	for _, c := range []byte(",;") {
		t[c] |= bPairEnd
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= bDigit
	}
	t['<'] |= bLess
	for _, c := range []byte("/:") {
		t[c] |= bPath
	}
	for _, c := range []byte("([") {
		t[c] |= bCall
	}
	for _, c := range []byte("=:.") {
		t[c] |= bKey
	}
	for _, c := range []byte("@.") {
		t[c] |= bWord
	}
	for c := range t {
		if wordBytes[c] {
			t[c] |= bText
		}
		if c < 0x20 || c == 0x7f {
			t[c] = bControl
		}
	}
	return t
}()

// pairAt reports whether b[i:] starts with a key=value or key:value pair
// (an identifier key, then a value of at least one byte) before the next
// space, '|' or ','.
func pairAt[T ~string | ~[]byte](b T, i int) bool {
	if i >= len(b) || !isLetter(b[i]) {
		return false
	}
	for k := i; k < len(b); k++ {
		switch c := b[k]; {
		case c == '=' || c == ':':
			return k+1 < len(b) && b[k+1] != ' ' && b[k+1] != '|' && b[k+1] != ',' && b[k+1] != c
		case isAlnum(c) || c == '_' || c == '.' || c == '-':
		default:
			return false
		}
	}
	return false
}

// trimPunct returns the core of b[i:j] without leading opening brackets and
// quotes and without trailing closing brackets, quotes and sentence
// punctuation.
func trimPunct(b []byte, i, j int) (int, int) {
	for i < j && isLeadPunct(b[i]) {
		i++
	}
	for j > i && isTrailPunct(b[j-1]) {
		j--
	}
	return i, j
}

// punct classifies bytes for trimPunct.
var punct = func() (p [256]uint8) {
	for _, c := range []byte("([{<\"'`") {
		p[c] |= leadPunct
	}
	for _, c := range []byte(")]}>\"'`,;:.!?") {
		p[c] |= trailPunct
	}
	return p
}()

const (
	leadPunct  = 1 << iota // opening brackets and quotes
	trailPunct             // closing brackets, quotes, sentence punctuation
)

func isLeadPunct(c byte) bool  { return punct[c]&leadPunct != 0 }
func isTrailPunct(c byte) bool { return punct[c]&trailPunct != 0 }

// fieldEnd returns the index just past the field that starts at token i:
// a group opened by '[' or '(' that may span several tokens up to its
// matching close, or one token.
func (t *tokenizer) fieldEnd(i int) int {
	b := t.buf
	tk := t.toks[i]
	open := b[tk.start]
	var close byte
	switch open {
	case '[':
		close = ']'
	case '(':
		close = ')'
	default:
		return i + 1
	}
	depth := 0
	for j := i; j < len(t.toks) && j < i+maxBracketTokens; j++ {
		s, e := t.toks[j].start, t.toks[j].end
		if j == i {
			s++
		}
		for k := s; k < e; k++ {
			switch b[k] {
			case open:
				depth++
			case close:
				if depth == 0 {
					return j + 1
				}
				depth--
			}
		}
	}
	return i + 1
}

// classify decides whether a message token is constant, variable, or a key
// whose value is variable.
func (t *tokenizer) classify(tk *token) {
	w := t.buf[tk.cs:tk.ce]
	tk.kind = constant
	// Each test runs only on a token holding the bytes it needs
	// (tk.has): most tokens are plain words.
	if len(w) == 0 || tk.has&bLess != 0 && bytes.Contains(t.buf[tk.start:tk.end], wildcard) {
		// A token that already holds a Wildcard, as in a template fed back
		// in, stays as it is.
		return
	}
	if tk.has&bPath != 0 && isPath(w) {
		tk.kind = variable
		return
	}
	if tk.has&bCall != 0 && t.off&RuleKeyValue == 0 {
		if k := callEnd(w); k > 0 {
			tk.kind = keyValue
			tk.split = tk.cs + int32(k)
			return
		}
	}
	if tk.has&bDigit == 0 || !hasDigit(w) {
		if t.off&RuleWordValues == 0 && isWordVariable(w, t.off&RuleDottedNames == 0, tk.has&bWord != 0) {
			tk.kind = variable
		}
		if t.off&RuleQuoted == 0 && t.quoted(tk) || t.off&RuleBracketed == 0 && t.bracketed(tk) {
			tk.kind = variable
		}
		return
	}
	tk.numeric = isNumber(w)
	if tk.numeric {
		tk.kind = variable
		return
	}
	if tk.has&bKey != 0 && t.off&RuleKeyValue == 0 {
		if k := keyEnd(w); k > 0 {
			tk.kind = keyValue
			tk.split = tk.cs + int32(k)
			return
		}
	}
	tk.kind = variable
}

// context applies rules that depend on neighbouring tokens: a unit after a
// number ("1190 bytes", "<1 sec") and a month or weekday name beside a
// variable ("Fri Jul 22") belong to the variable.
func (t *tokenizer) context() {
	toks := t.toks
	dates := false // whether a constant's core is a month or weekday name: most lines have none
	for i := range toks {
		tk := &toks[i]
		if tk.kind != constant {
			continue
		}
		if tk.ce-tk.cs == 3 && isDateWord(t.buf[tk.cs:tk.ce]) {
			dates = true
		}
		if i == 0 || tk.sep == '|' {
			continue
		}
		w := t.buf[tk.cs:tk.ce]
		if toks[i-1].numeric && t.off&RuleUnits == 0 && isUnit(w) {
			tk.kind = variable
		}
	}
	if t.off&RuleDateWords != 0 || !dates {
		return
	}
	for pass := 0; pass < 2; pass++ {
		for i := range toks {
			tk := &toks[i]
			if tk.kind != constant || !isDateWord(t.buf[tk.cs:tk.ce]) {
				continue
			}
			if i > 0 && toks[i-1].kind == variable || i+1 < len(toks) && toks[i+1].kind == variable {
				tk.kind = variable
			}
		}
	}
}

// render writes the template key: constants verbatim, each run of variables
// as one Wildcard, keys of key=value tokens with a Wildcard value.
func (t *tokenizer) render() []byte {
	k := t.key[:0]
	b := t.buf
	toks := t.toks
	// A run of constants, each one byte (its separator) after the one
	// before, renders as the bytes b[from:to]: they are appended at once
	// when it ends.
	from, to := 0, -1
	for i := 0; i < len(toks); i++ {
		tk := &toks[i]
		if tk.kind == constant && to >= 0 && int(tk.start) == to+1 && tk.sep != 0 && b[to] == tk.sep {
			to = int(tk.end)
			continue
		}
		if to >= 0 {
			k = append(k, b[from:to]...)
			to = -1
		}
		if tk.sep != 0 {
			k = append(k, tk.sep)
		}
		switch tk.kind {
		case constant:
			from, to = int(tk.start), int(tk.end)
		case keyValue:
			k = append(k, b[tk.start:tk.split]...)
			k = append(k, Wildcard...)
			k = append(k, b[tk.ce:tk.end]...)
		case variable:
			j := i
			for j+1 < len(toks) && toks[j+1].kind == variable && t.off&RuleCollapse == 0 {
				j++
			}
			if j == i && !tk.header {
				// A lone variable keeps its brackets, quotes and
				// punctuation: "(<*>)," reads better than "<*>" and is as
				// stable. '<' and '>' go: "<1" is a number, like "1".
				k = appendExcept(k, b[tk.start:tk.cs], '<')
				k = append(k, Wildcard...)
				k = appendExcept(k, b[tk.ce:tk.end], '>')
			} else {
				k = append(k, Wildcard...)
			}
			i = j
		}
	}
	if to >= 0 {
		k = append(k, b[from:to]...)
	}
	if t.truncated && !(len(toks) > 0 && toks[len(toks)-1].kind == variable) {
		if len(k) > 0 {
			k = append(k, ' ')
		}
		k = append(k, Wildcard...)
	}
	t.key = k
	return k
}

// appendExcept appends the bytes of src other than c to dst.
func appendExcept(dst, src []byte, c byte) []byte {
	for _, x := range src {
		if x != c {
			dst = append(dst, x)
		}
	}
	return dst
}

// keyEnd returns the length of the key and separator of a "key=value",
// "key:value" or "key.....value" (dot leaders) word whose value holds the
// variable part, or 0. A key is an identifier; before ':' it must not look
// like a host name before a port ("proxy.example.org:5070", "localhost:8080").
func keyEnd(w []byte) int {
	if len(w) == 0 || !isLetter(w[0]) {
		return 0 // before the walk: a time or a number ("18:04:34,894") is no key
	}
	j, sepEnd := -1, -1
	for i, c := range w {
		if c == '=' || c == ':' {
			j, sepEnd = i, i+1
			break
		}
		if c == '.' && i+2 < len(w) && w[i+1] == '.' && w[i+2] == '.' {
			j, sepEnd = i, i+3
			for sepEnd < len(w) && w[sepEnd] == '.' {
				sepEnd++
			}
			break
		}
	}
	if j <= 0 || sepEnd >= len(w) {
		return 0
	}
	key := w[:j]
	for _, c := range key {
		switch {
		case isAlnum(c) || c == '_' || c == '$':
		case c == '.' || c == '-':
			if w[j] == ':' {
				return 0
			}
		default:
			return 0
		}
	}
	if w[j] == ':' && isPort(key, w[j+1:]) {
		return 0
	}
	return sepEnd
}

// callEnd returns the length of "name(" or "name[" in a call- or index-like
// word "name(arg)" whose argument is a single value, as in "chdir(/home/x)",
// "mLctn(R12-M0)" or "error[E0308]", or 0. The closing bracket has been
// trimmed from w.
func callEnd(w []byte) int {
	for i, c := range w {
		switch {
		case c == '(' || c == '[':
			if i == 0 || i+1 == len(w) || !isLetter(w[0]) {
				return 0
			}
			for _, c := range w[i+1:] {
				if c == '(' || c == ')' || c == '[' || c == ']' || c == ',' {
					return 0
				}
			}
			return i + 1
		case isAlnum(c) || c == '_' || c == '.' || c == '$':
		default:
			return 0
		}
	}
	return 0
}

// isPort reports whether host:value is a lower-case host name and a port
// number, as in "localhost:8080".
func isPort(host, value []byte) bool {
	if len(value) > 5 {
		return false
	}
	for _, c := range value {
		if !isDigit(c) {
			return false
		}
	}
	for _, c := range host {
		if !('a' <= c && c <= 'z' || isDigit(c) || c == '-') {
			return false
		}
	}
	return true
}

// isNumber reports whether w is a number, possibly signed, with a decimal or
// thousands separator, a comparison prefix or a percent sign: 12, -3.5, <1,
// 1,024, 75%.
func isNumber(w []byte) bool {
	i := 0
	for i < len(w) && (w[i] == '<' || w[i] == '>' || w[i] == '~' || w[i] == '+' || w[i] == '-' || w[i] == '=') {
		i++
	}
	if i == len(w) || !isDigit(w[i]) {
		return false
	}
	for ; i < len(w); i++ {
		c := w[i]
		if !isDigit(c) && c != '.' && c != ',' && !(c == '%' && i == len(w)-1) {
			return false
		}
	}
	return true
}

// isPath reports whether w is a file path or a URL: "/etc/x", "./x", "~/x",
// "C:\\x", "https://x".
func isPath(w []byte) bool {
	if len(w) >= 2 && (w[0] == '/' || w[0] == '~' && w[1] == '/' || w[0] == '.' && w[1] == '/') {
		return true
	}
	if len(w) >= 3 && isLetter(w[0]) && w[1] == ':' && w[2] == '\\' {
		return true
	}
	if bytes.IndexByte(w, ':') < 0 {
		return false
	}
	for i := 1; i+2 < len(w); i++ {
		if w[i] == ':' && w[i+1] == '/' && w[i+2] == '/' {
			for _, c := range w[:i] {
				if !isLetter(c) && c != '+' && c != '-' && c != '.' {
					return false
				}
			}
			return true
		}
	}
	return false
}

// isWordVariable reports whether a word without digits is still a variable:
// a host name, an e-mail address or a boolean or null value.
//
// dots says whether w may hold '@' or '.'; when false those are not
// looked for.
func isWordVariable(w []byte, anyTLD, dots bool) bool {
	if dots && isDottedVariable(w, anyTLD) {
		return true
	}
	switch string(w) {
	case "true", "false", "True", "False", "TRUE", "FALSE",
		"null", "nil", "None", "NULL", "undefined", "NaN":
		return true
	}
	return false
}

// isDottedVariable is the part of isWordVariable that needs '@' or '.':
// an e-mail address or a host name.
func isDottedVariable(w []byte, anyTLD bool) bool {
	if i := bytes.IndexByte(w, '@'); i > 0 && i < len(w)-1 {
		return true
	}
	if d := bytes.IndexByte(w, '.'); d > 0 {
		if isHostName(w, anyTLD) {
			return true
		}
		if i := bytes.IndexByte(w[d:], '/'); anyTLD && i > 0 && isHostName(w[:d+i], true) {
			return true // a name with qualifiers or a path: "example.com/IN/A", "github.com/x/y"
		}
	}
	return false
}

// isHostName reports whether w is a lower-case dotted name ending in a common
// top-level domain and not starting with one (which would make it a Java or
// Android package name such as com.example.app).
func isHostName(w []byte, anyTLD bool) bool {
	first, last := -1, -1
	for i, c := range w {
		switch {
		case c == '.':
			if first < 0 {
				first = i
			}
			last = i
		case 'a' <= c && c <= 'z' || isDigit(c) || c == '-':
		default:
			return false
		}
	}
	if first <= 0 || last == len(w)-1 {
		return false
	}
	if isTLD(w[:first]) {
		return false
	}
	if anyTLD {
		tld := w[last+1:]
		for _, c := range tld {
			if !('a' <= c && c <= 'z') {
				return false
			}
		}
		return len(tld) >= 2
	}
	return isTLD(w[last+1:])
}

// quoted reports whether tk's core is wholly enclosed in one pair of
// matching quotes: "'shop'", "'shop',", "\"x\"". An upper-case word in
// quotes ("\"PWD\"", "'QUIT'") is not: protocols quote their own verbs
// and keywords, an enumeration the program wrote.
func (t *tokenizer) quoted(tk *token) bool {
	if tk.cs == tk.start || tk.ce >= tk.end || upperWord(t.buf[tk.cs:tk.ce]) {
		return false
	}
	q := t.buf[tk.cs-1]
	return (q == '\'' || q == '"' || q == '`') && t.buf[tk.ce] == q
}

func isTLD(w []byte) bool {
	switch string(w) {
	case "com", "net", "org", "edu", "gov", "mil", "int", "io", "info", "biz",
		"co", "uk", "de", "cn", "jp", "hk", "ru", "fr", "us", "ca", "au",
		"in", "tw", "kr", "eu", "nl", "se", "ch", "it", "es", "br",
		"local", "lan", "internal", "arpa", "localdomain":
		return true
	}
	return false
}

// isUnit reports whether w is a unit of size, time or rate that follows a
// number ("1190 bytes", "<1 sec", "(1.16 KB)").
func isUnit(w []byte) bool {
	if len(w) == 0 || len(w) > 12 {
		return false
	}
	var low [12]byte
	for i, c := range w {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(w)]) {
	case "b", "kb", "mb", "gb", "tb", "pb", "kib", "mib", "gib", "tib",
		"byte", "bytes", "bit", "bits", "kbps", "mbps", "gbps",
		"ns", "us", "µs", "ms", "s", "sec", "secs", "second", "seconds",
		"min", "mins", "minute", "minutes", "h", "hr", "hrs", "hour", "hours",
		"day", "days", "hz", "khz", "mhz", "ghz", "%", "percent":
		return true
	}
	return false
}

// isDateWord reports whether w is an English month or weekday abbreviation.
func isDateWord(w []byte) bool {
	if len(w) != 3 {
		return false
	}
	switch string(w) {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
		"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

// upperWord reports whether w is letters (and '_' or '-') without a
// lower-case one.
func upperWord(w []byte) bool {
	for _, c := range w {
		if !('A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return len(w) > 0
}

func hasDigit(w []byte) bool {
	for _, c := range w {
		if isDigit(c) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }
