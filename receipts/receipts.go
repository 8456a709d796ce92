// Package receipts defines, decodes and reads back digest receipts: the
// durable account of what a digest showed (the plan it was rendered under and
// its coverage). Making a digest and replaying a receipt are package digest's;
// storing receipts and listing them is the store's, through the types here.
//
// A receipt holds no times, pids or absolute paths (benchmark receipts, which
// record machine facts, are the exception and are never replayed for bytes).
package receipts

import (
	"encoding/json"
	"fmt"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/jsonenc"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/store"
)

// Version of the digest receipt format.
const Version = 1

// KindDigest is the Kind of a digest receipt.
const KindDigest = "digest"

// Receipt is a digest receipt.
type Receipt struct {
	Kind     string            `json:"kind"` // "digest"
	Version  int               `json:"version"`
	Run      string            `json:"run"` // run:<full id>
	Plan     plan.Plan         `json:"plan"`
	Coverage contract.Coverage `json:"coverage"`
	Digest   string            `json:"digest"`           // blob:<full id> of the digest text
	Census   string            `json:"census,omitempty"` // blob:<full id> of the census list (flood)
	// Secrets is the rule set the digest was redacted under and the
	// distinct secrets it redacted, by rule.
	Secrets Secrets `json:"secrets"`
	// Refs are the records this receipt keeps alive in gc.
	Refs []string `json:"refs"`
	// Anchors are the repo: handles minted for failure locations (item id
	// to handle), kept so a replay renders them without reading the tree.
	Anchors map[string]string `json:"anchors,omitempty"`
}

// Secrets records a digest's redaction.
type Secrets struct {
	Rules    string         `json:"rules"`
	Redacted map[string]int `json:"redacted,omitempty"`
}

// Marshal is json.Marshal(r), by hand for the receipt of a run without
// losses or redactions (every `ctx run`'s first use of encoding/json for
// these types would build their encoders by reflection); others go through
// encoding/json. TestMarshalIsEncodingJSON holds the two equal.
func (r *Receipt) Marshal() ([]byte, error) {
	if len(r.Secrets.Redacted) > 0 {
		return json.Marshal(r)
	}
	b := append(make([]byte, 0, 1024), `{"kind":`...)
	b = jsonenc.String(b, r.Kind)
	b = append(b, `,"version":`...)
	b = jsonenc.Int(b, r.Version)
	b = append(b, `,"run":`...)
	b = jsonenc.String(b, r.Run)
	b = append(b, `,"plan":`...)
	b = r.Plan.AppendJSON(b)
	b = append(b, `,"coverage":`...)
	b, ok := r.Coverage.AppendJSON(b)
	if !ok {
		return json.Marshal(r)
	}
	b = append(b, `,"digest":`...)
	b = jsonenc.String(b, r.Digest)
	if r.Census != "" {
		b = append(b, `,"census":`...)
		b = jsonenc.String(b, r.Census)
	}
	b = append(b, `,"secrets":{"rules":`...)
	b = jsonenc.String(b, r.Secrets.Rules)
	b = append(b, `},"refs":`...)
	b = jsonenc.Strings(b, r.Refs)
	if len(r.Anchors) > 0 {
		b = append(b, `,"anchors":`...)
		b = jsonenc.StringMap(b, r.Anchors)
	}
	return append(b, '}'), nil
}

// Decode parses a stored digest receipt.
func Decode(data []byte) (*Receipt, error) {
	var r Receipt
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("receipt: %v: %w", err, store.ErrCorrupt)
	}
	return &r, nil
}

// RunID is the id of the run the receipt describes. A reference that is not
// run:<id> is reported as corrupt, never sliced blindly.
func (r *Receipt) RunID() (store.ID, error) {
	return store.ParseRef(store.KindRun, r.Run)
}

// DigestID is the id of the blob holding the digest text.
func (r *Receipt) DigestID() (store.ID, error) {
	return store.ParseRef(store.KindBlob, r.Digest)
}

// DigestText returns the stored digest bytes of a receipt.
func DigestText(st *store.Store, r *Receipt) ([]byte, error) {
	id, err := r.DigestID()
	if err != nil {
		return nil, err
	}
	b, err := st.Blob(id)
	if err != nil {
		return nil, err
	}
	return b.ReadAll()
}
