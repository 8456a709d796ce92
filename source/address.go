package source

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/internal/blake3"
	"github.com/ctxhq/ctx/internal/lines"
)

// Errors of repo: addresses. Each is wrapped with the address and what was
// found.
var (
	// ErrBadAddress: the text is not a repo: address.
	ErrBadAddress = errors.New("malformed repo: address")
	// ErrEscapes: the path leads out of the repository (.., an absolute
	// path, or a symlink pointing outside).
	ErrEscapes = errors.New("path escapes the repository")
	// ErrNoSymbol: the file's outline declares no such symbol.
	ErrNoSymbol = errors.New("no such symbol")
	// ErrOutOfRange: the lines lie past the end of the file.
	ErrOutOfRange = errors.New("lines outside the file")
)

// ChangedError refuses an anchored address whose content is no longer in
// the file: ctx never returns whatever now sits at those lines.
type ChangedError struct {
	Address string // as given
	Want    string // the anchor the address carries
	Got     string // the anchor of what the lines hold now
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s: content changed: the address expects anchor %s, lines now hash to %s and no other place in the file matches; re-read the file and take a fresh address (ctx outline prints them)",
		e.Address, e.Want, e.Got)
}

// Address is a parsed repo: address. The grammar (docs/handles.md):
//
//	repo:PATH                 the whole file
//	repo:PATH:L40-52[@ANCHOR] lines 40..52 (1-based, inclusive)
//	repo:PATH#Symbol          a declaration's lines, by qualified name
type Address struct {
	Path     string // slash-separated, relative to the repository root
	From, To int    // lines; 0 when the address names the whole file or a symbol
	Anchor   string // 8 hex digits, or ""
	Symbol   string
}

var lineRange = lines.Lazy(`^(.*):L([0-9]+)(?:-([0-9]+))?(?:@([0-9a-f]{8}))?$`)

// ParseAddress parses repo:PATH[:La-b[@anchor]] or repo:PATH#Symbol.
func ParseAddress(s string) (Address, error) {
	rest, ok := strings.CutPrefix(s, "repo:")
	bad := func(why string) (Address, error) {
		return Address{}, fmt.Errorf("%q: %s (want repo:PATH:L40-52@ANCHOR or repo:PATH#Symbol): %w", s, why, ErrBadAddress)
	}
	if !ok {
		return bad("no repo: prefix")
	}
	var a Address
	if p, sym, ok := strings.Cut(rest, "#"); ok {
		if sym == "" {
			return bad("empty symbol after #")
		}
		a.Path, a.Symbol = p, sym
	} else if m := lineRange.FindStringSubmatch(rest); m != nil {
		a.Path, a.Anchor = m[1], m[4]
		a.From, _ = strconv.Atoi(m[2])
		a.To = a.From
		if m[3] != "" {
			a.To, _ = strconv.Atoi(m[3])
		}
		if a.From < 1 || a.To < a.From {
			return bad(fmt.Sprintf("line range %d-%d is empty or starts before line 1", a.From, a.To))
		}
	} else if strings.Contains(rest, "@") {
		return bad("an anchor needs a line range and 8 lower-case hex digits")
	} else {
		a.Path = rest
	}
	if a.Path == "" {
		return bad("empty path")
	}
	return a, nil
}

func (a Address) String() string {
	switch {
	case a.Symbol != "":
		return "repo:" + a.Path + "#" + a.Symbol
	case a.From == 0:
		return "repo:" + a.Path
	}
	s := fmt.Sprintf("repo:%s:L%d", a.Path, a.From)
	if a.To != a.From {
		s += fmt.Sprintf("-%d", a.To)
	}
	if a.Anchor != "" {
		s += "@" + a.Anchor
	}
	return s
}

// Anchor is the short content hash of lines (each without its line end):
// the first 8 hex digits of BLAKE3 over the lines joined by "\n".
func Anchor(lines [][]byte) string {
	h := blake3.New()
	for i, l := range lines {
		if i > 0 {
			h.Write([]byte{'\n'})
		}
		h.Write(l)
	}
	return hex.EncodeToString(h.Sum(nil)[:4])
}

// Confine joins a repository-relative path to root and refuses anything
// that leads out of it: absolute paths, .. elements, and symlinks (at any
// level) that resolve outside root. It fails closed: a path it cannot
// resolve is refused.
func Confine(root, rel string) (string, error) {
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) {
		return "", fmt.Errorf("%s: absolute path: %w", rel, ErrEscapes)
	}
	for _, e := range strings.Split(filepath.ToSlash(rel), "/") {
		if e == ".." {
			return "", fmt.Errorf("%s: contains ..: %w", rel, ErrEscapes)
		}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolve repository root %s: %w", root, err)
	}
	full, err := filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", rel, err)
	}
	if r, err := filepath.Rel(realRoot, full); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: resolves outside the repository: %w", rel, ErrEscapes)
	}
	return full, nil
}

// Resolved is the content an address names, verified.
type Resolved struct {
	// Address is the canonical, anchored address of the content; it differs
	// from the one given when the content moved or a symbol was resolved.
	Address Address
	// Moved is set when the anchor was found at other lines than the
	// address named.
	Moved bool
	Text  []byte // the lines, each ending in "\n"
}

// maxFile bounds a file read whole to resolve an address.
const maxFile = 64 << 20

// Resolve reads what an address names under root and verifies its anchor.
// Content that moved is followed (Resolved.Moved, with the corrected
// address); content that changed is refused with a *ChangedError.
func Resolve(root string, a Address) (*Resolved, error) {
	full, err := Confine(root, a.Path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(full)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", a.Path)
	}
	if fi.Size() > maxFile {
		return nil, fmt.Errorf("%s: %d bytes, over the %d-byte limit for repo: addresses", a.Path, fi.Size(), maxFile)
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	lines := splitLines(src)
	out := a
	switch {
	case a.Symbol != "":
		o := Parse(a.Path, src)
		d, ok := o.Find(a.Symbol)
		if !ok {
			d, ok = o.ForTest(a.Symbol) // a test by the name its runner printed
		}
		if !ok {
			why := "its outline declares no such name"
			if o.Partial {
				why += " (" + o.Note + ")"
			}
			return nil, fmt.Errorf("repo:%s#%s: %s: %w", a.Path, a.Symbol, why, ErrNoSymbol)
		}
		out = Address{Path: a.Path, From: d.Start, To: d.End}
	case a.From == 0:
		out.From, out.To = 1, len(lines)
		if len(lines) == 0 {
			return &Resolved{Address: a}, nil
		}
	}
	if out.To > len(lines) && a.Anchor == "" {
		return nil, fmt.Errorf("%s: the file has %d lines: %w", a, len(lines), ErrOutOfRange)
	}
	n := out.To - out.From + 1
	if a.Anchor != "" {
		got := ""
		if out.To <= len(lines) {
			got = Anchor(lines[out.From-1 : out.To])
		}
		if got != a.Anchor {
			at := find(lines, n, a.Anchor, out.From)
			if at == 0 {
				if got == "" {
					got = "nothing (the file has " + strconv.Itoa(len(lines)) + " lines)"
				}
				return nil, &ChangedError{Address: a.String(), Want: a.Anchor, Got: got}
			}
			out.From, out.To = at, at+n-1
			return &Resolved{Address: out, Moved: true, Text: join(lines[at-1 : at+n-1])}, nil
		}
	}
	out.Anchor = Anchor(lines[out.From-1 : out.To])
	if a.From == 0 && a.Symbol == "" {
		out.From, out.To, out.Anchor = 0, 0, ""
		return &Resolved{Address: out, Text: src}, nil
	}
	return &Resolved{Address: out, Text: join(lines[out.From-1 : out.To])}, nil
}

// find returns the 1-based first line of the n-line window hashing to
// anchor nearest to near (the earlier one on a tie), or 0.
func find(lines [][]byte, n int, anchor string, near int) int {
	best := 0
	for at := 1; at+n-1 <= len(lines); at++ {
		if Anchor(lines[at-1:at+n-1]) != anchor {
			continue
		}
		if best == 0 || abs(at-near) < abs(best-near) {
			best = at
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// splitLines splits content into lines without their "\n" (a final line
// without one still counts; "\r" stays, so CRLF files hash as stored).
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	ls := bytes.Split(bytes.TrimSuffix(b, []byte{'\n'}), []byte{'\n'})
	return ls
}

func join(ls [][]byte) []byte {
	var b bytes.Buffer
	for _, l := range ls {
		b.Write(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// LinesAddress mints the anchored address of lines from..to (1-based,
// inclusive) of a file's content.
func LinesAddress(path string, src []byte, from, to int) Address {
	lines := splitLines(src)
	a := Address{Path: filepath.ToSlash(path), From: from, To: to}
	if from >= 1 && to >= from && to <= len(lines) {
		a.Anchor = Anchor(lines[from-1 : to])
	}
	return a
}
