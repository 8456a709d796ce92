package continuity

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/internal/lines"
)

// Record schemas, as the reference names them. A ctx snapshot record has the
// reference's layout, so its digest is the reference's digest of the same
// manifest, and the reference's ContinuitySnapshot.from_dict validates it.
const (
	SnapshotSchema     = "arcaeon-continuity:snapshot:v1"
	RegistrationSchema = "arcaeon-baseline:registration:v1"
	ScoringSemantics   = "arcaeon-baseline:scoring:v2"
)

// StrangerCheck is a python3 program that checks a snapshot record (on stdin)
// with nothing but Python's standard library: it recomputes the manifest and
// probe-set digests from the content and the snapshot digest from those, and
// prints True when the record's digest is that digest.
const StrangerCheck = `import json,hashlib,sys
d=lambda v:"sha256:json-c14n:v1:"+hashlib.sha256(json.dumps(v,sort_keys=True,separators=(",",":"),ensure_ascii=False,allow_nan=False).encode()).hexdigest()
s=json.load(sys.stdin);r=s["registration"]
c={"schema":s["schema"],"manifest_digest":d(s["manifest"]),"probe_set_digest":d(sorted(s["probes"],key=lambda p:p["id"])),"registration_items":r["items"],"registration_aggregate":r["aggregate"]}
if s.get("id_scheme","index")!="index":c["id_scheme"]=s["id_scheme"]
print(d(c)==s["digest"])`

// Errors of this package, for errors.Is.
var (
	// ErrBadManifest: the manifest is not a JSON object of declared fields.
	ErrBadManifest = errors.New("bad manifest")
	// ErrTampered: a stored snapshot or receipt no longer reproduces its
	// digests, or its probes are not the ones its manifest declares.
	ErrTampered = errors.New("does not match its digest")
	// ErrContradiction: checkpoint evidence that cannot all be true.
	ErrContradiction = errors.New("contradictory evidence")
)

// Snapshot is a self-contained sealed manifest: the manifest, its probes and
// the registration of the baseline (the manifest answering its own probes),
// which travel together so a later restatement can be checked with nothing
// else. Digest covers schema, manifest digest, probe-set digest, the
// registration's items and aggregate, and the id scheme when it is not
// "index" — never created_at or the label.
type Snapshot struct {
	Label     string
	IDScheme  string
	Manifest  map[string]any
	Probes    []Probe
	CreatedAt string // volatile: not in the digest

	ManifestDigest string
	ProbeSetDigest string
	Items          []any          // the registration's scored items
	Aggregate      map[string]any // the registration's aggregate
	Digest         string
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
	if label == "" {
		label = "continuity"
	}
	if scheme == "" {
		scheme = SchemeIndex
	}
	s := &Snapshot{Label: label, IDScheme: scheme, Manifest: m}
	if !now.IsZero() {
		s.CreatedAt = now.UTC().Format("2006-01-02T15:04:05Z")
	}
	if err := s.derive(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadManifest, err)
	}
	return s, nil
}

// derive computes everything that follows from the manifest, label and scheme.
func (s *Snapshot) derive() error {
	probes, err := Probes(s.Manifest, s.IDScheme)
	if err != nil {
		return err
	}
	if len(probes) == 0 {
		return errors.New("the manifest declares zero items (every field is an empty list): nothing to restate")
	}
	s.Probes = probes
	if s.ManifestDigest, err = Digest(s.Manifest); err != nil {
		return err
	}
	s.ProbeSetDigest = probeSetDigest(probes)
	s.Items, s.Aggregate = register(probes)
	s.Digest, err = Digest(s.core())
	return err
}

// probeSetDigest is arcaeon-baseline's probe-set digest: the probe records
// sorted by id.
func probeSetDigest(probes []Probe) string {
	sorted := slices.Clone(probes)
	slices.SortFunc(sorted, func(a, b Probe) int { return strings.Compare(a.ID, b.ID) })
	d, _ := Digest(probeRecords(sorted))
	return d
}

func probeRecords(probes []Probe) []any {
	out := make([]any, len(probes))
	for i, p := range probes {
		out[i] = map[string]any{"id": p.ID, "prompt": p.Prompt, "scoring": map[string]any{"type": ScorerExact, "answer": p.Expected}}
	}
	return out
}

var ansiRE = lines.Lazy(`\x1b(?:\[[0-9;?]*[a-zA-Z]|[()][0-9A-B]|[=>])`)

// register is the reference baseline's registration of the identity runner:
// every probe answered with its own declared value and scored exact_match —
// 1.0 ("exact") unless the declared value normalises to nothing, which the
// scorer cannot match (0.0, "empty expected answer").
func register(probes []Probe) ([]any, map[string]any) {
	items := make([]any, len(probes))
	sum := 0.0
	for i, p := range probes {
		score, detail := 1.0, map[string]any{"match": "exact"}
		norm := strings.TrimRight(trimPython(ansiRE.ReplaceAllString(p.Expected, "")), ".!?")
		if norm == "" {
			score, detail = 0.0, map[string]any{"reason": "empty expected answer"}
		}
		sum += score
		items[i] = map[string]any{"id": p.ID, "prompt": p.Prompt, "scoring_type": ScorerExact, "output": p.Expected,
			"score": score, "max_score": 1.0, "detail": detail}
	}
	n := len(probes)
	mean := sum / float64(n)
	agg := map[string]any{"n": n, "n_scored": n, "n_errors": 0, "sum": sum, "mean": mean,
		"by_type": map[string]any{ScorerExact: map[string]any{"n": n, "sum": sum, "mean": mean}}}
	return items, agg
}

// core is the digested part of the snapshot, as the reference defines it.
func (s *Snapshot) core() map[string]any {
	c := map[string]any{
		"schema":                 SnapshotSchema,
		"manifest_digest":        s.ManifestDigest,
		"probe_set_digest":       s.ProbeSetDigest,
		"registration_items":     s.Items,
		"registration_aggregate": s.Aggregate,
	}
	if s.IDScheme != SchemeIndex {
		c["id_scheme"] = s.IDScheme
	}
	return c
}

// registration is the registration record the snapshot carries.
func (s *Snapshot) registration() map[string]any {
	items, agg := s.Items, s.Aggregate
	itemsDigest, _ := Digest(map[string]any{"items": items, "aggregate": agg})
	r := map[string]any{
		"schema": RegistrationSchema, "scoring_semantics": ScoringSemantics, "label": s.Label,
		"probe_set_digest": s.ProbeSetDigest, "probe_count": len(s.Probes), "probes_path": nil,
		"runner": map[string]any{"type": "manifest-declared", "by": "ctx"},
		"items":  items, "aggregate": agg, "items_digest": itemsDigest,
	}
	if s.CreatedAt != "" {
		r["registered_at"] = s.CreatedAt
	}
	return r
}

// Record is the snapshot as stored and printed: the reference's to_dict()
// layout, as json-c14n:v1 bytes.
func (s *Snapshot) Record() ([]byte, error) {
	rec := map[string]any{
		"schema": SnapshotSchema, "label": s.Label, "manifest": s.Manifest, "manifest_digest": s.ManifestDigest,
		"probes": probeRecords(s.Probes), "probe_set_digest": s.ProbeSetDigest, "registration": s.registration(),
		"ledger_chain": nil, "ledger_path": nil, "created_at": s.CreatedAt, "id_scheme": s.IDScheme, "digest": s.Digest,
	}
	return Canonical(rec)
}

// DecodeSnapshot reads a snapshot record and checks it the way the reference
// validates one, and more: the manifest, probe-set and registration digests
// must reproduce from the content they claim to digest; the probes must be
// exactly the ones the manifest declares under the record's id scheme; and
// the digest must be the digest of that content. A record changed after
// sealing — or an exam changed under it — is refused with ErrTampered.
func DecodeSnapshot(data []byte) (*Snapshot, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("snapshot: not a JSON object")
	}
	if obj["schema"] != SnapshotSchema {
		return nil, fmt.Errorf("snapshot: schema %v, want %s", obj["schema"], SnapshotSchema)
	}
	str := func(k string) string { s, _ := obj[k].(string); return s }
	manifest, ok := obj["manifest"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("snapshot: the manifest is not an object: %w", ErrTampered)
	}
	s := &Snapshot{Label: str("label"), IDScheme: str("id_scheme"), Manifest: manifest, CreatedAt: str("created_at")}
	if s.IDScheme == "" {
		s.IDScheme = SchemeIndex // absent on the reference's 0.1.0 records
	}
	claimed := str("digest")
	if err := s.derive(); err != nil {
		return nil, fmt.Errorf("snapshot %s: %v: %w", claimed, err, ErrTampered)
	}
	stored, err := Canonical(obj["probes"])
	if err != nil {
		return nil, fmt.Errorf("snapshot probes: %w", err)
	}
	derived, _ := Canonical(probeRecords(s.Probes))
	reg, _ := obj["registration"].(map[string]any)
	var regCore []byte
	if reg != nil {
		regCore, _ = Canonical(map[string]any{"items": reg["items"], "aggregate": reg["aggregate"], "p": reg["probe_set_digest"]})
	}
	wantCore, _ := Canonical(map[string]any{"items": s.Items, "aggregate": s.Aggregate, "p": s.ProbeSetDigest})
	switch {
	case str("manifest_digest") != s.ManifestDigest:
		return nil, fmt.Errorf("snapshot %s: manifest_digest does not reproduce from the manifest (content digests to %s): %w", claimed, s.ManifestDigest, ErrTampered)
	case string(stored) != string(derived):
		return nil, fmt.Errorf("snapshot %s: its probes are not the ones its manifest declares: %w", claimed, ErrTampered)
	case str("probe_set_digest") != s.ProbeSetDigest:
		return nil, fmt.Errorf("snapshot %s: probe_set_digest does not reproduce from the probes: %w", claimed, ErrTampered)
	case string(regCore) != string(wantCore):
		return nil, fmt.Errorf("snapshot %s: its registration is not the sealed baseline of its probes, so no comparison against it is valid: %w", claimed, ErrTampered)
	case claimed != s.Digest:
		return nil, fmt.Errorf("snapshot %s: its content hashes to %s: %w", claimed, s.Digest, ErrTampered)
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
