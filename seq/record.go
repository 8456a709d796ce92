package seq

import (
	"encoding/json"

	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// Version is the record and digest format's version.
const Version = 1

// LayerBucket is the store layer bucket sequence records live in, keyed by the
// hex id.
const LayerBucket = "seq.records"

// Record is a sequence as it ran: its steps, its exit status (the first
// failing step's, or 0), the coverage over all steps and the digest shown.
// Its id is the BLAKE3 of its steps and exit status, so the same outcomes
// are the same record.
type Record struct {
	Kind     string       `json:"kind"`
	Version  int          `json:"version"`
	Steps    []StepResult `json:"steps"`
	Exit     int          `json:"exit"`
	Coverage Coverage     `json:"coverage"`
	Digest   string       `json:"digest"`
}

// Coverage is the one receipt over all steps. The findings of failing steps
// are shown, so their counts are their digests'; a passing step shows only
// its headline, so its items count as retrievable (through its run) and its
// REQUIRED items shown in its own digest as RequiredElsewhere.
type Coverage struct {
	Steps, Ran, Failed, Skipped int
	Identities                  int   `json:"identities"`
	Inline                      int   `json:"inline"`
	Retrievable                 int   `json:"retrievable"`
	Unrepresented               int   `json:"unrepresented"`
	RequiredTotal               int   `json:"required_total"`
	RequiredInline              int   `json:"required_inline"`
	RequiredElsewhere           int   `json:"required_elsewhere"`
	RequiredUnrepresented       int   `json:"required_unrepresented"`
	BytesCaptured               int64 `json:"bytes_captured"`
	BytesShown                  int64 `json:"bytes_shown"`
}

// ID is the record's content address.
func (rec *Record) ID() store.ID {
	b, _ := json.Marshal(struct {
		Steps []StepResult `json:"steps"`
		Exit  int          `json:"exit"`
	}{rec.Steps, rec.Exit})
	return store.Sum(append([]byte("ctx-seq-v1\n"), b...))
}

// Handle is the record's seq: handle.
func (rec *Record) Handle() string { return "seq:" + rec.ID().Short() }

// Text is the digest the sequence was shown.
func (rec *Record) Text() string { return rec.Digest }

// FirstFailed is the first failing step (nil when all passed).
func (rec *Record) FirstFailed() *StepResult {
	for i := range rec.Steps {
		if rec.Steps[i].Failed() {
			return &rec.Steps[i]
		}
	}
	return nil
}

// render fills in the coverage and the digest: a header, a line per step
// (a failing step's findings indented under its line), one coverage line.
func (rec *Record) render() {
	var b strings.Builder
	b.WriteString(rec.Handle() + " · " + plural(len(rec.Steps), "step"))
	fmt.Fprintf(&b, " · exit %d\n", rec.Exit)
	rows := make([][]string, len(rec.Steps))
	var width [5]int
	for i, r := range rec.Steps {
		rows[i] = stepCells(&r)
		for j, cell := range rows[i][:len(width)] {
			width[j] = max(width[j], len([]rune(cell)))
		}
	}
	c := Coverage{Steps: len(rec.Steps)}
	for i := range rec.Steps {
		r := &rec.Steps[i]
		var line strings.Builder
		for j, cell := range rows[i] {
			line.WriteString(cell)
			if j < len(width) {
				line.WriteString(strings.Repeat(" ", width[j]-len([]rune(cell))+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
		c.add(r)
		if r.Failed() {
			writeFindings(&b, r)
		}
	}
	c.BytesShown = int64(b.Len())
	b.WriteString("coverage: ")
	if rec.allWhole() {
		// As a whole-output digest, nothing was left out to account for.
		fmt.Fprintf(&b, "every ran step's output shown whole (%s)", contract.Size(c.BytesCaptured))
		if c.Skipped > 0 {
			fmt.Fprintf(&b, " · skipped %d", c.Skipped)
		}
		b.WriteString("\n")
		rec.next(&b)
		text, _ := secrets.Text([]byte(b.String()))
		rec.Coverage, rec.Digest = c, string(text)
		return
	}
	if c.Skipped > 0 {
		fmt.Fprintf(&b, "skipped %d · ", c.Skipped)
	}
	fmt.Fprintf(&b, "identities %d · inline %d · retrievable %d · unrepresented required %d",
		c.Identities, c.Inline, c.Retrievable, c.RequiredUnrepresented)
	if c.RequiredElsewhere > 0 {
		fmt.Fprintf(&b, " · required in passing steps' digests %d", c.RequiredElsewhere)
	}
	fmt.Fprintf(&b, " · shown %s of %s\n", contract.Size(c.BytesShown), contract.Size(c.BytesCaptured))
	rec.next(&b)
	text, _ := secrets.Text([]byte(b.String()))
	rec.Coverage, rec.Digest = c, string(text)
}

// next points at the first failing step's run, unless the digest already
// does better: every byte is shown, or the step's findings end with its
// run's own next: line, which names the lines to read.
func (rec *Record) next(b *strings.Builder) {
	f := rec.FirstFailed()
	if f == nil || f.Run == "" || rec.allWhole() || hasNext(f) {
		return
	}
	fmt.Fprintf(b, "next: ctx get %s#%d\n", rec.Handle(), f.N)
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

// allWhole reports whether the digest shows every byte the ran steps
// printed: each failing step's digest is its whole output and each passing
// step printed nothing.
func (rec *Record) allWhole() bool {
	for _, r := range rec.Steps {
		switch {
		case r.State == StateSkipped:
		case r.res == nil || r.res.Digest == nil:
			return false
		case r.Failed() && r.res.Digest.Plan.Mode != plan.ModeWhole:
			return false
		case !r.Failed() && r.res.Digest.Digest.Coverage.BytesCaptured > 0:
			return false
		}
	}
	return true
}

// stepCells are a step's columns: number, name, outcome, duration bucket,
// its run handle (none for a step that did not run or was not stored) and,
// for a step whose findings are not shown under it, its headline.
// seq:ID#N names the same run.
func stepCells(r *StepResult) []string {
	handle := ""
	if r.res != nil {
		handle = r.res.Handle()
	}
	switch {
	case r.State == StateSkipped:
		return []string{strconv.Itoa(r.N), r.Name, "skipped", "", "", ""}
	case r.Failed():
		return []string{strconv.Itoa(r.N), r.Name, fmt.Sprintf("exit %d", r.Exit), r.Duration, handle, ""}
	}
	return []string{strconv.Itoa(r.N), r.Name, "ok", r.Duration, handle, r.Headline}
}

// add counts one step into the coverage.
func (c *Coverage) add(r *StepResult) {
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
	if r.Failed() {
		c.Inline += cov.Inline
		c.Retrievable += cov.Retrievable
		c.RequiredInline += cov.RequiredInline
		c.RequiredElsewhere += cov.RequiredCensus
		return
	}
	c.Retrievable += cov.Inline + cov.Retrievable
	c.RequiredElsewhere += cov.RequiredInline + cov.RequiredCensus
}

// writeFindings writes a failing step's findings: its digest without its
// header and coverage lines (the sequence has its own), indented.
func writeFindings(b *strings.Builder, r *StepResult) {
	if r.Error != "" {
		fmt.Fprintf(b, "  ctx: %s\n", r.Error)
	}
	if r.res == nil {
		return
	}
	if r.res.Digest == nil {
		fmt.Fprintf(b, "  no digest could be made: %v (ctx get %s)\n", r.res.DigestErr, r.res.Handle())
		return
	}
	for _, line := range body(r.res) {
		b.WriteString("  " + line + "\n")
	}
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

// Save stores the record under its id; the same record again is a no-op.
func Save(st *store.Store, rec *Record) (store.ID, error) {
	id := rec.ID()
	data, err := json.Marshal(rec)
	if err != nil {
		return id, fmt.Errorf("encode seq record: %w", err)
	}
	if _, err := st.PutLayerRecord(LayerBucket, []byte(id.String()), data); err != nil {
		return id, fmt.Errorf("store seq record: %w", err)
	}
	return id, nil
}

// Ref is a parsed seq: handle: the id prefix, the step (0 for the whole
// sequence) and what follows the step (a stream and range for its run).
type Ref struct {
	Prefix string
	Step   int
	Rest   string
}

// ParseRef parses seq:ID, seq:ID#N and seq:ID#N#stream:range / seq:ID#N:range.
func ParseRef(s string) (Ref, error) { return ParseRefOf("seq", s) }

// ParseRefOf parses a handle of a record with numbered steps (seq:, py:)
// under scheme.
func ParseRefOf(scheme, s string) (Ref, error) {
	bad := func(why string) (Ref, error) {
		return Ref{}, fmt.Errorf("handle %q: %s (want %s:ID or %s:ID#N, N the step number): %w", s, why, scheme, scheme, store.ErrBadHandle)
	}
	rest, ok := strings.CutPrefix(s, scheme+":")
	if !ok {
		return bad("not a " + scheme + ": handle")
	}
	id, step, hasStep := strings.Cut(rest, "#")
	id = strings.ToLower(id)
	if len(id) < 6 || len(id) > 64 || strings.Trim(id, "0123456789abcdef") != "" {
		return bad("the id is not 6 to 64 hex digits")
	}
	ref := Ref{Prefix: id}
	if !hasStep {
		return ref, nil
	}
	n := len(step) - len(strings.TrimLeft(step, "0123456789"))
	if n == 0 {
		return bad("no step number after #")
	}
	ref.Step, _ = strconv.Atoi(step[:n])
	ref.Rest = step[n:]
	if ref.Rest != "" && ref.Rest[0] != '#' && ref.Rest[0] != ':' {
		return bad("after the step number, want #stream or :range")
	}
	if ref.Step == 0 {
		return bad("steps are numbered from 1")
	}
	return ref, nil
}

// Load reads the record a handle's id prefix names.
func Load(st *store.Store, ref Ref) (*Record, error) {
	var rec Record
	if err := LoadRecord(st, LayerBucket, "seq", ref.Prefix, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// LoadRecord decodes into v the JSON record of a layer bucket keyed by hex
// id whose id starts with prefix (seq: and py: records).
func LoadRecord(st *store.Store, bucket, scheme, prefix string, v any) error {
	keys, err := st.LayerKeys(bucket, []byte(prefix), 2)
	if err != nil {
		return err
	}
	switch len(keys) {
	case 0:
		return fmt.Errorf("%s:%s: %w", scheme, prefix, store.ErrNotFound)
	case 2:
		return fmt.Errorf("%s:%s matches more than one record; give more digits: %w", scheme, prefix, store.ErrAmbiguous)
	}
	data, err := st.LayerRecord(bucket, keys[0])
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s:%s: decode record: %v: %w", scheme, prefix, err, store.ErrCorrupt)
	}
	return nil
}

// StepHandle is the run handle (with ref's stream and range) of the step ref
// names.
func (rec *Record) StepHandle(ref Ref) (string, error) {
	if ref.Step < 1 || ref.Step > len(rec.Steps) {
		return "", fmt.Errorf("seq:%s has %s; there is no step %d: %w", ref.Prefix, plural(len(rec.Steps), "step"), ref.Step, store.ErrNotFound)
	}
	r := rec.Steps[ref.Step-1]
	if r.Run == "" {
		why := "it was skipped"
		if r.Error != "" {
			why = "it did not run: " + r.Error
		}
		return "", fmt.Errorf("seq:%s#%d (%s) has no run: %s: %w", ref.Prefix, ref.Step, r.Name, why, store.ErrNotFound)
	}
	return "run:" + r.Run + ref.Rest, nil
}
