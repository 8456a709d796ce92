package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Target is what a handle names: a run (and one of its streams), a blob, or a
// receipt, with the range the handle selects.
type Target struct {
	Kind    Kind   // KindRun, KindBlob or KindReceipt
	ID      ID     // the run, blob or receipt id
	Run     *Run   // for runs
	Stream  string // for runs: stdout, stderr or merged ("" when the handle named none)
	Range   Range
	Receipt []byte // for receipts: the stored JSON
}

// Handle is the canonical handle of the target, with the short id.
func (t *Target) Handle() Handle {
	return Handle{Scheme: t.Kind, Prefix: t.ID.Short(), Stream: t.Stream, Range: t.Range}
}

// StreamBlob returns the blob id of a run's stream.
func (r *Run) StreamBlob(stream string) (StreamRef, bool) {
	switch stream {
	case "stdout":
		return r.Manifest.Stdout, true
	case "stderr":
		return r.Manifest.Stderr, true
	}
	return StreamRef{}, false
}

// DefaultStream is the stream a run handle without one reads: the only stream
// with output, or merged when both have some.
func (r *Run) DefaultStream() string {
	switch {
	case r.Manifest.Stderr.Size == 0:
		return "stdout"
	case r.Manifest.Stdout.Size == 0:
		return "stderr"
	}
	return "merged"
}

// Span is a span token's record: lines from..to of a run's stream.
type Span struct {
	Run    ID     `json:"run"`
	Stream string `json:"stream"`
	Kind   string `json:"kind"` // what the lines are: "item" (a digest's item)…
	From   int64  `json:"from"`
	To     int64  `json:"to"`
}

// Token is the span's id: a pure function of the stream's blob, the kind and
// the range, so the same span always gets the same token.
func (sp Span) Token(run *Run) (ID, error) {
	ref, ok := run.StreamBlob(sp.Stream)
	if !ok {
		return ID{}, fmt.Errorf("span token: stream %q: %w", sp.Stream, ErrBadHandle)
	}
	return Sum([]byte(fmt.Sprintf("ctx-span-v1\x00%s\x00%s\x00%d-%d", ref.Blob, sp.Kind, sp.From, sp.To))), nil
}

func putSpan(tx *bolt.Tx, tok ID, sp Span) error {
	rec, _ := json.Marshal(sp)
	return tx.Bucket(bucketSpans).Put(tok[:], rec)
}

// Resolve finds what a handle names. A prefix that matches nothing is
// ErrNotFound; one that matches several records is an *AmbiguousError listing
// them.
func (s *Store) Resolve(h Handle) (*Target, error) {
	var t *Target
	err := s.view(func(tx *bolt.Tx) error {
		type cand struct {
			kind Kind
			id   ID
		}
		var cands []cand
		kinds := []Kind{h.Scheme}
		if h.Scheme == "" {
			kinds = []Kind{KindRun, KindBlob, KindReceipt}
		}
		for _, kind := range kinds {
			for _, id := range matchPrefix(tx.Bucket(bucketFor(kind)), h.Prefix) {
				cands = append(cands, cand{kind, id})
			}
		}
		switch {
		case len(cands) == 0:
			name := string(h.Scheme)
			if name == "" {
				name = "run, blob or receipt"
			}
			return hint(fmt.Errorf("%s: no %s with that id: %w", h, name, ErrNotFound),
				"list recent runs with `ctx ls`; handles belong to the store they were made in (%s)", s.dir)
		case len(cands) > 1:
			names := make([]string, len(cands))
			ids := make([]ID, len(cands))
			for i, c := range cands {
				ids[i] = c.id
			}
			n := distinguishing(ids)
			for i, c := range cands {
				names[i] = Handle{Scheme: c.kind, Prefix: c.id.String()[:n]}.String()
			}
			sort.Strings(names)
			return &AmbiguousError{Prefix: h.Prefix, Candidates: names}
		}
		c := cands[0]
		t = &Target{Kind: c.kind, ID: c.id, Stream: h.Stream, Range: h.Range}
		switch c.kind {
		case KindRun:
			run, err := decodeRun(tx, c.id)
			if err != nil {
				return err
			}
			t.Run = run
		case KindSpan:
			var rec Span
			if err := json.Unmarshal(tx.Bucket(bucketSpans).Get(c.id[:]), &rec); err != nil {
				return fmt.Errorf("span:%s record: %v: %w", c.id.Short(), err, ErrCorrupt)
			}
			run, err := decodeRun(tx, rec.Run)
			if err != nil {
				return err
			}
			// The token is a hash of what the span names: a record that
			// no longer hashes to it would return the wrong lines.
			if tok, err := rec.Token(run); err != nil || tok != c.id {
				return fmt.Errorf("span:%s record does not hash to its token: %w", c.id.Short(), ErrCorrupt)
			}
			t.Kind, t.ID, t.Run, t.Stream = KindRun, run.ID, run, rec.Stream
			t.Range = Range{Unit: 'L', From: rec.From, To: rec.To}
		case "receipt":
			t.Receipt = bytes.Clone(tx.Bucket(bucketReceipts).Get(c.id[:]))
		}
		return nil
	})
	if isEmpty(err) {
		return nil, hint(fmt.Errorf("%s: the store is empty: %w", h, ErrNotFound), "run a command with `ctx run -- CMD` first")
	}
	return t, err
}

func decodeRun(tx *bolt.Tx, id ID) (*Run, error) {
	v := tx.Bucket(bucketRuns).Get(id[:])
	if v == nil {
		return nil, fmt.Errorf("run:%s: %w", id.Short(), ErrNotFound)
	}
	run := &Run{}
	if err := json.Unmarshal(v, run); err != nil {
		return nil, fmt.Errorf("run:%s record: %v: %w", id.Short(), err, ErrCorrupt)
	}
	// The run id is the hash of its manifest: a record that no longer
	// hashes to its key has been damaged.
	if run.ID != id || run.Manifest.ID() != id {
		return nil, fmt.Errorf("run:%s record does not hash to its id: %w", id.Short(), ErrCorrupt)
	}
	return run, nil
}

func bucketFor(kind Kind) []byte {
	switch kind {
	case KindRun:
		return bucketRuns
	case KindBlob:
		return bucketBlobs
	case KindSpan:
		return bucketSpans
	case KindReceipt:
		return bucketReceipts
	}
	return nil
}

// matchPrefix lists the ids in a bucket keyed by ID that start with a hex
// prefix. It stops after a few matches: an ambiguity needs only a short list.
func matchPrefix(b *bolt.Bucket, prefix string) []ID {
	if b == nil {
		return nil
	}
	var out []ID
	seek := prefixBytes(prefix)
	c := b.Cursor()
	for k, _ := c.Seek(seek); k != nil && bytes.HasPrefix(k, seek); k, _ = c.Next() {
		if len(k) != len(ID{}) {
			continue
		}
		id := ID(k)
		if strings.HasPrefix(id.String(), prefix) {
			out = append(out, id)
			if len(out) == MatchLimit {
				break
			}
		}
	}
	return out
}

// distinguishing returns the number of hex digits (at least ShortLen) that tell
// the ids apart.
func distinguishing(ids []ID) int {
	n := ShortLen
	for ; n < 64; n++ {
		seen := map[string]bool{}
		ok := true
		for _, id := range ids {
			p := id.String()[:n]
			if seen[p] {
				ok = false
				break
			}
			seen[p] = true
		}
		if ok {
			break
		}
	}
	return n
}

// PutSpans records span tokens of a stored run (a digest rendered after the
// run was committed names them).
func (s *Store) PutSpans(run *Run, spans []Span) error {
	if len(spans) == 0 {
		return nil
	}
	return s.update(func(tx *bolt.Tx) error { return putSpans(tx, run, spans) })
}
