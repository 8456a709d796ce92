package retrieve

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/internal/readahead"
	"github.com/ctxhq/ctx/secrets"
)

// Zoom prints a bounded view of a region too large to print: head, tail,
// error-looking lines, and the handles of its halves.
func Zoom(ctx context.Context, w io.Writer, reg *Region, limit int) error {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	if reg.unit == 'B' || reg.lineN <= 1 {
		// Too many bytes in too few lines: halve by bytes.
		from, to := reg.from, reg.to
		if reg.openMerged != nil {
			from, to = reg.mStart, reg.mEnd
		} else if reg.unit != 'B' {
			off, end, err := reg.blob.LineRange(reg.from, reg.to)
			if err != nil {
				return err
			}
			from, to = off, end
		}
		mid := from + (to-from)/2
		fmt.Fprintf(bw, "%s is %s — over the inline limit of %s; a zoom view:\n", reg.Describe(), contract.Size(reg.size), contract.Size(ByteLimit))
		head := make([]byte, min(to-from, 512))
		if reg.blob != nil {
			n, _ := io.ReadFull(reg.blob.Section(from, from+int64(len(head))), head)
			shown := head[:n]
			if !reg.Reveal {
				r, err := secrets.RedactSection(reg.blob, from, from+int64(n))
				if err != nil {
					return err
				}
				if shown, err = io.ReadAll(r); err != nil {
					return err
				}
			}
			fmt.Fprintf(bw, "first %d bytes: %s\n", n, printable(shown))
		} else if r, err := reg.Reader(); err == nil {
			// A merged view: its head, read in order (redacted by reader).
			n, _ := io.ReadFull(r, head)
			fmt.Fprintf(bw, "first %d bytes: %s\n", n, printable(head[:n]))
		}
		fmt.Fprintf(bw, "halves: %s:B%d-%d · %s:B%d-%d\n", reg.handle, from, mid, reg.handle, mid, to)
		fmt.Fprintf(bw, "next: ctx get %s:B%d-%d  (or --full to print it all, --hex for a hexdump)\n", reg.handle, from, min(to, from+ByteLimit))
		return nil
	}
	r, err := reg.Reader()
	if err != nil {
		return err
	}
	const show = 8
	var head []string
	tail := make([]string, 0, show)
	var errs []string
	n := reg.from - 1
	err = lines.Scan(ctx, r, func(_ int, line []byte, long bool) error {
		n++
		text := ClipLine(lines.Clean(line), 200)
		if int64(len(head)) < show {
			head = append(head, fmt.Sprintf("%d: %s", n, text))
			return nil
		}
		if len(tail) == show {
			copy(tail, tail[1:])
			tail = tail[:show-1]
		}
		tail = append(tail, fmt.Sprintf("%d: %s", n, text))
		if len(errs) < 20 && lines.LooksLikeError(line) {
			errs = append(errs, fmt.Sprintf("%d: %s", n, text))
		}
		return nil
	})
	if err != nil {
		return err
	}
	mid := reg.from + (reg.to-reg.from)/2
	fmt.Fprintf(bw, "%s is %s lines (%s) — over the inline limit of %d lines; a zoom view:\n",
		reg.Describe(), contract.Num(reg.lineN), contract.Size(reg.size), limit)
	for _, l := range head {
		fmt.Fprintln(bw, l)
	}
	if len(errs) > 0 {
		fmt.Fprintf(bw, "··· error-looking lines inside (first %d):\n", len(errs))
		for _, l := range errs {
			fmt.Fprintln(bw, l)
		}
	}
	fmt.Fprintln(bw, "···")
	for _, l := range tail {
		fmt.Fprintln(bw, l)
	}
	fmt.Fprintf(bw, "halves: %s:L%d-%d · %s:L%d-%d\n", reg.handle, reg.from, mid, reg.handle, mid+1, reg.to)
	fmt.Fprintf(bw, "next: ctx get %s:L%d-%d  (a page; or --grep RE, or --full to print it all)\n", reg.handle, reg.from, min(reg.to, reg.from+int64(limit)-1))
	return nil
}

// ClipLine is b as valid UTF-8, cut to about n bytes with a note of how
// many were cut.
func ClipLine(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [+%d B]", len(s)-cut)
}

// printable quotes text, and shows the head of binary content as hex.
func printable(b []byte) string {
	if lines.Printable(b) {
		return strconv.Quote(string(b))
	}
	return "(binary) " + hex.EncodeToString(b[:min(len(b), 64)])
}

// Grep prints matching lines as "N:text" and context lines as "N-text",
// with "--" between separate groups, like grep -n, stopping at limit lines
// or ByteLimit bytes with a handle to continue from. No match prints a line
// saying so and returns ErrNoMatch.
//
// A stored blob's lines are read frame by frame on every core (parallelGrep);
// a merged view or a byte range is read as one stream (grepStream). Both
// print the same bytes.
func Grep(ctx context.Context, w io.Writer, reg *Region, re *regexp.Regexp, around, limit int) error {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	p := &grepPrinter{w: bw, around: around, limit: limit, handle: reg.handle}
	var err error
	if reg.parallel() {
		err = parallelGrep(ctx, reg, re, p)
	} else {
		err = grepStream(ctx, reg, re, p)
	}
	if err != nil {
		return err
	}
	return p.finish(reg, re)
}

// grepStream feeds the printer every line of the region, read in order.
func grepStream(ctx context.Context, reg *Region, re *regexp.Regexp, p *grepPrinter) error {
	src, err := reg.Reader()
	if err != nil {
		return err
	}
	// Decompressing and redacting run ahead on another core while lines are
	// matched here.
	r := readahead.New(src, 256<<10, 4)
	defer r.Close()
	n := max(reg.from-1, 0)
	return lines.Scan(ctx, r, func(_ int, line []byte, long bool) error {
		n++
		matched := re.Match(lines.Clean(line))
		p.line(n, line, long, matched)
		if long && !matched {
			p.partial(n)
		}
		return nil
	})
}

// grepPrinter prints what grep shows of the lines it is given in order: the
// matches and, around each, context lines. It may be given only the lines
// within around of a match (and any others): the lines it is not given are
// neither printed nor held.
type grepPrinter struct {
	w             *bufio.Writer
	around, limit int
	before        []heldLine // up to around lines not printed, the latest last
	printed       int
	matches       int
	lastPrinted   int64  // 0 before the first (lines are numbered from 1)
	after         int    // context lines still to print after a match
	written       int    // bytes printed
	firstUnprint  int64  // the first match not printed, 0 if none
	firstCut      int64  // the first line of any kind not printed because the output was full, 0 if none
	handle        string // the stream's handle, for a line too long to scan whole
	partials      int    // lines longer than lines.Max that did not match in their first lines.Max bytes
	firstPartial  int64  // the first of them
}

type heldLine struct {
	n    int64
	text string
	long bool
}

// lineText is a line as grep prints it: valid UTF-8.
func lineText(line []byte) string { return strings.ToValidUTF8(string(line), "\uFFFD") }

// full: output stops at limit lines or ByteLimit bytes, whichever comes first.
func (p *grepPrinter) full() bool { return p.printed >= p.limit || p.written >= ByteLimit }

func (p *grepPrinter) emit(ln int64, sep byte, text string, long bool) {
	if p.full() {
		if p.firstCut == 0 {
			p.firstCut = ln
		}
		return
	}
	if p.lastPrinted > 0 && ln > p.lastPrinted+1 {
		p.w.WriteString("--\n")
		p.written += 3
	}
	switch {
	case long:
		// Scanned only to lines.Max: how much more there is is not known
		// here, so the mark says where the whole line is, not a count.
		text = ClipLine([]byte(text), grepLineClip)
		if i := strings.LastIndex(text, "… [+"); i >= 0 {
			text = text[:i]
		}
		text += fmt.Sprintf("… [longer than %s: ctx get %s:L%d]", contract.Size(lines.Max), p.handle, ln)
	case len(text) > grepLineClip:
		// A line longer than grepLineClip is clipped (its handle has it all).
		text = ClipLine([]byte(text), grepLineClip)
	}
	k, _ := fmt.Fprintf(p.w, "%d%c%s\n", ln, sep, text)
	p.written += k
	p.lastPrinted = ln
	p.printed++
}

// line takes line n (as lines.Scan gives it) and whether it matched.
func (p *grepPrinter) line(n int64, line []byte, long, matched bool) {
	if matched {
		p.matches++
		if p.full() {
			if p.firstUnprint == 0 {
				p.firstUnprint = n
			}
			if p.firstCut == 0 {
				p.firstCut = n
			}
			return
		}
		for _, h := range p.before {
			if h.n >= n-int64(p.around) {
				p.emit(h.n, '-', h.text, h.long)
			}
		}
		p.before = p.before[:0]
		p.emit(n, ':', lineText(line), long)
		p.after = p.around
		return
	}
	if p.after > 0 {
		p.emit(n, '-', lineText(line), long)
		p.after--
		return
	}
	if p.around > 0 {
		// No more than limit-1 lines of context before a match can be
		// printed with it: hold no more (an --around of millions held the
		// region's every line before its first match).
		if len(p.before) >= min(p.around, max(p.limit-1, 1)) {
			p.before = p.before[1:]
		}
		p.before = append(p.before, heldLine{n, lineText(line), long})
	}
}

// partial takes line n, longer than lines.Max, that did not match in its
// first lines.Max bytes: a match further on is not found, and finish says so.
func (p *grepPrinter) partial(n int64) {
	p.partials++
	if p.firstPartial == 0 || n < p.firstPartial {
		p.firstPartial = n
	}
}

// next says where to go on from once the output stopped: at a match, the
// same grep from it; inside a match's context (which a grep from there would
// not print: it holds no match), the lines that follow, then the next match.
func (p *grepPrinter) next(handle string, re *regexp.Regexp) string {
	around := ""
	if p.around > 0 {
		around = fmt.Sprintf(" --around %d", p.around)
	}
	grep := func(from int64) string {
		return fmt.Sprintf("ctx get %s:L%d- --grep %q%s", handle, from, re.String(), around)
	}
	if p.firstCut == p.firstUnprint {
		return grep(p.firstCut)
	}
	s := fmt.Sprintf("ctx get %s:L%d- for the rest of the context", handle, p.firstCut)
	if p.firstUnprint > 0 {
		s += "; " + grep(p.firstUnprint) + " for the next match"
	}
	return s
}

// finish prints the last word: no match, or where the output stopped, and
// which long lines were searched only in part.
func (p *grepPrinter) finish(reg *Region, re *regexp.Regexp) error {
	switch {
	case p.matches == 0 && p.partials > 0:
		fmt.Fprintf(p.w, "no match for %q in what was searched of %s\n", re.String(), reg.Describe())
	case p.matches == 0:
		fmt.Fprintf(p.w, "no line of %s matches %q\n", reg.Describe(), re.String())
	case p.firstCut > 0:
		fmt.Fprintf(p.w, "… %d matches in all; output stopped at %d lines (%s). next: %s\n",
			p.matches, p.printed, contract.Size(int64(p.written)), p.next(reg.handle, re))
	}
	if p.partials > 0 {
		lim := contract.Size(lines.Max)
		if p.partials == 1 {
			fmt.Fprintf(p.w, "1 line longer than %s was searched only in its first %s: ctx get %s:L%d --raw holds it whole\n",
				lim, lim, reg.handle, p.firstPartial)
		} else {
			fmt.Fprintf(p.w, "%d lines longer than %s were searched only in their first %s (the first: ctx get %s:L%d --raw holds it whole)\n",
				p.partials, lim, lim, reg.handle, p.firstPartial)
		}
	}
	if p.matches == 0 {
		if err := p.w.Flush(); err != nil {
			return err
		}
		return ErrNoMatch
	}
	return nil
}

// Hex prints a hexdump of the region: its first HexLimit bytes unless full.
func Hex(w io.Writer, reg *Region, full bool) error {
	r, err := reg.Reader()
	if err != nil {
		return err
	}
	if !full && reg.size > HexLimit {
		r = io.LimitReader(r, HexLimit)
	}
	d := hex.Dumper(w)
	if _, err := io.Copy(d, r); err != nil {
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	if !full && reg.size > HexLimit {
		start := reg.from
		if reg.unit != 'B' {
			start = 0
		}
		fmt.Fprintf(w, "… first %s of %s shown. next: ctx get %s:B%d-%d --hex  (or --full)\n",
			contract.Size(HexLimit), contract.Size(reg.size), reg.handle, start+HexLimit, start+2*HexLimit)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// plainNote says what plain text changed, or "" when it changed nothing.
func PlainNote(ps lines.PlainStats) string {
	if !ps.Changed() {
		return ""
	}
	return fmt.Sprintf("plain text: %s removed, %s folded; --raw prints the exact stored bytes",
		plural(ps.Escapes, "escape sequence"), plural(ps.Overwrites, "overwritten line"))
}
