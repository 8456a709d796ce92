package plan

import (
	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/runstatus"

	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
)

// LineSource reads lines of a run's streams (1-based, inclusive), each without
// its newline. The renderer cleans them (terminal colour, carriage returns).
type LineSource interface {
	Lines(stream string, from, to int64) ([]string, error)
}

// LineLengths is a LineSource that knows each line's stored length without
// its line ending. A source may give an enormous line cut short; with this
// the digest says how much of it was really left out.
type LineLengths interface {
	LineLen(stream string, n int64) (int64, error)
}

// RunInfo is what the digest header says about the run: only manifest facts,
// never times, pids or absolute paths.
type RunInfo struct {
	Handle string // run:ba3d1020ee8f
	Argv   []string
	Dir    string // relative to the workspace
	Exit   int
	Status runstatus.Status
	Signal int
}

// Input is everything a digest is rendered from.
type Input struct {
	Run      RunInfo
	Streams  []StreamInfo
	Graph    *evidence.Graph // sealed
	Contract *contract.Contract
	Plan     Plan
	Lines    LineSource
	// Census returns the handle a census list will be stored under (a blob of
	// its bytes); the caller stores Digest.Census after rendering.
	Census func(data []byte) string
	// SpanToken returns the span: handle of a span (a short token the store
	// resolves); nil keeps full run handles.
	SpanToken func(s evidence.Span) string
	// Secrets names the secret rule set the digest was redacted under (shown
	// on the header line); Redact redacts the findings before the coverage
	// footer is settled and returns a line saying what it did ("" when
	// nothing). Both are optional.
	Secrets string
	Redact  func(body []byte) ([]byte, string)
}

// Digest is a rendered digest with its coverage.
type Digest struct {
	Text     []byte
	Coverage contract.Coverage
	// Census holds the complete REQUIRED list in flood mode (to be stored as a
	// blob under CensusHandle); nil otherwise.
	Census       []byte
	CensusHandle string
	// Spans are the spans the digest named by token; they must be stored for
	// the tokens to resolve.
	Spans []evidence.Span
	// Plan is the plan the digest was rendered under: the input's, or the
	// same plan in whole mode when the output is smaller than its digest.
	Plan Plan
}

type renderer struct {
	in     Input
	spans  map[evidence.Span]string // one-line spans already shown, with their line
	b      bytes.Buffer
	used   int // estimated tokens so far
	inline map[int]bool
	census map[int]bool
	// censusText is each census line, by item.
	censusText map[int]string
	// What was emitted for each item: its own line (or census line), the
	// detail lines shown under it, and the verbatim output lines printed
	// (by stream and line number). Coverage counts a REQUIRED item only if
	// these show its identity and message.
	said    map[int]string
	printed map[lineKey]string
	shown   int64           // output lines shown verbatim
	clipped int             // output lines cut at lineWidth, each labelled
	flat    string          // the whole digest, whitespace collapsed (whole mode)
	words   map[string]bool // the words of flat (whole mode)
	err     error
}

type lineKey struct {
	stream string
	n      int64
}

// mark records that item i is shown by text (its own line); "" means by the
// verbatim output lines of its spans.
func (r *renderer) mark(i int, text string) {
	r.inline[i] = true
	if text != "" {
		r.said[i] += text + "\n"
	}
}

// verbatim prints output line n of a stream (cleaned and clipped as given)
// and remembers it.
func (r *renderer) verbatim(stream string, n int64, text string) {
	r.line(text)
	r.printed[lineKey{stream, n}] = text
	r.shown++
}

// clipLine cleans output line n of a stream and clips it at lineWidth; a
// clipped line says so, with the line to fetch whole.
func (r *renderer) clipLine(stream string, n int64, l string) string {
	unseen := r.unseen(stream, n, l)
	if unseen > 0 {
		l = strings.TrimSuffix(l, "…") // the source's mark of a cut line
	}
	l = strings.ToValidUTF8(cleanLine(l), "\uFFFD")
	if len(l) <= lineWidth {
		return l
	}
	cut := lineWidth
	for cut > 0 && !utf8.RuneStart(l[cut]) {
		cut--
	}
	r.clipped++
	return l[:cut] + fmt.Sprintf("… [+%s B clipped: %s]", contract.Num(int64(len(l)-cut)+unseen), shortSpan(evidence.Span{Stream: stream, From: int(n), To: int(n)}))
}

// unseen is how many bytes of output line n the source did not give in l (it
// cuts enormous lines short), when it can say; else 0.
func (r *renderer) unseen(stream string, n int64, l string) int64 {
	ll, ok := r.in.Lines.(LineLengths)
	if !ok || len(l) <= lineWidth {
		return 0
	}
	full, err := ll.LineLen(stream, n)
	given := int64(len(strings.TrimSuffix(l, "…")))
	if err != nil || full <= given {
		return 0
	}
	return full - given
}

// emitted is everything the digest showed of item i: its own lines and the
// verbatim output lines inside its span and detail.
func (r *renderer) emitted(i int) string {
	it := &r.in.Graph.Items[i]
	var b strings.Builder
	b.WriteString(r.said[i])
	seen := map[lineKey]bool{}
	for _, sp := range []evidence.Span{it.Span, it.Detail} {
		if sp.IsZero() || sp.To-sp.From > 4000 {
			continue
		}
		for n := int64(sp.From); n <= int64(sp.To); n++ {
			k := lineKey{sp.Stream, n}
			if t, ok := r.printed[k]; ok && !seen[k] {
				seen[k] = true
				b.WriteString(t + "\n")
			}
		}
	}
	return b.String()
}

// represented reports whether the digest showed item i's identity and message.
func (r *renderer) represented(it *evidence.Item, i int) bool {
	if r.in.Plan.Mode != ModeWhole {
		return Represents(it, r.emitted(i))
	}
	if r.flat == "" {
		r.flat = collapse(r.b.String()) // every line of the output is shown
		r.words = wordSet(r.flat)
	}
	for _, n := range Needles(it) {
		if !strings.Contains(r.flat, n) && !composedOf(n, r.words) {
			return false
		}
	}
	return true
}

// representedRedacted reports whether the digest shows the item once its
// credentials are redacted: excerpt lines arrive redacted, so an item whose
// text holds a secret never matches them as it is, and would be counted (and
// quoted) as REQUIRED and unshown although its line is right there. Redact
// is called on the item's texts here, before the body's own pass, which is
// the one whose note and counts stand.
func (r *renderer) representedRedacted(it *evidence.Item, i int) bool {
	if r.in.Redact == nil {
		return false
	}
	red := func(s string) string {
		if s == "" {
			return s
		}
		out, _ := r.in.Redact([]byte(s))
		return string(out)
	}
	cp := *it
	cp.Name, cp.Package, cp.Message, cp.File, cp.Text, cp.Template = red(it.Name), red(it.Package), red(it.Message), red(it.File), red(it.Text), red(it.Template)
	if cp.Name == it.Name && cp.Package == it.Package && cp.Message == it.Message && cp.File == it.File && cp.Text == it.Text && cp.Template == it.Template {
		return false // nothing to redact: the first check stands
	}
	return r.represented(&cp, i)
}

// honest drops from the inline and census sets every REQUIRED item whose
// identity or message the digest did not actually show.
func (r *renderer) honest() (inline, census map[int]bool) {
	inline, census = map[int]bool{}, map[int]bool{}
	g, c := r.in.Graph, r.in.Contract
	for i := range g.Items {
		it := &g.Items[i]
		required := c.ClassOf(it) == Required
		if r.inline[i] && (!required || r.represented(it, i) || r.representedRedacted(it, i)) {
			inline[i] = true
		}
		if r.census[i] && (!required || Represents(it, r.censusText[i])) {
			census[i] = true
		}
	}
	return inline, census
}

func (r *renderer) line(s string) {
	r.b.WriteString(s)
	r.b.WriteByte('\n')
	r.used += tokens(s) + 1
}

func (r *renderer) left() int { return r.in.Plan.Budget - r.used }

// Render renders the digest. It is a pure function of its input.
//
// A digest is never larger than the output it stands for: when the planned
// digest would be at least 85% of the raw output, in bytes or in estimated
// tokens, the output is shown whole instead (under a one-line header), and
// the plan says why (Digest.Plan).
func Render(in Input) (*Digest, error) {
	d, err := renderPlanned(in)
	if err != nil || in.Plan.Mode == ModeWhole {
		return d, err
	}
	var raw, rawTokens int64
	for _, s := range in.Streams {
		if s.Binary || s.Dropped > 0 {
			return d, nil // not shown whole, whatever the sizes
		}
		raw += s.Size
		rawTokens += (s.Size + 3) / 4
	}
	// Within 15% of the output's size a digest saves too little to be worth
	// what it leaves out (and its markers tokenise worse than plain text):
	// the output is shown whole.
	if int64(len(d.Text))*100 < raw*85 && int64(tokens(string(d.Text)))*100 < rawTokens*85 {
		return d, nil
	}
	in.Plan.Mode = ModeWhole
	in.Plan.Reasons = append(append([]Reason(nil), in.Plan.Reasons...), ReasonRawSmaller)
	in.Plan.computeID()
	return renderPlanned(in)
}

func renderPlanned(in Input) (*Digest, error) {
	r := &renderer{in: in, inline: map[int]bool{}, census: map[int]bool{}, spans: map[evidence.Span]string{},
		said: map[int]string{}, printed: map[lineKey]string{}, censusText: map[int]string{}}
	d := &Digest{}
	r.header()
	switch in.Plan.Mode {
	case ModeWhole:
		r.whole()
	case ModeExcerpt:
		r.excerpt(d)
	default:
		r.structured(d)
	}
	if r.err != nil {
		return nil, r.err
	}
	inline, census := r.honest()
	cov := in.Contract.Measure(in.Graph, inline, census)
	for _, s := range in.Streams {
		cov.BytesStored += s.Size
		cov.BytesCaptured += s.Size + s.Dropped
		cov.LinesTotal += s.Lines
		if capped := s.Dropped - s.Lost; capped > 0 {
			cov.Losses = append(cov.Losses, evidence.Loss{Code: "capped",
				Detail: fmt.Sprintf("%s passed the byte cap: %s dropped from the middle", s.Name, contract.Size(capped))})
		}
		if s.Lost > 0 {
			cov.Losses = append(cov.Losses, evidence.Loss{Code: "disk-full", Detail: diskFullText(s)})
		}
	}
	cov.LinesShown = r.shown
	if r.clipped > 0 {
		cov.Losses = append(cov.Losses, evidence.Loss{Code: "clipped",
			Detail: fmt.Sprintf("%s shown cut at %d bytes, each marked with its line", plural(r.clipped, "output line"), lineWidth)})
	}
	// The footer's warning quotes REQUIRED items the digest did not show, in
	// their own words: it is redacted with the body (a line of its own at
	// the end, split off again; redaction never touches a newline), so a
	// credential in an item the excerpt showed redacted is not printed
	// whole below it.
	var warn string
	if cov.RequiredUnrepresented > 0 {
		warn = fmt.Sprintf("! %d REQUIRED items not shown with their identity and message: %s", cov.RequiredUnrepresented, r.unshown())
	}
	if in.Redact != nil {
		body := bytes.Clone(r.b.Bytes())
		if warn != "" {
			body = append(body, strings.ReplaceAll(warn, "\n", " ")+"\n"...)
		}
		red, note := in.Redact(body)
		if warn != "" {
			cut := bytes.LastIndexByte(red[:len(red)-1], '\n') + 1
			red, warn = red[:cut], string(red[cut:len(red)-1])
		}
		r.b.Reset()
		r.b.Write(red)
		if note != "" {
			r.line(note)
		}
	}
	// The coverage line counts its own bytes: settle the figure by iterating
	// (it changes only when a digit count does, so this ends in two or three).
	body := r.b.Len()
	var footer bytes.Buffer
	cov.BytesShown = int64(body)
	for range 5 {
		footer.Reset()
		r.footer(&footer, cov, warn, d)
		if int64(body+footer.Len()) == cov.BytesShown {
			break
		}
		cov.BytesShown = int64(body + footer.Len())
	}
	r.b.Write(footer.Bytes())
	d.Text = r.b.Bytes()
	d.Plan = in.Plan
	d.Coverage = cov
	return d, nil
}

func (r *renderer) header() {
	in := r.in
	if in.Plan.Mode == ModeWhole {
		// The output follows in full: the run's handle and how it ended are
		// all an agent needs besides it.
		what := "whole output"
		if streamsEmpty(in.Streams) {
			what = "no output"
		}
		// Never larger than the output plus this one line (DESIGN §10a):
		// what a reader must know besides the output goes on it.
		parts := append([]string{in.Run.Handle, exitText(in.Run), what}, r.lossTexts(true)...)
		r.line(strings.Join(parts, " · "))
		return
	}
	cmd := "$ " + clip(cmdline.Display(in.Run.Argv), 300)
	if in.Run.Dir != "" && in.Run.Dir != "." {
		cmd += "   (in " + in.Run.Dir + "/)"
	}
	r.line(cmd)
	var parts []string
	parts = append(parts, in.Run.Handle, exitText(in.Run), in.Plan.Profile, in.Plan.Mode, streamsText(in.Streams, in.Graph))
	if in.Secrets != "" {
		parts = append(parts, in.Secrets)
	}
	r.line(strings.Join(parts, " · "))
	r.losses()
}

// streamsEmpty reports whether the run printed nothing.
func streamsEmpty(ss []StreamInfo) bool {
	for _, s := range ss {
		if s.Size > 0 {
			return false
		}
	}
	return true
}

// unshown names the REQUIRED items the digest did not represent (the first
// few), each with the handle of its lines.
func (r *renderer) unshown() string {
	inline, census := r.honest()
	g, c := r.in.Graph, r.in.Contract
	var parts []string
	n := 0
	for i := range g.Items {
		it := &g.Items[i]
		if c.ClassOf(it) != Required || inline[i] || census[i] {
			continue
		}
		n++
		if n > 5 {
			continue
		}
		p := oneLine(it)
		if sp := spanOf(it); !sp.IsZero() {
			p += " (" + sp.Handle() + ")"
		}
		parts = append(parts, p)
	}
	if n > 5 {
		parts = append(parts, fmt.Sprintf("and %d more", n-5))
	}
	return strings.Join(parts, "; ")
}

// losses states the labelled losses and the conflicts a reader must know,
// one line each.
func (r *renderer) losses() {
	for _, l := range r.lossTexts(false) {
		r.line(l)
	}
}

// lossTexts are the labelled losses and conflicts, each starting "! ". For
// an output shown whole (whole is true) a profile's fallback is left to the
// receipt: every line is shown, so no structure the reader needs is lost.
func (r *renderer) lossTexts(whole bool) []string {
	in := r.in
	var out []string
	for _, l := range in.Graph.Losses {
		if whole && l.Code == "fallback" {
			continue
		}
		out = append(out, "! "+l.Detail)
	}
	for _, s := range in.Streams {
		if capped := s.Dropped - s.Lost; capped > 0 {
			out = append(out, fmt.Sprintf("! %s passed the --max-output cap: %s dropped from the middle; head and tail kept", s.Name, contract.Size(capped)))
		}
		if s.Lost > 0 {
			out = append(out, "! "+diskFullText(s))
		}
	}
	if hasReason(in.Plan.Reasons, ReasonExitConflict) {
		out = append(out, conflictText(in))
	}
	if hasReason(in.Plan.Reasons, ReasonNoVerdict) && in.Plan.Outcome != "pass" {
		out = append(out, "! no final summary from the tool: the run did not finish normally")
	}
	return out
}

func conflictText(in Input) string {
	g := in.Graph
	switch {
	case g.Verdict == "pass" || g.Verdict == "":
		return fmt.Sprintf("! exit status %d, but %s's own summary reports success: treated as a failure", in.Run.Exit, g.Profile)
	default:
		return fmt.Sprintf("! exit status %d, but %s's own output reports a failure: treated as a failure", in.Run.Exit, g.Profile)
	}
}

func exitText(run RunInfo) string {
	switch run.Status {
	case runstatus.Timeout:
		return fmt.Sprintf("exit %d (timed out: stopped at --timeout; output so far kept)", run.Exit)
	case runstatus.Interrupted:
		return fmt.Sprintf("exit %d (interrupted: stopped by ctx; output so far kept)", run.Exit)
	case runstatus.Signaled:
		return fmt.Sprintf("exit %d (killed by signal %d)", run.Exit, run.Signal)
	case runstatus.Recovered:
		return "exit unknown (ctx stopped mid-capture; output up to then recovered)"
	case runstatus.Ingested:
		return fmt.Sprintf("exit %d (ingested)", run.Exit)
	}
	return fmt.Sprintf("exit %d", run.Exit)
}

// binaryKind is how the header calls a stream that is not UTF-8 text:
// "binary", or the UTF-16 encoding its byte-order mark declares.
func binaryKind(g *evidence.Graph, stream string) string {
	if g != nil {
		for i := range g.Items {
			if it := &g.Items[i]; it.Kind == evidence.KindBinary && it.Name == stream {
				if enc := bomEncoding(it.Attrs["type"]); enc != "" {
					return enc
				}
			}
		}
	}
	return "binary"
}

func streamsText(ss []StreamInfo, g *evidence.Graph) string {
	var parts []string
	for _, s := range ss {
		if s.Size == 0 {
			continue
		}
		if s.Binary {
			parts = append(parts, fmt.Sprintf("%s %s %s", s.Name, contract.Size(s.Size), binaryKind(g, s.Name)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s/%s", s.Name, contract.Size(s.Size), plural(int(s.Lines), "line")))
	}
	if len(parts) == 0 {
		return "no output"
	}
	return strings.Join(parts, ", ")
}

func (r *renderer) lines(stream string, from, to int64) []string {
	if r.err != nil || to < from {
		return nil
	}
	ls, err := r.in.Lines.Lines(stream, from, to)
	if err != nil {
		r.err = fmt.Errorf("read %s lines %d-%d: %w", stream, from, to, err)
		return nil
	}
	return ls
}

// whole prints every stream, cleaned.
func (r *renderer) whole() {
	var nonEmpty []StreamInfo
	for _, s := range r.in.Streams {
		if s.Size > 0 {
			nonEmpty = append(nonEmpty, s)
		}
	}
	for _, s := range nonEmpty {
		if len(nonEmpty) > 1 {
			r.line(s.Name + ":")
		}
		// Whole means whole: no line is clipped (the output is small, or
		// smaller than any digest of it).
		for k, l := range r.lines(s.Name, 1, s.Lines) {
			r.verbatim(s.Name, int64(k)+1, cleanLine(l))
		}
	}
	// A REQUIRED item whose identity or message the output does not spell
	// out (ctx's reading of it: a test the binary's exit cut short) gets its
	// own line after the output.
	for i := range r.in.Graph.Items {
		it := &r.in.Graph.Items[i]
		r.mark(i, "")
		if r.in.Contract.ClassOf(it) == Required && !r.represented(it, i) {
			l := "ctx: " + oneLine(it)
			r.line(l)
			r.flat = ""
		}
	}
}

// excerpt prints each text stream's head, its error-looking lines and its tail
// within the budget; binary streams are described.
func (r *renderer) excerpt(d *Digest) {
	g := r.in.Graph
	errs := map[string][]int{} // stream → anomaly item indexes
	for i := range g.Items {
		it := &g.Items[i]
		switch it.Kind {
		case evidence.KindAnomaly:
			errs[it.Span.Stream] = append(errs[it.Span.Stream], i)
		case evidence.KindBinary:
			l := oneLine(it) + fmt.Sprintf(" · ctx get %s#%s --hex", r.in.Run.Handle, it.Name)
			if bomEncoding(it.Attrs["type"]) != "" {
				l = oneLine(it) + fmt.Sprintf(" · ctx get %s#%s --raw | iconv -f UTF-16 -t UTF-8", r.in.Run.Handle, it.Name)
			}
			r.line(l)
			r.mark(i, l)
		}
	}
	var text []StreamInfo
	for _, s := range r.in.Streams {
		if s.Size > 0 && !s.Binary {
			text = append(text, s)
		}
	}
	// Error-looking lines are REQUIRED. When they alone would take more than
	// half the budget, the digest escalates to a census: every one in a
	// census blob, the first few inline, counts by stream.
	var all []int
	cost := 0
	for _, s := range text {
		for _, i := range errs[s.Name] {
			all = append(all, i)
			cost += tokens(oneLine(&g.Items[i])) + 1
		}
	}
	if cost > r.in.Plan.Budget/2 && len(all) > 1 {
		r.writeCensus(all, d)
		room := r.in.Plan.Budget / 4
		keep := map[int]bool{}
		for k, i := range all {
			c := tokens(oneLine(&g.Items[i])) + 1
			if k >= 3 && room-c < 0 {
				break
			}
			room -= c
			keep[i] = true
		}
		var parts []string
		for _, s := range text {
			if n := len(errs[s.Name]); n > 0 {
				parts = append(parts, fmt.Sprintf("%s %s", s.Name, contract.Num(int64(n))))
			}
		}
		r.line(fmt.Sprintf("%s error-looking lines (%s), too many to list inline: %d below, every one with its line: ctx get %s",
			contract.Num(int64(len(all))), strings.Join(parts, ", "), len(keep), d.CensusHandle))
		for name, idx := range errs {
			var kept []int
			for _, i := range idx {
				if keep[i] {
					kept = append(kept, i)
				}
			}
			errs[name] = kept
		}
	}
	// The profile lists its items by kind (error lines, then rare lines):
	// the excerpt walks each stream's in line order.
	for _, idx := range errs {
		sort.SliceStable(idx, func(a, b int) bool { return g.Items[idx[a]].Span.From < g.Items[idx[b]].Span.From })
	}
	for k, s := range text {
		share := r.left() - 40*(len(text)-k) // keep room for the footer
		share /= len(text) - k
		r.streamExcerpt(s, errs[s.Name], share, len(text) > 1)
	}
	for i := range g.Items {
		if g.Items[i].Kind == evidence.KindRegion {
			r.mark(i, "") // the stream itself is named, with its head and tail
		}
	}
}

func (r *renderer) streamExcerpt(s StreamInfo, errIdx []int, budget int, label bool) {
	if label {
		r.line(fmt.Sprintf("%s (%s, %s):", s.Name, plural(int(s.Lines), "line"), contract.Size(s.Size)))
	}
	avg := int(s.Size/max(s.Lines, 1)) + 1
	perLine := min(tokens(strings.Repeat("x", min(avg, lineWidth)))+1, lineWidth/4)
	// Error-looking lines are REQUIRED: all of them, however many (the plan
	// already keeps each one short).
	errCost := 0
	for _, i := range errIdx {
		errCost += tokens(oneLine(&r.in.Graph.Items[i])) + 1
	}
	rest := max(budget-errCost, 0)
	n := int64(rest / max(perLine, 1))
	n = max(n, 6) // always some head and tail
	// More lines rarely help a reader who has the handles; a reflex (an
	// equivalent rerun) doubles the view.
	grow := int64(1) << min(r.in.Plan.Level, 4)
	head := min(s.Lines, max(n/3, 3), 10*grow)
	tail := min(s.Lines-head, max(n-head, 3), 20*grow)
	if head+tail >= s.Lines {
		head, tail = s.Lines, 0
	}
	// Print head, errors in the gap, tail — in line order.
	for k, l := range r.lines(s.Name, 1, head) {
		r.verbatim(s.Name, int64(k)+1, r.clipLine(s.Name, int64(k)+1, l))
	}
	gapFrom := head + 1
	tailFrom := s.Lines - tail + 1
	prev := gapFrom
	for _, i := range errIdx {
		it := &r.in.Graph.Items[i]
		ln := int64(it.Span.From)
		if ln < gapFrom || ln >= tailFrom {
			r.mark(i, "") // it is in the head or tail, printed verbatim
			continue
		}
		if ln > prev {
			r.gap(s.Name, prev, ln-1)
		}
		l := oneLine(it)
		r.line(l)
		r.mark(i, l)
		prev = ln + 1
	}
	if tail > 0 {
		if prev < tailFrom {
			r.gap(s.Name, prev, tailFrom-1)
		}
		for k, l := range r.lines(s.Name, tailFrom, s.Lines) {
			n := tailFrom + int64(k)
			r.verbatim(s.Name, n, r.clipLine(s.Name, n, l))
		}
	}
}

func (r *renderer) gap(stream string, from, to int64) {
	prefix := ""
	if stream != evidence.Stdout {
		prefix = stream + " "
	}
	r.line(fmt.Sprintf("··· %sL%d-%d (%s omitted)", prefix, from, to, plural(int(to-from+1), "line")))
}

// structured renders the specialised profiles' graphs.
func (r *renderer) structured(d *Digest) {
	g, c := r.in.Graph, r.in.Contract
	var required, summaries []int
	for i := range g.Items {
		it := &g.Items[i]
		if c.ClassOf(it) != Required {
			continue
		}
		if it.Kind == evidence.KindSummary {
			summaries = append(summaries, i)
		} else {
			required = append(required, i)
		}
	}
	sort.SliceStable(required, func(a, b int) bool {
		return rank(&g.Items[required[a]]) < rank(&g.Items[required[b]])
	})
	switch r.in.Plan.Mode {
	case ModeDense:
		r.dense(required, d)
	case ModeFlood:
		r.flood(required, d)
	default:
		for _, i := range required {
			it := &g.Items[i]
			// Two items about the same line (a minority record that is also
			// an error record) are shown once.
			if s := it.Span; s.Lines() == 1 && (it.Kind == evidence.KindAnomaly || it.Kind == evidence.KindRecord) {
				if t, ok := r.spans[s]; ok {
					r.mark(i, t)
					continue
				}
				r.spans[s] = oneLine(it)
			}
			l := oneLine(it)
			r.line(l)
			r.mark(i, l)
		}
	}
	for _, i := range summaries {
		l := oneLine(&g.Items[i])
		r.line(l)
		r.mark(i, l)
	}
	r.elastic(required)
	r.unexplained(required)
	if r.in.Plan.Mode != ModeSummary || r.in.Plan.Outcome != "pass" {
		// In a pass summary the counts and the coverage line already say
		// what stayed out. A failed run reaches the summary mode only when
		// the contract makes nothing but the summary REQUIRED (a project
		// contract demoted its failures): then the failing identities it
		// keeps out must still be named.
		r.notShown()
	}
}

// rank orders REQUIRED items: failures first, then errors, then the rest, each
// in the order the tool printed them.
func rank(it *evidence.Item) int {
	switch {
	case it.Kind == evidence.KindTest && it.Outcome == evidence.OutcomeFail:
		return 0
	case it.Kind == evidence.KindTest && it.Outcome == evidence.OutcomeError:
		return 1
	case it.Kind == evidence.KindTest:
		return 2
	case it.Kind == evidence.KindDiagnostic:
		return 3
	case it.Kind == evidence.KindAnomaly:
		return 4
	}
	return 5
}

func (r *renderer) dense(required []int, d *Digest) {
	g := r.in.Graph
	// The grouped lines name the items; their messages are in the census.
	r.writeCensus(required, d)
	r.line(fmt.Sprintf("%s REQUIRED items, grouped; each with its message: ctx get %s",
		contract.Num(int64(len(required))), d.CensusHandle))
	groups := map[string][]int{}
	var order []string
	var loose []int
	for _, i := range required {
		k := groupKey(&g.Items[i])
		if k == "" {
			loose = append(loose, i)
			continue
		}
		groups[k] = append(groups[k], i)
		order = append(order, k)
	}
	for _, k := range sortedGroups(order) {
		idx := groups[k]
		classes := map[string]int{}
		var names []string
		for _, i := range idx {
			it := &g.Items[i]
			names = append(names, shortName(it))
			cl := firstNonEmpty(it.Class, string(it.Severity), string(it.Outcome))
			classes[cl]++
		}
		var cls []string
		for _, cl := range evidence.SortedKeys(classes) {
			cls = append(cls, fmt.Sprintf("%s %d", cl, classes[cl]))
		}
		l := fmt.Sprintf("%s (%d: %s): %s", k, len(idx), strings.Join(cls, ", "), strings.Join(names, ", "))
		r.line(l)
		for _, i := range idx {
			r.mark(i, l)
		}
	}
	for _, i := range loose {
		l := oneLine(&g.Items[i])
		r.line(l)
		r.mark(i, l)
	}
}

// writeCensus lists every REQUIRED item, one line each with its handle, in
// the census blob the digest names.
func (r *renderer) writeCensus(required []int, d *Digest) {
	g := r.in.Graph
	var census bytes.Buffer
	for _, i := range required {
		it := &g.Items[i]
		l := oneLine(it)
		census.WriteString(l)
		if sp := spanOf(it); !sp.IsZero() {
			h := sp.Handle()
			if r.in.SpanToken != nil {
				h = r.in.SpanToken(sp)
				d.Spans = append(d.Spans, sp)
			}
			census.WriteString("\t" + h)
		}
		census.WriteByte('\n')
		r.census[i] = true
		r.censusText[i] = l
	}
	d.Census = census.Bytes()
	if r.in.Census != nil {
		d.CensusHandle = r.in.Census(d.Census)
	}
}

func (r *renderer) flood(required []int, d *Digest) {
	g := r.in.Graph
	r.writeCensus(required, d)
	// Counts by group (rolled up to at most a dozen groups), then as many
	// one-liners as half the budget allows, at least a few.
	keys := make([]string, len(required))
	for j, i := range required {
		keys[j] = firstNonEmpty(groupKey(&g.Items[i]), string(g.Items[i].Kind))
	}
	keys = rollUp(keys, 12)
	groups := map[string]int{}
	for _, k := range keys {
		groups[k]++
	}
	r.line(fmt.Sprintf("%s REQUIRED items — too many to list inline; the complete list: ctx get %s",
		contract.Num(int64(len(required))), d.CensusHandle))
	var parts []string
	for _, k := range sortedGroups(keys) {
		parts = append(parts, fmt.Sprintf("%s %d", k, groups[k]))
	}
	r.line("by group: " + strings.Join(parts, " · "))
	for j, i := range required {
		if j >= 3 && r.left() < r.in.Plan.Budget/2 {
			break
		}
		l := oneLine(&g.Items[i])
		r.line(l)
		r.mark(i, l)
	}
}

// rollUp shortens path-like group keys to their leading components until
// there are at most n distinct groups (or the keys cannot be shortened).
func rollUp(keys []string, n int) []string {
	distinct := func(ks []string) int {
		seen := map[string]bool{}
		for _, k := range ks {
			seen[k] = true
		}
		return len(seen)
	}
	if distinct(keys) <= n {
		return keys
	}
	depth := 0
	for _, k := range keys {
		depth = max(depth, strings.Count(strings.TrimSuffix(k, "/"), "/")+1)
	}
	out := keys
	for d := depth - 1; d >= 1; d-- {
		out = make([]string, len(keys))
		for i, k := range keys {
			parts := strings.Split(strings.TrimSuffix(k, "/"), "/")
			if len(parts) > d {
				k = strings.Join(parts[:d], "/") + "/"
			}
			out[i] = k
		}
		if distinct(out) <= n {
			break
		}
	}
	return out
}

// elastic adds detail while the budget lasts: failure excerpts first, then
// elastic items in the tool's order.
func (r *renderer) elastic(required []int) {
	g, c := r.in.Graph, r.in.Contract
	reserve := 50 // footer
	// Failure detail: the informative lines of each failure block — noise and
	// what the one-line form already says are dropped; a long block keeps its
	// head (where a panic or exception starts) and its tail (where a traceback
	// ends), with the omitted middle marked.
	perFailure := 6 + 4*r.in.Plan.Level
	for _, i := range required {
		it := &g.Items[i]
		if it.Detail.IsZero() || r.left()-reserve < 40 {
			continue
		}
		if !(it.Kind == evidence.KindTest && it.Outcome.Failed()) && it.Kind != evidence.KindDiagnostic {
			continue
		}
		from, to := int64(it.Detail.From), int64(it.Detail.To)
		if to-from+1 > 400 {
			// Read only the ends of a huge block.
			from = to - 399
		}
		ls := r.lines(it.Detail.Stream, from, to)
		if r.in.Plan.Level == 0 {
			// First time: only what the one-line form does not say. A rerun
			// (the digest was not enough) shows the block as it is.
			if ls = informative(ls, it, r.in.Graph.Noise); len(ls) <= 1 {
				continue
			}
		} else {
			for k, l := range ls {
				ls[k] = strings.TrimRight(cleanLine(l), " \t")
			}
		}
		if len(ls) > perFailure {
			ls = excerpt(ls, perFailure, it.File)
		}
		cost := 0
		for _, l := range ls {
			cost += tokens(l) + 1
		}
		if cost > r.left()-reserve {
			continue
		}
		r.line(fmt.Sprintf("  ┆ %s %s", testName(it), shortSpan(it.Detail)))
		for _, l := range ls {
			l = "  ┆ " + clip(l, lineWidth-4)
			r.line(l)
			r.said[i] += l + "\n"
			r.shown++
		}
	}
	// Sub-items (diff hunks) come after their parents in the tool's order;
	// they are shown only while room remains for every parent still to come.
	sub := func(it *evidence.Item) bool { return it.Kind == evidence.KindRegion && it.Why == "hunk" }
	parents := 0
	for i := range g.Items {
		it := &g.Items[i]
		if !r.inline[i] && !r.census[i] && c.ClassOf(it) == contract.Elastic && !sub(it) {
			parents += tokens(oneLine(it)) + 1
		}
	}
	for i := range g.Items {
		it := &g.Items[i]
		if r.inline[i] || r.census[i] || c.ClassOf(it) != contract.Elastic {
			continue
		}
		if it.Kind == evidence.KindRegion && it.Why == "stream" {
			continue
		}
		if !sub(it) {
			parents -= tokens(oneLine(it)) + 1
		} else if tokens(oneLine(it))+1 > r.left()-reserve-parents {
			continue
		}
		if t, ok := r.spans[it.Span]; ok && it.Count <= 1 {
			r.mark(i, t) // the line itself is already shown verbatim
			continue
		}
		l := oneLine(it)
		if tokens(l)+1 > r.left()-reserve {
			continue
		}
		r.line(l)
		r.mark(i, l)
	}
}

// unexplained shows the end of the output when the run failed but no REQUIRED
// item says why (the tool died, or printed something no profile understands).
func (r *renderer) unexplained(required []int) {
	if r.in.Plan.Outcome == "pass" || len(required) > 0 {
		return
	}
	for i := range r.in.Graph.Items {
		it := &r.in.Graph.Items[i]
		if r.inline[i] && (it.Kind == evidence.KindDiagnostic || it.Kind == evidence.KindTest && it.Outcome.Failed()) {
			return // the findings shown are the explanation
		}
	}
	for _, s := range []string{evidence.Stderr, evidence.Stdout} {
		for _, st := range r.in.Streams {
			if st.Name != s || st.Size == 0 || st.Binary {
				continue
			}
			n := min(st.Lines, int64(max((r.left()-40)/20, 5)), 30)
			why := "no failure was itemised"
			if f := r.failures(); f > 0 {
				// The profile found them; the contract in effect lets them
				// stay out. Saying none was found would hide them.
				why = fmt.Sprintf("%s itemised, none REQUIRED by the contract in effect", plural(f, "failure"))
			}
			r.line(fmt.Sprintf("%s; the last %s of %s:", why, plural(int(n), "line"), s))
			for k, l := range r.lines(s, st.Lines-n+1, st.Lines) {
				ln := st.Lines - n + 1 + int64(k)
				r.verbatim(s, ln, r.clipLine(s, ln, l))
			}
			return
		}
	}
}

// failures counts the graph's failed tests and error diagnostics.
func (r *renderer) failures() int {
	n := 0
	for i := range r.in.Graph.Items {
		it := &r.in.Graph.Items[i]
		if it.Kind == evidence.KindTest && it.Outcome.Failed() || it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError {
			n++
		}
	}
	return n
}

// notShown names what stayed out, by kind and outcome, so nothing is silently
// dropped.
func (r *renderer) notShown() {
	g := r.in.Graph
	if r.in.Plan.Level > 0 {
		r.listRetrievable()
	}
	counts := map[string]int{}
	for i := range g.Items {
		it := &g.Items[i]
		if r.inline[i] || r.census[i] || !contract.IsIdentity(it) {
			continue
		}
		k := string(it.Kind)
		if it.Outcome != "" {
			k = string(it.Outcome) + " " + k
		} else if it.Severity != "" {
			k = string(it.Severity) + " " + k
		}
		counts[k]++
	}
	if len(counts) == 0 {
		return
	}
	var parts []string
	for _, k := range evidence.SortedKeys(counts) {
		parts = append(parts, plural(counts[k], k))
	}
	r.line("not shown (retrievable): " + strings.Join(parts, ", "))
}

// listRetrievable names retrievable identities compactly, as far as the
// budget allows: on an equivalent rerun the agent evidently wants more.
func (r *renderer) listRetrievable() {
	g := r.in.Graph
	var names []string
	var idx []int
	for i := range g.Items {
		it := &g.Items[i]
		if r.inline[i] || r.census[i] || !contract.IsIdentity(it) {
			continue
		}
		name := firstNonEmpty(shortName(it), it.Name)
		if it.Kind == evidence.KindTest {
			name = outcomeWord(it.Outcome) + " " + testName(it)
		}
		names = append(names, name)
		idx = append(idx, i)
	}
	room := r.left() - 60
	var shown []string
	for k, n := range names {
		if room-tokens(n)-1 < 0 {
			break
		}
		room -= tokens(n) + 1
		shown = append(shown, n)
		r.inline[idx[k]] = true
	}
	if len(shown) > 0 {
		r.line("also: " + strings.Join(shown, ", "))
	}
}

func (r *renderer) footer(w *bytes.Buffer, cov contract.Coverage, warn string, d *Digest) {
	in := r.in
	line := func(s string) { w.WriteString(s); w.WriteByte('\n') }
	if in.Plan.Mode == ModeWhole {
		return
	}
	line("coverage: " + cov.String())
	if warn != "" {
		line(warn)
	}
	// Point at the most useful omitted span: the first failure, else the first
	// other REQUIRED item with a span.
	g := in.Graph
	var first *evidence.Item
	for i := range g.Items {
		it := &g.Items[i]
		if (it.Kind == evidence.KindTest && it.Outcome.Failed()) || (it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError) {
			if !spanOf(it).IsZero() {
				first = it
				break
			}
		}
	}
	what := "first failure"
	if first == nil {
		for i := range g.Items {
			it := &g.Items[i]
			if in.Contract.ClassOf(it) == Required && it.Kind != evidence.KindSummary && !spanOf(it).IsZero() {
				first, what = it, "first "+string(it.Kind)
				break
			}
		}
	}
	if first != nil {
		s := spanOf(first)
		line(fmt.Sprintf("next: ctx get %s  (%s; [L…] and L… above are lines of %s#%s)", s.Handle(), what, in.Run.Handle, s.Stream))
		return
	}
	if d.CensusHandle != "" {
		line(fmt.Sprintf("next: ctx get %s  (all REQUIRED items, one per line)", d.CensusHandle))
		return
	}
	for _, s := range in.Streams {
		if s.Size > 0 && !s.Binary && s.Lines > 0 {
			if in.Plan.Mode == ModeExcerpt {
				line(fmt.Sprintf("next: ctx get %s#%s --grep RE  (or :LA-B for any range; ··· marks omitted lines)", in.Run.Handle, s.Name))
			} else {
				line(fmt.Sprintf("next: ctx get %s#%s --grep RE", in.Run.Handle, s.Name))
			}
			return
		}
	}
}

// informative returns a failure block's lines minus noise: what the profile
// calls noise (noise, from Graph.Noise: runner banners, event framing), blank
// lines, separators, and lines that only repeat the item's message.
func informative(ls []string, it *evidence.Item, noise evidence.NoiseFunc) []string {
	var out []string
	msg := strings.TrimSpace(it.Message)
	for _, l := range ls {
		if noise != nil {
			var keep bool
			if l, keep = noise(l, it); !keep {
				continue
			}
		}
		c := strings.TrimSpace(cleanLine(l))
		switch {
		case c == "",
			strings.Trim(c, "_=-─ ") == "" && len(c) > 3,
			msg != "" && strings.HasSuffix(c, msg) && len(c)-len(msg) < 40:
			continue
		}
		out = append(out, strings.TrimRight(cleanLine(l), " \t"))
	}
	return out
}

// excerpt picks n of a block's lines in order: the first half (where an error
// starts and says what it is), the lines naming the failing file and the line before each (the
// frames in the reader's own code), then the last ones; "…" marks each gap.
func excerpt(ls []string, n int, file string) []string {
	keep := make([]bool, len(ls))
	picked := 0
	pick := func(i int) {
		if i >= 0 && i < len(ls) && !keep[i] && picked < n {
			keep[i] = true
			picked++
		}
	}
	for i := range max(n/2, 2) {
		pick(i)
	}
	if base := filepath.Base(file); file != "" && base != "." {
		for i, l := range ls {
			if strings.Contains(l, base) {
				pick(i - 1)
				pick(i)
			}
		}
	}
	for i := len(ls) - 1; i >= 0 && picked < n; i-- {
		pick(i)
	}
	var out []string
	gap := false
	for i, l := range ls {
		if !keep[i] {
			gap = true
			continue
		}
		if gap && len(out) > 0 {
			out = append(out, "…")
		}
		gap = false
		out = append(out, l)
	}
	if gap {
		out = append(out, "…")
	}
	return out
}

// diskFullText says what a full disk cost a stream: its last bytes, which
// the command wrote and the spool could not hold.
func diskFullText(s StreamInfo) string {
	return fmt.Sprintf("%s: the disk filled during the capture: the last %s the command wrote were not stored (the tail is missing); free space before rerunning", s.Name, contract.Size(s.Lost))
}
