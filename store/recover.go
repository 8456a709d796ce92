package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// Recovered describes a capture that a dead ctx process left in the spool.
type Recovered struct {
	Spool string   // the spool directory it came from
	Argv  []string // the command it was capturing
	Run   *Run     // the run it was stored as; nil when nothing could be recovered
	Err   error    // why it could not be stored (the spool is then kept, or quarantined)
	// Quarantined is where a malformed spool was moved, unstored.
	Quarantined string
}

// Recover stores every capture left behind by a ctx process that died (kill -9,
// a crash, a power cut) as a run with status "recovered", and removes the
// spools it stored. A spool whose capture is still running is left alone. It
// returns what it found, so the caller can tell the user.
func (s *Store) Recover() []Recovered {
	var out []Recovered
	for _, dir := range s.orphanSpools() {
		out = append(out, s.recoverSpool(dir))
	}
	return out
}

func (s *Store) recoverSpool(dir string) Recovered {
	rec := Recovered{Spool: dir}
	if err := checkOwned(dir, true); err != nil {
		return s.quarantine(rec, err)
	}
	lock, err := openNoFollow(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return s.quarantine(rec, fmt.Errorf("its lock file: %w", err))
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		rec.Err = fmt.Errorf("spool %s is in use", dir)
		return rec
	}
	if fi, err := os.Lstat(filepath.Join(dir, "committed")); err == nil && fi.Mode().IsRegular() {
		// Stored already; only the clean-up was cut short.
		_ = os.RemoveAll(dir)
		return rec
	}
	var meta SpoolMeta
	if err := readSpoolJSON(filepath.Join(dir, "meta.json"), &meta); err != nil {
		return s.quarantine(rec, err)
	}
	if err := meta.validate(); err != nil {
		return s.quarantine(rec, fmt.Errorf("meta.json: %w", err))
	}
	rec.Argv = meta.Argv
	if meta.Exec != "" {
		// Its execution record is there: the commit went through and only
		// the "committed" mark was cut short.
		if stored, err := s.hasExec(meta.Exec); err != nil {
			rec.Err = err
			return rec
		} else if stored {
			_ = os.RemoveAll(dir)
			return rec
		}
	}
	var res spoolResult
	finished := false
	if err := readSpoolJSON(filepath.Join(dir, resultName), &res); err == nil && res.Status != "" {
		finished = true
	}
	sp := &Spool{dir: dir, lock: nil, Meta: meta, streams: map[string]*StreamWriter{}}
	for _, name := range []string{"stdout", "stderr", "stdin"} {
		raw, err := openSpoolFile(filepath.Join(dir, name+".raw"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			sp.Unlock()
			return s.quarantine(rec, err)
		}
		w, err := s.replaySpooled(sp, name, raw, meta.Cap)
		raw.Close()
		if err != nil {
			sp.Unlock()
			if errors.Is(err, errMalformed) {
				return s.quarantine(rec, err)
			}
			rec.Err = err
			return rec
		}
		if finished {
			// Bytes the command wrote that the spool could not hold (a full
			// disk) are counted as dropped, never silently missing.
			if got := res.Received[name]; got > w.total {
				w.lost = got - w.total
			}
		}
		sp.streams[name+".recovered"] = w
	}
	// Rebuilt streams were written under new names; give them their own.
	for _, name := range []string{"stdout", "stderr", "stdin"} {
		if w, ok := sp.streams[name+".recovered"]; ok {
			delete(sp.streams, name+".recovered")
			sp.streams[name] = w
		}
	}
	m := Manifest{Argv: meta.Argv, Dir: meta.Dir, Mode: meta.Mode, Exit: -1, Status: StatusRecovered}
	ex := Exec{Argv: meta.Argv, Start: meta.Started, Session: meta.Session, PID: meta.PID,
		Note: "ctx stopped before the command finished; the output up to that point was recovered, the exit status is unknown"}
	if finished {
		// The command finished; only storing the run failed.
		m.Exit, m.Status, m.Signal = res.Exit, res.Status, res.Signal
		ex.Note = "stored late: the run could not be stored when it finished, and was recovered from the spool"
	}
	run, err := s.CommitSpool(sp, m, ex)
	if err != nil {
		sp.Unlock()
		rec.Err = err
		return rec
	}
	rec.Run = run
	return rec
}

// errMalformed: a spool's files are not what ctx writes. Such a spool is
// quarantined, never ingested.
var errMalformed = errors.New("malformed spool")

// quarantineName is where malformed spools are moved, under the store.
const quarantineName = "quarantine"

// quarantine moves a malformed spool out of the way (into quarantine/, kept
// for inspection) so no later command ingests or trips over it, and reports
// why.
func (s *Store) quarantine(rec Recovered, why error) Recovered {
	qdir := filepath.Join(s.dir, quarantineName)
	dst := filepath.Join(qdir, filepath.Base(rec.Spool))
	err := os.MkdirAll(qdir, 0o700)
	if err == nil {
		err = os.Rename(rec.Spool, dst)
	}
	if err != nil {
		rec.Err = hint(fmt.Errorf("spool %s is malformed (%v) and could not be moved aside: %v: %w", rec.Spool, why, err, ErrCorrupt),
			"remove %s by hand", rec.Spool)
		return rec
	}
	rec.Quarantined = dst
	rec.Err = hint(fmt.Errorf("spool %s is malformed (%v); moved it to %s without storing it: %w", filepath.Base(rec.Spool), why, dst, errMalformed),
		"inspect or remove %s; ctx never ingests a spool it did not write", dst)
	return rec
}

// maxSpoolJSON bounds the JSON files of a spool (meta.json, result.json).
const maxSpoolJSON = 1 << 20

// readSpoolJSON reads a small JSON file of a spool, refusing links, devices,
// other owners' files and oversized files.
func readSpoolJSON(path string, v any) error {
	f, err := openSpoolFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSpoolJSON+1))
	if err != nil {
		return err
	}
	if len(b) > maxSpoolJSON {
		return fmt.Errorf("%s is larger than %d bytes: %w", filepath.Base(path), maxSpoolJSON, errMalformed)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v: %w", filepath.Base(path), err, errMalformed)
	}
	return nil
}

// openSpoolFile opens a spool file for reading: never through a symbolic
// link, and only a regular file owned by this user.
func openSpoolFile(path string) (*os.File, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %v: %w", filepath.Base(path), err, errMalformed)
	}
	if err := checkOwnedFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%v: %w", err, errMalformed)
	}
	return f, nil
}

// validate checks a spool's description before anything is stored from it.
func (m *SpoolMeta) validate() error {
	switch {
	case len(m.Argv) == 0:
		return fmt.Errorf("no command: %w", errMalformed)
	case m.Mode != "pty" && m.Mode != "pipe" && m.Mode != "ingest":
		return fmt.Errorf("mode %q: %w", m.Mode, errMalformed)
	case m.Cap <= 0:
		return fmt.Errorf("byte cap %d: %w", m.Cap, errMalformed)
	case filepath.IsAbs(m.Dir) || m.Dir == "":
		return fmt.Errorf("directory %q is not relative to the workspace: %w", m.Dir, errMalformed)
	}
	return nil
}

// hasExec reports whether an execution record with this key is stored.
func (s *Store) hasExec(key string) (bool, error) {
	var found bool
	err := s.view(func(tx *bolt.Tx) error {
		found = tx.Bucket(bucketExecs).Get([]byte(key)) != nil
		return nil
	})
	if isEmpty(err) {
		return false, nil
	}
	return found, err
}

// replaySpooled rebuilds a stream's frames from its raw spool file, honouring
// the ring layout when the cap was passed. The raw file must start with the
// spool header and fit the layout its cap allows.
func (s *Store) replaySpooled(sp *Spool, name string, raw *os.File, capBytes int64) (*StreamWriter, error) {
	fi, err := raw.Stat()
	if err != nil {
		return nil, err
	}
	var hdr [16]byte
	if n, _ := raw.ReadAt(hdr[:], 0); n != len(hdr) || !bytes.Equal(hdr[:], rawHeader) {
		return nil, fmt.Errorf("%s.raw does not start with the spool header: %w", name, errMalformed)
	}
	head := capBytes / 2
	ring := capBytes - head
	size := fi.Size() - rawBase
	if size > head+ring {
		return nil, fmt.Errorf("%s.raw holds %d bytes, more than its cap of %d: %w", name, size, capBytes, errMalformed)
	}
	total := size
	if size > head {
		var pb [8]byte
		if f, err := openSpoolFile(filepath.Join(sp.dir, name+".ringpos")); err == nil {
			n, _ := f.ReadAt(pb[:], 0)
			f.Close()
			if n == len(pb) {
				total = max(total, int64(binary.BigEndian.Uint64(pb[:])))
			}
		}
		if total > size && size != head+ring {
			return nil, fmt.Errorf("%s.ringpos says %d bytes passed but the ring is not full: %w", name, total, errMalformed)
		}
		if total < 0 {
			return nil, fmt.Errorf("%s.ringpos: %w", name, errMalformed)
		}
	}
	frPath := filepath.Join(sp.dir, name+".frames.recovered")
	if err := os.Remove(frPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	frF, err := openNoFollow(frPath, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	w := &StreamWriter{sp: sp, name: name, code: streamCode(name), raw: raw, frF: frF, fr: newFramer(frF, true),
		head: head, ring: ring}
	if err := copyRange(w.fr, raw, rawBase, min(size, head)); err != nil {
		w.fr.finish()
		frF.Close()
		return nil, err
	}
	w.total = min(size, head)
	if size > head {
		w.total = total
	}
	// finish() appends the tail from the ring; it needs the raw file open, and
	// the caller closes raw after Commit has run finish — so reopen it here.
	f, err := openSpoolFile(raw.Name())
	if err != nil {
		w.fr.finish()
		frF.Close()
		return nil, err
	}
	w.raw = f
	return w, nil
}

// markCommitted notes in the spool that its run is stored, so a crash before the
// spool is removed does not store it twice.
func (sp *Spool) markCommitted(run *Run) {
	_ = os.WriteFile(filepath.Join(sp.dir, "committed"), []byte(run.ID.String()+"\n"), 0o600)
}
