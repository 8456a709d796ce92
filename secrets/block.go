package secrets

import "bytes"

// State is what a Redactor carries from one line to the next: two
// Redactors in the same State redact the same lines to the same bytes. A
// reader that redacts pieces of a stream on several goroutines guesses each
// piece's starting State, and redoes a piece whose guess proves wrong.
type State struct {
	data     byte
	inPublic bool
	inKey    bool
	keyLines int
	keyHash  string
}

// State is r's current State.
func (r *Redactor) State() State {
	return State{data: r.data, inPublic: r.inPublic, inKey: r.inKey, keyLines: r.keyLines, keyHash: string(r.keyHash)}
}

// SetState puts r in State s (its counts are kept).
func (r *Redactor) SetState(s State) {
	r.data, r.inPublic, r.inKey, r.keyLines = s.data, s.inPublic, s.inKey, s.keyLines
	r.keyHash = nil
	if s.keyHash != "" {
		r.keyHash = []byte(s.keyHash)
	}
}

// QuietText reports whether Line, given each line of text in turn (lines
// end at '\n'), would return every one unchanged and leave r's State as it
// is. It tests quiet's conditions over the whole text with a few vectorised
// searches, instead of one set of searches per line: no keyword or long
// token run anywhere, no five dashes, no data-block opener, and no line of
// 64 bytes or more that could be a key line shown without its block.
func (r *Redactor) QuietText(text []byte) bool {
	if !r.blockFree(text) || orphanKeyLineIn(text) {
		return false
	}
	return !maybeText(text)
}

// Static reports whether Line, given each line of text in turn (lines end
// at '\n'), leaves r's State as it is: then each line is redacted by Line
// from r's State alone, in any order, and a reader may redact only the
// lines it shows. It costs a few vectorised searches: no key or data block
// is open, none opens or closes (no five dashes, no data-block opener),
// and no key line shown without its block would name the block's marker.
func (r *Redactor) Static(text []byte) bool {
	if !r.blockFree(text) {
		return false
	}
	return r.keyHash != nil || !orphanKeyLineIn(text)
}

// blockFree: r is in no key or data block and no line of text opens or
// closes one.
func (r *Redactor) blockFree(text []byte) bool {
	if r.inKey || r.data != 0 || bytes.Contains(text, []byte("-----")) {
		return false
	}
	// Every data opener holds "ata:" or `ata": {` (data:, stringData:,
	// "data": {, "stringData": {).
	return !bytes.Contains(text, []byte("ata:")) && !bytes.Contains(text, []byte(`ata": {`))
}

// orphanKeyLineIn reports whether a line of text is one orphanKeyLine
// recognises. Only lines of 64 bytes or more can be: a window of 64 bytes
// holding a newline skips to it, so short lines cost one search per window.
func orphanKeyLineIn(text []byte) bool {
	const min = 64
	for p := 0; len(text)-p >= min; {
		if i := bytes.LastIndexByte(text[p:p+min], '\n'); i >= 0 {
			p += i + 1
			continue
		}
		e := bytes.IndexByte(text[p:], '\n')
		if e < 0 {
			e = len(text) - p
		}
		if _, ok := orphanKeyLine(text[p : p+e]); ok {
			return true
		}
		p += e + 1
	}
	return false
}

// PieceLen is the longest line Reader redacts whole: a longer line is
// redacted in pieces of PieceLen bytes from its start (the last piece
// shorter, perhaps empty). A reader that redacts lines itself and must give
// Reader's bytes cuts them the same way.
const PieceLen = maxLine
