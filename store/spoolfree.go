package store

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A committed spool is kept, emptied, for the next capture to reuse: a free
// spool is a dot directory (so recovery never takes it for a capture) holding
// only its lock, meta.json and result.json, which the next NewSpool claims by
// taking the lock, rewrites in place and renames into view. Every spool used
// to create four inodes (the directory and those three files) and remove
// them again; on an ext4 where many files were deleted lately each creation
// scans past them (recently_deleted), and that was the largest part of a
// `ctx run -- true` after start-up. A reused spool creates none.
//
// A free spool is claimed only while it is younger than freeMaxAge; older
// ones are left for the sweep that removes any dot directory older than an
// hour (orphanSpools), so a claim never races that removal — in this ctx or
// in an older one.
const (
	freePrefix = ".free-"
	freeMaxAge = 30 * time.Minute
)

// freeFiles are what a free spool holds, sorted.
var freeFiles = []string{"lock", "meta.json", resultName}

// release empties the committed spool and renames it to a free name while
// its lock is still held, so it is never seen half-emptied under a spool's
// name; it reports whether it did (else the caller removes the spool).
func (sp *Spool) release() bool {
	ents, err := os.ReadDir(sp.dir)
	if err != nil || sp.lock == nil {
		return false
	}
	for _, e := range ents {
		if e.Name() == "committed" {
			// Marked because its record is under another key: removed
			// whole, as before, so the mark is not lost before its bytes.
			return false
		}
	}
	for _, e := range ents {
		if !slices.Contains(freeFiles, e.Name()) {
			if os.Remove(filepath.Join(sp.dir, e.Name())) != nil {
				return false
			}
		}
	}
	// The previous command's description (its argv, directory, session)
	// is not left behind in the free spool.
	if writeInPlace(filepath.Join(sp.dir, "meta.json"), []byte("{}")) != nil {
		return false
	}
	// The directory's age is when it was last freed: claims and the hourly
	// sweep judge by it.
	now := time.Now()
	if os.Chtimes(sp.dir, now, now) != nil {
		return false
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	return os.Rename(sp.dir, filepath.Join(filepath.Dir(sp.dir), freePrefix+hex.EncodeToString(rnd[:]))) == nil
}

// claimFree takes a free spool in root for a new capture: it returns the
// free spool's path and its lock, held, or "" when there is none to take.
func claimFree(root string) (string, *os.File) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return "", nil
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), freePrefix) {
			continue
		}
		if fi, err := e.Info(); err != nil || time.Since(fi.ModTime()) > freeMaxAge {
			continue
		}
		dir := filepath.Join(root, e.Name())
		lock, err := openNoFollow(filepath.Join(dir, "lock"), os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || !holdsOnly(dir, freeFiles) {
			// Another capture is claiming it, or it is not as a free spool
			// is left.
			lock.Close()
			continue
		}
		return dir, lock
	}
	return "", nil
}

// holdsOnly reports whether dir holds exactly the regular files names
// (sorted), and still exists under that path.
func holdsOnly(dir string, names []string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != len(names) {
		return false
	}
	for i, e := range ents {
		if e.Name() != names[i] || !e.Type().IsRegular() {
			return false
		}
	}
	return true
}
