package seq

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/store"
)

// Version is the record and digest format's version: 2 wrote rows as #N
// with upper-bound duration buckets and findings unindented; 3 leaves out
// the <1s bucket, the header's exit status (the first failing row's) and
// skipped count (the rows list them), cuts default names to the words that
// tell the steps apart, and may show a passing step's whole output under
// its row.
const Version = 3

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

	saved bool // stored by Run with the last steps' runs
	// id is the id as render computed it (zero before): the steps and
	// exit status do not change once the record is rendered.
	id store.ID
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
	if !rec.id.IsZero() {
		return rec.id
	}
	b, _ := json.Marshal(struct {
		Steps []StepResult `json:"steps"`
		Exit  int          `json:"exit"`
	}{rec.Steps, rec.Exit})
	return store.Sum(append([]byte("ctx-seq-v3\n"), b...))
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

// Save stores the record under its id; the same record again is a no-op,
// and so is a record Run stored already (in one transaction with its last
// steps' runs).
func Save(st *store.Store, rec *Record) (store.ID, error) {
	if rec.saved {
		return rec.ID(), nil
	}
	put, err := rec.layerPut()
	if err != nil {
		return rec.ID(), err
	}
	if _, err := st.PutLayerRecord(put.Bucket, put.Key, put.Value); err != nil {
		return rec.ID(), fmt.Errorf("store seq record: %w", err)
	}
	return rec.ID(), nil
}

// layerPut is the record as the store keeps it.
func (rec *Record) layerPut() (store.LayerPut, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return store.LayerPut{}, fmt.Errorf("encode seq record: %w", err)
	}
	return store.LayerPut{Bucket: LayerBucket, Key: []byte(rec.ID().String()), Value: data}, nil
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
	// What follows the step is the step's run's stream and range: checked
	// here, so an error names the handle as given, not the run's it becomes.
	if why := store.CheckPart(ref.Rest); why != "" {
		return Ref{}, fmt.Errorf("handle %q: %s; a step takes #stdout, #stderr or #merged, a range :L40-52 or :B0-4096, or both (%s:ID#2#stderr:L40-52): %w",
			s, why, scheme, store.ErrBadHandle)
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
