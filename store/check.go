package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CheckOptions say how deep `ctx check` looks and whether it repairs.
type CheckOptions struct {
	// ReadData decompresses and re-hashes every blob and recounts its lines
	// against its frame table.
	ReadData bool
	// Repair removes dangling references (executions, spans and session
	// records of runs that are gone or damaged, runs whose content is gone)
	// and re-links orphaned but intact pack files whose blob a run still
	// references. It never deletes content that something references.
	Repair bool
}

// Problem is one thing check found damaged or missing.
type Problem struct {
	Handle string `json:"handle"` // what is affected: run:…, blob:…, exec:…, a path
	What   string `json:"what"`
}

// CheckReport is what check found, and what it repaired.
type CheckReport struct {
	Runs     int       `json:"runs"`
	Blobs    int       `json:"blobs"`
	Execs    int       `json:"execs"`
	Packs    int       `json:"packs"`
	Read     int64     `json:"bytes_read"` // with ReadData
	Problems []Problem `json:"problems"`
	Notes    []Problem `json:"notes"` // not damage: garbage gc removes, spools to recover
	Repaired []string  `json:"repaired"`
}

// OK reports whether nothing is damaged.
func (r *CheckReport) OK() bool { return len(r.Problems) == 0 }

// Check verifies the store: the database file and its pages, every run's
// record and the blobs it references, every blob's record, frames and pack
// file, the spools; with ReadData every blob's bytes. It takes the
// maintenance lease so no gc or compaction runs beside it. An unreadable
// database is returned as an error (ErrCorrupt).
func (s *Store) Check(opts CheckOptions) (*CheckReport, error) {
	if err := checkDBFile(s.dbPath()); err != nil {
		return nil, s.unreadable(err)
	}
	release, err := s.lease(true)
	if err != nil {
		return nil, err
	}
	defer release()
	c := &checker{s: s, rep: &CheckReport{Problems: []Problem{}, Notes: []Problem{}, Repaired: []string{}},
		blobMetas: map[ID]*blobMeta{}, damaged: map[ID]bool{}, badRuns: map[ID]bool{}, missing: map[ID][]ID{}}
	err = s.view(func(tx *bolt.Tx) error {
		for cerr := range tx.Check() {
			c.bad("store.db", "%v", cerr)
		}
		c.blobs(tx)
		c.runs(tx)
		return c.execs(tx)
	})
	// A store with no database yet (or one moved aside) has nothing to
	// walk, but its pack files and spools may hold the only copy of
	// outputs: they are checked all the same.
	empty := isEmpty(err)
	if err != nil && !empty {
		return nil, s.unreadable(err)
	}
	orphans := c.packs()
	if opts.ReadData {
		c.readAll()
	}
	s.checkSpools(c.note, c.bad)
	if opts.Repair && !empty {
		s.repair(c.rep, c.missing, orphans, c.badRuns, c.runIDs, c.deadExecs)
	}
	sort.Slice(c.rep.Problems, func(i, j int) bool { return c.rep.Problems[i].Handle < c.rep.Problems[j].Handle })
	return c.rep, nil
}

// unreadable is Check's error for a database too damaged to walk: its hint
// cannot be "run ctx check" (the general advice for a damaged store), since
// this is ctx check failing.
func (s *Store) unreadable(err error) error {
	if !errors.Is(err, ErrCorrupt) {
		return err
	}
	return hint(fmt.Errorf("check: %w", err),
		"the database is too damaged to list what is in it: move %s aside (keeping it for inspection) and run ctx again; a new database is started, spooled captures and pack files are kept, and `ctx check` then reports the packs no record names", s.dbPath())
}

// checker is one check's findings as it goes.
type checker struct {
	s         *Store
	rep       *CheckReport
	blobMetas map[ID]*blobMeta
	damaged   map[ID]bool // blob records that do not decode
	badRuns   map[ID]bool // runs damaged or referencing missing content
	missing   map[ID][]ID // blob → runs that reference it and find it missing
	runIDs    []ID
	deadExecs [][]byte
}

func (c *checker) bad(h, format string, args ...any) {
	c.rep.Problems = append(c.rep.Problems, Problem{Handle: h, What: fmt.Sprintf(format, args...)})
}

func (c *checker) note(h, format string, args ...any) {
	c.rep.Notes = append(c.rep.Notes, Problem{Handle: h, What: fmt.Sprintf(format, args...)})
}

// blobs checks every blob record and, for unpacked blobs, its frames.
func (c *checker) blobs(tx *bolt.Tx) {
	_ = tx.Bucket(bucketBlobs).ForEach(func(k, v []byte) error {
		if len(k) != 32 {
			c.bad("store.db", "a blob record with a %d-byte key", len(k))
			return nil
		}
		id := ID(k)
		c.rep.Blobs++
		m, err := decodeBlobMeta(id, v)
		if err != nil {
			c.damaged[id] = true
			c.bad(HandleOf(KindBlob, id), "%v", err)
			return nil
		}
		c.blobMetas[id] = m
		if !m.Packed {
			for i, f := range m.Frames {
				fv := tx.Bucket(bucketFrames).Get(frameKey(id, i))
				if fv == nil {
					c.bad(HandleOf(KindBlob, id), "frame %d is missing", i)
					break
				}
				if len(fv) != int(f.CLen) {
					c.bad(HandleOf(KindBlob, id), "frame %d holds %d bytes, its table says %d", i, len(fv), f.CLen)
					break
				}
			}
		}
		return nil
	})
}

// runs checks every run record and that the blobs it references are stored.
func (c *checker) runs(tx *bolt.Tx) {
	_ = tx.Bucket(bucketRuns).ForEach(func(k, _ []byte) error {
		if len(k) != 32 {
			c.bad("store.db", "a run record with a %d-byte key", len(k))
			return nil
		}
		id := ID(k)
		c.rep.Runs++
		c.runIDs = append(c.runIDs, id)
		run, err := decodeRun(tx, id)
		if err != nil {
			c.badRuns[id] = true
			c.bad(HandleOf(KindRun, id), "%v", err)
			return nil
		}
		m := run.Manifest
		for _, ref := range []struct {
			what string
			id   ID
		}{{"stdout", m.Stdout.Blob}, {"stderr", m.Stderr.Blob}, {"stdin", m.Stdin}, {"interleave index", run.Interleave}} {
			if ref.id.IsZero() || ref.id == emptyID {
				continue
			}
			if _, ok := c.blobMetas[ref.id]; ok {
				continue
			}
			c.badRuns[id] = true
			if c.damaged[ref.id] {
				c.bad(HandleOf(KindRun, id), "its %s blob:%s has a damaged record", ref.what, ref.id.Short())
			} else {
				c.missing[ref.id] = append(c.missing[ref.id], id)
				c.bad(HandleOf(KindRun, id), "its %s blob:%s is missing", ref.what, ref.id.Short())
			}
		}
		return nil
	})
}

// execs checks that every execution record decodes and names a stored run.
func (c *checker) execs(tx *bolt.Tx) error {
	return tx.Bucket(bucketExecs).ForEach(func(k, v []byte) error {
		c.rep.Execs++
		var ex Exec
		if err := json.Unmarshal(v, &ex); err != nil {
			c.bad("exec:"+string(k), "record does not decode: %v", err)
			c.deadExecs = append(c.deadExecs, bytes.Clone(k))
			return nil
		}
		if tx.Bucket(bucketRuns).Get(ex.Run[:]) == nil {
			c.bad("exec:"+string(k), "names run:%s, which is not stored", ex.Run.Short())
			c.deadExecs = append(c.deadExecs, bytes.Clone(k))
		}
		return nil
	})
}

// packs checks each packed blob's pack file and returns the pack files
// nothing names, by the blob id their name carries.
func (c *checker) packs() map[ID][]string {
	want := map[string]ID{}
	for id, m := range c.blobMetas {
		if !m.Packed {
			continue
		}
		p := c.s.packFile(id, m.Gen, m.Plain)
		want[p] = id
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			c.bad(HandleOf(KindBlob, id), "its pack file is missing (%v)", err)
		case !fi.Mode().IsRegular():
			c.bad(HandleOf(KindBlob, id), "its pack file %s is not a regular file", p)
		case fi.Size() != packSize(m):
			c.bad(HandleOf(KindBlob, id), "its pack file holds %d bytes, its frame table says %d", fi.Size(), packSize(m))
		}
	}
	orphans := map[ID][]string{}
	_ = filepath.WalkDir(filepath.Join(c.s.dir, packsName), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		c.rep.Packs++
		if _, ok := want[p]; ok {
			return nil
		}
		base := strings.TrimPrefix(d.Name(), ".")
		if id, err := ParseID(base[:min(64, len(base))]); err == nil && !strings.HasSuffix(base, ".tmp") {
			orphans[id] = append(orphans[id], p)
		}
		c.note(p, "no blob record names this pack file; gc removes it")
		return nil
	})
	return orphans
}

// readAll reads every blob's data (readData), in id order.
func (c *checker) readAll() {
	ids := make([]ID, 0, len(c.blobMetas))
	for id := range c.blobMetas {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return bytes.Compare(ids[i][:], ids[j][:]) < 0 })
	for _, id := range ids {
		n, err := c.s.readData(id)
		c.rep.Read += n
		if err != nil {
			c.bad(HandleOf(KindBlob, id), "%v", err)
		}
	}
}

// readData reads a whole blob: every frame decompressed and checked, its
// newlines recounted against the frame table, the bytes hashed against the id.
func (s *Store) readData(id ID) (int64, error) {
	b, err := s.Blob(id)
	if err != nil {
		return 0, err
	}
	h := newHasher()
	var n, nl int64
	for i, f := range b.meta.Frames {
		if f.NL != nl {
			return n, fmt.Errorf("frame %d: the table says %d newlines before it, the data has %d", i, f.NL, nl)
		}
		data, err := b.frame(i)
		if err != nil {
			return n, err
		}
		h.Write(data)
		n += int64(len(data))
		nl += int64(bytes.Count(data, []byte{'\n'}))
	}
	if nl != b.meta.Newlines {
		return n, fmt.Errorf("the table says %d newlines, the data has %d", b.meta.Newlines, nl)
	}
	if h.Sum() != id {
		return n, errors.New("its bytes do not hash to its id")
	}
	return n, nil
}

// checkSpools reports spools waiting for recovery and quarantined ones.
func (s *Store) checkSpools(note, bad func(h, format string, args ...any)) {
	ents, _ := os.ReadDir(filepath.Join(s.dir, spoolName))
	for _, e := range ents {
		p := filepath.Join(s.dir, spoolName, e.Name())
		if !e.IsDir() {
			bad(p, "not a spool directory (%s)", e.Type())
			continue
		}
		if strings.HasPrefix(e.Name(), trashPrefix) {
			note(p, "spool files of a stored run, left for the background compaction to delete")
			continue
		}
		if strings.HasPrefix(e.Name(), freePrefix) {
			continue // an emptied spool kept for the next capture (spoolfree.go)
		}
		note(p, "a capture in progress, or one the next ctx command recovers")
	}
	q, _ := os.ReadDir(filepath.Join(s.dir, quarantineName))
	for _, e := range q {
		note(filepath.Join(s.dir, quarantineName, e.Name()), "a malformed spool, quarantined and never stored")
	}
}

// repair re-links orphaned intact packs that runs reference, then removes
// the references that still dangle (never a run whose content may sit in a
// pack it could not verify).
func (s *Store) repair(rep *CheckReport, missing map[ID][]ID, orphans map[ID][]string, badRuns map[ID]bool, runIDs []ID, deadExecs [][]byte) {
	keep := s.relinkMissing(rep, missing, orphans)
	// A run is dropped only when some blob it references is still missing
	// and no pack file that might hold it is left unverified.
	var drop []ID
	for _, id := range runIDs {
		if badRuns[id] && !keep[id] {
			if run, err := s.GetRun(id); err == nil && s.runReadable(run) {
				continue
			}
			drop = append(drop, id)
		}
	}
	dropped := map[ID]bool{}
	for _, id := range drop {
		dropped[id] = true
	}
	err := s.update(func(tx *bolt.Tx) error {
		for _, k := range deadExecs {
			if err := tx.Bucket(bucketExecs).Delete(k); err != nil {
				return err
			}
			rep.Repaired = append(rep.Repaired, "removed exec:"+string(k)+", whose run is gone")
		}
		if len(dropped) == 0 {
			return nil
		}
		for _, id := range drop {
			if err := tx.Bucket(bucketRuns).Delete(id[:]); err != nil {
				return err
			}
			rep.Repaired = append(rep.Repaired, "removed run:"+id.Short()+", whose content is gone")
		}
		var dead [][]byte
		_ = tx.Bucket(bucketExecs).ForEach(func(k, v []byte) error {
			var ex Exec
			if json.Unmarshal(v, &ex) == nil && dropped[ex.Run] {
				dead = append(dead, bytes.Clone(k))
			}
			return nil
		})
		for _, k := range dead {
			if err := tx.Bucket(bucketExecs).Delete(k); err != nil {
				return err
			}
			rep.Repaired = append(rep.Repaired, "removed exec:"+string(k)+", whose run was removed")
		}
		for _, b := range [][]byte{bucketSpans, bucketSessions} {
			var dk [][]byte
			_ = tx.Bucket(b).ForEach(func(k, v []byte) error {
				var r struct {
					Run ID `json:"run"`
				}
				if json.Unmarshal(v, &r) == nil && dropped[r.Run] {
					dk = append(dk, bytes.Clone(k))
				}
				return nil
			})
			for _, k := range dk {
				if err := tx.Bucket(b).Delete(k); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		rep.Problems = append(rep.Problems, Problem{Handle: "store.db", What: "repair failed: " + err.Error()})
	}
}

// runReadable reports whether every blob a run references has a record.
func (s *Store) runReadable(run *Run) bool {
	m := run.Manifest
	for _, id := range []ID{m.Stdout.Blob, m.Stderr.Blob, m.Stdin, run.Interleave} {
		if id.IsZero() || id == emptyID {
			continue
		}
		if _, err := s.blobMeta(id); err != nil {
			return false
		}
	}
	return true
}

// relinkPack rebuilds the record of blob id from an orphaned pack file: the
// frames are decompressed, re-framed into a new pack and hashed; the record
// is written only if the bytes hash to id and no record exists meanwhile.
func (s *Store) relinkPack(id ID, path string) error {
	src, err := openSpoolFile(path)
	if err != nil {
		return err
	}
	defer src.Close()
	dec, done, err := orphanReader(src)
	if err != nil {
		return err
	}
	defer done()
	gen := newGen()
	dst := s.packPath(id, gen)
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp")
	out, err := openNoFollow(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	keep := false
	defer func() {
		out.Close()
		if !keep {
			os.Remove(tmp)
			os.Remove(dst)
		}
	}()
	fr := newFramer(out, true)
	buf := make([]byte, 1<<20)
	for {
		n, rerr := dec.Read(buf)
		fr.Write(buf[:n])
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			fr.finish()
			return rerr
		}
	}
	got, meta, err := fr.finish()
	if err != nil {
		return err
	}
	if got != id {
		return fmt.Errorf("%s does not hold blob:%s", path, id.Short())
	}
	if err := out.Sync(); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	meta.Packed, meta.Gen = true, gen
	err = s.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketBlobs).Get(id[:]) != nil {
			return fmt.Errorf("blob:%s was stored meanwhile", id.Short())
		}
		return tx.Bucket(bucketBlobs).Put(id[:], meta.encode(id))
	})
	if err != nil {
		return err
	}
	keep = true
	now := time.Now()
	_ = os.Chtimes(dst, now, now)
	_ = os.Remove(path)
	return nil
}
