package continuity

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// DropSchema is the reference's receipt schema (arcaeon-compact's v2): a ctx
// drop receipt has its body layout, so its receipt_digest is the one the
// reference computes for the same items, compactor and method.
const DropSchema = "arcaeon-compact:receipt:v2"

// Side summarises one side of a compaction.
type Side struct {
	Count  int    `json:"count"`
	Bytes  int    `json:"bytes"`
	Digest string `json:"digest"` // json-c14n digest of the list of item digests
}

// DropReceipt records what a compaction cut, by digest only: no item's
// content is in it, so a receipt cannot leak what it proves was dropped.
// Items are compared as multisets of digests, in before order: an item held
// twice before and once after was dropped once. An item's digest is the
// raw-bytes digest of its UTF-8 when it is a string, else its json-c14n
// digest (the reference's rule); its bytes are those it was hashed over.
type DropReceipt struct {
	Schema     string `json:"schema"`
	Pre        Side   `json:"pre"`
	Post       Side   `json:"post"`
	Dropped    Drop   `json:"dropped"`
	Introduced struct {
		Count int `json:"count"`
		Bytes int `json:"bytes"`
	} `json:"introduced"`
	Compactor string `json:"compactor"`
	Method    string `json:"method"`
	Digest    string `json:"receipt_digest"`
}

// Drop is the drop manifest: how many items, their bytes, their digests.
type Drop struct {
	Count int      `json:"count"`
	Bytes int      `json:"bytes"`
	Items []string `json:"items"`
}

// Kept is how many before items survived.
func (r *DropReceipt) Kept() int { return r.Pre.Count - r.Dropped.Count }

// MakeDropReceipt compares the items before and after a compaction.
func MakeDropReceipt(before, after []any, compactor, method string) (*DropReceipt, error) {
	bd, bs, err := itemDigests(before)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	ad, as, err := itemDigests(after)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	r := &DropReceipt{Schema: DropSchema, Compactor: compactor, Method: method, Dropped: Drop{Items: []string{}}}
	r.Pre = side(bd, bs)
	r.Post = side(ad, as)
	left := map[string]int{}
	size := map[string]int{}
	for i, d := range ad {
		left[d]++
		if _, ok := size[d]; !ok {
			size[d] = as[i]
		}
	}
	for i, d := range bd {
		if left[d] > 0 {
			left[d]--
			continue
		}
		r.Dropped.Items = append(r.Dropped.Items, d)
		r.Dropped.Bytes += bs[i]
	}
	r.Dropped.Count = len(r.Dropped.Items)
	for d, n := range left {
		r.Introduced.Count += n
		r.Introduced.Bytes += n * size[d]
	}
	if r.Digest, err = Digest(r.Body()); err != nil {
		return nil, err
	}
	return r, nil
}

func side(digests []string, sizes []int) Side {
	s := Side{Count: len(digests)}
	for _, n := range sizes {
		s.Bytes += n
	}
	s.Digest, _ = Digest(digests)
	return s
}

// itemDigests digests each item by the reference's rule.
func itemDigests(items []any) ([]string, []int, error) {
	ds, ns := make([]string, len(items)), make([]int, len(items))
	for i, it := range items {
		if s, ok := it.(string); ok {
			if !utf8.ValidString(s) {
				return nil, nil, fmt.Errorf("item %d: a lone surrogate has no UTF-8 form: %w", i, ErrNotCanonical)
			}
			ds[i], ns[i] = RawDigest([]byte(s)), len(s)
			continue
		}
		c, err := Canonical(it)
		if err != nil {
			return nil, nil, fmt.Errorf("item %d: %w", i, err)
		}
		ds[i], _ = Digest(it)
		ns[i] = len(c)
	}
	return ds, ns, nil
}

// Body is the deterministic core the receipt digest covers, as a
// json-c14n:v1 value.
func (r *DropReceipt) Body() map[string]any {
	sideV := func(s Side) map[string]any {
		return map[string]any{"count": s.Count, "bytes": s.Bytes, "digest": s.Digest}
	}
	return map[string]any{
		"schema":     r.Schema,
		"pre":        sideV(r.Pre),
		"post":       sideV(r.Post),
		"dropped":    map[string]any{"count": r.Dropped.Count, "bytes": r.Dropped.Bytes, "items": r.Dropped.Items},
		"introduced": map[string]any{"count": r.Introduced.Count, "bytes": r.Introduced.Bytes},
		"compactor":  r.Compactor,
		"method":     r.Method,
	}
}

// Record is the receipt as stored: its body plus receipt_digest.
func (r *DropReceipt) Record() ([]byte, error) {
	m := r.Body()
	m["receipt_digest"] = r.Digest
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
