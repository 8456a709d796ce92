package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// GCOptions say what gc keeps.
type GCOptions struct {
	// Keep is how long execution records stay roots; older ones are deleted and
	// what only they referenced is swept. Zero keeps every execution.
	Keep   time.Duration
	DryRun bool
	Now    time.Time
	// Compact recompresses frames stored raw because a flood outran the
	// compressor during capture.
	Compact bool
}

// GCReport counts what gc removed (or would remove, in a dry run).
type GCReport struct {
	Execs    int   `json:"execs"`
	Runs     int   `json:"runs"`
	Receipts int   `json:"receipts"`
	Blobs    int   `json:"blobs"`
	Frames   int   `json:"frames"`
	Spans    int   `json:"spans"`
	Bytes    int64 `json:"bytes"` // stored bytes of the frames and packs swept
	Packs    int   `json:"packs"` // pack files removed (swept blobs, orphans, old generations)
	// Unrecorded counts pack files kept although no blob record names them,
	// because a kept run references their blob: `ctx check --repair`
	// re-links them.
	Unrecorded int `json:"unrecorded_packs,omitempty"`
	// Compacted counts blobs whose raw frames were recompressed, and the
	// bytes that saved.
	Compacted      int   `json:"compacted"`
	CompactedBytes int64 `json:"compacted_bytes"`
	Kept           struct {
		Runs  int `json:"runs"`
		Blobs int `json:"blobs"`
	} `json:"kept"`
	DryRun bool `json:"dry_run"`
}

// receiptRefs is the part of a receipt gc reads: the records it refers to, as
// "run:<hex>" and "blob:<hex>" with full ids.
type receiptRefs struct {
	Refs []string `json:"refs"`
}

// GC marks everything reachable from recent executions, pins and standalone
// receipts, and sweeps the rest: mark and sweep in one write transaction, so a
// concurrent reader sees the store before or after, never half-swept. It
// holds the maintenance lease (waiting up to the lock timeout for another gc
// or compaction), so it never sweeps beside a compaction.
func (s *Store) GC(opts GCOptions) (GCReport, error) {
	rep := GCReport{DryRun: opts.DryRun}
	release, err := s.lease(true)
	if err != nil {
		return rep, err
	}
	defer release()
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	var deadPacks []string
	var marked map[ID]bool
	fn := func(tx *bolt.Tx) error {
		m := markRoots(tx, opts)
		if err := m.markBlobs(tx); err != nil {
			return err
		}
		marked = m.blobs
		var err error
		deadPacks, err = s.sweep(tx, m, opts.DryRun, &rep)
		return err
	}
	if opts.DryRun {
		err = s.view(fn)
		if isEmpty(err) {
			err = nil
		}
	} else {
		err = s.update(fn)
	}
	if err != nil {
		return rep, err
	}
	return rep, s.removePacks(deadPacks, marked, opts, &rep)
}

// gcMarks is what gc keeps: the marked runs, receipts and blobs, the pinned
// ids, and the execution records old enough to delete.
type gcMarks struct {
	runs, receipts, blobs, pinned map[ID]bool
	oldExecs                      [][]byte
}

// markRoots marks the roots: pins, recent executions (and their receipts),
// and the receipts about a kept run or about no run at all (benchmarks).
func markRoots(tx *bolt.Tx, opts GCOptions) *gcMarks {
	m := &gcMarks{runs: map[ID]bool{}, receipts: map[ID]bool{}, blobs: map[ID]bool{}, pinned: map[ID]bool{}}
	_ = tx.Bucket(bucketPins).ForEach(func(k, v []byte) error {
		var p Pin
		if json.Unmarshal(v, &p) == nil {
			m.pinned[p.ID] = true
			switch p.Kind {
			case KindRun:
				m.runs[p.ID] = true
			case KindBlob:
				m.blobs[p.ID] = true
			case KindReceipt:
				m.receipts[p.ID] = true
			}
		}
		return nil
	})
	_ = tx.Bucket(bucketExecs).ForEach(func(k, v []byte) error {
		var ex Exec
		if json.Unmarshal(v, &ex) != nil {
			return nil
		}
		if opts.Keep > 0 && opts.Now.Sub(ex.Start) > opts.Keep && !m.pinned[ex.Run] {
			m.oldExecs = append(m.oldExecs, bytes.Clone(k))
			return nil
		}
		m.runs[ex.Run] = true
		if !ex.Receipt.IsZero() {
			m.receipts[ex.Receipt] = true
		}
		return nil
	})
	_ = tx.Bucket(bucketReceipts).ForEach(func(k, v []byte) error {
		var r receiptRefs
		_ = json.Unmarshal(v, &r)
		standalone := true
		for _, ref := range r.Refs {
			if hex, ok := strings.CutPrefix(ref, "run:"); ok && hex != "" {
				standalone = false
				if id, err := ParseID(hex); err == nil && m.runs[id] {
					m.receipts[ID(k)] = true
				}
			}
		}
		if standalone {
			m.receipts[ID(k)] = true
		}
		return nil
	})
	return m
}

// markBlobs marks the blobs the marked runs and receipts reference. A damaged
// run stops gc: what it references is unknown, and sweeping now could delete
// the last copy of its output.
func (m *gcMarks) markBlobs(tx *bolt.Tx) error {
	for id := range m.runs {
		run, err := decodeRun(tx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return hint(fmt.Errorf("gc stopped, nothing deleted: %w", err),
				"run `ctx check` to see what is damaged, then `ctx check --repair`")
		}
		mf := run.Manifest
		for _, b := range []ID{mf.Stdout.Blob, mf.Stderr.Blob, mf.Stdin, run.Interleave} {
			if !b.IsZero() {
				m.blobs[b] = true
			}
		}
	}
	for id := range m.receipts {
		var r receiptRefs
		_ = json.Unmarshal(tx.Bucket(bucketReceipts).Get(id[:]), &r)
		for _, ref := range r.Refs {
			if hex, ok := strings.CutPrefix(ref, "blob:"); ok && hex != "" {
				if bid, err := ParseID(hex); err == nil {
					m.blobs[bid] = true
				}
			}
		}
	}
	return nil
}

// sweeper deletes keys from buckets, or only counts them in a dry run.
type sweeper struct {
	tx  *bolt.Tx
	dry bool
}

func (w sweeper) del(bucket []byte, keys [][]byte) error {
	if w.dry {
		return nil
	}
	b := w.tx.Bucket(bucket)
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// unmarked deletes the records of an id-keyed bucket that keep does not hold.
func (w sweeper) unmarked(bucket []byte, keep map[ID]bool) (int, error) {
	return w.where(bucket, func(k, _ []byte) bool { return len(k) == 32 && !keep[ID(k)] })
}

// where deletes the records of a bucket that dead reports.
func (w sweeper) where(bucket []byte, dead func(k, v []byte) bool) (int, error) {
	var keys [][]byte
	_ = w.tx.Bucket(bucket).ForEach(func(k, v []byte) error {
		if dead(k, v) {
			keys = append(keys, bytes.Clone(k))
		}
		return nil
	})
	return len(keys), w.del(bucket, keys)
}

// sweep deletes what m did not mark and returns the pack files of the swept
// blobs, to remove once the transaction has committed.
func (s *Store) sweep(tx *bolt.Tx, m *gcMarks, dry bool, rep *GCReport) ([]string, error) {
	w := sweeper{tx, dry}
	rep.Execs = len(m.oldExecs)
	if err := w.del(bucketExecs, m.oldExecs); err != nil {
		return nil, err
	}
	var err error
	if rep.Runs, err = w.unmarked(bucketRuns, m.runs); err != nil {
		return nil, err
	}
	if rep.Receipts, err = w.unmarked(bucketReceipts, m.receipts); err != nil {
		return nil, err
	}
	var deadPacks []string
	_ = tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
		if len(k) == 32 && !m.blobs[ID(k)] {
			if bm, err := decodeBlobMeta(ID(k), v); err == nil && bm.Packed {
				deadPacks = append(deadPacks, s.packFile(ID(k), bm.Gen, bm.Plain))
				rep.Bytes += compressedSize(bm)
			}
		}
		return nil
	})
	if rep.Blobs, err = w.unmarked(bucketBlobs, m.blobs); err != nil {
		return nil, err
	}
	rep.Kept.Runs, rep.Kept.Blobs = len(m.runs), len(m.blobs)
	// Frames of swept blobs, and frames no blob record owns (a commit cut short).
	rep.Frames, err = w.where(bucketFrames, func(k, v []byte) bool {
		dead := len(k) == 36 && !m.blobs[ID(k[:32])]
		if dead {
			rep.Bytes += int64(len(v))
		}
		return dead
	})
	if err != nil {
		return nil, err
	}
	if rep.Spans, err = w.where(bucketSpans, func(_, v []byte) bool {
		var sr Span
		return json.Unmarshal(v, &sr) != nil || !m.runs[sr.Run]
	}); err != nil {
		return nil, err
	}
	_, err = w.where(bucketSessions, func(_, v []byte) bool {
		var ss Session
		return json.Unmarshal(v, &ss) != nil || !m.runs[ss.Run]
	})
	return deadPacks, err
}

// removePacks removes, after the sweep committed, the packs of swept blobs
// and orphaned packs, and compacts when asked. marked is the blobs kept runs
// and receipts reference.
func (s *Store) removePacks(deadPacks []string, marked map[ID]bool, opts GCOptions, rep *GCReport) error {
	rep.Packs = len(deadPacks)
	if !opts.DryRun {
		for _, p := range deadPacks {
			_ = os.Remove(p)
		}
	}
	orphans, err := s.orphanPacks(opts.Now, marked, rep)
	if err != nil {
		return err
	}
	rep.Packs += len(orphans)
	if opts.DryRun {
		return nil
	}
	for _, p := range orphans {
		_ = os.Remove(p)
	}
	if opts.Compact {
		n, saved, err := s.compactAll()
		rep.Compacted, rep.CompactedBytes = n, saved
		if err != nil {
			return err
		}
	}
	return nil
}

// orphanPacks lists pack files no blob record refers to (a commit cut short
// after the pack was moved in, or an old generation left by compaction),
// older than a few minutes so a commit in progress is never touched. A pack
// of a blob that a kept run references but that has no record (the record
// lost, or the database moved aside) is the only copy of that output: it is
// kept, counted in rep.Unrecorded, for `ctx check --repair` to re-link.
func (s *Store) orphanPacks(now time.Time, marked map[ID]bool, rep *GCReport) ([]string, error) {
	root := filepath.Join(s.dir, packsName)
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if fi, err := d.Info(); err == nil && now.Sub(fi.ModTime()) > 10*time.Minute {
				files = append(files, p)
			}
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		return nil, err
	}
	want := map[string]bool{}
	unsure := map[string]bool{} // ids whose record is damaged or missing: none of their packs is removed
	for id := range marked {
		unsure[id.String()] = true
	}
	err = s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
			if len(k) != 32 {
				return nil
			}
			m, err := decodeBlobMeta(ID(k), v)
			if err == nil {
				delete(unsure, ID(k).String()) // recorded: its other packs are old generations
			}
			switch {
			case err != nil:
				unsure[ID(k).String()] = true
			case m.Packed:
				want[s.packFile(ID(k), m.Gen, m.Plain)] = true
			}
			return nil
		})
	})
	if err != nil && !isEmpty(err) {
		return nil, err
	}
	var out []string
	for _, f := range files {
		base := strings.TrimPrefix(filepath.Base(f), ".")
		switch {
		case want[f]:
		case len(base) >= 64 && unsure[base[:64]]:
			if id, err := ParseID(base[:64]); err == nil && marked[id] {
				rep.Unrecorded++
			}
		default:
			out = append(out, f)
		}
	}
	return out, nil
}
