package store

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
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

// Register adds the store's directory to the index if it is not there yet.
// Writers append one line under a file lock, so concurrent ctx processes
// never lose each other's lines.
func (s *Store) Register() error {
	path := IndexPath()
	if path == "" {
		return nil
	}
	if registered(path, s.dir) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	if dirs, _ := readIndex(path); contains(dirs, s.dir) { // another process won
		return nil
	}
	_, err = f.WriteString(s.dir + "\n")
	return err
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
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if d := strings.TrimSpace(sc.Text()); filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs, sc.Err()
}

// registered reports whether the index at path lists dir. Every ctx run
// asks, and the index holds every store the user ever made (hundreds of
// lines): a line that is exactly dir is looked for in the file's bytes
// first, before parsing it line by line.
func registered(path, dir string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	if bytes.HasPrefix(data, []byte(dir+"\n")) || bytes.Contains(data, []byte("\n"+dir+"\n")) {
		return true
	}
	dirs, _ := readIndex(path)
	return contains(dirs, dir)
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
