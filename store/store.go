package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Layout of a store directory.
const (
	DirName    = ".ctx"
	dbName     = "store.db"
	spoolName  = "spool"
	packsName  = "packs"
	EnvStore   = "CTX_STORE"        // overrides the store location
	EnvTimeout = "CTX_LOCK_TIMEOUT" // how long to wait for the store lock, e.g. "30s"
)

// DefaultLockTimeout is how long a command waits for another process to release
// the database before it gives up with ErrLocked.
const DefaultLockTimeout = 20 * time.Second

// holdLimit bounds how long a read-only handle on the database is kept: it is
// released once it has been open this long (at the next read) or idle this
// long (by a timer), so writers in other processes can take the lock while
// this process parses, digests or compresses.
const holdLimit = 25 * time.Millisecond

// Bucket names: the store schema is specified in docs/store.md.
var (
	bucketBlobs    = []byte("blobs")    // blob id → frame table
	bucketFrames   = []byte("frames")   // blob id ‖ frame index (u32 BE) → zstd frame
	bucketRuns     = []byte("runs")     // run id → run record (JSON)
	bucketExecs    = []byte("execs")    // exec key → execution record (JSON)
	bucketReceipts = []byte("receipts") // receipt id → receipt (JSON)
	bucketSpans    = []byte("spans")    // span token → span record (JSON)
	bucketPins     = []byte("pins")     // handle → pin record (JSON)
	bucketSessions = []byte("sessions") // session ‖ 0 ‖ command key → session record (JSON)
	bucketMeta     = []byte("meta")     // "schema" → version
	allBuckets     = [][]byte{bucketBlobs, bucketFrames, bucketRuns, bucketExecs, bucketReceipts, bucketSpans, bucketPins, bucketSessions, bucketMeta}
)

// schemaVersion is the store schema (docs/store.md). Version 2 added
// checksummed blob records; a version 1 store is upgraded in place (its
// records stay readable), so an older ctx refuses to write to it (and
// reports the new records as damaged rather than misreading them).
const (
	schemaVersion    = "2"
	schemaUpgradable = "1"
)

// Store is one workspace's store: a directory holding the bbolt database and the
// spool. The database is opened lazily and held only for short transactions, so
// many ctx processes can share a store. A Store is safe for concurrent use by the
// goroutines of one process.
type Store struct {
	dir     string // the .ctx directory
	root    string // the workspace root commands' directories are recorded relative to
	timeout time.Duration

	mu          sync.Mutex
	db          *bolt.DB
	readOnly    bool
	openedAt    time.Time
	lastRead    time.Time   // end of the latest read transaction
	idle        *time.Timer // releases a read handle left idle for holdLimit
	initialized bool        // the schema has been checked in this process
	noSync      bool        // write transactions skip fsync (Unsynced)
}

// Location says where a store lives and which workspace it serves.
type Location struct {
	Dir  string // the store directory
	Root string // the workspace root
	// Named is set when Dir came from $CTX_STORE: a symbolic link there is
	// the user's own choice and is followed. A .ctx found in a workspace
	// must be a directory, never a link (a repository can ship one).
	Named bool
}

// Locate finds the store for the working directory cwd. Walking up from
// cwd, the first directory holding either a .ctx store this user may adopt
// (see adoptable) or a .git entry is the workspace, and its .ctx the store.
// A directory in no workspace uses the one per-user store (UserStoreDir), so
// scratch directories do not each grow a .ctx. $CTX_STORE, when set, names
// the store in every case; the workspace root is still found as above (cwd
// outside any). It does not create anything.
func Locate(cwd string) (Location, error) {
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return Location{}, err
	}
	root, dir := cwd, ""
	for d := cwd; ; {
		if p := filepath.Join(d, DirName); isDir(p) && adoptable(d, p) {
			root, dir = d, p
			break
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			// A repository's own .ctx even when it is not adoptable: Open
			// then refuses it with the reason, rather than ctx silently
			// keeping the repository's runs elsewhere.
			root, dir = d, filepath.Join(d, DirName)
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if env := os.Getenv(EnvStore); env != "" {
		abs, err := filepath.Abs(env)
		if err != nil {
			return Location{}, err
		}
		return Location{Dir: abs, Root: root, Named: true}, nil
	}
	if dir == "" {
		if dir = UserStoreDir(); dir == "" {
			dir = filepath.Join(cwd, DirName) // no home directory known: the old way
		}
	}
	return Location{Dir: dir, Root: root}, nil
}

// adoptable reports whether a .ctx found while walking up may serve as the
// store: a directory owned by this user and writable by no one else, in a
// parent that is not writable by others. A .ctx in /tmp (or any directory
// anyone may write) is never adopted, even one's own: anyone could have
// made it first, and adopting it would pool every directory beneath.
func adoptable(parent, p string) bool {
	fi, err := os.Lstat(p) // a link is never adopted: it could point anywhere
	if err != nil || checkInfo(p, fi, true) != nil {
		return false
	}
	pi, err := os.Stat(parent)
	return err == nil && pi.Mode().Perm()&0o002 == 0
}

// UserStoreDir is the per-user store for directories in no workspace:
// $XDG_STATE_HOME/ctx/store, else ~/.local/state/ctx/store (beside the index
// of stores), or "" when neither is known.
func UserStoreDir() string {
	if p := IndexPath(); p != "" {
		return filepath.Join(filepath.Dir(p), "store")
	}
	return ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Open returns the store at loc. It creates the directory (0700, with a
// .gitignore of "*") when create is true; otherwise a missing store is
// ErrNotFound. The database itself is opened on first use.
func Open(loc Location, create bool) (*Store, error) {
	s := &Store{dir: loc.Dir, root: loc.Root, timeout: lockTimeout()}
	if err := checkNotLink(loc); err != nil {
		return nil, err
	}
	if !isDir(loc.Dir) {
		if !create {
			return nil, hint(fmt.Errorf("no store at %s: %w", loc.Dir, ErrNotFound), "run a command with `ctx run -- CMD` first, or set %s to the store to use", EnvStore)
		}
		if err := os.MkdirAll(loc.Dir, 0o700); err != nil {
			return nil, storeErr(loc.Dir, "create store", err)
		}
	}
	if err := checkStoreDir(loc.Dir); err != nil {
		return nil, err
	}
	if create {
		ign := filepath.Join(loc.Dir, ".gitignore")
		if _, err := os.Stat(ign); errors.Is(err, fs.ErrNotExist) {
			if err := os.WriteFile(ign, []byte("*\n"), 0o600); err != nil {
				return nil, storeErr(loc.Dir, "create store", err)
			}
		}
	}
	return s, nil
}

// checkNotLink refuses a workspace store that is a symbolic link: a
// repository that ships .ctx as a link to another directory of the user's
// (another project's store, ~/.ssh) would have ctx write its runs there.
// $CTX_STORE may name a link: that one the user chose.
func checkNotLink(loc Location) error {
	if loc.Named {
		return nil
	}
	fi, err := os.Lstat(loc.Dir)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, _ := os.Readlink(loc.Dir)
	return hint(fmt.Errorf("refusing store %s: it is a symbolic link (to %s), not a directory: %w", loc.Dir, target, ErrUnsafe),
		"a workspace's %s must be a directory of its own (a repository could ship a link that sends your runs elsewhere): remove the link, or set %s to its target to use it on purpose", DirName, EnvStore)
}

// checkStoreDir refuses a store directory that is not this user's own: one
// owned by someone else, or that others can write to, could hold planted
// files (a repository can ship a .ctx/ directory).
func checkStoreDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return storeErr(dir, "open store", err)
	}
	if err := checkInfo(dir, fi, true); err != nil {
		return hint(fmt.Errorf("refusing store %s: %v: %w", dir, err, ErrUnsafe),
			"use a store directory of your own (chown it to you and `chmod go-w %s`), or set %s to one", dir, EnvStore)
	}
	return nil
}

// existingDir is dir or its nearest parent that exists: the directory a
// failed create needs write permission on (a spool that was never made is
// nothing to chmod).
func existingDir(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(d); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// storeErr names the store path and adds a hint for the common causes.
func storeErr(dir, op string, err error) error {
	e := fmt.Errorf("%s %s: %w", op, dir, err)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return hint(e, "make %s writable by you, or point %s at another directory", existingDir(dir), EnvStore)
	case isNoSpace(err):
		return hint(e, "free disk space (or run `ctx gc`), then retry")
	}
	return e
}

func lockTimeout() time.Duration {
	if v := os.Getenv(EnvTimeout); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return DefaultLockTimeout
}

// Dir is the store directory.
func (s *Store) Dir() string { return s.dir }

// Root is the workspace root.
func (s *Store) Root() string { return s.root }

// Close releases the database if it is open.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeLocked()
}

func (s *Store) closeLocked() error {
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	s.db = nil
	return err
}

func (s *Store) dbPath() string { return filepath.Join(s.dir, dbName) }

// openLocked opens the database in the wanted mode, waiting up to the lock
// timeout for other processes.
func (s *Store) openLocked(readOnly bool) error {
	if s.db != nil {
		if s.readOnly == readOnly || (!s.readOnly && readOnly) {
			return nil
		}
		if err := s.closeLocked(); err != nil {
			return err
		}
	}
	path := s.dbPath()
	if readOnly {
		fi, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return errEmptyStore
		}
		if err == nil && fi.Size() == 0 {
			if err := s.checkEmptyDB(path); err != nil {
				return err
			}
		}
	}
	if err := checkDBFile(path); err != nil {
		return err
	}
	db, err := openBolt(path, &bolt.Options{
		Timeout:  s.timeout,
		ReadOnly: readOnly,
		// The freelist is synced: without it every open rebuilds it by walking
		// the whole file, which makes each short transaction cost O(store size)
		// in time and resident memory.
		FreelistType: bolt.FreelistMapType,
	})
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return err
		}
		switch {
		case errors.Is(err, berrors.ErrTimeout):
			return hint(fmt.Errorf("open store %s: another ctx process held its lock for %s: %w", path, s.timeout, ErrLocked),
				"retry when the other ctx command finishes, or raise %s (now %s)", EnvTimeout, s.timeout)
		case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrInvalidMapping):
			return damaged(path, err)
		}
		return storeErr(path, "open store", err)
	}
	// Grow the file in large steps: each growth costs a truncate and an fsync.
	db.AllocSize = 64 << 20
	db.NoSync = s.noSync
	s.db, s.readOnly, s.openedAt = db, readOnly, time.Now()
	if !readOnly && !s.initialized {
		// Check the schema in a read transaction; write only when the store
		// is new (an empty write transaction still costs two fsyncs).
		ready := false
		err := db.View(func(tx *bolt.Tx) error {
			m := tx.Bucket(bucketMeta)
			if m == nil {
				return nil
			}
			v := m.Get([]byte("schema"))
			if v != nil && string(v) != schemaVersion && string(v) != schemaUpgradable {
				return fmt.Errorf("store schema %s, this ctx reads %s: %w", v, schemaVersion, ErrCorrupt)
			}
			ready = string(v) == schemaVersion
			for _, b := range allBuckets {
				ready = ready && tx.Bucket(b) != nil
			}
			return nil
		})
		if err == nil && !ready {
			err = db.Update(func(tx *bolt.Tx) error {
				for _, b := range allBuckets {
					if _, err := tx.CreateBucketIfNotExists(b); err != nil {
						return err
					}
				}
				m := tx.Bucket(bucketMeta)
				if v := m.Get([]byte("schema")); v == nil || string(v) == schemaUpgradable {
					return m.Put([]byte("schema"), []byte(schemaVersion))
				} else if string(v) != schemaVersion {
					return fmt.Errorf("store schema %s, this ctx reads %s: %w", v, schemaVersion, ErrCorrupt)
				}
				return nil
			})
		}
		if err != nil {
			_ = s.closeLocked()
			return damaged(path, err)
		}
		s.initialized = true
	}
	return nil
}

// checkEmptyDB judges an empty store.db met by a reader: empty while
// another process creates it (it holds the lock), else truncated. bbolt
// would try to initialise it through a read-only handle.
func (s *Store) checkEmptyDB(path string) error {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return storeErr(path, "open store", err)
	}
	defer f.Close()
	deadline := time.Now().Add(s.timeout)
	for syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			return hint(fmt.Errorf("open store %s: another ctx process held its lock for %s: %w", path, s.timeout, ErrLocked),
				"retry when the other ctx command finishes, or raise %s (now %s)", EnvTimeout, s.timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		return damaged(path, errors.New("the file is empty (truncated, or its creation was cut short)"))
	}
	return nil
}

// openBolt opens the database, turning a panic or a memory fault inside
// bbolt (it trusts the file) into ErrCorrupt.
func openBolt(path string, opts *bolt.Options) (db *bolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, damaged(path, fmt.Errorf("open: %v", r))
		}
	}()
	return bolt.Open(path, 0o600, opts)
}

// errEmptyStore: a read found no database yet; reads treat it as "nothing stored".
var errEmptyStore = fmt.Errorf("the store is empty: %w", ErrNotFound)

func damaged(path string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err // already explained
	}
	if !errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("%v: %w", err, ErrCorrupt)
	}
	return hint(fmt.Errorf("store database %s is damaged: %w", path, err),
		"run `ctx check` to see what is damaged; to go on now, move %s aside (keeping it for inspection): ctx starts a new store and keeps spooled captures and pack files", path)
}

// view runs fn in a read-only transaction. Panics inside bbolt (which it raises
// on some kinds of page corruption) become ErrCorrupt.
func (s *Store) view(fn func(tx *bolt.Tx) error) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != nil && s.readOnly && time.Since(s.openedAt) > holdLimit {
		_ = s.closeLocked()
	}
	if err := s.openLocked(true); err != nil {
		return err
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			_ = s.closeLocked()
			err = damaged(s.dbPath(), fmt.Errorf("read: %v", r))
		}
	}()
	defer s.releaseLater()
	return s.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketRuns) == nil {
			return errEmptyStore
		}
		return fn(tx)
	})
}

// releaseLater arranges for the read handle to be closed once it has been
// idle for holdLimit. s.mu is held.
func (s *Store) releaseLater() {
	s.lastRead = time.Now()
	if s.idle == nil {
		s.idle = time.AfterFunc(holdLimit, s.releaseIdle)
		return
	}
	s.idle.Reset(holdLimit)
}

func (s *Store) releaseIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil || !s.readOnly {
		return
	}
	if left := holdLimit - time.Since(s.lastRead); left > 0 {
		s.idle.Reset(left)
		return
	}
	_ = s.closeLocked()
}

// update runs fn in a read-write transaction and releases the database after it.
func (s *Store) update(fn func(tx *bolt.Tx) error) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.openLocked(false); err != nil {
		return err
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = damaged(s.dbPath(), fmt.Errorf("write: %v", r))
		}
		if cerr := s.closeLocked(); err == nil && cerr != nil {
			err = storeErr(s.dbPath(), "close store", cerr)
		}
	}()
	err = s.db.Update(fn)
	if err != nil && isNoSpace(err) {
		return storeErr(s.dbPath(), "write store", err)
	}
	return err
}
