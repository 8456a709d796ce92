package logs

import "bytes"

// This file learns a log's header from the log itself. Log frameworks put
// the same fields before every message (timestamp, pid, level, thread,
// host, program); which fields, and in what shapes, differs from one
// framework to the next. Instead of a list of known formats, the miner
// looks at the first frameSampleLines lines of a log and finds its frame: the
// longest run of leading fields whose shape (number, word, bracketed group,
// punctuation) is the same on most lines. Within the frame a field is a
// variable when it has a digit, or when its values are shared by lines
// whose rest is the same (a thread, host or program name that changes while
// the message does not). Frame fields that stay tied to the message (a level,
// a logger) are left to the ordinary token rules: they tell events apart no
// worse than the message's own words do.

const (
	// frameSampleLines is how many leading lines the frame is learnt
	// from, at most.
	frameSampleLines = 1024
	// frameSampleBytes bounds the bytes of the sample lines held.
	frameSampleBytes = 1 << 20
	// maxFrame bounds the fields a frame may span.
	maxFrame = 10
	// frameShare is the share of sample lines whose field must have the
	// frame's shape at a position for the frame to extend over it.
	frameShare = 0.8
	// frameShared is the share of repeated rests whose lines show more
	// than one value at a word position for it to be a variable field.
	frameShared = 0.25
	// frameCategory is the share of the distinct rests one value of a
	// word position must stand before for it to be a category field.
	frameCategory = 0.5
	// frameValues is the largest number of distinct values, per distinct
	// rest, of a word position that is a header field: a level, logger or
	// component takes few values across many messages, a message's first
	// word nearly one per message.
	frameValues = 0.5
	// frameHeaded is the least share of the sample lines, all starting
	// with a field of one shape, that a frame is learnt on when lines
	// without a header keep every shape below frameShare
	// (RuleFrameHeadless).
	frameHeaded = 0.25
	// minConstantRests is how many distinct rests a word column after a
	// constant of the header must have before it to be judged a category
	// (RuleFrameConstants).
	minConstantRests = 8
	// minRepeatedRests is how many rests must repeat before a word
	// position can be judged.
	minRepeatedRests = 3
)

// shape classes of a field.
const (
	shapeNone    uint64 = iota
	shapeNumber         // has a digit: a timestamp, pid, id, address
	shapeWord           // letters and punctuation only
	shapeBracket        // a "[…]" or "(…)" group, perhaps of several tokens
)

// frame is what a log's header looks like: the shape of each of its first n
// fields, and which of them are variables.
type frame struct {
	n        int
	shape    [maxFrame]uint64
	variable [maxFrame]bool
	runs     runKeys // keys whose values run to the end of a line (valuerun.go)
}

// field is one header field: tokens [start, end) of the line.
type field struct{ start, end int }

// fields returns the first maxFrame fields of the tokenized line: a token,
// or a bracketed group that opens with '[' or '(' and closes, possibly
// several tokens on, with its match.
func (t *tokenizer) fields(dst []field) []field {
	dst = dst[:0]
	for i := 0; i < len(t.toks) && len(dst) < maxFrame; {
		end := t.fieldEnd(i)
		dst = append(dst, field{i, end})
		i = end
	}
	return dst
}

// shapeOf returns the shape class of field f.
func (t *tokenizer) shapeOf(f field) uint64 {
	tk := t.toks[f.start]
	if f.end > f.start+1 || t.buf[tk.start] == '[' || t.buf[tk.start] == '(' {
		return shapeBracket
	}
	w := t.buf[tk.cs:tk.ce]
	if hasDigit(w) && (t.off&RuleFrameTags != 0 || !t.isLabelField(f)) {
		return shapeNumber
	}
	return shapeWord
}

// maskedHash hashes tokens [from, to) with every token that the token
// rules make variable replaced by one mark, so that lines differing only in
// numbers, ids and paths agree.
func (t *tokenizer) maskedHash(from, to int) uint64 {
	h := uint64(14695981039346656037)
	for i := from; i < to && i < len(t.toks); i++ {
		tk := t.toks[i]
		w := t.buf[tk.start:tk.end]
		if tk.kind != constant {
			h = fnvString(h, "\x01")
		} else {
			h = fnvString(h, string(w))
		}
		h = fnvString(h, " ")
	}
	return h
}

// suffixHashes returns, for each token index i and one past the last, a
// hash of tokens [i, end) masked as maskedHash masks them.
func (t *tokenizer) suffixHashes(dst []uint64) []uint64 {
	n := len(t.toks)
	dst = append(dst[:0], make([]uint64, n+1)...)
	dst[n] = 14695981039346656037
	for i := n - 1; i >= 0; i-- {
		tk := t.toks[i]
		th := uint64(1)
		if tk.kind == constant {
			th = fnvString(14695981039346656037, string(t.buf[tk.start:tk.end]))
		}
		dst[i] = mix64(dst[i+1]*31 + th)
	}
	return dst
}

// sampleField is what learning keeps of one field of one sample line.
type sampleField struct {
	shape uint64
	value uint64 // masked hash of the field's tokens
	digit bool   // the field has a digit
	nums  bool   // the field has more than one run of digits: not a lone counter or descriptor
	punct bool   // the field is punctuation only, such as "-" or ":"
	pad   bool   // two or more spaces and then a word follow the field: padding before the message
	label bool   // the field is one word token ending in ':' ("general:", "info:")
	key   uint64 // for one "key=value" token with a digit, a hash of its key; else 0
	pair  bool   // the field is one "key=value" token with '=' ("lock=1,")
	rest  uint64 // masked hash of every token after the field
}

// learnFrame finds the frame of the sample lines. It is deterministic: it
// depends on the lines' order only through ties, which go to the smaller
// shape value.
func learnFrame(sample [][]byte, off Rules) frame {
	var fr frame
	if off&RuleFrame != 0 || len(sample) == 0 {
		fr.runs = learnRunKeys(sample, off)
		return fr
	}
	rows, counts, distinct, nDistinct := sampleRows(sample, off, &fr.runs)
	in := make([]bool, len(sample)) // the line has the frame's shapes so far
	for i := range in {
		in[i] = true
	}
	runs := fr.runs
	fr = frameOn(rows, counts, distinct, in, nDistinct, off)
	if off&RuleFrameHeadless == 0 {
		if _, n := dominantShape(rows, counts, in, distinct, 0); float64(n) < frameShare*float64(nDistinct) {
			fr = headedFrame(rows, counts, distinct, fr, off)
		}
	}
	fr.runs = runs
	return fr
}

// headedFrame returns the longest of fr and the frames learnt on the lines
// whose first field has one shape, for each shape that at least
// frameHeaded of the lines start with (RuleFrameHeadless), each cut before
// its first word field: a subset shows where the stamps are, but a word
// column that takes few values in it may be the message's first word. Lines without a
// header (a stack trace's, a message's continuation) may be too many for
// any shape to reach frameShare of the distinct lines, and are many
// distinct lines where the records they follow, masked, are few; so the
// shapes are counted over lines.
func headedFrame(rows [][maxFrame]sampleField, counts []int, distinct []bool, fr frame, off Rules) frame {
	in := make([]bool, len(rows))
	for shape := shapeNumber; shape <= shapeBracket; shape++ {
		lines, nd := 0, 0
		for i := range rows {
			in[i] = counts[i] > 0 && rows[i][0].shape == shape
			if in[i] {
				lines++
				if distinct[i] {
					nd++
				}
			}
		}
		if float64(lines) < frameHeaded*float64(len(rows)) {
			continue
		}
		sub := frameOn(rows, counts, distinct, in, nd, off)
		for k := 0; k < sub.n; k++ {
			if sub.shape[k] == shapeWord {
				// Only the leading stamps: words are judged on all
				// the lines, or not at all.
				sub.n = k
			}
		}
		if sub.n > fr.n {
			fr = sub
		}
	}
	return fr
}

// frameOn learns the frame of the sample lines marked in, of which
// nDistinct are distinct (sampleRows); it changes in.
func frameOn(rows [][maxFrame]sampleField, counts []int, distinct, in []bool, nDistinct int, off Rules) frame {
	l := &learner{rows: rows, counts: counts, in: in, off: off}
	fr := &l.fr
fields:
	for j := 0; j < maxFrame; j++ {
		shape, n := dominantShape(rows, counts, in, distinct, j)
		if float64(n) < frameShare*float64(nDistinct) {
			break
		}
		for i := range in {
			in[i] = in[i] && counts[i] > j && rows[i][j].shape == shape
		}
		fr.shape[j] = shape
		fr.n = j + 1
		switch shape {
		case shapeNumber:
			fr.variable[j] = true
			l.started = true
			l.numbers += numberWeight(rows, in, j)
		case shapeBracket:
			// A bracketed timestamp or id opens a header as a number does.
			digits := digitShare(rows, in, j) >= frameShare
			fr.variable[j] = digits || l.started && l.wordField(j)
			l.started = l.started || digits
			if digits {
				l.numbers += numberWeight(rows, in, j)
			}
		case shapeWord:
			switch next, stop := l.word(j); {
			case stop:
				break fields
			case next:
				continue fields
			}
		}
		if l.started && !fr.variable[j] {
			if l.plain == 0 && l.inner == 0 && shape == shapeWord && l.constant(j) {
				// A word that every line has here, before another
				// number ("01 Dec 2026", "20:07:34 UTC [12327]"): a
				// constant of the header (a month, a time zone).
				l.inner++
				continue
			}
			// The message starts at the first field after the header's
			// first number that is not a header field.
			break
		}
		if !fr.variable[j] {
			l.plain++ // a word before the first number that is no constant
		}
		if l.started && off&RuleFramePadding == 0 && padShare(rows, in, j) >= frameShare {
			// Padding after a field of the header ("git.c:460" and
			// spaces up to a column), then a word: the message is
			// aligned after it.
			break
		}
	}
	for fr.n > 0 && !fr.variable[fr.n-1] {
		fr.n--
	}
	return *fr
}

// learner is the state of frameOn's walk over the fields.
type learner struct {
	rows      [][maxFrame]sampleField
	counts    []int
	in        []bool // the line has the frame's shapes so far
	off       Rules
	fr        frame
	started   bool // a number field has been seen: a header, not a message
	numbers   int  // number fields so far
	constants int  // constant fields passed (RuleFrameConstants)
	plain     int  // fields so far that are not header fields: a message's words before its first number
	inner     int  // constants after the first number: one at most (a month, a zone, a host); the next may be a message's first word
}

// wordField reports whether word or bracketed field j is a header field: a
// thread, host or program (sharedValues) or a level, logger or component
// (category). After a lone number a word is more likely the message's
// first word (a counter or descriptor, then a command verb): a header that
// names a level, logger or thread also carries a date and a time, or a
// time and a pid. Past a constant (RuleFrameConstants) a word column that
// takes few values is a category only over at least minConstantRests
// distinct rests: in a sample of a few events, the first word of the one
// the sample is full of takes few values too.
func (l *learner) wordField(j int) bool { return l.headerWord(j, l.fr.shape[j]) }

// headerWord is wordField for field j of the given shape.
func (l *learner) headerWord(j int, shape uint64) bool {
	if l.off&RuleFrameNumbers == 0 && l.numbers < 2 {
		return false
	}
	return sharedValues(l.rows, l.in, j) || (l.constants == 0 || distinctRests(l.rows, l.in, j) >= minConstantRests) &&
		category(l.rows, l.counts, l.in, j, shape, l.off)
}

// headerWordAt reports whether field j, not yet walked, is a word column
// (no digit, not punctuation, on most lines) that the word tests make a
// header field (RuleFrameSeparators): what follows a separator is more
// header only if it is.
func (l *learner) headerWordAt(j int) bool {
	word := func(f sampleField) bool { return f.shape == shapeWord && !f.digit && !f.punct }
	return share(l.rows, l.in, word, j) >= frameShare && l.headerWord(j, shapeWord)
}

// constant reports whether word field j is a constant of the header
// (RuleFrameConstants), and if so makes it a variable of the frame: it is
// masked as the header's other fields are, another value there (the next
// month, another host) being the same header.
func (l *learner) constant(j int) bool {
	if l.off&RuleFrameConstants != 0 || !constantBeforeNumber(l.rows, l.counts, l.in, j) {
		return false
	}
	l.constants++
	l.fr.variable[j] = true
	return true
}

// word judges word field j: next is whether the walk goes on to the next
// field at once, stop whether it ends here.
func (l *learner) word(j int) (next, stop bool) {
	rows, in, off, fr := l.rows, l.in, l.off, &l.fr
	if l.started && punctShare(rows, in, j) >= frameShare {
		// A separator ("-", ":") after the header's first number ends
		// the header, unless (RuleFrameSeparators) it is a header field
		// by the tests a word is (a level printed as a mark, "# " beside
		// "* "), or a label follows it on most lines ("15:38 : client:
		// …", a log domain or program tag) or a word column that is a
		// header field by those tests (" - app.db - INFO - "), which is
		// then judged as any header field is.
		switch {
		case off&RuleFrameSeparators != 0:
			return false, true
		case l.wordField(j):
			fr.variable[j] = true
			return true, false
		case j+1 < maxFrame && (labelShare(rows, in, j+1) >= frameShare || l.headerWordAt(j+1)):
			return true, false
		}
		return false, true
	}
	if l.started && off&RuleFrameLabels == 0 && j > 0 && fr.variable[j-1] && fr.shape[j-1] == shapeWord &&
		labelShare(rows, in, j-1) >= frameShare && labelShare(rows, in, j) < frameShare {
		// After header words that end in ':' ("general: info:"), a word
		// that does not is the message's first: the labels closed the
		// header.
		return false, true
	}
	// A column of tags ("prog[12]:"), most with a digit, is variable as a
	// number column is (RuleFrameTags).
	digits := digitShare(rows, in, j) >= frameShare
	fr.variable[j] = digits || l.started && l.wordField(j)
	if !l.started && !fr.variable[j] && l.plain == 0 {
		l.constant(j) // a constant before the first number ("Dec 02 …")
	}
	if digits && !l.started {
		l.started = true
		l.numbers += numberWeight(rows, in, j)
	}
	return false, false
}

// sampleRows splits and classifies the sample lines into their leading
// fields: rows[i] holds line i's fields, counts[i] how many it has, and
// distinct[i] whether it is the first line of its masked shape, of which
// there are nDistinct; runs gets the keys that end a line empty
// (learnRunKeys). Shapes are counted over distinct lines (digits, ids
// and paths masked), so that a header is what every kind of line starts
// with, not what the busiest kind does.
func sampleRows(sample [][]byte, off Rules, runs *runKeys) (rows [][maxFrame]sampleField, counts []int, distinct []bool, nDistinct int) {
	var t tokenizer
	t.off = off
	rows = make([][maxFrame]sampleField, len(sample))
	counts = make([]int, len(sample))
	distinct = make([]bool, len(sample))
	seen := map[uint64]bool{}
	var fs []field
	var suffix []uint64
	for i, line := range sample {
		t.clean(line)
		t.split()
		runs.note(&t)
		for k := range t.toks {
			t.classify(&t.toks[k])
		}
		t.quotedValues()
		t.valueRun()
		suffix = t.suffixHashes(suffix)
		whole := suffix[0]
		distinct[i] = !seen[whole]
		seen[whole] = true
		fs = t.fields(fs)
		counts[i] = len(fs)
		for j, f := range fs {
			rows[i][j] = sampleField{shape: t.shapeOf(f), value: t.maskedHash(f.start, f.end), rest: suffix[f.end],
				digit: hasDigit(t.buf[t.toks[f.start].start:t.toks[f.end-1].end]), nums: digitRuns(t.buf[t.toks[f.start].start:t.toks[f.end-1].end]) >= 2,
				punct: f.end == f.start+1 && !hasAlnum(t.buf[t.toks[f.start].start:t.toks[f.start].end]),
				pad:   padded(&t, f), label: t.isLabelField(f), key: t.fieldKey(f), pair: t.isKeyValue(f)}
		}
	}
	return rows, counts, distinct, len(seen)
}

// dominantShape returns the most common shape at field j among the
// distinct lines marked in, and how many of them have it.
func dominantShape(rows [][maxFrame]sampleField, counts []int, in, distinct []bool, j int) (uint64, int) {
	tally := map[uint64]int{}
	for i := range rows {
		if in[i] && distinct[i] && counts[i] > j {
			tally[rows[i][j].shape]++
		}
	}
	var best uint64
	n := 0
	for s, c := range tally {
		if c > n || c == n && s < best {
			best, n = s, c
		}
	}
	return best, n
}

func hasAlnum(w []byte) bool {
	for _, c := range w {
		if isAlnum(c) || c >= 0x80 {
			return true
		}
	}
	return false
}

// numberWeight counts number field j as two numbers when it has more than
// one run of digits on most lines marked in (a date, a time, an address),
// as one when it is a lone counter or descriptor.
func numberWeight(rows [][maxFrame]sampleField, in []bool, j int) int {
	if share(rows, in, func(f sampleField) bool { return f.nums }, j) >= frameShare {
		return 2
	}
	return 1
}

// distinctRests counts the distinct rests after field j of the lines
// marked in.
func distinctRests(rows [][maxFrame]sampleField, in []bool, j int) int {
	rests := map[uint64]bool{}
	for i := range rows {
		if in[i] {
			rests[rows[i][j].rest] = true
		}
	}
	return len(rests)
}

// constantBeforeNumber reports whether field j has one value on at least
// frameShare of the lines marked in and is followed by a field with a
// digit (a number, "[12327]:"; not a "key=value" field, "acquire lock=1")
// on as many (RuleFrameConstants).
func constantBeforeNumber(rows [][maxFrame]sampleField, counts []int, in []bool, j int) bool {
	if j+1 >= maxFrame {
		return false
	}
	tally := map[uint64]int{}
	lines, top, next := 0, 0, 0
	for i := range rows {
		if !in[i] {
			continue
		}
		lines++
		tally[rows[i][j].value]++
		top = max(top, tally[rows[i][j].value])
		if counts[i] > j+1 && rows[i][j+1].digit && !rows[i][j+1].pair {
			next++
		}
	}
	return lines > 0 && float64(top) >= frameShare*float64(lines) && float64(next) >= frameShare*float64(lines)
}

// digitRuns returns how many runs of digits b holds.
func digitRuns(b []byte) int {
	n := 0
	for i := range b {
		if isDigit(b[i]) && (i == 0 || !isDigit(b[i-1])) {
			n++
		}
	}
	return n
}

// digitShare returns the share of the lines marked in whose field j has a
// digit.
func digitShare(rows [][maxFrame]sampleField, in []bool, j int) float64 {
	return share(rows, in, func(f sampleField) bool { return f.digit }, j)
}

// punctShare returns the share of the lines marked in whose field j is
// punctuation only.
func punctShare(rows [][maxFrame]sampleField, in []bool, j int) float64 {
	return share(rows, in, func(f sampleField) bool { return f.punct }, j)
}

// labelShare returns the share of the lines marked in whose field j is a
// word ending in ':'.
func labelShare(rows [][maxFrame]sampleField, in []bool, j int) float64 {
	return share(rows, in, func(f sampleField) bool { return f.label }, j)
}

// isLabelField reports whether field f is one token with a letter that
// ends in ':'.
func (t *tokenizer) isLabelField(f field) bool {
	if f.end != f.start+1 {
		return false
	}
	w := t.buf[t.toks[f.start].start:t.toks[f.start].end]
	if len(w) < 2 || w[len(w)-1] != ':' {
		return false
	}
	for _, c := range w {
		if isLetter(c) {
			return true
		}
	}
	return false
}

// padded reports whether field f is followed by two or more spaces and
// then a token without a digit: padding up to a column where a message
// starts, not between two number columns ("  1702  2395").
func padded(t *tokenizer, f field) bool {
	if f.end >= len(t.toks) {
		return false
	}
	next := t.toks[f.end]
	return next.start-t.toks[f.end-1].end >= 2 && !hasDigit(t.buf[next.start:next.end])
}

// padShare is the share of the lines marked in whose field j is followed
// by padding.
func padShare(rows [][maxFrame]sampleField, in []bool, j int) float64 {
	return share(rows, in, func(f sampleField) bool { return f.pad }, j)
}

func share(rows [][maxFrame]sampleField, in []bool, ok func(sampleField) bool, j int) float64 {
	n, d := 0, 0
	for i := range rows {
		if in[i] {
			n++
			if ok(rows[i][j]) {
				d++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(d) / float64(n)
}

// category reports whether one value of field j stands before at least
// frameCategory of the distinct rests of the lines marked in: a field such
// as a level, whose value says little about the message after it, unlike a
// message's first word, which goes with few rests. A field that takes few
// values per distinct rest is one too, unless (RuleFrameNext) half of its
// values or more stand before one next field each: the rests
// of a message whose words vary ("Path : /a", "URI : /b") are many while
// its first word is followed by the same word every time, where a level or
// logger is followed by the first words of many messages. Only next fields
// without a digit count, and only when most lines have one: a logger
// followed by a request id ("[req-1f…]") is followed by more header; and
// only for a word field: a bracketed one ("[main]", a thread that runs one
// component's code) is a header field by its shape.
func category(rows [][maxFrame]sampleField, counts []int, in []bool, j int, shape uint64, off Rules) bool {
	rests := map[uint64]bool{}
	pairs := map[[2]uint64]bool{}
	nexts := map[[2]uint64]bool{}
	perValue := map[uint64]int{}
	lines, words := 0, 0 // lines marked in; of them, those whose next field is a word
	for i := range rows {
		if !in[i] {
			continue
		}
		f := rows[i][j]
		rests[f.rest] = true
		if p := [2]uint64{f.value, f.rest}; !pairs[p] {
			pairs[p] = true
			perValue[f.value]++
		}
		lines++
		if j+1 < maxFrame && counts[i] > j+1 {
			if next, ok := nextValue(rows[i][j+1], off); ok {
				nexts[[2]uint64{f.value, next}] = true
				words++
			}
		}
	}
	top := 0
	for _, n := range perValue {
		top = max(top, n)
	}
	if len(rests) < minRepeatedRests || len(perValue) < 2 {
		// One value throughout says nothing: it may be a level that
		// has not changed yet or a message's first word.
		return false
	}
	if float64(top) >= frameCategory*float64(len(rests)) {
		return true
	}
	if off&RuleFrameNext == 0 && shape == shapeWord && 2*words > lines && boundToNext(nexts) {
		return false
	}
	return float64(len(perValue)) <= frameValues*float64(len(rests))
}

// boundToNext reports whether at least half of the values in the (value,
// next field) pairs are followed by one next field only: a message's first
// words, each followed by its message's second.
func boundToNext(nexts map[[2]uint64]bool) bool {
	per := map[uint64]int{}
	for p := range nexts {
		per[p[0]]++
	}
	one := 0
	for _, n := range per {
		if n == 1 {
			one++
		}
	}
	return len(per) > 0 && 2*one >= len(per)
}

// sharedValues reports whether field j takes several values among lines
// marked in whose rest is the same, in at least frameShared of the rests
// that repeat: the field varies while the message does not.
func sharedValues(rows [][maxFrame]sampleField, in []bool, j int) bool {
	type seen struct {
		value uint64
		lines int
		multi bool
	}
	rests := map[uint64]*seen{}
	for i := range rows {
		if !in[i] {
			continue
		}
		f := rows[i][j]
		s := rests[f.rest]
		if s == nil {
			rests[f.rest] = &seen{value: f.value, lines: 1}
			continue
		}
		s.lines++
		s.multi = s.multi || s.value != f.value
	}
	repeated, multi := 0, 0
	for _, s := range rests {
		if s.lines >= 2 {
			repeated++
			if s.multi {
				multi++
			}
		}
	}
	return repeated >= minRepeatedRests && float64(multi) >= frameShared*float64(repeated)
}

// isKeyValue reports whether field f is one "key=value" token.
func (t *tokenizer) isKeyValue(f field) bool {
	tk := t.toks[f.start]
	return f.end == f.start+1 && keyEnd(t.buf[tk.cs:tk.ce]) > 0 && bytes.IndexByte(t.buf[tk.cs:tk.ce], '=') > 0
}

// markFrame marks as header variables the tokens of the line's fields that
// the frame makes variable, as long as the line's fields have the frame's
// shapes.
func (t *tokenizer) markFrame() {
	fr := &t.frame
	if fr.n == 0 {
		return
	}
	// The fields are found one at a time, as far as the frame reaches:
	// the first that does not fit ends the walk.
	for i, j := 0, 0; i < len(t.toks) && j < maxFrame; j++ {
		f := field{i, t.fieldEnd(i)}
		i = f.end
		if j >= fr.n || t.shapeOf(f) != fr.shape[j] {
			return
		}
		if fr.variable[j] && !(fr.shape[j] == shapeNumber && t.isKeyValue(f)) {
			// A "key=value" field is left to the token rules, which keep
			// its key ("lock=<*>,").
			for k := f.start; k < f.end; k++ {
				t.toks[k].header = true
				t.toks[k].kind = variable
			}
		}
	}
}
