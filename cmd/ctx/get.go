package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/profiles/jsondoc"
	"github.com/ctxhq/ctx/profiles/lines"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

type getOptions struct {
	handle string
	lines  string
	bytes  string
	grep   string
	around int
	full   bool
	hex    bool
	limit  int
	json   bool
	reveal bool
	// JSON selectors.
	pointer string
	records string
	plain   bool
	raw     bool
	// form is what was printed, "plain" or "raw", and note says what plain
	// text changed; both are filled in by runGet for its callers (MCP).
	form string
	note string
}

// Inline limits: a region larger than these returns a zoom view, not a flood.
const (
	defaultLineLimit = 240
	defaultByteLimit = 64 << 10
	hexLimit         = 4 << 10
	grepLineClip     = 1 << 10 // a --grep line longer than this is clipped
)

func newGetCmd(ios *IO) *cobra.Command {
	o := &getOptions{}
	c := &cobra.Command{
		Use:   "get HANDLE",
		Short: "Print the exact bytes a handle names",
		Long: `Print the exact bytes of a run's stream, a blob, or a range of either.

Handles: run:ID (the run's output: stdout, stderr, or both merged in arrival
order when both have output), run:ID#stdout, run:ID#stderr, run:ID#merged,
with :L40-52 (lines, 1-based, inclusive), :L40- (to the end) or :B100-200
(bytes, 0-based, end excluded); blob:ID; span:ID (a span a digest named);
receipt:ID. IDs may be shortened to any unique prefix of 6+ hex digits.

Secrets (keys, tokens, passwords: see docs/secrets.md) print as
[REDACTED:rule:hash], on every form of output. --reveal prints them as
stored, and only when stdout is a terminal: an agent's shell is not one.

A region over the inline limit (240 lines or 64 KiB) prints a zoom view
instead: its head and tail, the error-looking lines inside it, and handles to
its two halves, so any line is reachable in a few steps and nothing floods.
--full prints the whole region regardless (for redirecting to a file).

Plain by default when stdout is not a terminal (a file, a pipe, an agent):
terminal escape sequences are removed and carriage-return overwrites folded,
as a pipe would have carried the output; everything else (line endings,
trailing spaces, long lines) is kept byte for byte, so a captured patch
applies. When plain text differs from the stored bytes, stderr says so.
--raw prints the exact stored bytes; at a terminal they are the default.

Exit status: 0 printed; 1 the handle is malformed, unknown, ambiguous (the
candidates are listed) or the range lies outside the content, or --grep
matched no line (as grep does); 2 usage error; 3 the region was too large and
a zoom view was printed instead of its bytes (narrow the range, or --full);
125 the store is locked or damaged.`,
		Example: `  ctx get run:ba3d1020ee8f#stdout:L40-52
  ctx get run:ba3d10 --lines 100:160
  ctx get run:ba3d10#stderr --grep 'panic|FAIL' --around 3
  ctx get blob:4f1c0a9e2b77 --bytes 0:4096 --hex
  ctx get run:ba3d10#stdout --full > out.log`,
		Args:              exactArgs(1, "ctx get HANDLE"),
		ValidArgsFunction: completeHandles(ios),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runGet(cmd.Context(), ios, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.lines, "lines", "", "lines A:B (1-based, inclusive; A: to the end, :B from the start)")
	f.StringVar(&o.bytes, "bytes", "", "bytes A:B (0-based, B excluded; A: to the end)")
	f.StringVar(&o.grep, "grep", "", "print only lines matching this regular expression (RE2 syntax), numbered")
	f.IntVar(&o.around, "around", 0, "with --grep: lines of context around each match")
	f.BoolVar(&o.full, "full", false, "print the whole region even past the inline limit")
	f.BoolVar(&o.hex, "hex", false, "print a hexdump (for binary output)")
	f.BoolVar(&o.plain, "plain", false, "print text as a pipe would have carried it: escape sequences removed, carriage-return overwrites folded (the default when stdout is not a terminal)")
	f.BoolVar(&o.raw, "raw", false, "print the exact stored bytes (the default at a terminal)")
	f.IntVar(&o.limit, "limit", defaultLineLimit, "inline limit in lines")
	f.BoolVar(&o.json, "json", false, "print JSON: the resolved handle, the range and the text (base64 when not UTF-8)")
	f.BoolVar(&o.reveal, "reveal", false, "print secrets as stored instead of [REDACTED:rule:hash] (only to a terminal: for a person, never an agent)")
	f.StringVar(&o.pointer, "json-pointer", "", "print the JSON value at this RFC 6901 pointer (/items/3/name), exactly as stored")
	f.StringVar(&o.records, "records", "", "print JSON Lines records A:B (1-based, inclusive), exactly as stored")
	return c
}

// exactArgs is cobra.ExactArgs with a usage error that shows the form.
func exactArgs(n int, form string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("want %s (got %d arguments)", form, len(args))
		}
		return nil
	}
}

// Exit statuses of ctx get besides the common ones: a script can tell exact
// bytes (0) from no match (1, as grep) and from a zoom view (3).
const (
	exitNoMatch = 1
	exitZoom    = 3
)

// region is a resolved, readable range of stored content.
type region struct {
	handle string // canonical handle of the whole stream or blob
	blob   *store.Blob
	// A merged view has no random access: openMerged reads it from the
	// start, and the region is its bytes [mStart, mEnd).
	openMerged   func() (io.Reader, error)
	mStart, mEnd int64
	unit         byte  // 'L', 'B' or 0 (all)
	from, to     int64 // lines (inclusive) or bytes [from, to)
	size         int64 // bytes in the region
	lineN        int64 // lines in the region (0 if unknown)
	// unordered: a merged view of a run whose capture recorded no arrival
	// order (ingested files): stdout, then stderr.
	unordered bool
	reveal    bool // secrets as stored (a person at a terminal asked)
}

func runGet(ctx context.Context, ios *IO, o *getOptions) error {
	if strings.HasPrefix(o.handle, "repo:") {
		return runGetRepo(ctx, ios, o)
	}
	h, err := store.ParseHandle(o.handle)
	if err != nil {
		return err
	}
	if o.lines != "" && o.bytes != "" {
		return usagef("give --lines or --bytes, not both")
	}
	if (o.lines != "" || o.bytes != "") && !h.Range.IsZero() {
		return usagef("the handle already selects %s; drop it or the --lines/--bytes flag", h.Range)
	}
	if o.limit <= 0 {
		return usagef("--limit %d: want a positive number of lines", o.limit)
	}
	if o.plain && o.raw {
		return usagef("give --plain or --raw, not both")
	}
	if o.reveal && !ios.IsTTY {
		return usagef("--reveal prints secrets, so only to a terminal, for a person; stdout is not a terminal (agents and pipes get redacted output)")
	}
	o.form = "raw"
	if o.plain || !o.raw && !ios.IsTTY {
		o.form = "plain"
	}
	st, t, err := resolveAnywhere(ios, h, o.handle)
	if err != nil {
		return err
	}
	defer st.Close()
	defer traceRemote(ios)
	if t.Kind == "receipt" {
		return printReceipt(ios, t)
	}
	rng := t.Range
	switch {
	case o.lines != "":
		if rng, err = parseSelector(o.lines, 'L'); err != nil {
			return usagef("--lines: %v", err)
		}
	case o.bytes != "":
		if rng, err = parseSelector(o.bytes, 'B'); err != nil {
			return usagef("--bytes: %v", err)
		}
	}
	reg, err := openRegion(st, t, rng)
	if err != nil {
		return err
	}
	if reg.unordered {
		fmt.Fprintf(ios.Err, "ctx get: no arrival order was recorded for this run (%s): #merged is stdout, then stderr\n", unorderedWhy(t.Run))
	}
	reg.reveal = o.reveal
	switch {
	case o.pointer != "" || o.records != "":
		return getJSONPart(ios.Out, reg, o)
	case o.hex:
		return writeHex(ios.Out, reg, o.full)
	case o.grep != "":
		re, err := regexp.Compile(o.grep)
		if err != nil {
			return usagef("--grep: %v", err)
		}
		return grepRegion(ctx, ios.Out, reg, re, o.around, o.limit)
	case o.json:
		return getJSON(ios.Out, reg, o)
	}
	if !o.full && (reg.lineN > int64(o.limit) || reg.size > defaultByteLimit) {
		if err := zoom(ctx, ios.Out, reg, o.limit); err != nil {
			return err
		}
		return &exitError{code: exitZoom}
	}
	if t.Kind == "run" {
		st.RecordRetrieval(store.Retrieval{Time: time.Now().UTC(), Run: t.ID, Handle: reg.describe(), Bytes: reg.size})
	}
	if o.form == "plain" {
		return plainRegion(ios, reg, o)
	}
	return copyRegion(ios.Out, reg)
}

// plainRegion prints a region as a pipe would have carried it and, when that
// differs from the stored bytes, says so on stderr (and in o.note).
func plainRegion(ios *IO, reg *region, o *getOptions) error {
	r, err := reg.reader()
	if err != nil {
		return err
	}
	ps, err := lines.Plain(ios.Out, r)
	if err != nil {
		return err
	}
	o.note = plainNote(ps)
	if o.note != "" {
		fmt.Fprintln(ios.Err, "ctx get: "+o.note)
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
func plainNote(ps lines.PlainStats) string {
	if !ps.Changed() {
		return ""
	}
	return fmt.Sprintf("plain text: %s removed, %s folded; --raw prints the exact stored bytes",
		plural(ps.Escapes, "escape sequence"), plural(ps.Overwrites, "overwritten line"))
}

// parseSelector reads "A:B", "A:", ":B" or "A" into a range.
func parseSelector(s string, unit byte) (store.Range, error) {
	a, b, colon := strings.Cut(s, ":")
	num := func(x string, def int64) (int64, error) {
		if x == "" {
			return def, nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a number", x)
		}
		return n, nil
	}
	if unit == 'L' {
		from, err := num(a, 1)
		if err != nil {
			return store.Range{}, err
		}
		if from < 1 {
			return store.Range{}, fmt.Errorf("lines are numbered from 1")
		}
		to := from
		if colon {
			if to, err = num(b, 0); err != nil {
				return store.Range{}, err
			}
			if to != 0 && to < from {
				return store.Range{}, fmt.Errorf("%s: the end is before the start", s)
			}
		}
		return store.Range{Unit: 'L', From: from, To: to}, nil
	}
	from, err := num(a, 0)
	if err != nil {
		return store.Range{}, err
	}
	if !colon {
		return store.Range{}, fmt.Errorf("%s: want A:B, A: or :B", s)
	}
	to, err := num(b, -1)
	if err != nil {
		return store.Range{}, err
	}
	if to != -1 && to < from {
		return store.Range{}, fmt.Errorf("%s: the end is before the start", s)
	}
	return store.Range{Unit: 'B', From: from, To: to}, nil
}

func openRegion(st *store.Store, t *store.Target, rng store.Range) (*region, error) {
	reg := &region{unit: rng.Unit}
	var blobID store.ID
	switch t.Kind {
	case "run":
		stream := t.Stream
		if stream == "" {
			stream = t.Run.DefaultStream()
		}
		reg.handle = t.Run.Handle() + "#" + stream
		if stream == "merged" {
			run := t.Run
			open := func() (io.Reader, error) {
				r, _, err := st.Merged(run)
				return r, err
			}
			// An ingested run's index only records the order ctx read
			// the files in, not the order a program wrote them.
			m := run.Manifest
			ordered := !run.Interleave.IsZero() || m.Stdout.Size == 0 || m.Stderr.Size == 0
			reg.unordered = !ordered || m.Mode == "ingest" && m.Stdout.Size > 0 && m.Stderr.Size > 0
			return mergedRegion(reg, open, rng, m.Stdout.Size+m.Stderr.Size)
		}
		ref, _ := t.Run.StreamBlob(stream)
		blobID = ref.Blob
	case "blob":
		blobID = t.ID
		reg.handle = "blob:" + t.ID.Short()
	default:
		return nil, fmt.Errorf("%s handles name no bytes", t.Kind)
	}
	b, err := openBlob(st, t, blobID)
	if err != nil {
		return nil, err
	}
	reg.blob = b
	switch rng.Unit {
	case 'L':
		to := rng.To
		if to == 0 {
			to = b.Lines()
		}
		off, end, err := b.LineRange(rng.From, to)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", reg.handle, err)
		}
		reg.from, reg.to = rng.From, min(to, b.Lines())
		reg.size = end - off
		reg.lineN = reg.to - reg.from + 1
	case 'B':
		to := rng.To // B0-0 is empty: the end is excluded
		if to < 0 {
			to = b.Size()
		}
		if rng.From > b.Size() {
			return nil, fmt.Errorf("%s: byte %d: %w (the content has %d bytes)", reg.handle, rng.From, store.ErrRange, b.Size())
		}
		reg.from, reg.to = rng.From, min(to, b.Size())
		reg.size = reg.to - reg.from
	default:
		reg.unit, reg.from, reg.to = 'L', 1, b.Lines()
		reg.size, reg.lineN = b.Size(), b.Lines()
		if b.Size() == 0 {
			reg.from = 0
		}
	}
	return reg, nil
}

// mergedRegion selects from a merged view. It reads the view once to find
// where the selection starts and ends, keeping nothing; the bytes are read
// again, streamed, when printed — so any region of any size is printed in
// bounded memory.
func mergedRegion(reg *region, open func() (io.Reader, error), rng store.Range, total int64) (*region, error) {
	reg.openMerged = open
	if rng.Unit == 'B' {
		// The merged view holds every byte of both streams.
		if rng.From > total {
			return nil, fmt.Errorf("%s: byte %d: %w (the content has %d bytes)", reg.handle, rng.From, store.ErrRange, total)
		}
		to := rng.To
		if to < 0 || to > total {
			to = total
		}
		reg.from, reg.to = rng.From, to
		reg.mStart, reg.mEnd = rng.From, to
		reg.size = to - rng.From
		return reg, nil
	}
	from, to := int64(1), int64(0)
	if rng.Unit == 'L' {
		from, to = rng.From, rng.To
	}
	r, err := open()
	if err != nil {
		return nil, err
	}
	start, end, n, err := scanLines(r, from, to)
	if err != nil {
		return nil, err
	}
	if from > n && !(from == 1 && n == 0) {
		return nil, fmt.Errorf("%s: line %d: %w (the content has %d lines)", reg.handle, from, store.ErrRange, n)
	}
	reg.unit, reg.from, reg.to = 'L', from, max(from, min(to, n))
	if to == 0 {
		reg.to = n
	}
	reg.lineN = reg.to - reg.from + 1
	if n == 0 {
		reg.from, reg.lineN = 0, 0
	}
	reg.mStart, reg.mEnd = start, end
	reg.size = end - start
	return reg, nil
}

// scanLines reads r to find the byte offsets [start, end) of lines from..to
// (1-based, inclusive; to 0 for the last line) and the number of lines it
// read: all of them, or up to line to. Memory use is one buffer.
func scanLines(r io.Reader, from, to int64) (start, end, n int64, err error) {
	buf := make([]byte, 64<<10)
	var pos, nl int64
	var last byte
	for {
		k, rerr := r.Read(buf)
		chunk := buf[:k]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				break
			}
			nl++
			lineEnd := pos + int64(i) + 1
			if nl == from-1 {
				start = lineEnd
			}
			if to > 0 && nl == to {
				return start, lineEnd, nl, nil
			}
			pos = lineEnd
			chunk = chunk[i+1:]
		}
		pos += int64(len(chunk))
		if k > 0 {
			last = buf[k-1]
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return 0, 0, 0, rerr
		}
	}
	n = nl
	if pos > 0 && last != '\n' {
		n++ // bytes after the last newline form one more line
	}
	if from > n {
		start = pos
	}
	return start, pos, n, nil
}

// reader returns the region's bytes, secrets redacted unless revealed.
func (reg *region) reader() (io.Reader, error) {
	r, err := reg.rawReader()
	if err != nil || reg.reveal {
		return r, err
	}
	if reg.unit == 'B' && reg.blob != nil {
		return secrets.RedactSection(reg.blob, reg.from, reg.to)
	}
	red := secrets.NewReader(r)
	if reg.blob != nil && reg.unit == 'L' && reg.from > 1 {
		// A key block may have begun above the region.
		from := max(1, reg.from-secrets.Lookback)
		off, end, err := reg.blob.LineRange(from, reg.from-1)
		if err != nil {
			return nil, err
		}
		if err := lines.Scan(context.Background(), reg.blob.Section(off, end), func(_ int, line []byte, _ bool) error {
			red.Prime(line)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return red, nil
}

// rawReader returns the region's bytes as stored.
func (reg *region) rawReader() (io.Reader, error) {
	if reg.openMerged != nil {
		r, err := reg.openMerged()
		if err != nil {
			return nil, err
		}
		if _, err := io.CopyN(io.Discard, r, reg.mStart); err != nil {
			return nil, err
		}
		return io.LimitReader(r, reg.mEnd-reg.mStart), nil
	}
	if reg.unit == 'B' {
		return reg.blob.Section(reg.from, reg.to), nil
	}
	if reg.from == 0 {
		return bytes.NewReader(nil), nil
	}
	if reg.from == 1 && reg.to >= reg.blob.Lines() {
		return reg.blob.Reader(), nil // the whole blob: verified against its id
	}
	off, end, err := reg.blob.LineRange(reg.from, reg.to)
	if err != nil {
		return nil, err
	}
	return reg.blob.Section(off, end), nil
}

func copyRegion(w io.Writer, reg *region) error {
	r, err := reg.reader()
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return err
}

func (reg *region) describe() string {
	switch reg.unit {
	case 'B':
		return fmt.Sprintf("%s:B%d-%d", reg.handle, reg.from, reg.to)
	}
	return fmt.Sprintf("%s:L%d-%d", reg.handle, reg.from, reg.to)
}

// zoom prints a bounded view of a region too large to print: head, tail,
// error-looking lines, and the handles of its halves.
func zoom(ctx context.Context, w io.Writer, reg *region, limit int) error {
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
		fmt.Fprintf(bw, "%s is %s — over the inline limit of %s; a zoom view:\n", reg.describe(), contract.Size(reg.size), contract.Size(defaultByteLimit))
		head := make([]byte, min(to-from, 512))
		if reg.blob != nil {
			n, _ := io.ReadFull(reg.blob.Section(from, from+int64(len(head))), head)
			shown := head[:n]
			if !reg.reveal {
				r, err := secrets.RedactSection(reg.blob, from, from+int64(n))
				if err != nil {
					return err
				}
				if shown, err = io.ReadAll(r); err != nil {
					return err
				}
			}
			fmt.Fprintf(bw, "first %d bytes: %s\n", n, printable(shown))
		} else if r, err := reg.reader(); err == nil {
			// A merged view: its head, read in order (redacted by reader).
			n, _ := io.ReadFull(r, head)
			fmt.Fprintf(bw, "first %d bytes: %s\n", n, printable(head[:n]))
		}
		fmt.Fprintf(bw, "halves: %s:B%d-%d · %s:B%d-%d\n", reg.handle, from, mid, reg.handle, mid, to)
		fmt.Fprintf(bw, "next: ctx get %s:B%d-%d  (or --full to print it all, --hex for a hexdump)\n", reg.handle, from, min(to, from+defaultByteLimit))
		return nil
	}
	r, err := reg.reader()
	if err != nil {
		return err
	}
	const show = 8
	var head []string
	tail := make([]string, 0, show)
	var errs []string
	errRE := zoomErrRE()
	n := reg.from - 1
	err = lines.Scan(ctx, r, func(_ int, line []byte, long bool) error {
		n++
		text := clipLine(lines.Clean(line), 200)
		if int64(len(head)) < show {
			head = append(head, fmt.Sprintf("%d: %s", n, text))
			return nil
		}
		if len(tail) == show {
			copy(tail, tail[1:])
			tail = tail[:show-1]
		}
		tail = append(tail, fmt.Sprintf("%d: %s", n, text))
		if len(errs) < 20 && errRE.Match(line) {
			errs = append(errs, fmt.Sprintf("%d: %s", n, text))
		}
		return nil
	})
	if err != nil {
		return err
	}
	mid := reg.from + (reg.to-reg.from)/2
	fmt.Fprintf(bw, "%s is %s lines (%s) — over the inline limit of %d lines; a zoom view:\n",
		reg.describe(), contract.Num(reg.lineN), contract.Size(reg.size), limit)
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

// zoomRE finds the error-looking lines a zoom view lists.
var zoomRE = lines.Lazy(`(?i)\b(error|fail(ed|ure)?|fatal|panic|exception|traceback)\b`)

func zoomErrRE() *lines.Regexp { return zoomRE }

func clipLine(b []byte, n int) string {
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

func printable(b []byte) string {
	if lines.Printable(b) {
		return strconv.Quote(string(b))
	}
	return "(binary) " + hex.EncodeToString(b[:min(len(b), 64)])
}

// grepRegion prints matching lines as "N:text" and context lines as "N-text",
// with "--" between separate groups, like grep -n.
func grepRegion(ctx context.Context, w io.Writer, reg *region, re *regexp.Regexp, around, limit int) error {
	r, err := reg.reader()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	type held struct {
		n    int64
		text string
	}
	var before []held
	printed := 0
	matches := 0
	lastPrinted := int64(-1)
	after := 0
	n := reg.from - 1
	if n < 0 {
		n = 0
	}
	var firstUnprinted int64
	// Output stops at limit lines or defaultByteLimit bytes, whichever comes
	// first; a line longer than grepLineClip is clipped (its handle has it all).
	var written int
	full := func() bool { return printed >= limit || written >= defaultByteLimit }
	emit := func(ln int64, sep byte, text string) {
		if full() {
			return
		}
		if lastPrinted >= 0 && ln > lastPrinted+1 {
			bw.WriteString("--\n")
			written += 3
		}
		if len(text) > grepLineClip {
			text = clipLine([]byte(text), grepLineClip)
		}
		k, _ := fmt.Fprintf(bw, "%d%c%s\n", ln, sep, text)
		written += k
		lastPrinted = ln
		printed++
	}
	err = lines.Scan(ctx, r, func(_ int, line []byte, long bool) error {
		n++
		text := strings.ToValidUTF8(string(line), "\uFFFD")
		if long {
			text += "…"
		}
		if re.Match(lines.Clean(line)) {
			matches++
			if full() {
				if firstUnprinted == 0 {
					firstUnprinted = n
				}
				return nil
			}
			for _, h := range before {
				emit(h.n, '-', h.text)
			}
			before = before[:0]
			emit(n, ':', text)
			after = around
			return nil
		}
		if after > 0 {
			emit(n, '-', text)
			after--
			return nil
		}
		if around > 0 {
			if len(before) == around {
				before = before[1:]
			}
			before = append(before, held{n, text})
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case matches == 0:
		fmt.Fprintf(bw, "no line of %s matches %q\n", reg.describe(), re.String())
		if err := bw.Flush(); err != nil {
			return err
		}
		return &exitError{code: exitNoMatch}
	case firstUnprinted > 0:
		fmt.Fprintf(bw, "… %d matches in all; output stopped at %d lines (%s). next: ctx get %s:L%d- --grep %q\n",
			matches, printed, contract.Size(int64(written)), reg.handle, firstUnprinted, re.String())
	}
	return nil
}

func writeHex(w io.Writer, reg *region, full bool) error {
	r, err := reg.reader()
	if err != nil {
		return err
	}
	if !full && reg.size > hexLimit {
		r = io.LimitReader(r, hexLimit)
	}
	d := hex.Dumper(w)
	if _, err := io.Copy(d, r); err != nil {
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	if !full && reg.size > hexLimit {
		start := reg.from
		if reg.unit != 'B' {
			start = 0
		}
		fmt.Fprintf(w, "… first %s of %s shown. next: ctx get %s:B%d-%d --hex  (or --full)\n",
			contract.Size(hexLimit), contract.Size(reg.size), reg.handle, start+hexLimit, start+2*hexLimit)
	}
	return nil
}

func getJSON(w io.Writer, reg *region, o *getOptions) error {
	if !o.full && (reg.lineN > int64(o.limit) || reg.size > defaultByteLimit) {
		return fmt.Errorf("%s is %s: over the inline limit; narrow the range or add --full: %w", reg.describe(), contract.Size(reg.size), store.ErrRange)
	}
	r, err := reg.reader()
	if err != nil {
		return err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	out := map[string]any{"handle": reg.describe(), "bytes": len(data), "form": o.form}
	if o.form == "plain" {
		var buf bytes.Buffer
		ps, _ := lines.Plain(&buf, bytes.NewReader(data))
		data = buf.Bytes()
		if o.note = plainNote(ps); o.note != "" {
			out["note"] = o.note
		}
	}
	if reg.unit == 'L' {
		out["from_line"], out["to_line"] = reg.from, reg.to
	} else {
		out["from_byte"], out["to_byte"] = reg.from, reg.to
	}
	if utf8.Valid(data) {
		out["text"] = string(data)
	} else {
		out["base64"] = base64.StdEncoding.EncodeToString(data)
	}
	return writeJSON(w, out)
}

// getJSONPart prints a JSON value by pointer or a range of JSON Lines records,
// bounded by the inline limit unless --full.
func getJSONPart(w io.Writer, reg *region, o *getOptions) error {
	if o.pointer != "" && o.records != "" {
		return usagef("give --json-pointer or --records, not both")
	}
	r, err := reg.reader()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	out := io.Writer(&buf)
	if o.full {
		out = w
	}
	if o.pointer != "" {
		err = jsondoc.Pointer(r, o.pointer, out)
	} else {
		sel, perr := parseSelector(o.records, 'L')
		if perr != nil {
			return usagef("--records: %v", perr)
		}
		to := sel.To
		if to == 0 {
			to = 1 << 40
		}
		err = jsondoc.Records(r, int(sel.From), int(to), out)
	}
	var pe *jsondoc.PointerError
	var re *jsondoc.RangeError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", err, store.ErrRange)
	case errors.As(err, &re) && o.records != "" && strings.HasSuffix(o.records, ":"):
		err = nil // "A:" runs to the end: the end is not an error
	case errors.As(err, &re):
		if !o.full {
			_, _ = w.Write(buf.Bytes())
		}
		return fmt.Errorf("%s: %w", err, store.ErrRange)
	}
	if err != nil {
		return err
	}
	if o.full {
		return nil
	}
	if buf.Len() > defaultByteLimit {
		return fmt.Errorf("the selected JSON is %s, over the inline limit of %s: select a deeper pointer or fewer records, or add --full: %w",
			contract.Size(int64(buf.Len())), contract.Size(defaultByteLimit), store.ErrRange)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// unorderedWhy names why a run's merged view has no arrival order.
func unorderedWhy(run *store.Run) string {
	switch {
	case run.Manifest.Mode == "ingest":
		return "ingested output"
	case run.Manifest.Status == store.StatusRecovered:
		return "recovered after ctx stopped mid-capture"
	}
	return "stored without an interleave index"
}
