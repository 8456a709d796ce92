package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Stamp is the stat of everything git status's answer for a small work
// tree depends on, read without running git: every file and directory of
// the tree (the ignored ones too, but not the ctx store's own, which its
// .gitignore of "*" hides from git), HEAD, the index, the refs, the
// repository's and the user's git configuration. Two equal stamps of a tree
// mean it did not change between them: any write, creation, removal,
// rename, chmod or link changes a ctime, which nobody can set back, or a
// directory's mtime. So a generation computed while the first was current
// is the tree's generation at the second (Stamp.Same), and a sequence of
// steps that change nothing runs one git status, not one per step.
//
// A stamp is refused (TakeStamp returns nil, and the caller watches the
// tree, source.Watch, or runs git status) where it could not vouch for
// that: more than maxStampEntries
// entries (a stamp costs an lstat per entry, about 6.5 us each here, and a
// git status a process start, about 2.3 ms, and 8 us an entry: past 512 a
// stamp saves too little when it matches and costs too much when it does
// not), a nested repository or submodule, a .git that is not a
// directory, an index in version 4 (paths prefix-compressed, so the store
// could not be checked untracked), configuration that names files
// elsewhere (excludesFile, attributesFile, include), or a file system
// whose timestamps are not the local clock's (only ext2/3/4, xfs, btrfs,
// tmpfs and overlayfs are trusted).
type Stamp struct {
	root  string
	stats []byte
	// racy is set when some ctime or mtime falls within racyWindow of the
	// moment the stamp was taken: a change in the same clock tick could
	// leave it unchanged, so the stamp vouches for nothing (git's "racy
	// git" problem, solved the same way).
	racy bool
	// dirs are the names in each directory walked, with its stamp line;
	// read the stamp lines of the files whose content was checked and
	// found fine (configuration, index, the store's .gitignore). A stamp
	// taken after this one (Restamp) does not read them again while their
	// lines are the same.
	dirs map[string]seenDir
	read map[string]string
}

// seenDir is a directory's stamp line and its names, sorted.
type seenDir struct {
	line  string
	names []string
}

const (
	maxStampEntries = 512
	// racyWindow is over any file system clock tick (the kernel stamps
	// files with a coarse clock, up to 10 ms behind at HZ=100).
	racyWindow = 50 * time.Millisecond
)

// errNoStamp stops a walk the stamp cannot vouch for.
var errNoStamp = errors.New("no stamp")

// Local file systems' magic numbers (statfs f_type).
var trustedFS = []int64{0xEF53, 0x58465342, 0x9123683E, 0x01021994, 0x794c7630}

// TakeStamp stamps the work tree at root (its top). skip, when under root,
// is the ctx store's directory, left out when its .gitignore is ctx's own
// "*" and the index tracks nothing in it. It returns nil when a stamp could
// not vouch for the tree (see Stamp).
func TakeStamp(root, skip string) *Stamp { return Restamp(nil, root, skip) }

// Restamp is TakeStamp after prev, an earlier stamp (nil: none): what prev
// read and what has not changed since is not read again. A directory whose
// stamp line (inode, size, mtime, ctime) is prev's has the names it had
// then, since creating, removing or renaming an entry changes the
// directory's mtime and ctime, so only its entries are stat'd; a checked
// file whose line is prev's has the content it had. Nothing is reused from
// a racy prev, whose lines could hide a change in the same clock tick.
func Restamp(prev *Stamp, root, skip string) *Stamp {
	var fs syscall.Statfs_t
	if syscall.Statfs(root, &fs) != nil || !slices.Contains(trustedFS, int64(fs.Type)) {
		return nil
	}
	w := &stampWalk{root: root, since: time.Now().Add(-racyWindow).UnixNano(), dirs: map[string]seenDir{}}
	if prev != nil && !prev.racy && prev.root == root {
		w.prev = prev
	}
	if rel, err := filepath.Rel(root, skip); err == nil && skip != "" && rel != "." && !strings.HasPrefix(rel, "..") {
		w.skip = filepath.ToSlash(rel)
		w.ignoredStore()
	}
	if err := w.git(); err != nil {
		return nil
	}
	if _, line, err := w.stat(""); err != nil {
		return nil
	} else if err := w.dir("", line); err != nil {
		return nil
	}
	if err := w.checkIndex(); err != nil { // read once the tree is known to be small
		return nil
	}
	return &Stamp{root: root, stats: w.buf.Bytes(), racy: w.racy, dirs: w.dirs, read: w.read}
}

// Same reports whether t, taken after s, vouches that the tree did not
// change since s: both stamps of one tree, equal, and s not racy.
func (s *Stamp) Same(t *Stamp) bool {
	return s != nil && t != nil && !s.racy && s.root == t.root && bytes.Equal(s.stats, t.stats)
}

type stampWalk struct {
	root, skip string
	since      int64 // ctimes and mtimes from here on are racy
	buf        bytes.Buffer
	n          int
	racy       bool
	prev       *Stamp // what may be reused (nil: nothing)
	dirs       map[string]seenDir
	read       map[string]string
	// index is the index's stamp line ("" when there is none); indexSame
	// is set when the previous stamp checked it with the same line.
	index     string
	indexSame bool
}

// stat adds the entry at rel (slash-separated, under root) to the stamp
// and returns it with its line; a missing one is recorded as missing (nil).
func (w *stampWalk) stat(rel string) (*syscall.Stat_t, string, error) {
	if w.n++; w.n > maxStampEntries {
		return nil, "", errNoStamp
	}
	return w.lstat(rel, filepath.Join(w.root, filepath.FromSlash(rel)))
}

// statAt adds the entry at the absolute path to the stamp, as stat does.
func (w *stampWalk) statAt(path string) (*syscall.Stat_t, string, error) {
	return w.lstat(path, path)
}

func (w *stampWalk) lstat(name, path string) (*syscall.Stat_t, string, error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		if errors.Is(err, syscall.ENOENT) {
			w.buf.WriteString(name)
			w.buf.WriteString("\x00-\n")
			return nil, "", nil
		}
		return nil, "", errNoStamp
	}
	return &st, w.add(name, &st), nil
}

// add appends name's line to the stamp and returns it.
func (w *stampWalk) add(name string, st *syscall.Stat_t) string {
	mtim, ctim := statTimes(st)
	var b [128]byte
	line := append(append(b[:0], name...), 0)
	line = strconv.AppendUint(line, uint64(st.Mode), 8)
	for _, n := range []int64{int64(st.Dev), int64(st.Ino), st.Size} {
		line = strconv.AppendInt(append(line, ' '), n, 10)
	}
	for _, t := range []syscall.Timespec{mtim, ctim} {
		line = strconv.AppendInt(append(line, ' '), t.Sec, 10)
		line = strconv.AppendInt(append(line, '.'), t.Nsec, 10)
	}
	line = append(line, '\n')
	w.buf.Write(line)
	if mtim.Nano() >= w.since || ctim.Nano() >= w.since {
		w.racy = true
	}
	return string(line)
}

// unchanged reports whether the checked file key has the stamp line it had
// when the previous stamp read it, and keeps that for the next stamp.
func (w *stampWalk) unchanged(key, line string) bool {
	if w.prev == nil || w.prev.read[key] != line {
		return false
	}
	w.checked(key, line)
	return true
}

// checked records that the file key, with the stamp line line, was read
// and found fine.
func (w *stampWalk) checked(key, line string) {
	if w.read == nil {
		w.read = map[string]string{}
	}
	w.read[key] = line
}

// names are the names in the directory rel, whose stamp line is line,
// sorted: the previous stamp's when the line is the same.
func (w *stampWalk) names(rel, line string) ([]string, error) {
	if w.prev != nil {
		if d, ok := w.prev.dirs[rel]; ok && d.line == line {
			w.dirs[rel] = d
			return d.names, nil
		}
	}
	names, err := dirNames(filepath.Join(w.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, errNoStamp
	}
	slices.Sort(names)
	w.dirs[rel] = seenDir{line: line, names: names}
	return names, nil
}

// dir stamps everything under the directory rel, whose stamp line (added
// by the caller) is line.
func (w *stampWalk) dir(rel, line string) error {
	names, err := w.names(rel, line)
	if err != nil {
		return err
	}
	for _, name := range names {
		sub := name
		if rel != "" {
			sub = rel + "/" + name
		}
		switch {
		case name == ".git" && rel == "":
			continue // stamped by git()
		case name == ".git", rel == "" && name == ".gitmodules":
			return errNoStamp // a nested repository or submodule: git's to judge
		case sub == w.skip:
			continue
		}
		st, line, err := w.stat(sub)
		if err != nil {
			return err
		}
		if st != nil && st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			if err := w.dir(sub, line); err != nil {
				return err
			}
		}
	}
	return nil
}

// git stamps what git status reads besides the work tree: the repository's
// HEAD, index, refs and configuration and the user's and system's
// configuration, refusing what points elsewhere; and checks that the store
// to skip is ignored whole by git.
func (w *stampWalk) git() error {
	st, _, err := w.stat(".git")
	if err != nil || st == nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return errNoStamp // a worktree's or submodule's .git file: git's to judge
	}
	for _, f := range []string{".git/HEAD", ".git/index", ".git/packed-refs", ".git/commondir", ".git/config.worktree"} {
		_, line, err := w.stat(f)
		if err != nil {
			return err
		}
		if f == ".git/index" {
			w.index = line
			w.indexSame = line != "" && w.unchanged(f, line)
		}
	}
	if !w.indexSame && tracked(filepath.Join(w.root, ".git", "index")) > maxStampEntries {
		return errNoStamp // refused before a walk that would be cut short
	}
	for _, d := range []string{".git/refs", ".git/info"} {
		if st, line, err := w.stat(d); err != nil {
			return err
		} else if st != nil {
			if err := w.dir(d, line); err != nil {
				return err
			}
		}
	}
	for _, f := range append(userConfigs(), filepath.Join(w.root, ".git", "config")) {
		if err := w.config(f); err != nil {
			return err
		}
	}
	return nil
}

// ignoredStore keeps the store out of the walk only when its .gitignore is
// ctx's "*" (git ignores all of it but what the index tracks: index()).
func (w *stampWalk) ignoredStore() {
	if w.skip == "" {
		return
	}
	path := filepath.Join(w.root, filepath.FromSlash(w.skip), ".gitignore")
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		w.skip = ""
		return
	}
	line := w.add(path, &st)
	if w.unchanged(path, line) {
		return
	}
	ign, err := readSmall(path)
	if err != nil || string(ign) != "*\n" && string(ign) != "*" {
		w.skip = "" // stamped like any directory
		return
	}
	w.checked(path, line)
}

// checkIndex refuses an index git writes in version 4 or one that tracks a
// file in the skipped store.
func (w *stampWalk) checkIndex() error {
	if w.indexSame {
		return nil
	}
	if w.skip != "" {
		head, found, err := scanFile(filepath.Join(w.root, ".git", "index"), []byte(w.skip+"/"))
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil
		case err != nil, len(head) < 12, string(head[:4]) != "DIRC", head[7] > 3, found:
			return errNoStamp
		}
	}
	if w.index != "" {
		w.checked(".git/index", w.index)
	}
	return nil
}

// userConfigs are the configuration files git reads besides the
// repository's own.
func userConfigs() []string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	files := []string{"/etc/gitconfig", "/etc/gitattributes"}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"), filepath.Join(xdg, "git", "ignore"), filepath.Join(xdg, "git", "attributes"))
	}
	for _, v := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if f := os.Getenv(v); f != "" {
			files = append(files, f)
		}
	}
	return files
}

// config stamps a configuration file outside the tree and refuses one that
// names other files (they would go unstamped).
func (w *stampWalk) config(path string) error {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		if errors.Is(err, syscall.ENOENT) {
			w.buf.WriteString(path)
			w.buf.WriteString("\x00-\n")
			return nil
		}
		return errNoStamp
	}
	line := w.add(path, &st)
	if w.unchanged(path, line) {
		return nil
	}
	data, err := readSmall(path)
	if err != nil {
		return errNoStamp
	}
	low := strings.ToLower(string(data))
	for _, key := range []string{"excludesfile", "attributesfile", "include"} {
		if strings.Contains(low, key) {
			return errNoStamp
		}
	}
	w.checked(path, line)
	return nil
}

// Ready is a pending generation already computed: g, of the work tree at
// root (a sequence's step whose stamp vouches that the tree is unchanged).
func Ready(root string, g *Generation) *Pending {
	p := &Pending{root: root, done: make(chan struct{}), cancel: func() {}, gen: g}
	close(p.done)
	return p
}

// Finished is the generation once computed, without waiting: ok is false
// while git status runs, err its failure (or the stop of a late one).
func (p *Pending) Finished() (g *Generation, ok bool, err error) {
	select {
	case <-p.done:
		return p.gen, true, p.err
	default:
		return nil, false, nil
	}
}

// dirNames are the names in the directory at path, read with as few
// system calls as the kernel allows (os.Open would also try to register
// the descriptor with the poller: a stamp runs before every step).
func dirNames(path string) ([]string, error) {
	var names []string
	err := dirents(path, func(buf []byte) error {
		_, _, names = syscall.ParseDirent(buf, -1, names)
		return nil
	})
	return names, err
}

// dirents hands each buffer of the directory at path's entries, as getdents
// gives them, to each.
func dirents(path string, each func(buf []byte) error) error {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	buf := make([]byte, 8192)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		if err := each(buf[:n]); err != nil {
			return err
		}
	}
}

// readSmall reads a file of at most 64 MiB at path with plain system calls.
func readSmall(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	return readAll(fd)
}

// scanFile reports whether the file at path holds needle (shorter than
// scanChunk), reading it through one buffer: an index of a large tree
// (hundreds of KB) is searched without being held whole. head is its
// first bytes (up to scanChunk).
func scanFile(path string, needle []byte) (head []byte, found bool, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, err
	}
	defer syscall.Close(fd)
	buf := make([]byte, scanChunk+len(needle))
	kept := 0 // bytes carried over from the last read: a match may straddle reads
	for {
		n, err := syscall.Read(fd, buf[kept:])
		if err != nil {
			return nil, false, err
		}
		if head == nil {
			head = slices.Clone(buf[:n])
		}
		if n <= 0 {
			return head, false, nil
		}
		if bytes.Contains(buf[:kept+n], needle) {
			return head, true, nil
		}
		end := kept + n
		kept = min(len(needle)-1, end)
		copy(buf, buf[end-kept:end])
	}
}

// scanChunk is scanFile's read size.
const scanChunk = 64 << 10

// readAll reads fd to its end, refusing over 64 MiB.
func readAll(fd int) ([]byte, error) {
	var out []byte
	buf := make([]byte, 16<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		if out = append(out, buf[:n]...); len(out) > 64<<20 {
			return nil, errNoStamp
		}
	}
}

// tracked is the number of entries the index at path says it holds (0 when
// it cannot be read: the walk decides).
func tracked(path string) uint32 {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	defer syscall.Close(fd)
	var h [12]byte
	if n, err := syscall.Pread(fd, h[:], 0); err != nil || n != len(h) || string(h[:4]) != "DIRC" {
		return 0
	}
	return binary.BigEndian.Uint32(h[8:])
}
