// Package digest turns a stored run (or a capture still in its spool) into a
// digest: profile extraction, the contract, the plan and the renderer meet
// here, so every front end (ctx run, ingest, show, the MCP server, bench)
// renders through one path. Replay re-renders a stored receipt under its own
// plan and checks the bytes still match.
//
// It never captures, and never reads the environment or the clock: what shapes
// a digest arrives in Options.
package digest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/receipts"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// Options shape a digest.
type Options struct {
	Budget   int
	Pressure string
	Level    int
	Profile  string // force a profile ("" detects)
	// ContractDir holds project contract overrides ("" for none).
	ContractDir string
	// Repo is the repository root and Dir the command's directory: failure
	// locations inside Repo get repo: handles. "" mints none.
	Repo, Dir string
}

// Result is a rendered digest with everything it was made from.
type Result struct {
	Run         *store.Run
	Graph       *evidence.Graph
	Contract    *contract.Contract
	Plan        plan.Plan
	Digest      *plan.Digest
	Receipt     receipts.Receipt
	ReceiptJSON []byte
	ReceiptID   store.ID
}

// Handle is the receipt's handle.
func (r *Result) Handle() string { return store.HandleOf(store.KindReceipt, r.ReceiptID) }

// Blobs opens blobs: the store, or a pending capture not stored yet.
type Blobs interface {
	Blob(id store.ID) (*store.Blob, error)
}

var (
	_ Blobs = (*store.Store)(nil)
	_ Blobs = (*store.Pending)(nil)
)

// Make renders the digest of a run (stored, or pending in its spool) under a
// fresh plan. The receipt's id and bytes are set; Save or store.Commit stores
// them.
func Make(ctx context.Context, st Blobs, run *store.Run, opts Options) (*Result, error) {
	src, infos, err := Source(st, run)
	if err != nil {
		return nil, err
	}
	g, err := profiles.Extract(ctx, src, opts.Profile)
	if err != nil {
		return nil, err
	}
	return digestGraph(st, run, g, infos, opts)
}

// digestGraph renders the digest of a run from the graph its profile
// extracted: the contract, the plan and the renderer.
func digestGraph(st Blobs, run *store.Run, g *evidence.Graph, infos []plan.StreamInfo, opts Options) (*Result, error) {
	g.Seal(run.Handle())
	var anchors map[string]string
	if opts.Repo != "" {
		anchors = source.Mint(g, opts.Repo, opts.Dir)
	}
	in := plan.Inputs{Exit: run.Manifest.Exit, Status: run.Manifest.Status, Budget: opts.Budget,
		Pressure: opts.Pressure, Level: opts.Level, Streams: infos}
	outcome, _ := plan.Outcome(g, in)
	c, err := contract.Load(g.Profile, outcome, opts.ContractDir)
	if err != nil {
		return nil, err
	}
	p := plan.Decide(g, c, in)
	return render(st, run, g, c, p, infos, anchors)
}

func render(st Blobs, run *store.Run, g *evidence.Graph, c *contract.Contract, p plan.Plan, infos []plan.StreamInfo, anchors map[string]string) (*Result, error) {
	m := run.Manifest
	var redacted map[string]int
	d, err := plan.Render(plan.Input{
		Run:      plan.RunInfo{Handle: run.Handle(), Argv: secrets.Argv(m.Argv), Dir: m.Dir, Exit: m.Exit, Status: m.Status, Signal: m.Signal},
		Streams:  infos,
		Graph:    g,
		Contract: c,
		Plan:     p,
		Lines:    &lineSource{st: st, run: run},
		Census:   func(b []byte) string { return store.HandleOf(store.KindBlob, store.Sum(b)) },
		SpanToken: func(sp evidence.Span) string {
			tok, err := storeSpan(sp).Token(run)
			if err != nil {
				return sp.Handle()
			}
			return store.HandleOf(store.KindSpan, tok)
		},
		Secrets: secrets.Version,
		Redact: func(body []byte) ([]byte, string) {
			// Excerpt lines arrive redacted (lineSource): count what the
			// digest shows, not what this last pass changed.
			out, _ := secrets.Text(body)
			redacted = secrets.Count(out)
			return out, redactionNote(redacted, run.Handle())
		},
	})
	if err != nil {
		return nil, err
	}
	p = d.Plan
	res := &Result{Run: run, Graph: g, Contract: c, Plan: p, Digest: d}
	res.Receipt = receipts.Receipt{Kind: receipts.KindDigest, Version: receipts.Version, Run: store.FullHandleOf(store.KindRun, run.ID), Plan: p, Coverage: d.Coverage,
		Digest: store.FullHandleOf(store.KindBlob, store.Sum(d.Text)), Secrets: receipts.Secrets{Rules: secrets.Version, Redacted: redacted}}
	if len(anchors) > 0 {
		res.Receipt.Anchors = anchors
	}
	res.Receipt.Refs = []string{res.Receipt.Run, res.Receipt.Digest}
	if d.Census != nil {
		res.Receipt.Census = store.FullHandleOf(store.KindBlob, store.Sum(d.Census))
		res.Receipt.Refs = append(res.Receipt.Refs, res.Receipt.Census)
	}
	b, err := res.Receipt.Marshal()
	if err != nil {
		return nil, err
	}
	res.ReceiptJSON = b
	res.ReceiptID = store.ReceiptID(b)
	return res, nil
}

// redactionNote is the digest's one line about what was redacted.
func redactionNote(counts map[string]int, handle string) string {
	if len(counts) == 0 {
		return ""
	}
	n := 0
	var parts []string
	for _, rule := range evidence.SortedKeys(counts) {
		n += counts[rule]
		parts = append(parts, fmt.Sprintf("%s %d", rule, counts[rule]))
	}
	word := "secrets"
	if n == 1 {
		word = "secret"
	}
	return fmt.Sprintf("! %d %s redacted (%s); a person at a terminal sees them with ctx get --reveal %s",
		n, word, strings.Join(parts, ", "), handle)
}

// Extra is what store.Commit stores with the run: the digest, the census and
// the receipt.
func (r *Result) Extra() *store.Extra {
	e := &store.Extra{Blobs: [][]byte{r.Digest.Text}, Receipt: r.ReceiptJSON}
	for _, sp := range r.Digest.Spans {
		e.Spans = append(e.Spans, storeSpan(sp))
	}
	if r.Digest.Census != nil {
		e.Blobs = append(e.Blobs, r.Digest.Census)
	}
	return e
}

// Save stores the digest text, the census list and the receipt of a run that
// is already stored.
func Save(st *store.Store, res *Result) error {
	if _, err := st.PutBlob(res.Digest.Text); err != nil {
		return err
	}
	if res.Digest.Census != nil {
		if _, err := st.PutBlob(res.Digest.Census); err != nil {
			return err
		}
	}
	if err := st.PutSpans(res.Run, res.Extra().Spans); err != nil {
		return err
	}
	_, err := st.PutReceipt(res.ReceiptJSON)
	return err
}

func storeSpan(sp evidence.Span) store.Span {
	return store.Span{Stream: sp.Stream, Kind: "item", From: int64(sp.From), To: int64(sp.To)}
}

// Replayed is the outcome of re-rendering a receipt.
type Replayed struct {
	Receipt store.ID
	Run     string
	Match   bool
	Why     string // when it does not match
}

// Replay re-renders a stored digest receipt from the stored run under the
// receipt's own plan and reports whether the bytes match the stored digest.
func Replay(ctx context.Context, st *store.Store, id store.ID, data []byte, contractDir string) Replayed {
	out := Replayed{Receipt: id}
	r, err := receipts.Decode(data)
	if err != nil || r.Kind != receipts.KindDigest {
		out.Why = "not a digest receipt"
		return out
	}
	out.Run = r.Run
	runID, err := r.RunID()
	if err != nil {
		out.Why = err.Error()
		return out
	}
	run, err := st.GetRun(runID)
	if err != nil {
		out.Why = err.Error()
		return out
	}
	src, infos, err := Source(st, run)
	if err != nil {
		out.Why = err.Error()
		return out
	}
	g, err := replayExtract(ctx, src, r.Plan.Profile)
	if err != nil {
		out.Why = err.Error()
		return out
	}
	g.Seal(run.Handle())
	if got := fmt.Sprintf("%s/%d", g.Profile, g.Version); got != r.Plan.Profile {
		out.Why = fmt.Sprintf("profile is now %s, the receipt used %s", got, r.Plan.Profile)
		return out
	}
	if r.Secrets.Rules != secrets.Version {
		out.Why = fmt.Sprintf("the secret rules changed (%s, the receipt used %q)", secrets.Version, r.Secrets.Rules)
		return out
	}
	c, err := contract.Load(g.Profile, r.Plan.Outcome, contractDir)
	if err != nil {
		out.Why = err.Error()
		return out
	}
	if c.Hash() != r.Plan.Contract {
		out.Why = fmt.Sprintf("the contract changed (%s, the receipt used %s)", c.Hash(), r.Plan.Contract)
		return out
	}
	source.Apply(g, r.Anchors)
	res, err := render(st, run, g, c, r.Plan, infos, r.Anchors)
	if err != nil {
		out.Why = err.Error()
		return out
	}
	want, err := receipts.DigestText(st, r)
	if err != nil {
		out.Why = err.Error()
		return out
	}
	if !bytes.Equal(res.Digest.Text, want) {
		out.Why = firstDiff(res.Digest.Text, want)
		return out
	}
	out.Match = true
	return out
}

func cutVersion(s string) (string, string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func firstDiff(got, want []byte) string {
	gl := bytes.Split(got, []byte("\n"))
	wl := bytes.Split(want, []byte("\n"))
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w []byte
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if !bytes.Equal(g, w) {
			return fmt.Sprintf("line %d differs: now %q, stored %q", i+1, g, w)
		}
	}
	return "bytes differ"
}

// Source adapts a stored run to what profiles read.
func Source(st Blobs, run *store.Run) (*evidence.Source, []plan.StreamInfo, error) {
	var streams []evidence.Stream
	var infos []plan.StreamInfo
	for _, name := range []string{evidence.Stdout, evidence.Stderr} {
		ref, _ := run.StreamBlob(name)
		b, err := st.Blob(ref.Blob)
		if err != nil {
			return nil, nil, err
		}
		head, err := io.ReadAll(b.Section(0, evidence.HeadSize))
		if err != nil {
			return nil, nil, err
		}
		streams = append(streams, evidence.NewStream(name, b.Size(), int(b.Lines()), head,
			func() (io.ReadCloser, error) {
				b, err := st.Blob(ref.Blob)
				if err != nil {
					return nil, err
				}
				return io.NopCloser(b.Reader()), nil
			}))
		infos = append(infos, plan.StreamInfo{Name: name, Size: b.Size(), Lines: b.Lines(), Dropped: ref.Dropped, Lost: ref.Lost,
			Binary: b.Size() > 0 && !lines.Printable(head)})
	}
	return evidence.NewSource(run.Manifest.Argv, run.Manifest.Exit, streams), infos, nil
}

// lineSource reads lines of a run's streams for the renderer.
type lineSource struct {
	st    Blobs
	run   *store.Run
	blobs map[string]*store.Blob
}

// blob is the stored content of a stream of the run.
func (l *lineSource) blob(stream string) (*store.Blob, error) {
	if l.blobs == nil {
		l.blobs = map[string]*store.Blob{}
	}
	b, ok := l.blobs[stream]
	if !ok {
		ref, found := l.run.StreamBlob(stream)
		if !found {
			return nil, fmt.Errorf("no stream %q", stream)
		}
		var err error
		if b, err = l.st.Blob(ref.Blob); err != nil {
			return nil, err
		}
		l.blobs[stream] = b
	}
	return b, nil
}

// LineLen is the stored length of line n of a stream without its line ending
// (plan.LineLengths): Lines gives a line over lines.Max cut short, and the
// digest says how much of it was left out.
func (l *lineSource) LineLen(stream string, n int64) (int64, error) {
	b, err := l.blob(stream)
	if err != nil {
		return 0, err
	}
	off, end, err := b.LineRange(n, n)
	if err != nil {
		return 0, err
	}
	tail, err := io.ReadAll(b.Section(max(off, end-2), end))
	if err != nil {
		return 0, err
	}
	return end - off - int64(len(tail)-len(bytes.TrimRight(tail, "\r\n"))), nil
}

func (l *lineSource) Lines(stream string, from, to int64) ([]string, error) {
	b, err := l.blob(stream)
	if err != nil {
		return nil, err
	}
	// Lines before the range are read, not shown, so that a key block
	// begun above it is recognised.
	var red secrets.Redactor
	start := max(1, from-secrets.Lookback)
	off, end, err := b.LineRange(start, to)
	if err != nil {
		return nil, err
	}
	var out []string
	n := start - 1
	err = lines.Scan(context.Background(), b.Section(off, end), func(_ int, line []byte, long bool) error {
		n++
		if n < from {
			red.Prime(line)
			return nil
		}
		s := string(red.Line(line))
		if long {
			s += "…"
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// replayExtract parses a stored run as its digest did: detection first, so a
// profile that fell back (and the loss the digest stated) comes out the same;
// the receipt's profile forced when detection now picks another (the run was
// digested with --profile).
func replayExtract(ctx context.Context, src *evidence.Source, profile string) (*evidence.Graph, error) {
	g, err := profiles.Extract(ctx, src, "")
	if err == nil && fmt.Sprintf("%s/%d", g.Profile, g.Version) == profile {
		return g, nil
	}
	name, _, _ := cutVersion(profile)
	return profiles.Extract(ctx, src, name)
}
