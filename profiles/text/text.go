// Package text is the generic profile: it knows nothing of the command and
// extracts what holds for any output — each stream's extent (so the renderer
// can show its head and tail), lines that look like errors (grouped when they
// repeat with different numbers), lines unlike all others in a repetitive
// stream (rare lines), and streams that are not text at all, which
// are described (size, sniffed type) and never shown as bytes.
//
// It is the fallback every specialised profile degrades to, so it must never
// fail on any input: invalid UTF-8, NUL bytes, 10 MB lines and CRLF are all
// ordinary here.
package text

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"sort"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/internal/sniff"
)

// Name and Version identify the profile; Version is bumped when the items it
// extracts change.
const (
	Name    = "text"
	Version = 1
)

// Profile is the generic text profile.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    func([]string) bool { return false },
	Content: func(*evidence.Source) bool { return true },
	Parse:   Parse,
}

// MaxErrorGroups bounds the distinct error-looking lines kept; further groups
// are counted in a loss.
const MaxErrorGroups = 2000

// Parse extracts the generic items. It never returns an error for content.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	g := &evidence.Graph{Profile: Name, Version: Version}
	for _, st := range src.Streams {
		// The head, not the size: a running capture's size is known only
		// at its end, and this parse should run alongside it.
		head := st.Head()
		if len(head) == 0 {
			continue
		}
		if !lines.Printable(head) {
			g.Add(evidence.Item{Kind: evidence.KindBinary, Name: st.Name, Count: int(min(st.Size(), 1<<62)),
				Attrs: map[string]string{"type": Sniff(head)}})
			continue
		}
		region := len(g.Items)
		g.Add(evidence.Item{Kind: evidence.KindRegion, Name: st.Name, Why: "stream", Span: evidence.Span{Stream: st.Name, From: 1}})
		if err := errorLines(ctx, g, st); err != nil {
			return nil, err
		}
		// The line count once the stream has been read to its end.
		n := st.Lines()
		g.Items[region].Count, g.Items[region].Span.To = n, max(n, 1)
	}
	return g, nil
}

type group struct {
	first int
	text  string
	count int
}

// errorLines adds one anomaly per group of error-looking lines, where a group
// is the lines that are equal once digits are masked.
func errorLines(ctx context.Context, g *evidence.Graph, st evidence.Stream) error {
	r, err := st.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	groups := map[string]*group{}
	var order []*group
	dropped := 0
	rare := newRarity()
	var key []byte // the masked line being looked up, reused
	long, firstLong := 0, 0
	onLine := func(n int, line []byte, cut bool) {
		if cut {
			if long++; long == 1 {
				firstLong = n
			}
		}
		rare.see(n, line)
		if len(line) == 0 || !lines.MayLookLikeError(line) {
			return
		}
		clean := lines.Clean(line)
		if len(clean) > 4096 {
			clean = clean[:4096]
		}
		if !lines.CleanLooksLikeError(clean) {
			return
		}
		key = appendMasked(key[:0], clean)
		if gr, ok := groups[string(key)]; ok { // no allocation for a group seen before
			gr.count++
			return
		}
		if len(order) >= MaxErrorGroups {
			dropped++
			return
		}
		gr := &group{first: n, text: strings.ToValidUTF8(string(bytes.TrimSpace(clean)), "\uFFFD"), count: 1}
		groups[string(key)] = gr
		order = append(order, gr)
	}
	if err := scanChunks(ctx, r, onLine); err != nil {
		return err
	}
	errAt := map[int]bool{}
	for _, gr := range order {
		errAt[gr.first] = true
		g.Add(evidence.Item{Kind: evidence.KindAnomaly, Why: "error-text", Line: gr.first, Text: gr.text, Count: gr.count,
			Severity: evidence.SeverityError, Span: evidence.Span{Stream: st.Name, From: gr.first, To: gr.first}})
	}
	for _, l := range rare.lines() {
		if !errAt[l.n] {
			g.Add(evidence.Item{Kind: evidence.KindAnomaly, Why: "rare-line", Line: l.n, Text: l.text, Count: 1,
				Span: evidence.Span{Stream: st.Name, From: l.n, To: l.n}})
		}
	}
	if long > 0 {
		// What lies past lines.Max was not looked at: say so, so that a
		// receipt with nothing unrepresented does not vouch for it.
		g.Lose("long-line", "%s", lines.LongDetail(st.Name, "for errors", long, firstLong))
	}
	if dropped > 0 {
		g.Lose("item-cap", "%s: %d more distinct error-looking lines beyond the first %d groups", st.Name, dropped, MaxErrorGroups)
	}
	return nil
}

// scanChunks calls fn for each line (numbered from 1, without its newline or
// trailing CR, cut at lines.Max, with cut set when it was), reading r in
// large chunks: a chunk without a single letter cannot hold an error word, so
// its lines are only counted — the fast path for floods of numbers, hex and
// punctuation.
func scanChunks(ctx context.Context, r io.Reader, fn func(n int, line []byte, cut bool)) error {
	buf := make([]byte, 256<<10)
	var carry []byte // an unfinished line from the previous chunk, cut at lines.Max
	whole := 0       // the unfinished line's length before the cut
	var end byte     // and its last byte
	extend := func(p []byte) {
		if len(carry) < lines.Max {
			carry = append(carry, p[:min(len(p), lines.Max-len(carry))]...)
		}
		if len(p) > 0 {
			whole, end = whole+len(p), p[len(p)-1]
		}
	}
	n := 0
	emit := func(line []byte, cut bool) {
		n++
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > lines.Max {
			line = line[:lines.Max]
		}
		fn(n, line, cut)
	}
	emitCarry := func() {
		if end == '\r' {
			whole--
		}
		emit(carry, whole > lines.Max)
		carry, whole = carry[:0], 0
	}
	for {
		k, err := io.ReadFull(r, buf)
		chunk := buf[:k]
		if k > 0 {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if whole <= lines.Max && !hasLetter(carry) && !hasLetter(chunk) {
				// No letters: no line here can be an error line. Count them.
				// (A carried line cut at lines.Max may have had letters in
				// what was cut, and must be emitted as cut: not here.)
				n += bytes.Count(chunk, []byte{'\n'})
				if last := bytes.LastIndexByte(chunk, '\n'); last >= 0 {
					carry, whole = carry[:0], 0
					extend(chunk[last+1:])
				} else {
					extend(chunk)
				}
			} else {
				for len(chunk) > 0 {
					i := bytes.IndexByte(chunk, '\n')
					if i < 0 {
						extend(chunk)
						break
					}
					if len(carry) > 0 {
						extend(chunk[:i])
						emitCarry()
					} else {
						line := bytes.TrimSuffix(chunk[:i], []byte{'\r'})
						emit(line, len(line) > lines.Max)
					}
					chunk = chunk[i+1:]
				}
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			if len(carry) > 0 {
				emitCarry()
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// hasLetter reports whether b holds an ASCII letter. It tests eight bytes at
// a time (a floods of digits is the case it exists for).
func hasLetter(b []byte) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
		low7 = 0x7f7f7f7f7f7f7f7f
	)
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b) | 0x2020202020202020 // fold upper case onto lower
		// Bytes strictly between 0x60 and 0x7b ('a'..'z'), ignoring bytes >= 0x80.
		t := x & low7
		if (ones*(127+0x7b)-t)&^x&(t+ones*(127-0x60))&high != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if (c|0x20)-'a' < 26 {
			return true
		}
	}
	return false
}

// magic lists signatures net/http's sniffer does not know.
var magic = []struct {
	off  int
	sig  string
	name string
}{
	{0, "\x7fELF", "ELF executable"},
	{0, "\x28\xb5\x2f\xfd", "zstd compressed data"},
	{0, "\xfd7zXZ\x00", "xz compressed data"},
	{0, "BZh", "bzip2 compressed data"},
	{0, "SQLite format 3\x00", "SQLite database"},
	{0, "\x00asm", "WebAssembly module"},
	{0, "\xca\xfe\xba\xbe", "Java class or Mach-O fat binary"},
	{0, "\xcf\xfa\xed\xfe", "Mach-O executable"},
	{0, "MZ", "PE/DOS executable"},
	{257, "ustar", "tar archive"},
}

// Sniff names the type of binary content from its first bytes.
func Sniff(head []byte) string {
	for _, m := range magic {
		if len(head) >= m.off+len(m.sig) && string(head[m.off:m.off+len(m.sig)]) == m.sig {
			return m.name
		}
	}
	t := sniff.DetectContentType(head)
	if t == "application/octet-stream" {
		return "data"
	}
	return t
}

// Errors returns the error-looking anomaly items of a graph in line order;
// renderers of other profiles use it to show the text evidence too.
func Errors(g *evidence.Graph) []*evidence.Item {
	var out []*evidence.Item
	for i := range g.Items {
		if it := &g.Items[i]; it.Kind == evidence.KindAnomaly && it.Why == "error-text" {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
