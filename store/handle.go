package store

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Handle is a parsed handle. The grammar (docs/handles.md):
//
//	handle  = [scheme ":"] hex [ "#" stream ] [ ":" range ]
//	scheme  = "run" | "blob" | "span" | "receipt"
//	stream  = "stdout" | "stderr" | "merged"          (run handles only)
//	range   = "L" n [ "-" [ n ] ]                     lines, 1-based, inclusive; "L40-" runs to the end
//	        | "B" n "-" n                             bytes, 0-based, end exclusive
//	hex     = 6 to 64 hex digits: a unique prefix of the id
//
// A bare hex prefix is looked up among runs, blobs and receipts.
type Handle struct {
	Scheme Kind
	Prefix string // lower-case hex
	Stream string
	Range  Range
}

// Range selects lines or bytes. The zero Range selects everything.
type Range struct {
	Unit     byte  // 0 (all), 'L' lines, 'B' bytes
	From, To int64 // lines: 1-based inclusive, To 0 = to the end; bytes: [From, To)
}

// IsZero reports whether the range selects everything.
func (r Range) IsZero() bool { return r.Unit == 0 }

func (r Range) String() string {
	switch r.Unit {
	case 'L':
		if r.To == 0 {
			return fmt.Sprintf("L%d-", r.From)
		}
		if r.To == r.From {
			return fmt.Sprintf("L%d", r.From)
		}
		return fmt.Sprintf("L%d-%d", r.From, r.To)
	case 'B':
		return fmt.Sprintf("B%d-%d", r.From, r.To)
	}
	return ""
}

// Kind is a handle's scheme: the kind of record it names. The same words key
// the store's buckets, pins and resolved targets.
type Kind string

// The kinds of record a handle can name.
const (
	KindRun     Kind = "run"     // a run (and its streams)
	KindBlob    Kind = "blob"    // any stored blob
	KindSpan    Kind = "span"    // a span token minted by a digest
	KindReceipt Kind = "receipt" // a stored receipt
)

// Schemes that name stored records.
var schemes = map[Kind]bool{KindRun: true, KindBlob: true, KindSpan: true, KindReceipt: true}

// HandleOf is the short handle of a record, kind ":" and the short id
// ("run:ba3d1020ee8f"): the form digests, listings and receipts print.
func HandleOf(k Kind, id ID) string {
	return Handle{Scheme: k, Prefix: id.Short()}.String()
}

// FullHandleOf is the handle of a record with its whole id, the form receipts
// store so that a later, larger store never makes it ambiguous.
func FullHandleOf(k Kind, id ID) string {
	return Handle{Scheme: k, Prefix: id.String()}.String()
}

// ParseRef parses a stored full reference of one kind ("run:<64 hex>"), as
// receipts hold them: anything else, a short value included, is ErrCorrupt.
func ParseRef(k Kind, ref string) (ID, error) {
	rest, ok := strings.CutPrefix(ref, string(k)+":")
	if !ok {
		return ID{}, fmt.Errorf("reference %q: want %s:ID: %w", ref, k, ErrCorrupt)
	}
	id, err := ParseID(rest)
	if err != nil {
		return ID{}, fmt.Errorf("reference %q: %v: %w", ref, err, ErrCorrupt)
	}
	return id, nil
}

// ParseHandle parses a handle. Errors wrap ErrBadHandle and say what was wrong.
func ParseHandle(s string) (Handle, error) {
	orig := s
	bad := func(why string) (Handle, error) {
		return Handle{}, hint(fmt.Errorf("handle %s: %s: %w", quoteClip(orig), why, ErrBadHandle),
			"handles look like run:ba3d1020ee8f, run:ba3d1020ee8f#stderr:L40-52 or blob:4f1c0a9e2b77:B0-4096")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return bad("it is empty")
	}
	var h Handle
	if scheme, rest, ok := strings.Cut(s, ":"); ok && !isHex(scheme) {
		if !schemes[Kind(scheme)] {
			switch scheme {
			case "capsule":
				return bad("a capsule is a record, not captured output: read it with `ctx capsule render capsule:ID` or check it with `ctx capsule inspect capsule:ID`")
			case "task":
				return bad("a task is a ledger record, not captured output: read it with `ctx task show task:ID`")
			case "job", "snap", "repo":
				return bad(fmt.Sprintf("%s: handles are not supported by this version of ctx", scheme))
			}
			return bad(fmt.Sprintf("unknown scheme %s (want run, blob, span or receipt)", quoteClip(scheme)))
		}
		h.Scheme, s = Kind(scheme), rest
	}
	var rng string
	if i := strings.IndexAny(s, "#:"); i >= 0 {
		if s[i] == '#' {
			rest := s[i+1:]
			stream := rest
			if j := strings.IndexByte(rest, ':'); j >= 0 {
				stream, rng = rest[:j], rest[j+1:]
				if rng == "" {
					return bad("nothing after the last ':' (want L40-52 or B0-100)")
				}
			}
			switch stream {
			case "stdout", "stderr", "merged":
			case "":
				return bad("no stream after '#' (want stdout, stderr or merged)")
			default:
				return bad(fmt.Sprintf("unknown stream %s (want stdout, stderr or merged)", quoteClip(stream)))
			}
			if h.Scheme != "" && h.Scheme != KindRun {
				return bad("only run handles have streams")
			}
			h.Stream = stream
		} else {
			rng = s[i+1:]
			if rng == "" {
				return bad("nothing after ':' (want L40-52 or B0-100)")
			}
		}
		s = s[:i]
	}
	s = strings.ToLower(s)
	if len(s) > 64 || !isHex(s) {
		return bad(fmt.Sprintf("the id %s is not hex (0-9, a-f, at most 64 digits)", quoteClip(s)))
	}
	if len(s) < MinPrefix {
		return bad(fmt.Sprintf("the id %q is too short: give at least %d hex digits", s, MinPrefix))
	}
	h.Prefix = s
	if rng != "" {
		r, err := ParseRange(rng)
		if err != nil {
			return bad(err.Error())
		}
		if h.Scheme == KindSpan || h.Scheme == KindReceipt {
			return bad(string(h.Scheme) + " handles take no range; use --lines or --bytes")
		}
		h.Range = r
	}
	return h, nil
}

// ParseRange parses "L40-52", "L40", "L40-" or "B100-200".
func ParseRange(s string) (Range, error) {
	if len(s) < 2 || (s[0] != 'L' && s[0] != 'B') {
		return Range{}, fmt.Errorf("range %s: want L40-52 (lines) or B100-200 (bytes)", quoteClip(s))
	}
	unit := s[0]
	a, b, dash := strings.Cut(s[1:], "-")
	from, err := strconv.ParseInt(a, 10, 64)
	if err != nil || from < 0 {
		return Range{}, fmt.Errorf("range %s: %s is not a number", quoteClip(s), quoteClip(a))
	}
	r := Range{Unit: unit, From: from}
	switch {
	case unit == 'L' && from < 1:
		return Range{}, fmt.Errorf("range %s: lines are numbered from 1", quoteClip(s))
	case !dash && unit == 'L':
		r.To = from
	case !dash:
		return Range{}, fmt.Errorf("range %s: a byte range needs an end: B%d-N", quoteClip(s), from)
	case b == "" && unit == 'L':
		r.To = 0
	default:
		to, err := strconv.ParseInt(b, 10, 64)
		if err != nil {
			return Range{}, fmt.Errorf("range %s: %s is not a number", quoteClip(s), quoteClip(b))
		}
		if (unit == 'L' && to < from) || (unit == 'B' && to < from) {
			return Range{}, fmt.Errorf("range %s: the end is before the start", quoteClip(s))
		}
		r.To = to
	}
	return r, nil
}

func (h Handle) String() string {
	var b strings.Builder
	if h.Scheme != "" {
		b.WriteString(string(h.Scheme))
		b.WriteByte(':')
	}
	b.WriteString(h.Prefix)
	if h.Stream != "" {
		b.WriteByte('#')
		b.WriteString(h.Stream)
	}
	if !h.Range.IsZero() {
		b.WriteByte(':')
		b.WriteString(h.Range.String())
	}
	return b.String()
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// prefixBytes returns the whole bytes of a hex prefix (for a cursor seek).
func prefixBytes(prefix string) []byte {
	b, _ := hex.DecodeString(prefix[:len(prefix)&^1])
	return b
}

// clipQuoted is how much of a malformed handle an error quotes: enough to
// recognise it, never a whole pasted output.
const clipQuoted = 80

// quoteClip quotes s for an error message, cut to its first clipQuoted
// bytes (on a rune boundary) with the length it had when longer.
func quoteClip(s string) string {
	if len(s) <= clipQuoted {
		return strconv.Quote(s)
	}
	cut := clipQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// CheckPart says what is wrong with the part of a handle after a record's id
// or step number (#stream, :range or #stream:range, as a run handle has
// them), or "" when it is well formed. Records whose handles stand for a run
// (seq: steps, py: runs, job:) check it where they parse, so an error names
// the handle the user gave, not the run's it becomes.
func CheckPart(rest string) string {
	if rest == "" {
		return ""
	}
	tail, rng, hasRange := rest[1:], "", rest[0] == ':'
	if rest[0] == '#' {
		var stream string
		stream, rng, hasRange = strings.Cut(tail, ":")
		switch stream {
		case "stdout", "stderr", "merged":
		case "":
			return "no stream after '#'"
		default:
			return fmt.Sprintf("unknown stream %q", stream)
		}
	} else {
		rng = tail
	}
	if !hasRange {
		return ""
	}
	if rng == "" {
		return "nothing after ':'"
	}
	if _, err := ParseRange(rng); err != nil {
		return err.Error()
	}
	return ""
}
