package continuity

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// SnapshotFormat names the layout of a snapshot record; it is part of the digest.
const SnapshotFormat = "ctx-continuity-snapshot/v1"

// Errors of this package, for errors.Is.
var (
	// ErrBadManifest: the manifest is not a JSON object of declared fields.
	ErrBadManifest = errors.New("bad manifest")
	// ErrTampered: a stored snapshot or receipt no longer hashes to its digest,
	// or its probe set no longer matches its registration.
	ErrTampered = errors.New("does not match its digest")
	// ErrContradiction: checkpoint evidence that cannot all be true.
	ErrContradiction = errors.New("contradictory evidence")
)

// Registration pre-registers the exam a snapshot seals: which scorer, which
// probes (by digest) and the baseline the declared manifest scores against
// itself (every probe answered with its own declared value, so all match).
type Registration struct {
	Scorer   string   `json:"scorer"`    // ScorerExact
	ProbeSet string   `json:"probe_set"` // the digest of the probes
	Manifest string   `json:"manifest"`  // the digest of the manifest
	Baseline Baseline `json:"baseline"`
}

// Baseline is the sealed score: how many probes the manifest itself answers.
type Baseline struct {
	Probes  int `json:"probes"`
	Matched int `json:"matched"`
}

// Snapshot is a self-contained sealed manifest: everything needed to check a
// later restatement travels inside it. Digest covers every field except
// CreatedAt and Digest itself.
type Snapshot struct {
	Format       string          `json:"format"`
	Label        string          `json:"label"`
	IDScheme     string          `json:"id_scheme"`
	Manifest     json.RawMessage `json:"manifest"` // json-c14n:v1 bytes of the declared manifest
	Probes       []Probe         `json:"probes"`
	Registration Registration    `json:"registration"`
	CreatedAt    string          `json:"created_at,omitempty"` // volatile: not in the digest
	Digest       string          `json:"digest"`
}

// Seal builds the snapshot of a manifest (a JSON document: an object whose
// fields are lists of declared items or single values).
func Seal(manifestJSON []byte, label, scheme string, now time.Time) (*Snapshot, error) {
	v, err := ParseJSON(manifestJSON)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadManifest, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: want a JSON object of fields, e.g. {\"identity_anchors\": [\"…\"], \"open_commitments\": [\"…\"]}", ErrBadManifest)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("%w: it declares no fields; a seal of nothing proves nothing", ErrBadManifest)
	}
	if label == "" {
		label = "continuity"
	}
	if scheme == "" {
		scheme = SchemeIndex
	}
	probes, err := Probes(m, scheme)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadManifest, err)
	}
	if len(probes) == 0 {
		return nil, fmt.Errorf("%w: every field is an empty list, so there is nothing to restate; declare at least one item", ErrBadManifest)
	}
	canon, err := Canonical(m)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadManifest, err)
	}
	md, _ := Digest(m)
	s := &Snapshot{Format: SnapshotFormat, Label: label, IDScheme: scheme, Manifest: canon, Probes: probes,
		Registration: Registration{Scorer: ScorerExact, ProbeSet: probeSetDigest(probes), Manifest: md,
			Baseline: Baseline{Probes: len(probes), Matched: len(probes)}}}
	if !now.IsZero() {
		s.CreatedAt = now.UTC().Format(time.RFC3339)
	}
	if s.Digest, err = s.computeDigest(); err != nil {
		return nil, err
	}
	return s, nil
}

func probeSetDigest(probes []Probe) string {
	d, _ := Digest(probesValue(probes))
	return d
}

func probesValue(probes []Probe) []any {
	out := make([]any, len(probes))
	for i, p := range probes {
		out[i] = map[string]any{"id": p.ID, "field": p.Field, "prompt": p.Prompt, "expected": p.Expected, "scorer": p.Scorer}
	}
	return out
}

// content is the digested part of the snapshot, as a json-c14n:v1 value.
func (s *Snapshot) content() (map[string]any, error) {
	m, err := ParseJSON(s.Manifest)
	if err != nil {
		return nil, fmt.Errorf("snapshot manifest: %w", err)
	}
	r := s.Registration
	return map[string]any{
		"format": s.Format, "label": s.Label, "id_scheme": s.IDScheme, "manifest": m,
		"probes": probesValue(s.Probes),
		"registration": map[string]any{"scorer": r.Scorer, "probe_set": r.ProbeSet, "manifest": r.Manifest,
			"baseline": map[string]any{"probes": r.Baseline.Probes, "matched": r.Baseline.Matched}},
	}, nil
}

func (s *Snapshot) computeDigest() (string, error) {
	c, err := s.content()
	if err != nil {
		return "", err
	}
	return Digest(c)
}

// Record is the snapshot as stored and printed: its json-c14n:v1 content plus
// created_at and digest.
func (s *Snapshot) Record() ([]byte, error) {
	c, err := s.content()
	if err != nil {
		return nil, err
	}
	if s.CreatedAt != "" {
		c["created_at"] = s.CreatedAt
	}
	c["digest"] = s.Digest
	return Canonical(c)
}

// ManifestValue is the declared manifest, back in the next instance's hand.
func (s *Snapshot) ManifestValue() (map[string]any, error) {
	v, err := ParseJSON(s.Manifest)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("snapshot manifest is not an object: %w", ErrTampered)
	}
	return m, nil
}

// DecodeSnapshot reads a snapshot record and checks it: its digest must be
// the digest of its content, and its probes the registered probe set, or the
// record was changed after sealing.
func DecodeSnapshot(data []byte) (*Snapshot, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("snapshot: not a JSON object")
	}
	if obj["format"] != SnapshotFormat {
		return nil, fmt.Errorf("snapshot: format %v, want %s", obj["format"], SnapshotFormat)
	}
	s := &Snapshot{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	// The manifest as json.Unmarshal saw it is the raw text; keep its
	// canonical form (numbers and escapes as Python writes them).
	if s.Manifest, err = Canonical(obj["manifest"]); err != nil {
		return nil, fmt.Errorf("snapshot manifest: %w", err)
	}
	// The stranger's check: the record without its volatile fields hashes to
	// its digest. And ctx's reading of it must be that same record, so a field
	// ctx would ignore cannot ride along unhashed.
	delete(obj, "created_at")
	delete(obj, "digest")
	asStored, err := Digest(obj)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	want, err := s.computeDigest()
	if err != nil {
		return nil, err
	}
	if asStored != s.Digest || want != s.Digest {
		return nil, fmt.Errorf("snapshot %s: its content hashes to %s: %w", s.Digest, asStored, ErrTampered)
	}
	m, err := s.ManifestValue()
	if err != nil {
		return nil, err
	}
	derived, err := Probes(m, s.IDScheme)
	if err != nil || probeSetDigest(derived) != probeSetDigest(s.Probes) {
		return nil, fmt.Errorf("snapshot %s: its probes are not the ones its manifest declares: %w", s.Digest, ErrTampered)
	}
	if probeSetDigest(s.Probes) != s.Registration.ProbeSet {
		return nil, fmt.Errorf("snapshot %s: the probe set changed after it was registered, so no comparison against it is valid: %w", s.Digest, ErrTampered)
	}
	return s, nil
}

// Fields lists the manifest fields that have probes, sorted.
func (s *Snapshot) Fields() []string {
	var out []string
	for _, p := range s.Probes {
		if !slices.Contains(out, p.Field) {
			out = append(out, p.Field)
		}
	}
	slices.Sort(out)
	return out
}
