// Package retrieve returns what a handle names: the exact bytes of a run's
// stream, its merged view or a blob, or a line or byte range of one, and the
// bounded views of them a reader needs when the bytes are too many — the
// zoom view, grep, a hexdump, a JSON value by pointer or JSON Lines records,
// and plain text as a pipe would have carried it.
//
// Every reader redacts secrets unless the region is revealed; nothing here
// decides whether revealing is allowed (the front end knows who is reading).
// It never writes to the store except to record a retrieval (Get).
package retrieve

import (
	"context"
	"errors"
	"io"
	"regexp"
	"time"

	"github.com/ctxhq/ctx/internal/jsonout"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/store"
)

// Inline limits: a region larger than these returns a zoom view, not a flood.
const (
	LineLimit    = 240
	ByteLimit    = 64 << 10
	HexLimit     = 4 << 10
	grepLineClip = 1 << 10 // a grep line longer than this is clipped
)

// Errors Get reports besides the store's: a script tells exact bytes from no
// match (as grep does) and from a zoom view printed instead of the bytes.
var (
	ErrNoMatch = errors.New("no line matched")
	ErrZoomed  = errors.New("the region is over the inline limit: a zoom view was printed")
)

// UsageError is a selector the caller gave that cannot be read.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Form is how text is printed: the exact stored bytes, or plain text (escape
// sequences removed, carriage-return overwrites folded).
type Form string

// The forms.
const (
	Raw   Form = "raw"
	Plain Form = "plain"
)

// Options select what Get prints. The zero value prints the whole target raw,
// bounded by LineLimit.
type Options struct {
	Range  store.Range    // zero: the target's own range, or all of it
	Grep   *regexp.Regexp // print only matching lines
	Around int            // with Grep: context lines
	Limit  int            // inline limit in lines (0: LineLimit)
	Full   bool           // print the region whatever its size
	Hex    bool
	JSON   bool // the region as a JSON object (handle, range, text)
	Form   Form // "" is Raw
	Reveal bool // secrets as stored
	// RefuseBinary: the region is printed for reading (an agent, a
	// terminal), so content that is not text is refused (*BinaryError)
	// unless a hexdump, grep or JSON was asked for.
	RefuseBinary     bool
	Pointer, Records string // a JSON value by RFC 6901 pointer, or JSON Lines records A:B
	// Now stamps the retrieval record (time.Now when nil).
	Now func() time.Time
}

// Outcome says what Get printed besides the bytes.
type Outcome struct {
	Region *Region
	// Note says what plain text changed, "" when nothing.
	Note string
}

// Get prints to w what target t names under o (o.Range, else the target's own
// range), records the retrieval of a
// run's bytes, and returns ErrZoomed after a zoom view and ErrNoMatch when
// grep matched nothing (both with output printed).
func Get(ctx context.Context, st *store.Store, t *store.Target, w io.Writer, o Options) (*Outcome, error) {
	reg, err := Open(st, t, o.RangeOf(t))
	if err != nil {
		return nil, err
	}
	return Print(ctx, st, t, reg, w, o)
}

// RangeOf is the range Get selects: o's, else the target's own.
func (o Options) RangeOf(t *store.Target) store.Range {
	if !o.Range.IsZero() {
		return o.Range
	}
	return t.Range
}

// Print is Get for a region the caller opened already (to say something
// about it first).
func Print(ctx context.Context, st *store.Store, t *store.Target, reg *Region, w io.Writer, o Options) (*Outcome, error) {
	if o.Limit <= 0 {
		o.Limit = LineLimit
	}
	if o.Form == "" {
		o.Form = Raw
	}
	reg.Reveal = o.Reveal
	out := &Outcome{Region: reg}
	if err := reg.refuseBinary(&o); err != nil {
		return out, err
	}
	switch {
	case o.Pointer != "" || o.Records != "":
		return out, JSONPart(w, reg, o)
	case o.Hex:
		return out, Hex(w, reg, o.Full)
	case o.Grep != nil:
		return out, Grep(ctx, w, reg, o.Grep, o.Around, o.Limit)
	case o.JSON:
		v, note, err := JSON(reg, o)
		if err != nil {
			return out, err
		}
		out.Note = note
		return out, jsonout.Write(w, v)
	}
	if !o.Full && reg.OverLimit(o.Limit) {
		if err := Zoom(ctx, w, reg, o.Limit); err != nil {
			return out, err
		}
		return out, ErrZoomed
	}
	if t.Kind == "run" {
		now := time.Now
		if o.Now != nil {
			now = o.Now
		}
		st.RecordRetrieval(store.Retrieval{Time: now().UTC(), Run: t.ID, Handle: reg.Describe(), Bytes: reg.size})
	}
	if o.Form == Plain {
		r, err := reg.Reader()
		if err != nil {
			return out, err
		}
		ps, err := lines.Plain(w, r)
		out.Note = PlainNote(ps)
		return out, err
	}
	return out, reg.Copy(w)
}

// OverLimit reports whether the region is over the inline limit of limit lines
// (or ByteLimit bytes).
func (reg *Region) OverLimit(limit int) bool {
	return reg.lineN > int64(limit) || reg.size > ByteLimit
}

// Unordered reports a merged view of a run whose capture recorded no arrival
// order (ingested files): it is stdout, then stderr.
func (reg *Region) Unordered() bool { return reg.unordered }

// Size is the region's length in bytes.
func (reg *Region) Size() int64 { return reg.size }
