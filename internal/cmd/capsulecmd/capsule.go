// Package capsulecmd is ctx capsule and ctx relay: capturing a handoff for the
// next session, inspecting and rendering it for a consumer, sending it
// through a relay, publishing it to a tracker, and serving a relay — as
// commands and MCP tools. The behaviour is package capsule's; this is its
// command-line face.
package capsulecmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capsule"
	"github.com/ctxhq/ctx/capsule/relay"
	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/continuitycmd"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/retrieve"
	"github.com/ctxhq/ctx/store"
)

// historyBucket is this machine's log of relay sends and receives.
const historyBucket = "capsule.history"

const capsuleHonesty = capsule.FidelityLimitNote + "\n\n" + capsule.ValidityLimitNote + "\n\n" +
	capsule.NegativeKnowledgeNote + "\n\n" + capsule.LineageLimitNote

func newCapsuleCmd(ios *cli.IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "capsule",
		Short: "Leave a handoff for the next agent session, and check one you were left",
		Long: `A capsule is the handoff one agent session leaves for the next: goal, state,
next action, evidence (handles into this store, so every claim can be checked),
rejected approaches, constraints, open questions and contact cards; up to ten
critical units, validity conditions and negative knowledge items; one parent.
capture stores it as capsule:ID. inspect computes, on this machine and now,
whether each critical unit survives rendering (fidelity), whether each declared
condition still holds on this checkout (validity), the standing of each
negative knowledge item, and the delta against the parent capsule. Verdicts
are never stored in the capsule.

What the verdicts do not claim:

` + capsuleHonesty,
		Example: `  ctx capsule capture handoff.toml
  ctx capsule inspect capsule:9d2e01c4b7aa --with codex
  ctx capsule render capsule:9d2e01c4b7aa --for claude
  ctx capsule send capsule:9d2e01c4b7aa --relay http://127.0.0.1:7777 --ttl 2h
  ctx capsule receive 9d2e01c4…(64 hex) --relay http://127.0.0.1:7777 --with codex`,
	}
	for _, sub := range []func(*cli.IO) *cobra.Command{newCapsuleCaptureCmd, newCapsuleInspectCmd, newCapsuleRenderCmd,
		newCapsuleSendCmd, newCapsuleReceiveCmd, newCapsuleHistoryCmd, newCapsulePublishCmd, newCapsuleDeliveriesCmd} {
		c.AddCommand(sub(ios))
	}
	return c
}

// ---- capture

type capsuleCaptureOptions struct {
	path string
	json bool
}

func newCapsuleCaptureCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleCaptureOptions{}
	c := &cobra.Command{
		Use:   "capture FILE|-",
		Short: "Store a handoff capsule from a TOML or JSON file",
		Long: `Store a handoff capsule. The file (TOML, or JSON starting with '{') has the keys
goal, state, next_action, evidence (handles: each must exist in this store),
rejected, constraints, open_questions, contact_cards ([[contact_cards]] name,
role, reach), critical ([[critical]] id, field, optional item and supersedes;
at most 10), validity ([[validity]] id, kind = git_paths (paths, optional
base_commit, default the grounding commit) | time_window (not_after) |
declared_scope (scope); at most 10), negative_knowledge ([[negative_knowledge]]
id, hypothesis, why_invalid, state rejected|superseded|revalidated,
applies_while, retry_if; at most 10), parent (capsule: and 64 hex digits) and
expires_at (RFC 3339). Unknown keys, kinds and exceeded limits are errors.
The grounding commit (this checkout's HEAD) is recorded.

Exit status: 0 stored; 1 the file is bad or evidence is missing; 2 usage.`,
		Example: `  ctx capsule capture handoff.toml
  ctx capsule capture --json - < handoff.json`,
		Args: cli.ExactArgs(1, "ctx capsule capture FILE|-"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			return runCapsuleCapture(cmd.Context(), ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, `print {"capsule", "id", "grounding_commit"}`)
	return c
}

func runCapsuleCapture(ctx context.Context, ios *cli.IO, o *capsuleCaptureOptions) error {
	ctx = orBackground(ctx)
	data, err := continuitycmd.ReadInput(ios, o.path)
	if err != nil {
		return err
	}
	in, err := capsule.ParseInput(data)
	if err != nil {
		return continuitycmd.BadInput("capture file", o.path, err)
	}
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	c, err := in.Capsule(capsule.Grounding(ctx, cwd), func(rev string) (string, error) {
		return capsule.ResolveCommit(ctx, cwd, rev)
	})
	if err != nil {
		return continuitycmd.BadInput("capture file", o.path, err)
	}
	if c.Expired(time.Now()) {
		return continuitycmd.BadInput("capture file", o.path, fmt.Errorf("expires_at %s has passed: the capsule would be obsolete before anyone read it (ctx capsule receive refuses it); give a later time, or none", c.ExpiresAt))
	}
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, e := range c.Evidence {
		if err := getcmd.EvidenceExists(st, e); err != nil {
			return fmt.Errorf("capture file %s: evidence %d (%s) is not in this store: %w", o.path, i, e, err)
		}
	}
	id, err := capsule.Put(st, c)
	if err != nil {
		return err
	}
	for _, n := range c.NegativeKnowledge {
		if s := n.State; s != "" && s != capsule.NKRejected && s != capsule.NKSuperseded && s != capsule.NKRevalidated {
			fmt.Fprintf(ios.Err, "ctx: note: negative_knowledge %s has state %q, which this build does not recognise; it will read as applicability_unknown\n", n.ID, s)
		}
	}
	if c.GroundingCommit == "" {
		fmt.Fprintln(ios.Err, "ctx: note: not in a git checkout with a commit; git_paths conditions without base_commit will read as unverifiable")
	}
	if o.json {
		return cli.WriteJSON(ios.Out, map[string]string{"capsule": capsule.Handle(id), "id": id.String(), "grounding_commit": c.GroundingCommit})
	}
	fmt.Fprintf(ios.Out, "%s\nid %s\n", capsule.Handle(id), id)
	if c.GroundingCommit != "" {
		fmt.Fprintf(ios.Out, "grounding commit %s\n", c.GroundingCommit)
	}
	return nil
}

func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// describeEvidence gives each evidence handle a one-line digest from st.
func describeEvidence(st *store.Store) capsule.Evidence {
	var describe capsule.Evidence
	describe = func(handle string) string {
		if run, desc, ok := describeRecord(st, handle); ok {
			if run != "" {
				return describe(run)
			}
			return desc
		}
		h, err := store.ParseHandle(handle)
		if err != nil {
			return ""
		}
		t, err := st.Resolve(h)
		if err != nil {
			return ""
		}
		switch t.Kind {
		case "run":
			return fmt.Sprintf("%s (exit %d)", retrieve.ClipLine([]byte(cmdline.Display(t.Run.Manifest.Argv)), 80), t.Run.Manifest.Exit)
		case "blob":
			if b, err := st.Blob(t.ID); err == nil {
				return fmt.Sprintf("blob, %d bytes, %d lines", b.Size(), b.Lines())
			}
		case "receipt":
			return "coverage receipt"
		}
		return string(t.Kind)
	}
	return describe
}

// describeRecord reads a record's evidence handle (seq:, py:, job:) from
// st: the run it stands for (a step, an ended job), or a line saying what
// the record is ("" when it names nothing); ok is false for any other
// handle.
func describeRecord(st *store.Store, handle string) (run, desc string, ok bool) {
	run, about, ok, err := getcmd.RecordRun(st, handle)
	if err != nil {
		return "", "", ok
	}
	return run, retrieve.ClipLine([]byte(about), 100), ok
}

func checkConsumer(name string) error {
	for _, c := range capsule.Consumers {
		if c == name {
			return nil
		}
	}
	return cli.Usagef("consumer %q: want one of %s", name, strings.Join(capsule.Consumers, ", "))
}

// ---- inspect

type capsuleInspectOptions struct {
	handle string
	with   string
	json   bool
}

func newCapsuleInspectCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleInspectOptions{}
	c := &cobra.Command{
		Use:   "inspect capsule:ID [--with codex|claude|markdown] [--json]",
		Short: "Check a capsule on this machine now: fidelity, validity, negative knowledge, lineage",
		Long: `Compute, on this machine and now, never stored in the capsule:

  fidelity per critical unit: preserved (the consumer's rendering carries the
    field whole), unsupported, unknown (no --with: the sender-side preview;
    the recipient's consumer decides), degraded (defined for a consumer that
    renders partially; none does, so it does not occur);
  validity per condition: valid, stale, partially_stale, unverifiable
    (git_paths via git on this checkout; a base commit this checkout lacks and
    declared_scope are unverifiable), and the worst-of aggregate (stale mixed
    with unverifiable aggregates to partially_stale);
  negative knowledge standing: still_applicable, revalidation_required,
    applicability_unknown, retired;
  lineage: the parents found in this store (at most 10 hops) and the delta
    against the immediate parent.

` + capsuleHonesty + `

Exit status: 0 printed; 1 no such capsule; 2 usage.`,
		Example: `  ctx capsule inspect capsule:9d2e01c4b7aa --with codex
  ctx capsule inspect capsule:9d2e01c4b7aa --json`,
		Args: cli.ExactArgs(1, "ctx capsule inspect capsule:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runCapsuleInspect(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.with, "with", "", "the consumer whose rendering fidelity is checked: codex, claude or markdown")
	c.Flags().BoolVar(&o.json, "json", false, "print the report as JSON")
	return c
}

func inspectCapsule(ctx context.Context, ios *cli.IO, st *store.Store, id store.ID, c *capsule.Capsule, with string) (*capsule.Report, error) {
	cwd, err := ios.Getwd()
	if err != nil {
		return nil, err
	}
	env := capsule.Env{Dir: cwd, Now: time.Now(), Describe: describeEvidence(st)}
	return capsule.Inspect(orBackground(ctx), c, id, with, env, capsule.StoreLoader{St: st})
}

func runCapsuleInspect(ctx context.Context, ios *cli.IO, o *capsuleInspectOptions) error {
	if o.with != "" {
		if err := checkConsumer(o.with); err != nil {
			return err
		}
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	id, c, err := capsule.Load(st, o.handle)
	if err != nil {
		return err
	}
	r, err := inspectCapsule(ctx, ios, st, id, c, o.with)
	if err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, r)
	}
	printReport(ios.Out, r)
	return nil
}

func printReport(w io.Writer, r *capsule.Report) {
	consumer := r.Consumer
	if consumer == "" {
		consumer = "none (sender-side preview)"
	}
	fmt.Fprintf(w, "%s — consumer: %s\n", r.Capsule, consumer)
	if e := r.Expiry; e != nil && e.Expired {
		fmt.Fprintf(w, "expired at %s (its expires_at): the whole handoff is obsolete, whatever the verdicts below; ask the sender for a fresh one\n", e.ExpiresAt)
	} else if e != nil {
		fmt.Fprintf(w, "expires at %s\n", e.ExpiresAt)
	}
	fmt.Fprintf(w, "\nfidelity\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range r.Fidelity {
		field := f.Field
		if f.Item != nil {
			field += fmt.Sprintf("[%d]", *f.Item)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.ID, field, f.Verdict, f.Why)
	}
	if len(r.Fidelity) == 0 {
		fmt.Fprintln(tw, "  (no critical units)")
	}
	tw.Flush()
	fmt.Fprintf(w, "%s\n\nvalidity: %s\n", continuitycmd.Indent(r.FidelityNote), r.Validity.Aggregate)
	for _, v := range r.Validity.Conditions {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", v.ID, v.Kind, v.Verdict, v.Why)
	}
	if len(r.Validity.Conditions) == 0 {
		fmt.Fprintln(tw, "  (no conditions declared)")
	}
	tw.Flush()
	fmt.Fprintf(w, "%s\n\nnegative knowledge\n", continuitycmd.Indent(r.Validity.Note))
	for _, n := range r.NegativeKnowledge {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", n.ID, n.State, n.Standing, n.Why)
	}
	if len(r.NegativeKnowledge) == 0 {
		fmt.Fprintln(tw, "  (none)")
	}
	tw.Flush()
	fmt.Fprintf(w, "%s\n", continuitycmd.Indent(r.NKNote))
	if l := r.Lineage; l != nil {
		fmt.Fprintln(w, "\nlineage")
		for _, a := range l.Ancestors {
			fmt.Fprintf(w, "  hop %d  %s  %s\n", a.Hop, a.Capsule, a.Status)
		}
		if l.Bounded {
			fmt.Fprintf(w, "  bounded: more ancestors beyond %d hops were not walked\n", capsule.MaxLineageHops)
		}
		if d := l.Delta; d != nil {
			fmt.Fprintln(w, "  delta against the parent")
			for _, x := range []struct {
				name string
				d    capsule.IDDelta
			}{{"critical", d.Critical}, {"validity", d.Validity}, {"negative_knowledge", d.NegativeKnowledge}} {
				fmt.Fprintf(w, "    %s: inherited %s; added %s; dropped %s\n", x.name, idList(x.d.Inherited), idList(x.d.Added), idList(x.d.Dropped))
			}
			for _, f := range []string{"evidence", "rejected", "constraints", "open_questions"} {
				t := d.Text[f]
				fmt.Fprintf(w, "    %s: %d carried over, %d added, %d absent here (counts only)\n", f, t.CarriedOver, t.Added, t.AbsentHere)
			}
			for _, rs := range d.Resolved {
				fmt.Fprintf(w, "    resolved: %s supersedes %s\n", rs.Unit, rs.Supersedes)
			}
			for _, tr := range d.Transitions {
				fmt.Fprintf(w, "    negative knowledge %s: %s → %s\n", tr.ID, tr.From, tr.To)
			}
		} else {
			fmt.Fprintln(w, "  no delta: the parent is not in this store")
		}
		fmt.Fprintf(w, "%s\n", continuitycmd.Indent(l.Note))
	}
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "-"
	}
	return strings.Join(ids, ", ")
}

// ---- render

type capsuleRenderOptions struct {
	handle string
	for_   string
	json   bool
}

func newCapsuleRenderCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleRenderOptions{}
	c := &cobra.Command{
		Use:   "render capsule:ID --for codex|claude|markdown",
		Short: "Print a capsule as the Markdown an agent reads at the start of a session",
		Long: `Print a capsule as deterministic Markdown for a consumer: every field carried
whole (an empty one says "(none)"), evidence as handles with a one-line digest
from this store ("not in this store" when it is not).

Exit status: 0 printed; 1 no such capsule; 2 usage.`,
		Example: `  ctx capsule render capsule:9d2e01c4b7aa --for codex`,
		Args:    cli.ExactArgs(1, "ctx capsule render capsule:ID --for CONSUMER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runCapsuleRender(ios, o)
		},
	}
	c.Flags().StringVar(&o.for_, "for", "markdown", "the consumer: codex, claude or markdown")
	c.Flags().BoolVar(&o.json, "json", false, `print {"capsule", "consumer", "markdown"}`)
	return c
}

func runCapsuleRender(ios *cli.IO, o *capsuleRenderOptions) error {
	if err := checkConsumer(o.for_); err != nil {
		return err
	}
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	id, c, err := capsule.Load(st, o.handle)
	if err != nil {
		return err
	}
	page, err := capsule.Render(c, capsule.Handle(id), o.for_, describeEvidence(st))
	if err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, map[string]string{"capsule": capsule.Handle(id), "consumer": o.for_, "markdown": page})
	}
	_, err = io.WriteString(ios.Out, page)
	return err
}

// ---- send / receive / history

type capsuleSendOptions struct {
	handle          string
	relay           string
	ttl             time.Duration
	deleteAfterRead bool
	preview         bool
	json            bool
}

func newCapsuleSendCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleSendOptions{}
	c := &cobra.Command{
		Use:   "send capsule:ID --relay URL [--ttl D] [--delete-after-read] [--preview]",
		Short: "Send a capsule to a relay; --preview prints what would be sent and sends nothing",
		Long: `Send a capsule to a relay (ctx relay serve). It prints the relay id (the
capsule's full id) for ctx capsule receive. The relay keeps it for --ttl (its
default when unset) and, with --delete-after-read, until the first read.
--preview prints the rendering and the sender-side fidelity preview (every
unit "unknown": the recipient's consumer decides) and contacts no relay.

Exit status: 0 sent (or previewed); 1 no such capsule, or the relay refused; 2 usage.`,
		Example: `  ctx capsule send capsule:9d2e01c4b7aa --relay http://127.0.0.1:7777 --preview
  ctx capsule send capsule:9d2e01c4b7aa --relay http://127.0.0.1:7777 --ttl 2h --delete-after-read`,
		Args: cli.ExactArgs(1, "ctx capsule send capsule:ID --relay URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runCapsuleSend(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.relay, "relay", "", "the relay's base URL, e.g. http://127.0.0.1:7777")
	c.Flags().DurationVar(&o.ttl, "ttl", 0, "how long the relay keeps it (default: the relay's)")
	c.Flags().BoolVar(&o.deleteAfterRead, "delete-after-read", false, "the relay forgets it after the first read")
	c.Flags().BoolVar(&o.preview, "preview", false, "print what would be sent; contact no relay")
	c.Flags().BoolVar(&o.json, "json", false, `print {"capsule", "relay_id", "expires_at", "delete_after_read"} (with --preview: {"capsule", "preview", "markdown", "fidelity"})`)
	return c
}

func runCapsuleSend(ctx context.Context, ios *cli.IO, o *capsuleSendOptions) error {
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	id, c, err := capsule.Load(st, o.handle)
	if err != nil {
		return err
	}
	if o.preview {
		page, err := capsule.Render(c, capsule.Handle(id), "markdown", describeEvidence(st))
		if err != nil {
			return err
		}
		fid, err := capsule.Fidelity(c, capsule.Handle(id), "", describeEvidence(st))
		if err != nil {
			return err
		}
		if o.json {
			return cli.WriteJSON(ios.Out, map[string]any{"capsule": capsule.Handle(id), "preview": true, "markdown": page, "fidelity": fid,
				"fidelity_note": capsule.FidelityLimitNote})
		}
		fmt.Fprint(ios.Out, page)
		fmt.Fprintln(ios.Out, "\n---\npreview only: nothing was sent")
		for _, f := range fid {
			fmt.Fprintf(ios.Out, "fidelity %s: %s (%s)\n", f.ID, f.Verdict, f.Why)
		}
		fmt.Fprintln(ios.Out, capsule.FidelityLimitNote)
		return nil
	}
	if c.Expired(time.Now()) {
		return fmt.Errorf("%s expired at %s (its expires_at), so ctx capsule receive would refuse it; capture a fresh one", capsule.Handle(id), c.ExpiresAt)
	}
	base, err := relayURL(o.relay)
	if err != nil {
		return err
	}
	data, err := c.Canonical()
	if err != nil {
		return err
	}
	r, err := (&relay.Client{Base: base}).Send(orBackground(ctx), data, o.ttl, o.deleteAfterRead)
	if err != nil {
		return err
	}
	if err := appendHistory(st, historyRow{Op: "send", Capsule: capsule.Handle(id), Relay: base, RelayID: r.ID}); err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, map[string]any{"capsule": capsule.Handle(id), "relay_id": r.ID, "expires_at": r.ExpiresAt,
			"delete_after_read": r.DeleteAfterRead})
	}
	fmt.Fprintf(ios.Out, "sent %s\nrelay id %s\nexpires %s", capsule.Handle(id), r.ID, r.ExpiresAt)
	if r.DeleteAfterRead {
		fmt.Fprint(ios.Out, ", or after the first read")
	}
	fmt.Fprintln(ios.Out)
	return nil
}

// relayURL checks a relay URL and drops any user info, so no secret lands in
// history.
func relayURL(s string) (string, error) {
	if s == "" {
		return "", cli.Usagef("give the relay with --relay URL (e.g. http://127.0.0.1:7777)")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", cli.Usagef("relay %q: want an http(s) URL such as http://127.0.0.1:7777", s)
	}
	u.User = nil
	return strings.TrimRight(u.String(), "/"), nil
}

type capsuleReceiveOptions struct {
	id    string
	relay string
	with  string
	json  bool
}

func newCapsuleReceiveCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleReceiveOptions{}
	c := &cobra.Command{
		Use:   "receive ID --relay URL [--with codex|claude|markdown]",
		Short: "Fetch a capsule from a relay, validate and store it, and print it",
		Long: `Fetch a capsule by the relay id ctx capsule send printed, check it (its bytes
must hash to the id and it must be a valid, canonical capsule: otherwise it is
refused with the reason and nothing is stored), store it in this store, and
print its rendering for --with (default codex). Validity is computed on this
checkout now; when it is not valid a CONTEXT VALIDITY warning goes to stderr,
as does a notice for each negative knowledge item whose conditions changed.

` + capsule.ValidityLimitNote + `

Exit status: 0 received; 1 refused, or not on the relay; 2 usage.`,
		Example: `  ctx capsule receive 9d2e01c4…(64 hex) --relay http://127.0.0.1:7777 --with codex`,
		Args:    cli.ExactArgs(1, "ctx capsule receive ID --relay URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			return runCapsuleReceive(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.relay, "relay", "", "the relay's base URL")
	c.Flags().StringVar(&o.with, "with", "codex", "the consumer to render for: codex, claude or markdown")
	c.Flags().BoolVar(&o.json, "json", false, `print {"capsule", "markdown", "report"} (the warnings still go to stderr)`)
	return c
}

func runCapsuleReceive(ctx context.Context, ios *cli.IO, o *capsuleReceiveOptions) error {
	if err := checkConsumer(o.with); err != nil {
		return err
	}
	want, err := relay.ParseID(o.id)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	base, err := relayURL(o.relay)
	if err != nil {
		return err
	}
	data, err := (&relay.Client{Base: base}).Fetch(orBackground(ctx), want)
	if err != nil {
		return err
	}
	if got := store.Sum(data).String(); got != want {
		return fmt.Errorf("refused: the relay returned content with id %s, not %s", got[:12], want[:12])
	}
	c, err := capsule.Decode(data)
	if err != nil {
		return fmt.Errorf("refused: %w", err)
	}
	if c.Expired(time.Now()) {
		return fmt.Errorf("refused: the capsule expired at %s (its expires_at); ask the sender for a fresh one", c.ExpiresAt)
	}
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := capsule.Put(st, c)
	if err != nil {
		return err
	}
	if err := appendHistory(st, historyRow{Op: "receive", Capsule: capsule.Handle(id), Relay: base, RelayID: want}); err != nil {
		return err
	}
	r, err := inspectCapsule(ctx, ios, st, id, c, o.with)
	if err != nil {
		return err
	}
	page, err := capsule.Render(c, capsule.Handle(id), o.with, describeEvidence(st))
	if err != nil {
		return err
	}
	if o.json {
		if err := cli.WriteJSON(ios.Out, map[string]any{"capsule": capsule.Handle(id), "markdown": page, "report": r}); err != nil {
			return err
		}
	} else {
		fmt.Fprint(ios.Out, page)
	}
	fmt.Fprintf(ios.Err, "received %s\n", capsule.Handle(id))
	if w := r.Validity.Warning(); w != "" {
		fmt.Fprintln(ios.Err, w)
	}
	for _, n := range r.NegativeKnowledge {
		if n.Standing == capsule.RevalidationRequired {
			fmt.Fprintf(ios.Err, "notice: negative knowledge %s — revalidation_required (%s). A record, not policy: you may retry.\n", n.ID, n.Why)
		}
	}
	for _, f := range r.Fidelity {
		fmt.Fprintf(ios.Err, "fidelity %s: %s\n", f.ID, f.Verdict)
	}
	if len(r.Fidelity) > 0 {
		fmt.Fprintln(ios.Err, capsule.FidelityLimitNote)
	}
	return nil
}

type historyRow struct {
	Seq     uint64 `json:"seq"`
	Op      string `json:"op"`
	Capsule string `json:"capsule"`
	Relay   string `json:"relay"`
	RelayID string `json:"relay_id"`
	At      string `json:"at"`
}

func appendHistory(st *store.Store, row historyRow) error {
	row.At = time.Now().UTC().Format(time.RFC3339)
	_, err := st.AppendLayerRow(historyBucket, func(_ []byte, seq uint64) ([]byte, error) {
		row.Seq = seq
		return json.Marshal(row)
	})
	return err
}

type capsuleHistoryOptions struct{ json bool }

func newCapsuleHistoryCmd(ios *cli.IO) *cobra.Command {
	o := &capsuleHistoryOptions{}
	c := &cobra.Command{
		Use:   "history [--json]",
		Short: "List this machine's capsule sends and receives",
		Long: `List this machine's relay sends and receives, oldest first. It knows nothing
about publications (see ctx capsule publish, which keeps delivery receipts).

Exit status: 0 listed; 2 usage.`,
		Example: `  ctx capsule history
  ctx capsule history --json`,
		Args: cli.ExactArgs(0, "ctx capsule history"),
		RunE: func(cmd *cobra.Command, args []string) error { return runCapsuleHistory(ios, o) },
	}
	c.Flags().BoolVar(&o.json, "json", false, "print one JSON object per line")
	return c
}

func runCapsuleHistory(ios *cli.IO, o *capsuleHistoryOptions) error {
	return listRows(ios, func(st *store.Store, tw io.Writer) error {
		return st.LayerRows(historyBucket, func(_ uint64, b []byte) error {
			if o.json {
				_, err := fmt.Fprintf(ios.Out, "%s\n", b)
				return err
			}
			var r historyRow
			if err := json.Unmarshal(b, &r); err != nil {
				return fmt.Errorf("history row: %v: %w", err, store.ErrCorrupt)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.At, r.Op, r.Capsule, r.Relay)
			return nil
		})
	})
}

// listRows runs list over this workspace's store with a table writer on
// ios.Out, flushed at the end; a workspace with no store lists nothing.
func listRows(ios *cli.IO, list func(st *store.Store, tw io.Writer) error) error {
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	}
	defer st.Close()
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	return list(st, tw)
}
