package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Recovered describes a capture that a dead ctx process left in the spool.
type Recovered struct {
	Spool string   // the spool directory it came from
	Argv  []string // the command it was capturing
	Run   *Run     // the run it was stored as; nil when nothing could be recovered
	Err   error    // why it could not be stored (the spool is then kept)
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
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		rec.Err = err
		return rec
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		rec.Err = fmt.Errorf("spool %s is in use", dir)
		return rec
	}
	if _, err := os.Stat(filepath.Join(dir, "committed")); err == nil {
		// Stored already; only the clean-up was cut short.
		_ = os.RemoveAll(dir)
		return rec
	}
	mb, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	var meta SpoolMeta
	if err == nil {
		err = json.Unmarshal(mb, &meta)
	}
	if err != nil {
		// Killed before the capture started: nothing was captured.
		_ = os.RemoveAll(dir)
		return rec
	}
	rec.Argv = meta.Argv
	sp := &Spool{dir: dir, lock: nil, Meta: meta, streams: map[string]*StreamWriter{}}
	for _, name := range []string{"stdout", "stderr", "stdin"} {
		raw, err := os.Open(filepath.Join(dir, name+".raw"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			rec.Err = err
			return rec
		}
		w, err := s.replaySpooled(sp, name, raw, meta.Cap)
		raw.Close()
		if err != nil {
			rec.Err = err
			return rec
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
	if rb, err := os.ReadFile(filepath.Join(dir, "result.json")); err == nil {
		var res spoolResult
		if json.Unmarshal(rb, &res) == nil && res.Status != "" {
			// The command finished; only storing the run failed.
			m.Exit, m.Status, m.Signal = res.Exit, res.Status, res.Signal
			ex.Note = "stored late: the run could not be stored when it finished, and was recovered from the spool"
		}
	}
	run, err := s.CommitSpool(sp, m, ex)
	if err != nil {
		rec.Err = err
		return rec
	}
	rec.Run = run
	return rec
}

// replaySpooled rebuilds a stream's frames from its raw spool file, honouring
// the ring layout when the cap was passed.
func (s *Store) replaySpooled(sp *Spool, name string, raw *os.File, capBytes int64) (*StreamWriter, error) {
	fi, err := raw.Stat()
	if err != nil {
		return nil, err
	}
	frF, err := os.OpenFile(filepath.Join(sp.dir, name+".frames.recovered"), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	if capBytes <= 0 {
		capBytes = DefaultCap
	}
	head := capBytes / 2
	w := &StreamWriter{sp: sp, name: name, code: streamCode(name), raw: raw, frF: frF, fr: newFramer(frF, true),
		head: head, ring: capBytes - head}
	size := max(fi.Size()-rawBase, 0)
	total := size
	if pb, err := os.ReadFile(filepath.Join(sp.dir, name+".ringpos")); err == nil && len(pb) == 8 {
		total = max(total, int64(binary.BigEndian.Uint64(pb)))
	}
	if err := copyRange(w.fr, raw, rawBase, min(size, head)); err != nil {
		return nil, err
	}
	w.total = min(size, head)
	if size > head {
		w.total = total
	}
	// finish() appends the tail from the ring; it needs the raw file open, and
	// the caller closes raw after Commit has run finish — so reopen it here.
	f, err := os.Open(raw.Name())
	if err != nil {
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
