package continuity

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DropFormat names the layout of a drop receipt; it is part of the digest.
const DropFormat = "ctx-continuity-drop/v1"

// Side summarises one side of a compaction: how many items and the digest of
// the whole list.
type Side struct {
	Items  int    `json:"items"`
	Digest string `json:"digest"`
}

// Dropped is one item of the before side that the after side no longer holds.
type Dropped struct {
	Index  int    `json:"index"`  // its place in the before list (0-based)
	Digest string `json:"digest"` // its json-c14n:v1 digest
}

// DropReceipt records what a compaction cut, by digest only: no item's
// content is in it, so a receipt cannot leak what it proves was dropped.
// Items are compared as multisets of digests: an item present twice before
// and once after was dropped once.
type DropReceipt struct {
	Format    string    `json:"format"`
	Compactor string    `json:"compactor,omitempty"`
	Method    string    `json:"method,omitempty"`
	Before    Side      `json:"before"`
	After     Side      `json:"after"`
	Kept      int       `json:"kept"`
	Dropped   []Dropped `json:"dropped"`
	Added     []string  `json:"added"` // digests of after items the before side did not hold
	Digest    string    `json:"digest"`
}

// MakeDropReceipt compares the items before and after a compaction.
func MakeDropReceipt(before, after []any, compactor, method string) (*DropReceipt, error) {
	bd, err := itemDigests(before)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	ad, err := itemDigests(after)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	r := &DropReceipt{Format: DropFormat, Compactor: compactor, Method: method, Dropped: []Dropped{}, Added: []string{}}
	r.Before.Items, r.After.Items = len(before), len(after)
	r.Before.Digest, _ = Digest(before)
	r.After.Digest, _ = Digest(after)
	left := map[string]int{}
	for _, d := range ad {
		left[d]++
	}
	for i, d := range bd {
		if left[d] > 0 {
			left[d]--
			r.Kept++
			continue
		}
		r.Dropped = append(r.Dropped, Dropped{Index: i, Digest: d})
	}
	for _, d := range ad {
		if left[d] > 0 {
			left[d]--
			r.Added = append(r.Added, d)
		}
	}
	if r.Digest, err = Digest(r.content()); err != nil {
		return nil, err
	}
	return r, nil
}

func itemDigests(items []any) ([]string, error) {
	out := make([]string, len(items))
	for i, it := range items {
		d, err := Digest(it)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out[i] = d
	}
	return out, nil
}

// content is the digested part of the receipt.
func (r *DropReceipt) content() map[string]any {
	dropped := make([]any, len(r.Dropped))
	for i, d := range r.Dropped {
		dropped[i] = map[string]any{"index": d.Index, "digest": d.Digest}
	}
	m := map[string]any{
		"format":  r.Format,
		"before":  map[string]any{"items": r.Before.Items, "digest": r.Before.Digest},
		"after":   map[string]any{"items": r.After.Items, "digest": r.After.Digest},
		"kept":    r.Kept,
		"dropped": dropped,
		"added":   r.Added,
	}
	if r.Compactor != "" {
		m["compactor"] = r.Compactor
	}
	if r.Method != "" {
		m["method"] = r.Method
	}
	return m
}

// Record is the receipt as stored: its canonical content plus its digest.
func (r *DropReceipt) Record() ([]byte, error) {
	m := r.content()
	m["digest"] = r.Digest
	return Canonical(m)
}

// ParseItems reads the items of one side as a JSON list.
func ParseItems(data []byte) ([]any, error) {
	v, err := ParseJSON(data)
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("want a JSON list of items (or JSON Lines in a file named *.jsonl, or a run: or blob: handle)")
	}
	return list, nil
}

// ParseJSONLines reads the items of one side from JSON Lines: one JSON value
// per non-blank line.
func ParseJSONLines(r io.Reader) ([]any, error) {
	items := []any{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimRight(sc.Bytes(), "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		it, err := ParseJSON(line)
		if err != nil {
			return nil, fmt.Errorf("JSON Lines, line %d: %w", n, err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("JSON Lines, after line %d: %w", n, err)
	}
	return items, nil
}
