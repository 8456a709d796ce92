package store

import (
	"github.com/ctxhq/ctx/internal/runstatus"

	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Manifest is the canonical description of a run. Its hash is the run id, so it
// holds only what the run's meaning depends on: never a time, a pid, a host or an
// absolute path.
type Manifest struct {
	Argv   []string  `json:"argv"`
	Dir    string    `json:"dir"`  // working directory relative to the workspace root, "." at the root
	Mode   string    `json:"mode"` // pty | pipe | ingest
	Exit   int       `json:"exit"` // the status ctx reports (124 timeout, 128+N signal…)
	Status Status    `json:"status"`
	Signal int       `json:"signal,omitempty"`
	Stdin  ID        `json:"stdin"`
	Stdout StreamRef `json:"stdout"`
	Stderr StreamRef `json:"stderr"`
}

// Status is how a run ended (defined in runstatus).
type Status = runstatus.Status

// Run statuses (see runstatus for their meaning).
const (
	StatusExited        = runstatus.Exited
	StatusSignaled      = runstatus.Signaled
	StatusTimeout       = runstatus.Timeout
	StatusInterrupted   = runstatus.Interrupted
	StatusNotFound      = runstatus.NotFound
	StatusNotExecutable = runstatus.NotExecutable
	StatusRecovered     = runstatus.Recovered
	StatusIngested      = runstatus.Ingested
)

// StreamRef is one stream of a run: its blob and what the byte cap dropped.
type StreamRef struct {
	Blob      ID    `json:"blob"`
	Size      int64 `json:"size"`
	Lines     int64 `json:"lines"`
	Dropped   int64 `json:"dropped,omitempty"`    // bytes dropped beyond the cap
	DroppedAt int64 `json:"dropped_at,omitempty"` // offset in the stored blob where they were
	// Lost is the part of Dropped that the disk, not the cap, dropped: bytes
	// the command wrote that the spool could not hold (a full disk), found
	// when the capture was recovered. They are at the stream's end.
	Lost int64 `json:"lost,omitempty"`
}

// ID is the run id: the BLAKE3 of the manifest's canonical JSON.
func (m *Manifest) ID() ID {
	return Sum(m.appendJSON([]byte("ctx-run-v1\n")))
}

// Run is a stored run: its manifest and the latest arrival order of its streams.
type Run struct {
	ID         ID       `json:"id"`
	Manifest   Manifest `json:"manifest"`
	Interleave ID       `json:"interleave"` // blob of (stream, length) entries; zero when unknown
}

// Handle is "run:" and the short id.
func (r *Run) Handle() string { return HandleOf(KindRun, r.ID) }

// Exec is one invocation's record: the volatile facts kept out of ids and digests.
type Exec struct {
	Key      string        `json:"key"` // time-ordered, unique
	Run      ID            `json:"run"`
	Argv     []string      `json:"argv"`
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration"`
	Host     string        `json:"host"`
	PID      int           `json:"pid"`
	Version  string        `json:"version"`
	Session  string        `json:"session,omitempty"`
	Cwd      string        `json:"cwd"` // absolute, for the person reading `ctx ls`; never in an id
	Receipt  ID            `json:"receipt,omitzero"`
	// Accounting for `ctx stats`: what the command produced against what the
	// agent was shown.
	RawBytes   int64  `json:"raw_bytes"`
	ShownBytes int64  `json:"shown_bytes"`
	Profile    string `json:"profile,omitempty"`
	Note       string `json:"note,omitempty"` // e.g. recovered after a crash
	// Generation is the work tree the command ran against, taken as it
	// started; nil outside a git repository or when it was not ready.
	Generation *Generation `json:"generation,omitempty"`
}

// Generation is a work tree's state as an execution records it: the id
// (a hash of HEAD and every changed file's content, source.Generation), HEAD,
// and the changed files, at most MaxGenChanges of them (More counts the rest).
type Generation struct {
	ID      string      `json:"id"`
	Head    string      `json:"head,omitempty"`
	Changed []GenChange `json:"changed,omitempty"`
	More    int         `json:"more,omitempty"`
}

// GenChange is one file that differed from HEAD.
type GenChange struct {
	Path   string `json:"path"`
	Status string `json:"status"` // git status's two letters
	Hash   string `json:"hash"`   // content hash prefix, or "deleted"
}

// MaxGenChanges bounds the changed files one execution record keeps.
const MaxGenChanges = 256

// Handle is the handle of the run this execution produced.
func (e *Exec) Handle() string { return HandleOf(KindRun, e.Run) }

// Pending is a finished capture: its streams are hashed and framed and its run
// id is known, so it can be read (and its digest rendered) from the spool before
// anything is stored.
type Pending struct {
	Run     *Run
	s       *Store
	sp      *Spool
	streams []*finishedStream
	inter   []byte

	largeOnce sync.Once
	largeErr  error
}

// Prepare finishes a spool's streams and computes the run.
func (s *Store) Prepare(sp *Spool, m Manifest) (*Pending, error) {
	p := &Pending{s: s, sp: sp}
	names := make([]string, 0, len(sp.streams))
	for name := range sp.streams {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fs, err := sp.streams[name].finish()
		if err != nil {
			return nil, err
		}
		p.streams = append(p.streams, fs)
		ref := StreamRef{Blob: fs.id, Size: fs.meta.Size, Lines: fs.meta.Lines(), Dropped: fs.dropped, DroppedAt: fs.droppedAt, Lost: fs.lost}
		switch fs.name {
		case "stdout":
			m.Stdout = ref
		case "stderr":
			m.Stderr = ref
		case "stdin":
			m.Stdin = fs.id
		}
	}
	inter, err := sp.interleave()
	if err != nil {
		return nil, err
	}
	if m.Stdout.Blob.IsZero() {
		m.Stdout.Blob = emptyID
	}
	if m.Stderr.Blob.IsZero() {
		m.Stderr.Blob = emptyID
	}
	if m.Argv == nil {
		m.Argv = []string{}
	}
	p.Run = &Run{ID: m.ID(), Manifest: m}
	if len(inter) > 0 && m.Stdout.Size > 0 && m.Stderr.Size > 0 {
		p.inter = inter
		p.Run.Interleave = Sum(inter)
	}
	return p, nil
}

// Blob opens one of the pending run's blobs from the spool, or any other blob
// from the store.
func (p *Pending) Blob(id ID) (*Blob, error) {
	for _, fs := range p.streams {
		if fs.id != id || fs.meta.Size == 0 {
			continue
		}
		if fs.raw != nil && fs.dropped == 0 {
			// The raw spool holds the stream's exact bytes: read them
			// without decompressing anything.
			raw, meta := fs.raw, fs.meta
			var buf []byte // reused: a frame's bytes are used before the next is read
			return &Blob{ID: id, meta: meta, cached: -1, plain: true, spooled: true, fetch: func(i int) ([]byte, error) {
				f := meta.Frames[i]
				buf = slices.Grow(buf[:0], int(f.Len))[:f.Len]
				if _, err := raw.ReadAt(buf, rawBase+f.Off); err != nil {
					return nil, fmt.Errorf("read spool %s: %w", raw.Name(), err)
				}
				return buf, nil
			}}, nil
		}
		offs := make([]int64, len(fs.meta.Frames))
		var off int64
		for i, f := range fs.meta.Frames {
			offs[i] = off
			off += int64(f.CLen)
		}
		file := fs.frames
		meta := fs.meta
		return &Blob{ID: id, meta: meta, cached: -1, fetch: func(i int) ([]byte, error) {
			buf := make([]byte, meta.Frames[i].CLen)
			if _, err := file.ReadAt(buf, offs[i]); err != nil {
				return nil, fmt.Errorf("read spool %s: %w", file.Name(), err)
			}
			return buf, nil
		}}, nil
	}
	if id == emptyID {
		return emptyBlob(), nil
	}
	return p.s.Blob(id)
}

// Extra is what gets stored with a run in its final transaction: the digest
// and census blobs, the receipt, and the session update.
type Extra struct {
	Blobs   [][]byte
	Receipt []byte // JSON; stored under ReceiptID(Receipt)
	Session *SessionUpdate
	Spans   []Span // span tokens the digest names
	// Layers are layer records stored in the same transaction (a ctx seq
	// record with its last steps' runs), each as PutLayerRecord would.
	Layers []LayerPut
}

// SessionUpdate records a command's state in an agent session.
type SessionUpdate struct {
	Session, Command string
	Record           Session
}

// ReceiptID is the id a receipt's bytes are stored under.
func ReceiptID(data []byte) ID { return Sum(append([]byte("ctx-receipt-v1\n"), data...)) }

// Commit stores a pending run and records the execution. Identical blobs are
// stored once; a run identical to a stored one keeps its id. Large streams
// become pack files first; everything else — blob records, the run, the
// execution, the extras — goes in one final transaction, so a crash
// mid-commit leaves at most unreferenced packs that gc sweeps, never a
// half-visible run. The final transaction checks that every blob the run
// references has its record, in that same transaction. The spool is removed
// once the run is durable.
func (s *Store) Commit(p *Pending, ex Exec, extra *Extra) (*Run, error) {
	runs, err := s.CommitBatch([]Commit{{Pending: p, Exec: ex, Extra: extra}})
	if err != nil {
		return nil, err
	}
	return runs[0], nil
}

// Commit is one pending run for [Store.CommitBatch], with its execution and
// extras as [Store.Commit] takes them.
type Commit struct {
	Pending *Pending
	Exec    Exec
	Extra   *Extra
}

// CommitBatch is [Store.Commit] for several pending runs in one final
// transaction: one open of the database and one fsync for all of them (ctx
// seq's steps). Each spool is kept, locked, until that transaction commits
// and removed after; if it fails every spool is kept for the caller (or the
// next ctx command) to recover. Runs are returned in order.
func (s *Store) CommitBatch(batch []Commit) ([]*Run, error) {
	defer func() {
		for _, c := range batch {
			for _, w := range c.Pending.sp.streams {
				w.close()
			}
		}
	}()
	for i := range batch {
		c := &batch[i]
		c.Exec.Run = c.Pending.Run.ID
		if c.Exec.Key == "" {
			c.Exec.Key = c.Pending.sp.Meta.Exec
		}
		if c.Exec.Key == "" {
			c.Exec.Key = execKey(c.Exec.Start)
		}
		m := c.Pending.Run.Manifest
		c.Exec.RawBytes = m.Stdout.Size + m.Stderr.Size + m.Stdout.Dropped + m.Stderr.Dropped
		// A stream whose blob was stored already is not packed; if that
		// record is gone by the final transaction (gc swept it meanwhile),
		// the transaction fails with errNeedPack, the streams are packed and
		// the transaction retried, so a run never commits a reference to a
		// swept blob.
		if err := c.Pending.StoreLarge(); err != nil {
			return nil, err
		}
	}
	var err error
	for attempt := 0; ; attempt++ {
		var spare []string
		spare, err = s.commitTx(batch)
		if errors.Is(err, errNeedPack) && attempt == 0 {
			for _, c := range batch {
				if err = c.Pending.packAll(); err != nil {
					return nil, err
				}
			}
			continue
		}
		// Packs that lost to a record another process committed.
		for _, path := range spare {
			_ = os.Remove(path)
		}
		break
	}
	if err != nil {
		return nil, err
	}
	runs := make([]*Run, len(batch))
	for i, c := range batch {
		runs[i] = c.Pending.Run
		// A spool whose execution record is stored under its meta.json's key
		// needs no "committed" mark: recovery finds the record (hasExec), as
		// it must anyway after a crash between the transaction and the mark.
		// One file less to create and remove on every ctx run.
		if c.Exec.Key != c.Pending.sp.Meta.Exec {
			c.Pending.sp.markCommitted(runs[i])
		}
		c.Pending.sp.Release()
	}
	return runs, nil
}

// errNeedPack: the final transaction found a large stream's blob record gone
// (gc swept it after StoreLarge saw it) and the stream not packed.
var errNeedPack = errors.New("a large stream must be packed again")

// commitTx is Commit's final transaction. It returns the pack files this
// commit made that a record already stored made redundant (removed only once
// the transaction has committed).
func (s *Store) commitTx(batch []Commit) (spare []string, err error) {
	err = s.update(func(tx *bolt.Tx) error {
		spare = spare[:0]
		for _, c := range batch {
			if err := putRun(tx, c.Pending, c.Exec, c.Extra, &spare); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		spare = nil
	}
	return spare, err
}

// putRun stores one pending run and its execution in tx, adding to spare
// the packs a record already stored made redundant.
func putRun(tx *bolt.Tx, p *Pending, ex Exec, extra *Extra, spare *[]string) error {
	run := p.Run
	var small, large []*finishedStream
	for _, fs := range p.streams {
		switch {
		case fs.meta.Size == 0:
		case fs.meta.Packed || compressedSize(fs.meta) > packBytes:
			large = append(large, fs)
		default:
			small = append(small, fs)
		}
	}
	for _, fs := range small {
		if err := putStream(tx, fs); err != nil {
			return err
		}
	}
	for _, fs := range large {
		if tx.Bucket(bucketBlobs).Get(fs.id[:]) != nil {
			// Stored already: keep that record (its pack is in use)
			// and drop the pack this commit made, if any.
			if fs.pack != "" {
				*spare = append(*spare, fs.pack)
			}
			continue
		}
		if !fs.meta.Packed {
			return errNeedPack
		}
		if err := tx.Bucket(bucketBlobs).Put(fs.id[:], fs.meta.encode(fs.id)); err != nil {
			return err
		}
	}
	if p.inter != nil {
		if err := putSmallBlob(tx, run.Interleave, p.inter); err != nil {
			return err
		}
	}
	if err := putSmallBlob(tx, emptyID, nil); err != nil {
		return err
	}
	if err := tx.Bucket(bucketRuns).Put(run.ID[:], run.appendJSON(nil)); err != nil {
		return err
	}
	if extra != nil {
		for _, b := range extra.Blobs {
			if err := putSmallBlob(tx, Sum(b), b); err != nil {
				return err
			}
		}
		if extra.Receipt != nil {
			id := ReceiptID(extra.Receipt)
			if tx.Bucket(bucketReceipts).Get(id[:]) == nil {
				if err := tx.Bucket(bucketReceipts).Put(id[:], extra.Receipt); err != nil {
					return err
				}
			}
		}
		if err := putSpans(tx, run, extra.Spans); err != nil {
			return err
		}
		for _, l := range extra.Layers {
			if _, err := l.put(tx); err != nil {
				return err
			}
		}
		if su := extra.Session; su != nil {
			sb, _ := json.Marshal(su.Record)
			if err := tx.Bucket(bucketSessions).Put(sessionKey(su.Session, su.Command), sb); err != nil {
				return err
			}
		}
	}
	eb, err := ex.marshal()
	if err != nil {
		return err
	}
	return tx.Bucket(bucketExecs).Put([]byte(ex.Key), eb)
}

// putSpans records span tokens of run in tx.
func putSpans(tx *bolt.Tx, run *Run, spans []Span) error {
	for _, sp := range spans {
		sp.Run = run.ID
		tok, err := sp.Token(run)
		if err != nil {
			return err
		}
		if err := putSpan(tx, tok, sp); err != nil {
			return err
		}
	}
	return nil
}

// StoreLarge makes the pending run's large streams pack files. It may run
// while the digest is rendered from the spool; Commit calls it too, and it
// does its work once. Until Commit's final transaction the packs are
// unreferenced, so a crash leaves only garbage.
func (p *Pending) StoreLarge() error {
	p.largeOnce.Do(func() {
		for _, fs := range p.streams {
			if fs.meta.Size == 0 || compressedSize(fs.meta) <= packBytes {
				continue
			}
			if err := p.s.putPack(fs, false); err != nil {
				p.largeErr = err
				return
			}
		}
	})
	return p.largeErr
}

// packAll packs every large stream not packed yet, whether or not its blob
// is stored.
func (p *Pending) packAll() error {
	for _, fs := range p.streams {
		if fs.meta.Size == 0 || fs.meta.Packed || compressedSize(fs.meta) <= packBytes {
			continue
		}
		if err := p.s.putPack(fs, true); err != nil {
			return err
		}
	}
	return nil
}

func compressedSize(m *blobMeta) int64 {
	var n int64
	for _, f := range m.Frames {
		n += int64(f.CLen)
	}
	return n
}

// putStream stores a small stream's frames and record in tx, unless stored.
func putStream(tx *bolt.Tx, fs *finishedStream) error {
	blobs := tx.Bucket(bucketBlobs)
	if blobs.Get(fs.id[:]) != nil {
		return nil
	}
	frames := tx.Bucket(bucketFrames)
	var off int64
	for k, f := range fs.meta.Frames {
		buf := make([]byte, f.CLen)
		if _, err := fs.frames.ReadAt(buf, off); err != nil {
			return fmt.Errorf("read spool %s: %w", fs.frames.Name(), err)
		}
		if err := frames.Put(frameKey(fs.id, k), buf); err != nil {
			return err
		}
		off += int64(f.CLen)
	}
	return blobs.Put(fs.id[:], fs.meta.encode(fs.id))
}

// CommitSpool prepares and commits a spool with no extras (recovery, tests).
func (s *Store) CommitSpool(sp *Spool, m Manifest, ex Exec) (*Run, error) {
	p, err := s.Prepare(sp, m)
	if err != nil {
		return nil, err
	}
	return s.Commit(p, ex, nil)
}

// Release removes a committed spool and drops its lock. A large raw file is
// moved aside first, for a background process to delete (see trashBytes).
func (sp *Spool) Release() {
	for _, w := range sp.streams {
		w.close()
	}
	sp.trashed = sp.moveLarge()
	if !sp.release() { // kept, emptied, for the next capture (spoolfree.go)
		_ = os.RemoveAll(sp.dir)
	}
	if sp.lock != nil {
		sp.lock.Close()
		sp.lock = nil
	}
}

// packBytes is the compressed size from which a blob is packed (its frames in
// a file of their own) instead of stored in the frames bucket.
const packBytes = 8 << 20

// packFile is where generation gen of a packed blob lives: packPath, or for
// a plain pack the same name ending .raw.
func (s *Store) packFile(id ID, gen uint64, plain bool) string {
	p := s.packPath(id, gen)
	if plain {
		p = strings.TrimSuffix(p, ".zst") + ".raw"
	}
	return p
}

// packPath is where generation gen of a packed blob's frames lives.
func (s *Store) packPath(id ID, gen uint64) string {
	h := id.String()
	name := h + ".zst"
	if gen > 0 {
		name = fmt.Sprintf("%s.g%d.zst", h, gen)
	}
	return filepath.Join(s.dir, packsName, h[:2], name)
}

// newGen returns a pack generation no other writer picks: every pack file
// has a name of its own, so two processes packing or compacting the same
// content never write, rename over or remove each other's file.
func newGen() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:])>>12 | 1 // 52 bits, never 0
}

// putPack makes a large stream's spooled frames a pack file of a new
// generation: it flushes them (their writeback started while the command
// ran), moves the file into packs/ under its own name, and syncs the
// directory. Unless force is set, a stream whose blob is stored already is
// left alone. The blob record that makes the pack reachable is written by
// Commit's final transaction; until then the pack is garbage that gc removes.
func (s *Store) putPack(fs *finishedStream, force bool) error {
	if !force {
		var exists bool
		err := s.view(func(tx *bolt.Tx) error {
			exists = tx.Bucket(bucketBlobs).Get(fs.id[:]) != nil
			return nil
		})
		if err != nil && !isEmpty(err) {
			return err
		}
		if exists {
			return nil // the same content is stored already
		}
	}
	src := fs.frames
	if fs.meta.Plain {
		src = fs.raw
	}
	if err := src.Sync(); err != nil {
		return storeErr(s.dir, "sync spool", err)
	}
	gen := newGen()
	dst := s.packFile(fs.id, gen, fs.meta.Plain)
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return storeErr(dir, "create pack", err)
	}
	// A plain pack is the raw spool under a second name: the spool keeps
	// its own until the run is committed, so a crash before that leaves
	// the spool whole for recovery (and the pack an orphan for gc).
	store := os.Rename
	if fs.meta.Plain {
		store = os.Link
	}
	if err := store(src.Name(), dst); err != nil {
		return storeErr(dir, "store pack", err)
	}
	// gc judges unreferenced packs by age: date this one from its move.
	now := time.Now()
	_ = os.Chtimes(dst, now, now)
	syncDir(dir)
	fs.meta.Packed, fs.meta.Gen, fs.pack = true, gen, dst
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

func isEmpty(err error) bool { return err == errEmptyStore }

func frameKey(id ID, i int) []byte {
	k := make([]byte, 36)
	copy(k, id[:])
	binary.BigEndian.PutUint32(k[32:], uint32(i))
	return k
}

// putSmallBlob stores bytes that fit in memory (indexes, digests, census lists)
// as a blob, framed like any other.
func putSmallBlob(tx *bolt.Tx, id ID, data []byte) error {
	blobs := tx.Bucket(bucketBlobs)
	if blobs.Get(id[:]) != nil {
		return nil
	}
	meta, frames := frameBytes(data)
	for i, c := range frames {
		if err := tx.Bucket(bucketFrames).Put(frameKey(id, i), c); err != nil {
			return err
		}
	}
	return blobs.Put(id[:], meta.encode(id))
}

// PutBlob stores small content (at most a few MiB) and returns its id.
func (s *Store) PutBlob(data []byte) (ID, error) {
	id := Sum(data)
	return id, s.update(func(tx *bolt.Tx) error { return putSmallBlob(tx, id, data) })
}

// execKey is a key that sorts by start time and never collides across processes.
func execKey(t time.Time) string {
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return fmt.Sprintf("%016x-%x", t.UnixNano(), rnd)
}

// GetRun returns the run with the given id.
func (s *Store) GetRun(id ID) (*Run, error) {
	var run *Run
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		run, err = decodeRun(tx, id)
		return err
	})
	if isEmpty(err) {
		return nil, fmt.Errorf("run:%s: %w", id.Short(), ErrNotFound)
	}
	return run, err
}

// UpdateExec rewrites an execution record (to attach its receipt and accounting).
func (s *Store) UpdateExec(ex *Exec) error {
	eb, err := ex.marshal()
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketExecs).Put([]byte(ex.Key), eb) })
}

// Execs returns up to limit execution records, newest first, that match keep
// (nil keeps all).
func (s *Store) Execs(limit int, keep func(*Exec) bool) ([]*Exec, error) {
	var out []*Exec
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketExecs).Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			ex := &Exec{}
			if err := json.Unmarshal(v, ex); err != nil {
				return hint(fmt.Errorf("execution record %s: %v: %w", quoteClip(string(k)), err, ErrCorrupt),
					"run `ctx check` to list the damaged records, then `ctx check --repair` to set them aside")
			}
			if keep == nil || keep(ex) {
				out = append(out, ex)
			}
		}
		return nil
	})
	if isEmpty(err) {
		return nil, nil
	}
	return out, err
}
