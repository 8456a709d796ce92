package seq

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// render fills in the coverage and the digest (format 3):
//
//	seq:ID [#N]
//	#1 ok go build… · its headline
//	#2 exit 1 <10s go test…
//	…step 2's findings, as its own digest shows them…
//	#3 skipped go vet…
//	coverage: …
//
// A row starts with #N, the step's handle relative to the sequence's:
// seq:ID#N, as the header's [#N] says once. A failing step's findings
// follow its row unindented; a passing step shows only its headline on its
// row, and none when it printed nothing. One coverage line covers all
// steps; when every byte the steps printed is shown, the header says so
// instead ("whole output"), as a whole-output run digest's does. The
// header does not repeat the sequence's exit status: it is the first
// failing row's (0 when none failed), and ctx exits with it.
//
// A passing step whose own digest showed its output whole, in more lines
// than its headline, may be shown whole under its row instead: when that
// shows every byte of the sequence and is no longer than the digest with
// only its headline and the coverage line. Of the two honest forms, the
// shorter is printed.
func (rec *Record) render() {
	rec.id = store.ID{}
	rec.id = rec.ID() // the steps are final: their id is computed once
	names := labels(rec.Steps)
	text, c := rec.compose(names, false)
	if !rec.allWhole(false) && rec.allWhole(true) {
		if t, cc := rec.compose(names, true); len(t) <= len(text) {
			text, c = t, cc
		}
	}
	red, _ := secrets.Text([]byte(text))
	rec.Coverage, rec.Digest = c, string(red)
}

// compose writes the digest and its coverage; expand shows passing steps'
// whole outputs under their rows.
func (rec *Record) compose(names []string, expand bool) (string, Coverage) {
	var b strings.Builder
	c := Coverage{Steps: len(rec.Steps)}
	for i := range rec.Steps {
		c.add(&rec.Steps[i], expand)
	}
	// A sequence whose every output is shown says so on its header, as a
	// whole-output run digest does, and needs no coverage line. Skipped
	// steps are listed on their rows.
	whole := rec.allWhole(expand)
	b.WriteString(rec.Handle() + " [#N]")
	if whole {
		b.WriteString(" · whole output")
	}
	b.WriteString("\n")
	// Shown counts what the steps' own digests put before the reader (a
	// row's headline, the findings under it), not the sequence's header,
	// its rows' labels or ctx's own messages: those are no step's output.
	for i := range rec.Steps {
		r := &rec.Steps[i]
		under := r.Failed() || (expand && expandable(r))
		b.WriteString(row(r, names[i], !under) + "\n")
		if !under && headlined(r) {
			c.BytesShown += int64(len(r.Headline))
		}
		if under {
			c.BytesShown += int64(writeFindings(&b, r))
		}
	}
	if !whole {
		b.WriteString(c.line() + "\n")
		rec.next(&b)
	}
	return b.String(), c
}

// row is a step's line: #N, its outcome, its duration bucket when it took
// a second or more, its name and, for a passing step that printed
// something, its headline (unless its output follows the row). #N is the
// run's handle relative to the sequence (seq:ID#N); a step that did not
// run has none to resolve to, and ctx get says why.
func row(r *StepResult, name string, headline bool) string {
	n := "#" + strconv.Itoa(r.N)
	if r.State == StateSkipped {
		return n + " skipped " + name
	}
	line := n + " ok"
	if r.Failed() {
		line = n + " " + outcome(r)
	}
	if r.Duration != "" && r.Duration != Bucket(0) {
		line += " " + r.Duration
	}
	line += " " + name
	switch {
	case printedNothing(r):
		if r.Failed() && r.Error == "" {
			line += " · no output"
		}
	case headline && headlined(r):
		line += " · " + r.Headline
	}
	return line
}

// headlined reports whether a step's row carries its headline (when no
// findings follow it): a passing step that printed something.
func headlined(r *StepResult) bool { return !printedNothing(r) && !r.Failed() }

// outcome is a failing step's exit status, with how it ended when that was
// not a plain exit.
func outcome(r *StepResult) string {
	s := "exit " + strconv.Itoa(r.Exit)
	switch r.Status {
	case "", store.StatusExited, "not-started":
		return s
	}
	return s + " (" + string(r.Status) + ")"
}

// printedNothing reports whether a step that ran wrote no output at all.
func printedNothing(r *StepResult) bool {
	return r.res != nil && r.res.Digest != nil && r.res.Digest.Digest.Coverage.BytesCaptured == 0
}

// shownWhole reports whether the digest shows every byte a ran step
// printed: a failing step's digest is its whole output, a passing step
// printed nothing or one line, shown whole as its headline, or (expand) its
// whole output follows its row.
func shownWhole(r *StepResult, expand bool) bool {
	switch {
	case r.res == nil || r.res.Digest == nil:
		return false
	case r.Failed():
		return r.res.Digest.Plan.Mode == plan.ModeWhole
	case printedNothing(r):
		return true
	case expand && expandable(r):
		return true
	}
	b := body(r.res)
	return r.res.Digest.Plan.Mode == plan.ModeWhole && len(b) == 1 && b[0] == r.Headline
}

// expandable reports whether a passing step's own digest showed its output
// whole in more than its headline: lines that can follow its row.
func expandable(r *StepResult) bool {
	if r.Failed() || r.res == nil || r.res.Digest == nil || printedNothing(r) || r.res.Digest.Plan.Mode != plan.ModeWhole {
		return false
	}
	b := body(r.res)
	return len(b) > 1 || (len(b) == 1 && b[0] != r.Headline)
}

// allWhole reports whether the digest shows every byte the ran steps
// printed.
func (rec *Record) allWhole(expand bool) bool {
	for i := range rec.Steps {
		if r := &rec.Steps[i]; r.State != StateSkipped && !shownWhole(r, expand) {
			return false
		}
	}
	return true
}

// line is the one coverage line over all steps, for a digest that does
// not show every byte.
func (c *Coverage) line() string {
	var b strings.Builder
	b.WriteString("coverage: ")
	if c.Skipped > 0 {
		fmt.Fprintf(&b, "skipped %d · ", c.Skipped)
	}
	// Identities are inline + retrievable + unrepresented: the sum is left
	// to the reader, and unrepresented said only when there are some.
	fmt.Fprintf(&b, "inline %d · retrievable %d", c.Inline, c.Retrievable)
	if c.Unrepresented > 0 {
		fmt.Fprintf(&b, " · unrepresented %d", c.Unrepresented)
	}
	fmt.Fprintf(&b, " · unrepresented required %d", c.RequiredUnrepresented)
	if c.RequiredElsewhere > 0 {
		fmt.Fprintf(&b, " · required in passing steps' digests %d", c.RequiredElsewhere)
	}
	fmt.Fprintf(&b, " · shown %s of %s", contract.Size(c.BytesShown), contract.Size(c.BytesCaptured))
	return b.String()
}

// next points at the first failing step with output left out, unless its
// findings end with its run's own next: line, which names the lines to
// read. A failing step that printed nothing, or is shown whole, has
// nothing more to read.
func (rec *Record) next(b *strings.Builder) {
	for i := range rec.Steps {
		f := &rec.Steps[i]
		if !f.Failed() || f.Run == "" || shownWhole(f, false) {
			continue
		}
		if !hasNext(f) {
			fmt.Fprintf(b, "next: ctx get %s#%d\n", rec.Handle(), f.N)
		}
		return
	}
}

// hasNext reports whether r's findings include its digest's next: line.
func hasNext(r *StepResult) bool {
	if r.res == nil || r.res.Digest == nil {
		return false
	}
	for _, l := range body(r.res) {
		if strings.HasPrefix(l, "next: ") {
			return true
		}
	}
	return false
}

// add counts one step into the coverage. A step shown whole counts as its
// digest does; a passing step otherwise shows only its headline, so its
// items count as retrievable (through its run) and the REQUIRED items its
// own digest showed as RequiredElsewhere. expand is compose's.
func (c *Coverage) add(r *StepResult, expand bool) {
	if r.State == StateSkipped {
		c.Skipped++
		return
	}
	c.Ran++
	if r.Failed() {
		c.Failed++
	}
	if r.res == nil || r.res.Digest == nil {
		return
	}
	cov := r.res.Digest.Digest.Coverage
	c.Identities += cov.Identities
	c.Unrepresented += cov.Unrepresented
	c.RequiredTotal += cov.RequiredTotal
	c.RequiredUnrepresented += cov.RequiredUnrepresented
	c.BytesCaptured += cov.BytesCaptured
	if r.Failed() || shownWhole(r, expand) {
		c.Inline += cov.Inline
		c.Retrievable += cov.Retrievable
		c.RequiredInline += cov.RequiredInline
		c.RequiredElsewhere += cov.RequiredCensus
		return
	}
	c.Retrievable += cov.Inline + cov.Retrievable
	c.RequiredElsewhere += cov.RequiredInline + cov.RequiredCensus
}

// writeFindings writes a step's findings under its row: its digest without
// its header and coverage lines (the sequence has its own).
// It returns how many of the bytes written came from the digest (not ctx's
// own messages).
func writeFindings(b *strings.Builder, r *StepResult) int {
	if r.Error != "" {
		fmt.Fprintf(b, "ctx: %s\n", r.Error)
	}
	if r.res == nil {
		return 0
	}
	if r.res.Digest == nil {
		fmt.Fprintf(b, "no digest could be made: %v (ctx get %s)\n", r.res.DigestErr, r.res.Handle())
		return 0
	}
	start := b.Len()
	self := r.res.Handle()
	for _, line := range body(r.res) {
		if rowLike(line) {
			// docker build's "#5 [2/4] RUN …": indented, so that only
			// rows start with #N.
			line = "  " + line
		}
		b.WriteString(relative(line, self, r.N) + "\n")
	}
	return b.Len() - start
}

// rowLike reports whether an output line starts as a row does: # and a
// digit.
func rowLike(line string) bool {
	return len(line) > 1 && line[0] == '#' && line[1] >= '0' && line[1] <= '9'
}

// relative writes a next: line's explanation of its run's lines, "(…
// above are lines of run:X#stdout)", with the step's handle relative to the
// sequence's, and for the lines under its row only (other steps' findings
// are above too): "(… under #2 are lines of #2#stdout)". The command to run
// keeps the run's own handle.
func relative(line, self string, n int) string {
	cmd, why, ok := strings.Cut(line, "  (")
	if !ok || !strings.HasPrefix(line, "next: ") {
		return line
	}
	step := "#" + strconv.Itoa(n)
	why = strings.ReplaceAll(why, " above are lines of "+self+"#", " under "+step+" are lines of "+step+"#")
	return cmd + "  (" + strings.ReplaceAll(why, self+"#", step+"#")
}

// body is a step digest's lines after its header, without its coverage
// line: its findings and next steps.
func body(res *runner.Result) []string {
	text := strings.TrimRight(string(res.Text()), "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "$ ") {
		lines = lines[1:] // the command line, when the digest repeats it
	}
	if len(lines) > 0 {
		lines = lines[1:] // the run header
	}
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "coverage: ") {
			out = append(out, l)
		}
	}
	return out
}

// Headline is a run's first finding line, cut to 100 characters.
func Headline(res *runner.Result) string {
	if res.Digest == nil {
		return "no digest"
	}
	for _, l := range body(res) {
		t := strings.TrimSpace(l)
		if t == "" || t == "stdout:" || t == "stderr:" || strings.HasPrefix(t, "next: ") {
			continue
		}
		if r := []rune(t); len(r) > 100 {
			t = string(r[:99]) + "…"
		}
		return t
	}
	return "no output"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
