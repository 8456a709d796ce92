package store

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The per-user index of stores lets a handle made in one workspace be read
// from anywhere (ctx get, ctx show) and ctx ls --all list every workspace.
// It is one file, one absolute store directory per line, under the XDG state
// directory: $XDG_STATE_HOME/ctx/stores, else ~/.local/state/ctx/stores. It
// is a convenience, never the truth: a store missing from it still works, and
// a listed directory that is gone is skipped.

// IndexPath is the index file, or "" when neither $XDG_STATE_HOME nor a home
// directory is known.
func IndexPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "ctx", "stores")
}

// indexedName is a file in the store saying where the index lists it: the
// index holds every store the user ever made (thousands of lines), and every
// ctx run asks whether its store is listed, which one small read at that
// offset answers. It is a hint: when the index no longer has the line there,
// the index is read in full as before.
const indexedName = "indexed"

// Register adds the store's directory to the index if it is not there yet.
// Writers append one line under a file lock, so concurrent ctx processes
// never lose each other's lines. A writer that finds lines for stores that
// are gone drops them: it writes the index again without them and renames
// it into place, still under the lock (see lockIndex), so the index holds
// the stores that exist rather than every store the user ever made. A
// store pruned while it is briefly unreachable is listed again by its next
// ctx command.
func (s *Store) Register() error {
	path := IndexPath()
	if path == "" {
		return nil
	}
	if s.markedIndexed(path) {
		return nil
	}
	if off, ok := lineOffset(path, s.dir); ok {
		s.markIndexed(path, off)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := lockIndex(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if off, ok := lineOffset(path, s.dir); ok { // another process won
		s.markIndexed(path, off)
		return nil
	}
	live, pruned, err := liveIndex(path)
	if err != nil {
		return err
	}
	if pruned {
		off := int64(len(live))
		if err := replaceIndex(path, append(live, s.dir+"\n"...)); err != nil {
			return err
		}
		s.markIndexed(path, off)
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if _, err = f.WriteString(s.dir + "\n"); err != nil {
		return err
	}
	s.markIndexed(path, fi.Size())
	return nil
}

// lockIndex opens the index at path for appending and takes its lock, on
// the file that is at path once the lock is held: a writer that pruned the
// index renamed a new file over the one it had locked, and a lock on that
// old file guards nothing.
func lockIndex(path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
		held, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if now, err := os.Lstat(path); err == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
	}
}

// liveIndex returns the index's lines for stores that still exist, once
// each, and whether that dropped any line.
func liveIndex(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	dirs, err := parseIndex(data)
	if err != nil {
		return nil, false, err
	}
	var live []byte
	var kept []string
	for _, d := range dirs {
		if isDir(d) && !contains(kept, d) {
			kept = append(kept, d)
			live = append(live, d+"\n"...)
		}
	}
	return live, !bytes.Equal(live, data), nil
}

// replaceIndex makes data the index at path: written beside it, synced and
// renamed over it, so a reader sees the old index or the new one, whole.
// The caller holds the lock of the index at path.
func replaceIndex(path string, data []byte) error {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("prune index of stores %s: %w", path, err)
	}
	return nil
}

// markedIndexed reports whether the store's indexed file names the index at
// path and an offset where the index holds exactly the store's line.
func (s *Store) markedIndexed(path string) bool {
	b, err := os.ReadFile(filepath.Join(s.dir, indexedName))
	if err != nil {
		return false
	}
	offs, p, ok := strings.Cut(strings.TrimSuffix(string(b), "\n"), " ")
	off, err := strconv.ParseInt(offs, 10, 64)
	if !ok || err != nil || p != path || off < 0 {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	want := s.dir + "\n"
	if off > 0 {
		off, want = off-1, "\n"+want
	}
	got := make([]byte, len(want))
	n, _ := f.ReadAt(got, off)
	return n == len(want) && string(got) == want
}

// markIndexed records, best effort, that the index at path lists the store
// at off; off < 0 (listed, but not as an exact line) records nothing.
func (s *Store) markIndexed(path string, off int64) {
	if off >= 0 {
		_ = os.WriteFile(filepath.Join(s.dir, indexedName), []byte(strconv.FormatInt(off, 10)+" "+path+"\n"), 0o600)
	}
}

// Indexed returns the store directories in the index that still hold a
// store, in the order they were registered.
func Indexed() []string {
	path := IndexPath()
	if path == "" {
		return nil
	}
	dirs, _ := readIndex(path)
	var out []string
	for _, d := range dirs {
		if isDir(d) && !contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func readIndex(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseIndex(data)
}

// parseIndex returns the index's absolute store directories, cleaned, in
// file order; other lines are ignored.
func parseIndex(data []byte) ([]string, error) {
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if d := strings.TrimSpace(sc.Text()); filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs, sc.Err()
}

// lineOffset reports whether the index at path lists dir and, when a line
// is exactly dir, where it starts (else -1). A line that is exactly dir is
// looked for in the file's bytes first, before parsing it line by line.
func lineOffset(path, dir string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return -1, false
	}
	if bytes.HasPrefix(data, []byte(dir+"\n")) {
		return 0, true
	}
	if i := bytes.Index(data, []byte("\n"+dir+"\n")); i >= 0 {
		return int64(i) + 1, true
	}
	dirs, _ := readIndex(path)
	return -1, contains(dirs, dir)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// OpenDir opens the store in dir for reading, with its workspace root as
// recorded when it was created (the directory holding it).
func OpenDir(dir string) (*Store, error) {
	return Open(Location{Dir: dir, Root: filepath.Dir(dir)}, false)
}
