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
	var deadPacks []string
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	fn := func(tx *bolt.Tx) error {
		runs := map[ID]bool{}
		receipts := map[ID]bool{}
		blobs := map[ID]bool{}
		pinned := map[ID]bool{}
		_ = tx.Bucket(bucketPins).ForEach(func(k, v []byte) error {
			var p Pin
			if json.Unmarshal(v, &p) == nil {
				pinned[p.ID] = true
				switch p.Kind {
				case KindRun:
					runs[p.ID] = true
				case KindBlob:
					blobs[p.ID] = true
				case KindReceipt:
					receipts[p.ID] = true
				}
			}
			return nil
		})
		// Roots: recent executions.
		var oldExecs [][]byte
		_ = tx.Bucket(bucketExecs).ForEach(func(k, v []byte) error {
			var ex Exec
			if json.Unmarshal(v, &ex) != nil {
				return nil
			}
			if opts.Keep > 0 && opts.Now.Sub(ex.Start) > opts.Keep && !pinned[ex.Run] {
				oldExecs = append(oldExecs, bytes.Clone(k))
				return nil
			}
			runs[ex.Run] = true
			if !ex.Receipt.IsZero() {
				receipts[ex.Receipt] = true
			}
			return nil
		})
		// Receipts about a kept run, and standalone ones (benchmarks), are kept.
		_ = tx.Bucket(bucketReceipts).ForEach(func(k, v []byte) error {
			var r receiptRefs
			_ = json.Unmarshal(v, &r)
			standalone := true
			for _, ref := range r.Refs {
				if len(ref) > 4 && ref[:4] == "run:" {
					standalone = false
					if id, err := ParseID(ref[4:]); err == nil && runs[id] {
						receipts[ID(k)] = true
					}
				}
			}
			if standalone {
				receipts[ID(k)] = true
			}
			return nil
		})
		// Mark blobs.
		for id := range runs {
			run, err := decodeRun(tx, id)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				// What a damaged run references is unknown: sweeping now
				// could delete the last copy of its output.
				return hint(fmt.Errorf("gc stopped, nothing deleted: %w", err),
					"run `ctx check` to see what is damaged, then `ctx check --repair`")
			}
			m := run.Manifest
			for _, b := range []ID{m.Stdout.Blob, m.Stderr.Blob, m.Stdin, run.Interleave} {
				if !b.IsZero() {
					blobs[b] = true
				}
			}
		}
		for id := range receipts {
			var r receiptRefs
			_ = json.Unmarshal(tx.Bucket(bucketReceipts).Get(id[:]), &r)
			for _, ref := range r.Refs {
				if len(ref) > 5 && ref[:5] == "blob:" {
					if bid, err := ParseID(ref[5:]); err == nil {
						blobs[bid] = true
					}
				}
			}
		}
		// Sweep.
		del := func(b *bolt.Bucket, keys [][]byte) error {
			if opts.DryRun {
				return nil
			}
			for _, k := range keys {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			return nil
		}
		rep.Execs = len(oldExecs)
		if err := del(tx.Bucket(bucketExecs), oldExecs); err != nil {
			return err
		}
		sweep := func(bucket []byte, keep map[ID]bool) ([][]byte, error) {
			var dead [][]byte
			_ = tx.Bucket(bucket).ForEach(func(k, _ []byte) error {
				if len(k) == 32 && !keep[ID(k)] {
					dead = append(dead, bytes.Clone(k))
				}
				return nil
			})
			return dead, del(tx.Bucket(bucket), dead)
		}
		deadRuns, err := sweep(bucketRuns, runs)
		if err != nil {
			return err
		}
		deadReceipts, err := sweep(bucketReceipts, receipts)
		if err != nil {
			return err
		}
		// Note the packs of blobs about to be swept.
		_ = tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
			if len(k) == 32 && !blobs[ID(k)] {
				if m, err := decodeBlobMeta(ID(k), v); err == nil && m.Packed {
					deadPacks = append(deadPacks, s.packPath(ID(k), m.Gen))
					rep.Bytes += compressedSize(m)
				}
			}
			return nil
		})
		deadBlobs, err := sweep(bucketBlobs, blobs)
		if err != nil {
			return err
		}
		rep.Runs, rep.Receipts, rep.Blobs = len(deadRuns), len(deadReceipts), len(deadBlobs)
		rep.Kept.Runs, rep.Kept.Blobs = len(runs), len(blobs)
		// Frames of swept blobs, and frames no blob record owns (a commit cut short).
		var deadFrames [][]byte
		_ = tx.Bucket(bucketFrames).ForEach(func(k, v []byte) error {
			if len(k) == 36 && !blobs[ID(k[:32])] {
				deadFrames = append(deadFrames, bytes.Clone(k))
				rep.Bytes += int64(len(v))
			}
			return nil
		})
		rep.Frames = len(deadFrames)
		if err := del(tx.Bucket(bucketFrames), deadFrames); err != nil {
			return err
		}
		var deadSpans [][]byte
		_ = tx.Bucket(bucketSpans).ForEach(func(k, v []byte) error {
			var sr Span
			if json.Unmarshal(v, &sr) != nil || !runs[sr.Run] {
				deadSpans = append(deadSpans, bytes.Clone(k))
			}
			return nil
		})
		rep.Spans = len(deadSpans)
		if err := del(tx.Bucket(bucketSpans), deadSpans); err != nil {
			return err
		}
		var deadSessions [][]byte
		_ = tx.Bucket(bucketSessions).ForEach(func(k, v []byte) error {
			var ss Session
			if json.Unmarshal(v, &ss) != nil || !runs[ss.Run] {
				deadSessions = append(deadSessions, bytes.Clone(k))
			}
			return nil
		})
		return del(tx.Bucket(bucketSessions), deadSessions)
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
	rep.Packs = len(deadPacks)
	if !opts.DryRun {
		for _, p := range deadPacks {
			_ = os.Remove(p)
		}
	}
	orphans, err := s.orphanPacks(opts.Now)
	if err != nil {
		return rep, err
	}
	rep.Packs += len(orphans)
	if !opts.DryRun {
		for _, p := range orphans {
			_ = os.Remove(p)
		}
		if opts.Compact {
			n, saved, err := s.compactAll()
			rep.Compacted, rep.CompactedBytes = n, saved
			if err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// orphanPacks lists pack files no blob record refers to (a commit cut short
// after the pack was moved in, or an old generation left by compaction),
// older than a few minutes so a commit in progress is never touched.
func (s *Store) orphanPacks(now time.Time) ([]string, error) {
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
	unsure := map[string]bool{} // ids whose record is damaged: none of their packs is removed
	err = s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
			if len(k) != 32 {
				return nil
			}
			m, err := decodeBlobMeta(ID(k), v)
			switch {
			case err != nil:
				unsure[ID(k).String()] = true
			case m.Packed:
				want[s.packPath(ID(k), m.Gen)] = true
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
		if !want[f] && (len(base) < 64 || !unsure[base[:64]]) {
			out = append(out, f)
		}
	}
	return out, nil
}
