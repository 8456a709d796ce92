package store

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A spool holds one capture in progress: each stream's raw bytes in a file (the
// truth a crash recovers from), its compressed frames (built while the command
// runs), and the interleave index. The capturing process holds an exclusive
// flock on the spool's lock file; a spool whose lock can be taken belongs to a
// process that died, and the next ctx command recovers it.
type Spool struct {
	dir        string
	lock       *os.File
	Meta       SpoolMeta
	mu         sync.Mutex   // orders interleave entries across stream goroutines
	inter      bytes.Buffer // the interleave index: one entry per switch of stream, so kept in memory
	lastStream byte
	pending    uint64

	streams map[string]*StreamWriter
	trashed bool // Release left large files in the trash
}

// SpoolMeta is written when a capture starts, so a crashed capture can be
// recovered with the command it belonged to.
type SpoolMeta struct {
	Argv    []string  `json:"argv"`
	Dir     string    `json:"dir"`  // relative to the workspace root
	Mode    string    `json:"mode"` // pty | pipe | ingest
	Started time.Time `json:"started"`
	PID     int       `json:"pid"`
	Session string    `json:"session,omitempty"`
	Cap     int64     `json:"cap"`
	// Exec is the key the capture's execution record is stored under. It is
	// chosen when the capture starts, so recovery can tell whether a spool
	// whose clean-up was cut short was stored already.
	Exec string `json:"exec,omitempty"`
}

// DefaultCap is the default per-stream byte cap.
const DefaultCap int64 = 1 << 30

// NewSpool starts a spool for one capture.
func (s *Store) NewSpool(meta SpoolMeta) (*Spool, error) {
	root := filepath.Join(s.dir, spoolName)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, storeErr(root, "create spool", err)
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	name := time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(rnd[:])
	// The spool is built under a dot name and renamed into place once it is
	// locked and described, so another process's recovery never sees a spool
	// without its lock or its meta.json.
	// A free spool (spoolfree.go), already locked, is such a dot directory.
	tmp, lock := claimFree(root)
	if tmp == "" {
		var err error
		if tmp, lock, err = newSpoolDir(filepath.Join(root, "."+name)); err != nil {
			return nil, err
		}
	}
	if meta.Cap <= 0 {
		meta.Cap = DefaultCap
	}
	if meta.Exec == "" {
		meta.Exec = execKey(meta.Started)
	}
	mb, _ := meta.marshal()
	dir := filepath.Join(root, name)
	// Neither file is flushed here, on every command's path: a run is
	// durable by its commit (a held seq step too: until then it outlives a
	// killed ctx, not a power loss), and a flush of these files alone would
	// not outlive a power loss anyway, since the rename below is not
	// flushed either.
	err := writeInPlace(filepath.Join(tmp, "meta.json"), mb)
	if err == nil {
		// Room for how the command ended, taken now: when the disk fills
		// during the capture, the exit status can still be written.
		err = writeInPlace(filepath.Join(tmp, resultName), resultPlaceholder)
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		lock.Close()
		os.RemoveAll(tmp)
		return nil, storeErr(tmp, "write spool", err)
	}
	sp := &Spool{dir: dir, lock: lock, Meta: meta, streams: map[string]*StreamWriter{}}
	return sp, nil
}

// newSpoolDir makes the spool directory tmp with its lock file, and takes
// the lock.
func newSpoolDir(tmp string) (string, *os.File, error) {
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return "", nil, storeErr(tmp, "create spool", err)
	}
	lock, err := os.OpenFile(filepath.Join(tmp, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		os.RemoveAll(tmp)
		return "", nil, storeErr(tmp, "create spool", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		os.RemoveAll(tmp)
		return "", nil, storeErr(tmp, "lock spool", err)
	}
	return tmp, lock, nil
}

// writeInPlace makes b the whole content of the file at path, unflushed.
// An existing file (a reused spool's) is overwritten in place and then cut
// to length, never truncated to zero first: ext4 flushes a file truncated
// to zero and rewritten when it is closed (auto_da_alloc), which with the
// truncation was most of the cost of rewriting a free spool's two files.
func writeInPlace(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		f.Close()
		return err
	}
	if err := f.Truncate(int64(len(b))); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Dir is the spool directory.
func (sp *Spool) Dir() string { return sp.dir }

// Stream returns the writer for a stream ("stdout", "stderr", "stdin"),
// creating it on first use. Each stream is written by one goroutine.
func (sp *Spool) Stream(name string) (*StreamWriter, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if w, ok := sp.streams[name]; ok {
		return w, nil
	}
	w, err := newStreamWriter(sp, name, sp.Meta.Cap)
	if err != nil {
		return nil, err
	}
	sp.streams[name] = w
	return w, nil
}

// streamCode numbers streams in the interleave index.
func streamCode(name string) byte {
	switch name {
	case "stdout":
		return 1
	case "stderr":
		return 2
	}
	return 0
}

// note records that n bytes arrived on a stream, in arrival order. Consecutive
// arrivals on one stream are merged into one entry.
func (sp *Spool) note(code byte, n int) {
	if code == 0 || n == 0 {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if code == sp.lastStream {
		sp.pending += uint64(n)
		return
	}
	sp.flushNoteLocked()
	sp.lastStream, sp.pending = code, uint64(n)
}

func (sp *Spool) flushNoteLocked() {
	if sp.pending == 0 {
		return
	}
	var buf [binary.MaxVarintLen64 + 1]byte
	buf[0] = sp.lastStream
	k := binary.PutUvarint(buf[1:], sp.pending)
	_, _ = sp.inter.Write(buf[:1+k])
	sp.pending = 0
}

// Abort removes the spool without committing it.
func (sp *Spool) Abort() {
	for _, w := range sp.streams {
		w.close()
	}
	_ = os.RemoveAll(sp.dir)
	if sp.lock != nil {
		sp.lock.Close()
	}
}

// StreamWriter spools one stream: raw bytes to a file, frames compressed on the
// side, with the byte cap applied: past Cap/2 bytes the rest goes to a ring of
// Cap/2 bytes that keeps the tail.
type StreamWriter struct {
	sp   *Spool
	name string
	code byte
	raw  *os.File
	fr   *framer
	frF  *os.File
	posF *os.File

	head  int64 // bytes kept at the front
	ring  int64 // ring size
	total int64 // bytes received
	lost  int64 // bytes received that the spool could not hold (recovery after a full disk)
	err   error
	// read is the raw spool's offset up to which ReadAt has read (the live
	// parse, on its own goroutine): the writeback releases pages only below it.
	read atomic.Int64
}

// rawHeader starts every raw spool file. Its NUL bytes make grep and similar
// tools treat the file as binary, so a `grep -r` run under ctx from the
// workspace root prints one "binary file matches" line for its own spool
// instead of feeding its output back into itself until the byte cap.
var rawHeader = []byte("ctx-spool\x00\x00\x00\x00\x00\x00\n")

const rawBase = int64(16) // len(rawHeader)

func newStreamWriter(sp *Spool, name string, capBytes int64) (*StreamWriter, error) {
	head := capBytes / 2
	return &StreamWriter{sp: sp, name: name, code: streamCode(name), head: head, ring: capBytes - head}, nil
}

// open creates the stream's spool files on its first bytes: a stream that
// stays empty (most stderr) costs no files.
func (w *StreamWriter) open() error {
	raw, err := os.OpenFile(filepath.Join(w.sp.dir, w.name+".raw"), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return storeErr(w.sp.dir, "create spool", err)
	}
	if _, err := raw.Write(rawHeader); err != nil {
		raw.Close()
		return storeErr(w.sp.dir, "write spool", err)
	}
	frF, err := os.OpenFile(filepath.Join(w.sp.dir, w.name+".frames"), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		raw.Close()
		return storeErr(w.sp.dir, "create spool", err)
	}
	w.raw, w.frF = raw, frF
	if w.sp.Meta.Mode == "ingest" {
		w.fr = newFramer(frF, true) // nothing waits on an ingest: compress it all
	} else {
		w.fr = newPlainFramer(frF, raw, &w.read)
	}
	return nil
}

// Write spools p. It returns an error only when the spool cannot be written
// (a full disk); the caller keeps draining the child and reports the error.
func (w *StreamWriter) Write(p []byte) (int, error) {
	n := len(p)
	if n == 0 {
		return 0, nil
	}
	w.sp.note(w.code, n)
	if w.raw == nil && w.err == nil {
		if err := w.open(); err != nil {
			w.err = err
		}
	}
	if w.err != nil {
		w.total += int64(n)
		return n, w.err
	}
	if w.total < w.head {
		k := int64(n)
		if w.total+k > w.head {
			k = w.head - w.total
		}
		if _, err := w.raw.Write(p[:k]); err != nil {
			w.fail(err)
			w.total += int64(n)
			return n, w.err
		}
		w.fr.Write(p[:k])
		w.total += k
		p = p[k:]
	}
	for len(p) > 0 && w.ring > 0 {
		pos := (w.total - w.head) % w.ring
		k := int64(len(p))
		if k > w.ring-pos {
			k = w.ring - pos
		}
		if _, err := w.raw.WriteAt(p[:k], rawBase+w.head+pos); err != nil {
			w.fail(err)
			break
		}
		w.total += k
		p = p[k:]
		w.notePos()
	}
	w.total += int64(len(p))
	return n, w.err
}

func (w *StreamWriter) fail(err error) {
	w.err = storeErr(w.sp.dir, "write spool", err)
}

// notePos records the ring position so a crash recovery knows where the tail
// starts.
func (w *StreamWriter) notePos() {
	if w.posF == nil {
		f, err := os.OpenFile(filepath.Join(w.sp.dir, w.name+".ringpos"), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return
		}
		w.posF = f
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(w.total))
	_, _ = w.posF.WriteAt(b[:], 0)
}

// ReadAt reads the stream's bytes from offset off, from the spool file. It is
// safe from another goroutine for bytes whose Write has returned (the caller
// orders the two) while the stream has received no more than its cap: past
// the cap the ring overwrites them. A digest that parses the output while
// the command runs reads it this way.
func (w *StreamWriter) ReadAt(p []byte, off int64) (int, error) {
	if w.raw == nil {
		return 0, io.EOF
	}
	n, err := w.raw.ReadAt(p, rawBase+off)
	for end, old := rawBase+off+int64(n), w.read.Load(); end > old && !w.read.CompareAndSwap(old, end); old = w.read.Load() {
	}
	return n, err
}

// Total is the number of bytes the stream received, kept or not.
func (w *StreamWriter) Total() int64 { return w.total }

// close stops the stream's framer, if it was not finished, and closes its
// files.
func (w *StreamWriter) close() {
	if w.fr != nil {
		w.fr.stop()
	}
	if w.raw != nil {
		w.raw.Close()
	}
	if w.frF != nil {
		w.frF.Close()
	}
	if w.posF != nil {
		w.posF.Close()
	}
}

// finishedStream is a spooled stream ready to commit.
type finishedStream struct {
	name      string
	raw       *os.File // the raw spool, header first (nil for an empty stream)
	id        ID
	meta      *blobMeta
	frames    *os.File // compressed frames, back to back
	pack      string   // the pack file the frames were moved to, once packed
	dropped   int64
	droppedAt int64
	lost      int64 // of dropped, the bytes the spool could not hold (a full disk)
}

// finish completes the stream: appends the ring's tail when the cap was passed
// and waits for the compressor.
func (w *StreamWriter) finish() (*finishedStream, error) {
	if w.err != nil {
		if w.fr != nil {
			w.fr.finish()
		}
		return nil, w.err
	}
	if w.raw == nil {
		return &finishedStream{name: w.name, id: emptyID, meta: &blobMeta{endsWithNewline: true}}, nil
	}
	fs := &finishedStream{name: w.name, frames: w.frF, raw: w.raw}
	if w.total > w.head {
		// Past the cap the raw spool is no longer the blob (the ring keeps
		// the tail out of order), so the blob cannot be plain: frame the
		// head again if it went plain, and the tail below in any case.
		w.fr.plainFrom = 0
		if w.fr.wentPlain {
			if err := w.reframe(); err != nil {
				return nil, err
			}
		}
	}
	if w.total > w.head+w.ring {
		// The ring is full: its oldest byte sits at the write position.
		pos := (w.total - w.head) % w.ring
		if err := copyRange(w.fr, w.raw, rawBase+w.head+pos, w.ring-pos); err != nil {
			return nil, err
		}
		if err := copyRange(w.fr, w.raw, rawBase+w.head, pos); err != nil {
			return nil, err
		}
		fs.dropped = w.total - w.head - w.ring
		fs.droppedAt = w.head
	} else if w.total > w.head {
		if err := copyRange(w.fr, w.raw, rawBase+w.head, w.total-w.head); err != nil {
			return nil, err
		}
	}
	id, meta, err := w.fr.finish()
	if err != nil {
		return nil, err
	}
	fs.id, fs.meta = id, meta
	if w.lost > 0 {
		if fs.dropped == 0 {
			fs.droppedAt = meta.Size
		}
		fs.dropped += w.lost
		fs.lost = w.lost
	}
	return fs, nil
}

// reframe drops the frames built so far and frames the stream's head again
// from the raw spool, into a framer that never goes plain.
func (w *StreamWriter) reframe() error {
	_, _, _ = w.fr.finish()
	if err := w.frF.Truncate(0); err != nil {
		return storeErr(w.sp.dir, "write spool", err)
	}
	if _, err := w.frF.Seek(0, io.SeekStart); err != nil {
		return storeErr(w.sp.dir, "write spool", err)
	}
	w.fr = newFramer(w.frF, false)
	return copyRange(w.fr, w.raw, rawBase, w.head)
}

func copyRange(fr *framer, f *os.File, off, n int64) error {
	buf := make([]byte, 1<<20)
	for n > 0 {
		k := min(int64(len(buf)), n)
		m, err := f.ReadAt(buf[:k], off)
		fr.Write(buf[:m])
		if err != nil && !(errors.Is(err, io.EOF) && int64(m) == k) {
			return fmt.Errorf("read spool %s: %w", f.Name(), err)
		}
		off += int64(m)
		n -= int64(m)
	}
	return nil
}

// interleave returns the finished interleave index.
func (sp *Spool) interleave() ([]byte, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.flushNoteLocked()
	return bytes.Clone(sp.inter.Bytes()), nil
}

// orphanSpools lists spool directories whose capturing process is gone, oldest
// first.
func (s *Store) orphanSpools() []string {
	root := filepath.Join(s.dir, spoolName)
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			// A spool that never got going (its creator died before renaming it).
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				_ = os.RemoveAll(dir)
			}
			continue
		}
		f, err := openNoFollow(filepath.Join(dir, "lock"), os.O_RDWR, 0)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				// A spool still being created, or one whose lock file was lost:
				// judge by age so a capture starting right now is left alone.
				if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Minute {
					out = append(out, dir)
				}
			}
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			out = append(out, dir)
		}
		f.Close()
	}
	sort.Strings(out)
	return out
}

// Unlock closes the spool's files and drops its lock without removing it, so
// the next ctx command recovers what it holds. A capture that failed after
// output arrived ends this way: captured bytes are never thrown away.
func (sp *Spool) Unlock() {
	for _, w := range sp.streams {
		w.close()
	}
	if sp.lock != nil {
		sp.lock.Close()
		sp.lock = nil
	}
}

// spoolResult is how the command ended, saved in the spool when the run could
// not be stored, so recovery keeps the real exit status.
type spoolResult struct {
	Exit   int    `json:"exit"`
	Status Status `json:"status"`
	Signal int    `json:"signal,omitempty"`
	// Received is how many bytes each stream received, kept or not: more
	// than its spool holds when the disk filled during the capture.
	Received map[string]int64 `json:"received,omitempty"`
}

// resultName holds the spoolResult. It is created with the spool, as
// resultPlaceholder, and overwritten in place, so saving the result needs
// no new disk space.
const resultName = "result.json"

var resultPlaceholder = append([]byte("{}"), bytes.Repeat([]byte(" "), 510)...)

// SaveResult records in the spool how the command ended, flushed: for a
// spool that is left for recovery because its commit failed.
func (sp *Spool) SaveResult(m Manifest) error { return sp.saveResult(m, true) }

// KeepResult records in the spool how the command ended, without flushing
// it: what the next ctx needs to recover the run with its real exit status
// if this process is killed. Like the output it describes, which is not
// flushed before its commit either, it may not outlive a power loss; the
// run is then recovered with no exit status, which is the truth about it.
func (sp *Spool) KeepResult(m Manifest) error { return sp.saveResult(m, false) }

func (sp *Spool) saveResult(m Manifest, flush bool) error {
	res := spoolResult{Exit: m.Exit, Status: m.Status, Signal: m.Signal, Received: map[string]int64{}}
	for name, w := range sp.streams {
		res.Received[name] = w.Total()
	}
	b, _ := json.Marshal(res)
	if len(b) > len(resultPlaceholder) {
		res.Received = nil
		b, _ = json.Marshal(res)
	}
	f, err := openNoFollow(filepath.Join(sp.dir, resultName), os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	// Spaces pad the record to the placeholder's length: valid JSON, and
	// no byte beyond what was allocated.
	b = append(b, bytes.Repeat([]byte(" "), len(resultPlaceholder)-len(b))...)
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	if !flush {
		return nil
	}
	return f.Sync()
}

// trashBytes is the raw spool size from which a committed spool's file is
// moved to the trash rather than deleted: deleting a page-cached GiB takes
// 0.4-0.7 s on a 2-core machine, which the command's caller would wait for
// after its run is already stored. The trash is a dot directory beside the
// spools, so recovery never takes it for a capture (and removes what a
// sweep missed after an hour, as it does any dot directory).
const trashBytes = 64 << 20

// moveLarge moves the committed spool's large raw files to a trash
// directory of its own, and reports whether it moved any.
func (sp *Spool) moveLarge() bool {
	trash := filepath.Join(filepath.Dir(sp.dir), trashPrefix+filepath.Base(sp.dir))
	moved := false
	for name, w := range sp.streams {
		if w.raw == nil || w.total < trashBytes || linked(filepath.Join(sp.dir, name+".raw")) {
			continue // a raw spool linked into packs/ (a plain blob) is not freed by its removal
		}
		if !moved {
			if err := os.Mkdir(trash, 0o700); err != nil {
				return false
			}
		}
		if os.Rename(filepath.Join(sp.dir, name+".raw"), filepath.Join(trash, name+".raw")) == nil {
			moved = true
		}
	}
	if !moved {
		_ = os.Remove(trash)
	}
	return moved
}

// linked reports whether a file has another name (a plain pack's).
func linked(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}

// trashPrefix names the directories Release leaves for SweepTrash.
const trashPrefix = ".trash-"

// LeftTrash reports whether committing the run left large spool files to
// delete: a background compaction (which sweeps them first) is then worth
// starting.
func (p *Pending) LeftTrash() bool { return p.sp.trashed }

// sweepTrash deletes what committed spools left in the trash.
func (s *Store) sweepTrash() {
	root := filepath.Join(s.dir, spoolName)
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), trashPrefix) {
			_ = os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}
