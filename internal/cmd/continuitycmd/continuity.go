// Package continuitycmd is ctx continuity: sealing a manifest of what a
// session must keep, verifying a restatement against it, and the digests,
// diffs, checkpoints and logs around them, as commands and MCP tools. The
// behaviour is package continuity's; this is its command-line face.
package continuitycmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/continuity"
	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"
)

// ExitNotFaithful: the check ran and what it checked does not hold (a
// divergent restatement, a broken log chain).
const ExitNotFaithful = 3

// maxContinuityInput bounds a manifest, restatement or item list read whole.
const maxContinuityInput = 64 << 20

const continuityNonProofs = `What a verdict proves, and what it does not (the seed's non-proofs): a faithful
verdict proves the declared manifest was preserved and the continuation
restated the declared probes — not that the same self answered them, not that
the commitments were acted on (an echo can be verbatim and ignored), and
nothing about anything the manifest never declared: its loss is invisible here
by construction. Loose mode's "faithful" means the declared words appeared,
not that they were restated; the verdict's notes always say which mode ran.`

var continuityStranger = `A stranger checks a snapshot without trusting ctx. The record that
ctx continuity show snap:ID --json prints follows the reference's snapshot
layout and digest recipe; with Python alone, save this program as check.py
and run ctx continuity show snap:ID --json | python3 check.py (prints True):
` + Indent(continuity.StrangerCheck)

// indent prefixes every line with two spaces, for a program shown in help.
func Indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

func newContinuityCmd(ios *cli.IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "continuity",
		Short: "Seal what an agent must keep across a compaction, and verify it after",
		Long: `An agent declares what must survive a context reset or compaction (identity
anchors, open commitments, canon pointers, live threads) in a manifest: a JSON
object of fields, each a list of items. seal stores it as a snapshot with one
probe per item ("field:0", "field:1", …) and prints its digest — publish it.
After the reset, verify checks the next instance's restatement
({"probe id": "text"}) strictly: equal after trimming whitespace, case and
punctuation counting. drop-receipt records what a compaction cut, by digest
only. Every seal, verdict, checkpoint and receipt is a row of a hash-chained
log (ctx continuity log --verify). Digests use json-c14n:v1, byte-compatible
with the reference implementation (arcaeon-continuity).

` + continuityStranger + `

` + continuityNonProofs,
		Example: `  ctx continuity seal manifest.json
  ctx continuity verify snap:3f2a9c01b7e4 --restated answers.json
  ctx continuity drop-receipt before.json after.json
  ctx continuity log --verify`,
	}
	for _, sub := range []func(*cli.IO) *cobra.Command{newContinuityDigestCmd, newContinuitySealCmd, newContinuityShowCmd,
		newContinuityVerifyCmd, newContinuityAddedSinceCmd, newContinuityDiffCmd, newContinuityCheckpointCmd,
		newContinuityDropCmd, newContinuityLogCmd} {
		c.AddCommand(sub(ios))
	}
	return c
}

// readInput reads a file, or stdin for "-", whole and bounded.
func ReadInput(ios *cli.IO, path string) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = ios.In
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxContinuityInput+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxContinuityInput {
		return nil, fmt.Errorf("read %s: larger than %d MiB; continuity inputs are manifests and item lists, not logs", path, maxContinuityInput>>20)
	}
	return data, nil
}

// badInput marks an input file's content as the problem (exit 1), naming the file.
func BadInput(what, path string, err error) error {
	return fmt.Errorf("%s %s: %w", what, path, err)
}

// ---- digest

type continuityDigestOptions struct {
	path string
	raw  bool
	json bool
}

func newContinuityDigestCmd(ios *cli.IO) *cobra.Command {
	o := &continuityDigestOptions{}
	c := &cobra.Command{
		Use:   "digest [--raw] FILE|-",
		Short: "Print the json-c14n:v1 digest of a JSON document (or of raw bytes)",
		Long: `Print the digest of a JSON document: sha256:json-c14n:v1: and the SHA-256 of
the UTF-8 of Python's json.dumps(value, sort_keys=True, separators=(',',':'),
ensure_ascii=False, allow_nan=False) — byte for byte what the reference
computes. --raw hashes the bytes as they are: sha256:raw-bytes:v1:…
NaN, Infinity, lone surrogates and integers over 4300 digits have no
canonical form and are refused, as Python refuses them.

Exit status: 0 printed; 1 the file cannot be read or is not JSON; 2 usage.`,
		Example: `  ctx continuity digest manifest.json
  echo '{"b":2,"a":1}' | ctx continuity digest -
  ctx continuity digest --raw notes.txt`,
		Args: cli.ExactArgs(1, "ctx continuity digest [--raw] FILE|-"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			return runContinuityDigest(ios, o)
		},
	}
	c.Flags().BoolVar(&o.raw, "raw", false, "hash the bytes as they are (sha256:raw-bytes:v1)")
	c.Flags().BoolVar(&o.json, "json", false, `print {"digest": …, "canonical": "…"}: the canonical text as a string (JSON input only)`)
	return c
}

func runContinuityDigest(ios *cli.IO, o *continuityDigestOptions) error {
	data, err := ReadInput(ios, o.path)
	if err != nil {
		return err
	}
	var d string
	var canon []byte
	if o.raw {
		d = continuity.RawDigest(data)
	} else {
		v, err := continuity.ParseJSON(data)
		if err != nil {
			return BadInput("digest", o.path, err)
		}
		if canon, err = continuity.Canonical(v); err != nil {
			return BadInput("digest", o.path, err)
		}
		d, _ = continuity.Digest(v)
	}
	if o.json {
		out := map[string]any{"digest": d}
		if canon != nil {
			out["canonical"] = string(canon)
		}
		return cli.WriteJSON(ios.Out, out)
	}
	_, err = fmt.Fprintln(ios.Out, d)
	return err
}

// ---- seal

type continuitySealOptions struct {
	path     string
	label    string
	idScheme string
	json     bool
}

func newContinuitySealCmd(ios *cli.IO) *cobra.Command {
	o := &continuitySealOptions{}
	c := &cobra.Command{
		Use:   "seal MANIFEST.json|-",
		Short: "Seal a manifest into a snapshot in the store and print its digest",
		Long: `Seal a manifest — a JSON object of fields, each a list of declared items or a
single value — into a self-contained snapshot (the manifest, one probe per item
and the registration of that probe set), store it, and print its digest (the
value to publish), its snap: handle and how to verify it.

Probe ids are "field:INDEX" by default. --id-scheme content derives them from
each item's value ("field:c-" and 12 hex of its digest), so removing one item
does not re-map the ids after it. An item written {"id": "ID", "value": …}
keeps the id "field:ID" under either scheme, even when its value changes. The
digest leaves out created_at: the same manifest seals to the same digest
anywhere, any time.

` + continuityStranger + `

Exit status: 0 sealed; 1 the manifest cannot be read or is not a manifest;
2 usage; 125 the store is locked or damaged.`,
		Example: `  ctx continuity seal manifest.json
  ctx continuity seal manifest.json --label nightly --id-scheme content
  ctx continuity seal - --json < manifest.json`,
		Args: cli.ExactArgs(1, "ctx continuity seal MANIFEST.json|-"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			return runContinuitySeal(ios, o)
		},
	}
	c.Flags().StringVar(&o.label, "label", "continuity", "a label stored in the snapshot (part of its digest)")
	c.Flags().StringVar(&o.idScheme, "id-scheme", continuity.SchemeIndex, "how list items are named: index (field:0) or content (field:c-HASH)")
	c.Flags().BoolVar(&o.json, "json", false, "print the snapshot record")
	return c
}

func runContinuitySeal(ios *cli.IO, o *continuitySealOptions) error {
	if o.idScheme != continuity.SchemeIndex && o.idScheme != continuity.SchemeContent {
		return cli.Usagef("--id-scheme %q: want index or content", o.idScheme)
	}
	data, err := ReadInput(ios, o.path)
	if err != nil {
		return err
	}
	snap, err := sealManifest(ios, data, o.label, o.idScheme)
	if err != nil {
		return BadInput("seal", o.path, err)
	}
	return printSnapshot(ios, snap, o.json)
}

// sealManifest seals, stores and logs a manifest.
func sealManifest(ios *cli.IO, data []byte, label, scheme string) (*continuity.Snapshot, error) {
	snap, err := continuity.Seal(data, label, scheme, time.Now())
	if err != nil {
		return nil, err
	}
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := continuity.SaveSnapshot(st, snap); err != nil {
		return nil, err
	}
	// The reference's continuity_snapshot row, plus the snapshot's own digest and handle.
	if _, err := continuity.ContinuityLog.Append(st, "continuity_snapshot", map[string]any{
		"label": snap.Label, "manifest_digest": snap.ManifestDigest, "probe_set_digest": snap.ProbeSetDigest,
		"aggregate_mean": snap.Aggregate["mean"], "snapshot": snap.Digest,
		"handle": continuity.HandleOf(continuity.SnapScheme, snap.Digest), "probes": len(snap.Probes), "id_scheme": snap.IDScheme,
	}, time.Now()); err != nil {
		return nil, err
	}
	return snap, nil
}

func printSnapshot(ios *cli.IO, snap *continuity.Snapshot, asJSON bool) error {
	if asJSON {
		rec, err := snap.Record()
		if err != nil {
			return err
		}
		return cli.WriteJSON(ios.Out, json.RawMessage(rec))
	}
	handle := continuity.HandleOf(continuity.SnapScheme, snap.Digest)
	fmt.Fprintln(ios.Out, snap.Digest)
	fmt.Fprintf(ios.Out, "%s · %s over %s · label %s · ids by %s\n", handle, count(len(snap.Probes), "probe"),
		strings.Join(snap.Fields(), ", "), snap.Label, snap.IDScheme)
	_, err := fmt.Fprintf(ios.Out, "verify a continuation: ctx continuity verify %s --restated ANSWERS.json  (answers: {\"probe id\": \"text\"}; probes: ctx continuity show %s)\n", handle, handle)
	return err
}

// ---- show

type continuityShowOptions struct {
	handle string
	json   bool
}

func newContinuityShowCmd(ios *cli.IO) *cobra.Command {
	o := &continuityShowOptions{}
	c := &cobra.Command{
		Use:   "show snap:ID|drop:ID",
		Short: "Print a snapshot's probes or a drop receipt (--json: the whole record)",
		Long: `Print a sealed snapshot after checking it against its digest: the digest, and
each probe's id with the declared value — the manifest back in the next
instance's hand. --json prints the stored record, the input a stranger hashes
to check the digest. A drop: handle prints that drop receipt the same way.

Exit status: 0 printed; 1 unknown or ambiguous handle, or a record that no
longer matches its digest; 125 the store is locked or damaged.`,
		Example: `  ctx continuity show snap:3f2a9c01b7e4
  ctx continuity show snap:3f2a9c --json
  ctx continuity show drop:8e11d0c2a9f3`,
		Args: cli.ExactArgs(1, "ctx continuity show snap:ID|drop:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runContinuityShow(ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the snapshot record")
	return c
}

func loadSnap(ios *cli.IO, handle string) (*store.Store, *continuity.Snapshot, error) {
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return nil, nil, err
	}
	snap, err := continuity.LoadSnapshot(st, handle)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, snap, nil
}

func runContinuityShow(ios *cli.IO, o *continuityShowOptions) error {
	if strings.HasPrefix(strings.TrimSpace(o.handle), continuity.DropScheme+":") {
		return showDrop(ios, o)
	}
	st, snap, err := loadSnap(ios, o.handle)
	if err != nil {
		return err
	}
	defer st.Close()
	if o.json {
		return printSnapshot(ios, snap, true)
	}
	fmt.Fprintf(ios.Out, "%s  %s  label %s  sealed %s\n", continuity.HandleOf(continuity.SnapScheme, snap.Digest), snap.Digest, snap.Label, snap.CreatedAt)
	for _, p := range snap.Probes {
		fmt.Fprintf(ios.Out, "%s\t%s\n", p.ID, quoteLine(p.Expected))
	}
	return nil
}

// showDrop prints a stored drop receipt, checked against its digest.
func showDrop(ios *cli.IO, o *continuityShowOptions) error {
	st, err := cli.OpenStore(ios, false)
	if err != nil {
		return err
	}
	defer st.Close()
	rec, err := continuity.LoadDrop(st, o.handle)
	if err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, json.RawMessage(rec))
	}
	var r continuity.DropReceipt
	if err := json.Unmarshal(rec, &r); err != nil {
		return err
	}
	fmt.Fprintf(ios.Out, "%s  %s\n", continuity.HandleOf(continuity.DropScheme, r.Digest), r.Digest)
	fmt.Fprintf(ios.Out, "before %s (%s), after %d (%s) · kept %d, dropped %d (%s), introduced %d\n",
		count(r.Pre.Count, "item"), r.Pre.Digest, r.Post.Count, r.Post.Digest, r.Kept(), r.Dropped.Count, count(r.Dropped.Bytes, "byte"), r.Introduced.Count)
	for _, d := range r.Dropped.Items {
		fmt.Fprintf(ios.Out, "dropped\t%s\n", d)
	}
	return nil
}

// quoteLine shows a value on one line: quoted when it holds a newline or tab.
func quoteLine(s string) string {
	if strings.ContainsAny(s, "\n\r\t") {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return s
}

// ---- verify

type continuityVerifyOptions struct {
	handle   string
	restated string
	tiers    string
	loose    bool
	json     bool
}

func newContinuityVerifyCmd(ios *cli.IO) *cobra.Command {
	o := &continuityVerifyOptions{}
	c := &cobra.Command{
		Use:   "verify snap:ID --restated FILE [--loose] [--tiers FILE]",
		Short: "Check a restatement against a sealed snapshot",
		Long: `Check the next instance's restatement — a JSON object {"probe id": "text"} —
against a snapshot. Strict by default: a probe is restated only if the text IS
the declared value after trimming whitespace; case and punctuation count, and
an answer that contains the anchor but says more (a repudiation can) is not
faithful. --loose scores whole-word containment instead, and the verdict's
notes say so. --tiers FILE ({"critical": [fields], "advisory": [fields]};
other fields are notable) sets each divergence's severity.

The verdict: faithful, mode, divergences (id, field, declared, restated,
reason: missing, differs, contains or not_found; severity), by_severity and
notes. It is recorded in the continuity log.

` + continuityNonProofs + `

Exit status: 0 faithful; 3 not faithful; 1 unknown snapshot, unreadable
restatement or tiers, or a snapshot that no longer matches its digest;
2 usage; 125 the store is locked or damaged.`,
		Example: `  ctx continuity verify snap:3f2a9c01b7e4 --restated answers.json
  ctx continuity verify snap:3f2a9c01b7e4 --restated answers.json --tiers tiers.json --json
  ctx continuity verify snap:3f2a9c01b7e4 --restated - --loose < answers.json`,
		Args: cli.ExactArgs(1, "ctx continuity verify snap:ID --restated FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			if o.restated == "" {
				return cli.Usagef("ctx continuity verify needs --restated FILE: the restatement, {\"probe id\": \"text\"}")
			}
			return runContinuityVerify(ios, o)
		},
	}
	c.Flags().StringVar(&o.restated, "restated", "", `the restatement: a JSON file {"probe id": "text"} (- for stdin)`)
	c.Flags().StringVar(&o.tiers, "tiers", "", `severity tiers: a JSON file {"critical": [fields], "advisory": [fields]}`)
	c.Flags().BoolVar(&o.loose, "loose", false, "score whole-word containment instead of exact restatement (labelled in the notes)")
	c.Flags().BoolVar(&o.json, "json", false, "print the verdict as JSON")
	return c
}

func readTiers(ios *cli.IO, path string) (continuity.Tiers, error) {
	if path == "" {
		return continuity.Tiers{}, nil
	}
	data, err := ReadInput(ios, path)
	if err != nil {
		return continuity.Tiers{}, err
	}
	t, err := continuity.ParseTiers(data)
	if err != nil {
		return t, BadInput("read", path, err)
	}
	return t, nil
}

func readRestated(ios *cli.IO, path string) (map[string]string, error) {
	data, err := ReadInput(ios, path)
	if err != nil {
		return nil, err
	}
	r, err := continuity.ParseRestated(data)
	if err != nil {
		return nil, BadInput("read", path, err)
	}
	return r, nil
}

func runContinuityVerify(ios *cli.IO, o *continuityVerifyOptions) error {
	restated, err := readRestated(ios, o.restated)
	if err != nil {
		return err
	}
	tiers, err := readTiers(ios, o.tiers)
	if err != nil {
		return err
	}
	return verifySnapshot(ios, o.handle, restated, tiers, o.loose, o.json)
}

// verifySnapshot checks, logs and prints a verdict; a divergent one is exit 3.
func verifySnapshot(ios *cli.IO, handle string, restated map[string]string, tiers continuity.Tiers, loose, asJSON bool) error {
	st, snap, err := loadSnap(ios, handle)
	if err != nil {
		return err
	}
	defer st.Close()
	v := continuity.Verify(snap, restated, loose, tiers)
	if err := logVerdict(st, "continuity_verify", v, nil); err != nil {
		return err
	}
	if asJSON {
		if err := cli.WriteJSON(ios.Out, v); err != nil {
			return err
		}
	} else {
		printVerdict(ios.Out, snap, v)
	}
	if !v.Faithful {
		return &cli.ExitError{Code: ExitNotFaithful}
	}
	return nil
}

// logVerdict appends a verdict row: its outcome and its digest, not its text.
func logVerdict(st *store.Store, kind string, v *continuity.Verdict, extra map[string]any) error {
	row := map[string]any{}
	for k, x := range extra {
		row[k] = x
	}
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		val, err := continuity.ParseJSON(b)
		if err != nil {
			return err
		}
		d, err := continuity.Digest(val)
		if err != nil {
			return err
		}
		row["snapshot"], row["faithful"], row["mode"], row["divergences"], row["verdict"] = v.Snapshot, v.Faithful, v.Mode, len(v.Divergences), d
	}
	_, err := continuity.ContinuityLog.Append(st, kind, row, time.Now())
	return err
}

func printVerdict(w io.Writer, snap *continuity.Snapshot, v *continuity.Verdict) {
	handle := continuity.HandleOf(continuity.SnapScheme, snap.Digest)
	if v.Faithful {
		fmt.Fprintf(w, "faithful (%s): %d/%s of %s restated\n", v.Mode, v.Probes, count(v.Probes, "probe"), handle)
	} else {
		fmt.Fprintf(w, "NOT faithful (%s): %d of %s of %s diverged (critical %d, notable %d, advisory %d)\n", v.Mode,
			len(v.Divergences), count(v.Probes, "probe"), handle, len(v.BySeverity[continuity.SeverityCritical]),
			len(v.BySeverity[continuity.SeverityNotable]), len(v.BySeverity[continuity.SeverityAdvisory]))
	}
	for _, d := range v.Divergences {
		restated := "(nothing)"
		if d.Restated != nil {
			restated = fmt.Sprintf("%q", *d.Restated)
		}
		fmt.Fprintf(w, "  %-8s %s %s: declared %q, restated %s\n", d.Severity, d.ID, d.Reason, d.Declared, restated)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// ---- added-since

type continuityAddedOptions struct {
	handle, manifest string
	json             bool
}

func newContinuityAddedSinceCmd(ios *cli.IO) *cobra.Command {
	o := &continuityAddedOptions{}
	c := &cobra.Command{
		Use:   "added-since snap:ID MANIFEST.json|-",
		Short: "Name the manifest items a sealed snapshot cannot ask about",
		Long: `A sealed probe set asks only about what it sealed: an item added to the
manifest afterwards is invisible to verify. added-since derives the manifest's
probe ids under the snapshot's id scheme and prints, by field, the ids the
snapshot never sealed (added), the sealed ids no longer declared (removed) and
those whose value changed — an id-set difference, so one item added and
another removed shows on both sides instead of netting to zero.

Exit status: 0 printed (whether or not anything was added); 1 unknown
snapshot or unreadable manifest; 2 usage; 125 the store is locked or damaged.`,
		Example: `  ctx continuity added-since snap:3f2a9c01b7e4 manifest.json
  ctx continuity added-since snap:3f2a9c01b7e4 manifest.json --json`,
		Args: cli.ExactArgs(2, "ctx continuity added-since snap:ID MANIFEST.json"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle, o.manifest = args[0], args[1]
			return runContinuityAddedSince(ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON: added, removed and changed ids by field")
	return c
}

func runContinuityAddedSince(ios *cli.IO, o *continuityAddedOptions) error {
	data, err := ReadInput(ios, o.manifest)
	if err != nil {
		return err
	}
	st, snap, err := loadSnap(ios, o.handle)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := continuity.CompareManifest(snap, data)
	if err != nil {
		return BadInput("added-since", o.manifest, err)
	}
	if o.json {
		return cli.WriteJSON(ios.Out, a)
	}
	if a.Empty() {
		fmt.Fprintf(ios.Out, "the manifest declares exactly the %s %s sealed\n", count(len(snap.Probes), "item"), continuity.HandleOf(continuity.SnapScheme, snap.Digest))
		return nil
	}
	for _, part := range []struct {
		name string
		ids  map[string][]string
	}{{"added", a.Added}, {"removed", a.Removed}, {"changed", a.Changed}} {
		for _, f := range sortedKeys(part.ids) {
			fmt.Fprintf(ios.Out, "%s\t%s\t%s\n", part.name, f, strings.Join(part.ids[f], " "))
		}
	}
	if len(a.Added) > 0 {
		fmt.Fprintln(ios.Out, "note: verify cannot ask about added items; seal the manifest again to cover them")
	}
	return nil
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ---- diff

type continuityDiffOptions struct {
	a, b, tiers string
	json        bool
}

func newContinuityDiffCmd(ios *cli.IO) *cobra.Command {
	o := &continuityDiffOptions{}
	c := &cobra.Command{
		Use:   "diff snap:A snap:B [--tiers FILE]",
		Short: "What changed between two seals: changed, added and removed items by id",
		Long: `Compare two snapshots by probe id, with no verification pass: which items
changed value, which were added and which removed, each with its field's
severity tier (--tiers FILE, as for verify).

Exit status: 0 printed; 1 unknown snapshot or unreadable tiers; 2 usage;
125 the store is locked or damaged.`,
		Example: `  ctx continuity diff snap:3f2a9c01b7e4 snap:8e11d0c2a9f3
  ctx continuity diff snap:3f2a9c snap:8e11d0 --tiers tiers.json --json`,
		Args: cli.ExactArgs(2, "ctx continuity diff snap:A snap:B"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.a, o.b = args[0], args[1]
			return runContinuityDiff(ios, o)
		},
	}
	c.Flags().StringVar(&o.tiers, "tiers", "", `severity tiers: a JSON file {"critical": [fields], "advisory": [fields]}`)
	c.Flags().BoolVar(&o.json, "json", false, "print JSON: changed, added and removed")
	return c
}

func runContinuityDiff(ios *cli.IO, o *continuityDiffOptions) error {
	tiers, err := readTiers(ios, o.tiers)
	if err != nil {
		return err
	}
	st, a, err := loadSnap(ios, o.a)
	if err != nil {
		return err
	}
	defer st.Close()
	b, err := continuity.LoadSnapshot(st, o.b)
	if err != nil {
		return err
	}
	d := continuity.DiffSeals(a, b, tiers)
	if o.json {
		return cli.WriteJSON(ios.Out, d)
	}
	fmt.Fprintf(ios.Out, "%s → %s: %d changed, %d added, %d removed\n", continuity.HandleOf(continuity.SnapScheme, a.Digest),
		continuity.HandleOf(continuity.SnapScheme, b.Digest), len(d.Changed), len(d.Added), len(d.Removed))
	show := func(p *string) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%q", *p)
	}
	for _, part := range []struct {
		name string
		l    []continuity.Change
	}{{"changed", d.Changed}, {"added", d.Added}, {"removed", d.Removed}} {
		for _, c := range part.l {
			fmt.Fprintf(ios.Out, "  %-7s %-8s %s: %s → %s\n", part.name, c.Severity, c.ID, show(c.Before), show(c.After))
		}
	}
	for _, n := range d.Notes {
		fmt.Fprintf(ios.Out, "note: %s\n", n)
	}
	return nil
}

// ---- checkpoint

type continuityCheckpointOptions struct {
	handle        string
	attempted     string
	receiptStored bool
	restated      string
	refusal       string
	refusalSet    bool
	tiers         string
	loose         bool
	json          bool
}

func newContinuityCheckpointCmd(ios *cli.IO) *cobra.Command {
	o := &continuityCheckpointOptions{}
	c := &cobra.Command{
		Use:   "checkpoint snap:ID --attempted yes|no [--receipt-stored] [--restated FILE] [--refusal TEXT]",
		Short: "Classify a scheduled restatement: refused, not attempted, no receipt, faithful or divergent",
		Long: `Classify one recurring checkpoint from three separate signals, none inferred
from another: --refusal (a reason the successor actually logged; checked
first), --attempted (was any restatement activity evidenced) and
--receipt-stored (was a durable receipt recorded). The outcome is one of
refused_explicitly, due_not_attempted, attempted_no_receipt (a restatement
passed alongside is deliberately not scored), receipt_received_faithful or
receipt_received_divergent (scored as verify does). is_unresolved is true
when no fidelity judgment was made: silence is never scored as unfaithful —
the scheduler, the delivery path or the receipt store may be what failed.

Contradictory evidence is an error, not a guess: not attempted but a
restatement or a stored receipt given; an empty restatement; a stored receipt
with nothing to verify; an empty refusal.

Exit status: 0 classified (whatever the outcome); 1 contradictory evidence,
unknown snapshot or unreadable input; 2 usage; 125 the store is locked or
damaged.`,
		Example: `  ctx continuity checkpoint snap:3f2a9c01b7e4 --attempted no
  ctx continuity checkpoint snap:3f2a9c01b7e4 --attempted yes --receipt-stored --restated answers.json
  ctx continuity checkpoint snap:3f2a9c01b7e4 --attempted yes --refusal "declined: new operator" --json`,
		Args: cli.ExactArgs(1, "ctx continuity checkpoint snap:ID --attempted yes|no"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			o.refusalSet = cmd.Flags().Changed("refusal")
			if o.attempted != "yes" && o.attempted != "no" {
				return cli.Usagef("ctx continuity checkpoint needs --attempted yes or --attempted no (was any restatement activity evidenced?)")
			}
			return runContinuityCheckpoint(ios, o)
		},
	}
	c.Flags().StringVar(&o.attempted, "attempted", "", "yes or no: was any restatement activity evidenced (required)")
	c.Flags().BoolVar(&o.receiptStored, "receipt-stored", false, "a durable receipt of the attempt was recorded")
	c.Flags().StringVar(&o.restated, "restated", "", `the restatement the receipt holds: a JSON file {"probe id": "text"}`)
	c.Flags().StringVar(&o.refusal, "refusal", "", "the reason the successor logged for declining")
	c.Flags().StringVar(&o.tiers, "tiers", "", "severity tiers for a scored restatement")
	c.Flags().BoolVar(&o.loose, "loose", false, "score a restatement by whole-word containment (labelled)")
	c.Flags().BoolVar(&o.json, "json", false, "print the checkpoint receipt as JSON")
	return c
}

func runContinuityCheckpoint(ios *cli.IO, o *continuityCheckpointOptions) error {
	ev := continuity.CheckpointEvidence{Attempted: o.attempted == "yes", ReceiptStored: o.receiptStored, Loose: o.loose}
	if o.refusalSet {
		ev.Refusal = &o.refusal
	}
	if o.restated != "" {
		r, err := readRestated(ios, o.restated)
		if err != nil {
			return err
		}
		ev.Restated = r
	}
	tiers, err := readTiers(ios, o.tiers)
	if err != nil {
		return err
	}
	ev.Tiers = tiers
	st, snap, err := loadSnap(ios, o.handle)
	if err != nil {
		return err
	}
	defer st.Close()
	r, err := continuity.Checkpoint(snap, ev)
	if err != nil {
		return err
	}
	if err := logVerdict(st, "continuity_checkpoint", r.Verdict, map[string]any{
		"snapshot": snap.Digest, "outcome": r.Outcome, "is_unresolved": r.IsUnresolved,
	}); err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, r)
	}
	unresolved := ""
	if r.IsUnresolved {
		unresolved = " (unresolved: no fidelity judgment was made)"
	}
	fmt.Fprintf(ios.Out, "%s%s\n", r.Outcome, unresolved)
	if r.Refusal != nil {
		fmt.Fprintf(ios.Out, "refusal: %q\n", *r.Refusal)
	}
	if r.Verdict != nil {
		printVerdict(ios.Out, snap, r.Verdict)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(ios.Out, "note: %s\n", n)
	}
	return nil
}

// ---- drop-receipt

type continuityDropOptions struct {
	before, after     string
	compactor, method string
	json              bool
}

func newContinuityDropCmd(ios *cli.IO) *cobra.Command {
	o := &continuityDropOptions{}
	c := &cobra.Command{
		Use:   "drop-receipt BEFORE AFTER",
		Short: "Record what a compaction dropped, by digest only",
		Long: `Compare the items of a context before and after a compaction and store a
tamper-evident receipt of what was dropped, in the reference's layout
(arcaeon-compact's receipt v2): the count, bytes and digest of each side, the
digests of the dropped items in order, the count and bytes of what the
compaction introduced (a summary), the compactor and method, and a
receipt_digest over all of it. A string item is hashed as its UTF-8 bytes
(sha256:raw-bytes:v1), any other as json-c14n:v1. No item's content enters the
receipt, so it cannot leak what it proves was dropped; whoever holds an item
can find it in the receipt (ctx continuity digest [--raw]). It proves what was
dropped, never that dropping it was wise, nor that the before side was all
there was.

Each side is a JSON file holding a list of items, a *.jsonl file of JSON
Lines, - for stdin (one side only), or a run: or blob: handle whose content is
JSON Lines (a run's stdout unless the handle names a stream).

Exit status: 0 stored; 1 a side cannot be read or is not a list of JSON
items; 2 usage; 125 the store is locked or damaged.`,
		Example: `  ctx continuity drop-receipt before.json after.json
  ctx continuity drop-receipt transcript-before.jsonl transcript-after.jsonl --compactor claude --method summary
  ctx continuity drop-receipt run:ba3d1020ee8f run:4f1c0a9e2b77 --json`,
		Args: cli.ExactArgs(2, "ctx continuity drop-receipt BEFORE AFTER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.before, o.after = args[0], args[1]
			if o.before == "-" && o.after == "-" {
				return cli.Usagef("only one side of ctx continuity drop-receipt can be stdin (-)")
			}
			return runContinuityDrop(cmd.Context(), ios, o)
		},
	}
	c.Flags().StringVar(&o.compactor, "compactor", "", "who compacted (recorded in the receipt)")
	c.Flags().StringVar(&o.method, "method", "", "how it compacted, e.g. summary or truncate (recorded in the receipt)")
	c.Flags().BoolVar(&o.json, "json", false, "print the receipt as JSON")
	return c
}

// readItems reads one side of a drop receipt.
func readItems(ios *cli.IO, st *store.Store, arg string) ([]any, error) {
	if strings.HasPrefix(arg, "run:") || strings.HasPrefix(arg, "blob:") {
		h, err := store.ParseHandle(arg)
		if err != nil {
			return nil, err
		}
		if !h.Range.IsZero() {
			return nil, cli.Usagef("%s: drop-receipt reads whole streams; drop the range (:%s)", arg, h.Range)
		}
		t, err := st.Resolve(h)
		if err != nil {
			return nil, err
		}
		var r io.Reader
		switch {
		case t.Kind == "blob":
			b, err := st.Blob(t.ID)
			if err != nil {
				return nil, err
			}
			r = b.Reader()
		case t.Stream == "merged":
			if r, _, err = st.Merged(t.Run); err != nil {
				return nil, err
			}
		default:
			stream := t.Stream
			if stream == "" {
				stream = "stdout"
			}
			ref, _ := t.Run.StreamBlob(stream)
			b, err := st.Blob(ref.Blob)
			if err != nil {
				return nil, err
			}
			r = b.Reader()
		}
		items, err := continuity.ParseJSONLines(r)
		if err != nil {
			return nil, BadInput("read", arg, err)
		}
		return items, nil
	}
	data, err := ReadInput(ios, arg)
	if err != nil {
		return nil, err
	}
	var items []any
	if strings.HasSuffix(arg, ".jsonl") {
		items, err = continuity.ParseJSONLines(bytes.NewReader(data))
	} else {
		items, err = continuity.ParseItems(data)
	}
	if err != nil {
		return nil, BadInput("read", arg, err)
	}
	return items, nil
}

func runContinuityDrop(ctx context.Context, ios *cli.IO, o *continuityDropOptions) error {
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		return err
	}
	defer st.Close()
	before, err := readItems(ios, st, o.before)
	if err != nil {
		return err
	}
	after, err := readItems(ios, st, o.after)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r, err := continuity.MakeDropReceipt(before, after, o.compactor, o.method)
	if err != nil {
		return err
	}
	if err := continuity.SaveDrop(st, r); err != nil {
		return err
	}
	handle := continuity.HandleOf(continuity.DropScheme, r.Digest)
	// The reference's compaction_receipt row: the receipt body (digests and
	// counts only), its digest, and ctx's handle for it.
	row := r.Body()
	row["receipt_digest"], row["handle"] = r.Digest, handle
	if _, err := continuity.ContinuityLog.Append(st, "compaction_receipt", row, time.Now()); err != nil {
		return err
	}
	if o.json {
		rec, err := r.Record()
		if err != nil {
			return err
		}
		return cli.WriteJSON(ios.Out, json.RawMessage(rec))
	}
	fmt.Fprintln(ios.Out, r.Digest)
	_, err = fmt.Fprintf(ios.Out, "%s · before %s, after %d · kept %d, dropped %d, introduced %d · digests only, no content\n",
		handle, count(r.Pre.Count, "item"), r.Post.Count, r.Kept(), r.Dropped.Count, r.Introduced.Count)
	return err
}

// ---- log

type continuityLogOptions struct {
	verify bool
	json   bool
}

func newContinuityLogCmd(ios *cli.IO) *cobra.Command {
	o := &continuityLogOptions{}
	c := &cobra.Command{
		Use:   "log [--verify]",
		Short: "Print the chained continuity log, or re-derive its chain",
		Long: `Print the continuity log as JSON Lines, one row per seal, verdict, checkpoint
and drop receipt, oldest first. Each row's "chain" is the first 32 hex digits
of SHA-256(previous chain + json.dumps(row without "chain",
ensure_ascii=False, sort_keys=True)), starting from "genesis" — the
reference ledger's recipe, so anyone can re-derive it from this output.
--verify re-derives the chain and names the first row that does not match
(edited, deleted or reordered).

Exit status: 0 printed, or the chain holds; 3 the chain is broken; 125 the
store is locked or damaged.`,
		Example: `  ctx continuity log
  ctx continuity log --verify
  ctx continuity log --verify --json`,
		Args: cli.ExactArgs(0, "ctx continuity log [--verify]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runContinuityLog(ios, o)
		},
	}
	c.Flags().BoolVar(&o.verify, "verify", false, "re-derive the chain and name the first row that does not match")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON: the rows as an array, or with --verify the result")
	return c
}

func runContinuityLog(ios *cli.IO, o *continuityLogOptions) error {
	st, err := cli.OpenStore(ios, false)
	if errors.Is(err, store.ErrNotFound) {
		st, err = nil, nil // no store: an empty log
	}
	if err != nil {
		return err
	}
	var rows [][]byte
	if st != nil {
		defer st.Close()
		if rows, err = continuity.ContinuityLog.Rows(st); err != nil {
			return err
		}
	}
	if !o.verify {
		if o.json {
			raw := make([]json.RawMessage, len(rows))
			for i, r := range rows {
				raw[i] = r
			}
			return cli.WriteJSON(ios.Out, raw)
		}
		for _, r := range rows {
			fmt.Fprintf(ios.Out, "%s\n", r)
		}
		return nil
	}
	b := continuity.VerifyRows(rows)
	if o.json {
		out := map[string]any{"rows": len(rows), "intact": b == nil, "head": Head(rows)}
		if b != nil {
			out["break"] = b
		}
		if err := cli.WriteJSON(ios.Out, out); err != nil {
			return err
		}
	} else if b == nil {
		fmt.Fprintf(ios.Out, "chain intact: %d rows re-derive from %q\n", len(rows), continuity.Genesis)
		if h := Head(rows); h != "" {
			fmt.Fprintf(ios.Out, "head %s — publish it elsewhere: a chain alone cannot show its newest rows cut off\n", h)
		}
	} else {
		fmt.Fprintf(ios.Out, "chain broken at row %d of %d: %s\n", b.Row, len(rows), b.Reason)
	}
	if b != nil {
		return &cli.ExitError{Code: ExitNotFaithful}
	}
	return nil
}

// head is the last row's chain value ("" for an empty log).
func Head(rows [][]byte) string {
	if len(rows) == 0 {
		return ""
	}
	v, _ := continuity.ParseJSON(rows[len(rows)-1])
	m, _ := v.(map[string]any)
	c, _ := m["chain"].(string)
	return c
}

// ---- MCP

// continuityToolLimit bounds a manifest or restatement passed to a tool.
const continuityToolLimit = 1 << 20

// addContinuityTools registers continuity_seal and continuity_verify. Their
// arguments are read from the raw request, never through float64, so the
// digest of a manifest sent over MCP is the digest of what the agent sent.
func addContinuityTools(s *mcp.Server, ios *cli.IO) {
	s.AddTool(&mcp.Tool{
		Name: "ctx_continuity_seal",
		Description: `Seal what must survive a context compaction: a manifest (a JSON object of
fields, each a list of declared items, e.g. {"identity_anchors": ["…"],
"open_commitments": ["…"]}) becomes a stored snapshot. Returns its digest (publish
it), its snap: handle and its probe ids; after the compaction, pass the handle
and your restatement {"probe id": "text"} to ctx_continuity_verify.`,
		InputSchema: json.RawMessage(`{"type":"object","required":["manifest"],"properties":{
"manifest":{"type":"object","description":"the declared manifest: fields → lists of items (or {\"id\", \"value\"} items)"},
"label":{"type":"string","description":"a label stored in the snapshot (default continuity)"},
"id_scheme":{"type":"string","enum":["index","content"],"description":"probe ids by position (field:0, default) or by content"}}}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := toolArgs(req)
		if err != nil {
			return hostsmcp.Error(err, ""), nil
		}
		manifest, err := continuity.Canonical(args["manifest"])
		if err != nil || args["manifest"] == nil {
			return hostsmcp.Error(fmt.Errorf("manifest: want a JSON object of declared fields"), ""), nil
		}
		label, _ := args["label"].(string)
		scheme, _ := args["id_scheme"].(string)
		if label == "" {
			label = "continuity"
		}
		if scheme == "" {
			scheme = continuity.SchemeIndex
		}
		var out, errb bytes.Buffer
		in := cli.Buffered(ios, &out, &errb)
		snap, err := sealManifest(in, manifest, label, scheme)
		if err != nil {
			return hostsmcp.Error(err, errb.String()), nil
		}
		if err := printSnapshot(in, snap, false); err != nil {
			return hostsmcp.Error(err, errb.String()), nil
		}
		var ids []string
		for _, p := range snap.Probes {
			ids = append(ids, p.ID)
		}
		return hostsmcp.Text(out.String() + "probe ids: " + strings.Join(ids, ", ") + "\n"), nil
	})
	s.AddTool(&mcp.Tool{
		Name: "ctx_continuity_verify",
		Description: `Check a restatement against a sealed snapshot (by its snap: handle). restated
is {"probe id": "text"}; strict by default: each text must BE the declared value
(whitespace trimmed; case and punctuation count). Returns the verdict as JSON:
faithful, mode, divergences (id, field, declared, restated, reason, severity),
by_severity, notes. A faithful verdict proves the declared items were restated,
not that they were acted on, nor anything about what was never declared.`,
		InputSchema: json.RawMessage(`{"type":"object","required":["snapshot","restated"],"properties":{
"snapshot":{"type":"string","description":"the snapshot handle, snap:ID, or its digest"},
"restated":{"type":"object","description":"{\"probe id\": \"restated text\"}"},
"loose":{"type":"boolean","description":"whole-word containment instead of exact restatement (labelled in notes)"},
"tiers":{"type":"object","description":"{\"critical\": [fields], \"advisory\": [fields]}"}}}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := toolArgs(req)
		if err != nil {
			return hostsmcp.Error(err, ""), nil
		}
		handle, _ := args["snapshot"].(string)
		restated, err := continuity.Canonical(args["restated"])
		if err != nil || handle == "" || args["restated"] == nil {
			return hostsmcp.Error(errors.New(`give snapshot (snap:ID) and restated ({"probe id": "text"})`), ""), nil
		}
		loose, _ := args["loose"].(bool)
		r, err := continuity.ParseRestated(restated)
		if err != nil {
			return hostsmcp.Error(err, ""), nil
		}
		var tiers continuity.Tiers
		if t, ok := args["tiers"]; ok && t != nil {
			tb, err := continuity.Canonical(t)
			if err == nil {
				tiers, err = continuity.ParseTiers(tb)
			}
			if err != nil {
				return hostsmcp.Error(fmt.Errorf("tiers: %w", err), ""), nil
			}
		}
		var out, errb bytes.Buffer
		err = verifySnapshot(cli.Buffered(ios, &out, &errb), handle, r, tiers, loose, true)
		if code, failed := cli.ExitOf(err); failed || (code != 0 && code != ExitNotFaithful) {
			return hostsmcp.Error(err, errb.String()), nil
		}
		return hostsmcp.Text(boundVerdict(out.Bytes(), hostsmcp.ResultLimit)), nil
	})
}

// boundVerdict keeps a verdict's JSON within limit bytes by listing only the
// first divergences (by_severity still names every one) and saying so, so the
// result stays valid JSON instead of being cut mid-value.
func boundVerdict(data []byte, limit int) string {
	if len(data) <= limit {
		return string(data)
	}
	var v continuity.Verdict
	if err := json.Unmarshal(data, &v); err != nil {
		return string(data)
	}
	all := v.Divergences
	for n := len(all) / 2; n >= 0; n /= 2 {
		v.Divergences = all[:n]
		v.Notes = append(v.Notes[:len(v.Notes):len(v.Notes)], fmt.Sprintf("only the first %d of %d divergences are listed here (by_severity names them all); run ctx continuity verify --json for every one", n, len(all)))
		var b bytes.Buffer
		if err := cli.WriteJSON(&b, v); err == nil && b.Len() <= limit {
			return b.String()
		}
		if n == 0 {
			break
		}
	}
	return string(data)
}

// toolArgs reads a tool call's arguments as json-c14n values (exact numbers).
func toolArgs(req *mcp.CallToolRequest) (map[string]any, error) {
	raw := req.Params.Arguments
	if len(raw) > continuityToolLimit {
		return nil, fmt.Errorf("arguments of %d bytes: the limit is %d", len(raw), continuityToolLimit)
	}
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	v, err := continuity.ParseJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("arguments: want a JSON object")
	}
	return m, nil
}

// count is n and word, plural unless n is 1: "1 probe", "4 probes".
func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
