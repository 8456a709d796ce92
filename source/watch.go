//go:build linux

package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A Watch tells a sequence's next step whether anything git status's answer
// depends on changed since the last look, for trees of any size: it is an
// inotify watch on every directory of the work tree (not its files: a
// directory's watch reports its entries' changes), on .git, .git/info and
// every directory of .git/refs, with the git configuration outside the
// tree stamped by stat. The kernel queues an event in the same system call
// that makes the change, so a queue read empty after a step ended means no
// process changed an entry since the watch was set up or last looked at,
// and a generation computed from a git status started after that is still
// the tree's (Watch.Changed).
//
// A watch is refused (WatchTree returns nil: the caller stamps or runs git
// status) where it could not vouch for that: a file system other than
// ext2/3/4, xfs, btrfs or tmpfs (network file systems change without
// events; overlayfs does not report changes made to its layers beneath
// it), a mount point under the tree (a bind mount's other side is a
// directory the watch never saw), a nested repository or submodule, a .git
// that is not a directory, configuration that names files elsewhere, an
// index in version 4 or tracking a file in the skipped store (as Stamp),
// more than maxWatchDirs directories, or a watch the kernel would not add
// (fs.inotify.max_user_watches reached).
//
// Blind spots of inotify, handled by construction or left to the caller:
// writes through a shared mapping report no event, but the file's release
// does (IN_CLOSE_WRITE, when the last descriptor and mapping go), so only
// a process still holding a writable mapping when a step ends — one from
// before the sequence, or a step's child left running — can change a file
// unseen; that is the same as any process writing after a generation was
// taken. An overflowed queue (IN_Q_OVERFLOW) counts as a change and the
// watch is set up again.
type Watch struct {
	fd         int
	root, skip string
	dirs       map[int32]string // watch descriptor to directory, slash-separated under root
	outside    []byte           // stat of the configuration outside the tree
	racy       bool
	// leaves is set on file systems whose directories count their
	// subdirectories in their link count (ext2/3/4, xfs, tmpfs; not
	// btrfs): a directory with 2 links is not read for subdirectories.
	leaves bool
	// mounts is /proc/self/mountinfo, open since the watch began: a step's
	// look reads it again only once a poll says it changed (remounted).
	mounts int
	dbuf   []byte // the walk's buffer for directory entries
}

const (
	// maxWatchDirs bounds the directories watched: each watch pins an
	// inode and about 1 KB of kernel memory, and counts against the
	// user's fs.inotify.max_user_watches (8192 by default before Linux
	// 5.11) that editors and file watchers share; a tree with more
	// directories than this gets git status per step.
	maxWatchDirs = 4096
	watchMask    = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_CLOSE_WRITE | syscall.IN_CREATE |
		syscall.IN_DELETE | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_MOVED_FROM |
		syscall.IN_MOVED_TO | syscall.IN_ONLYDIR | syscall.IN_DONT_FOLLOW
)

// watchedFS are the file systems whose every change comes through the
// local kernel's VFS (statfs f_type): ext2/3/4, xfs, btrfs, tmpfs.
var watchedFS = []int64{0xEF53, 0x58465342, 0x9123683E, 0x01021994}

// WatchTree watches the work tree at root (its top); skip, when under
// root, is the ctx store's directory, left out as TakeStamp leaves it. It
// returns nil when a watch could not vouch for the tree (see Watch). The
// caller closes it.
func WatchTree(root, skip string) *Watch {
	var fs syscall.Statfs_t
	if syscall.Statfs(root, &fs) != nil || !slices.Contains(watchedFS, int64(fs.Type)) {
		return nil
	}
	mounts, err := syscall.Open("/proc/self/mountinfo", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	if mountedUnder(mounts, root) {
		syscall.Close(mounts)
		return nil
	}
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		syscall.Close(mounts)
		return nil
	}
	w := &Watch{fd: fd, root: root, dirs: map[int32]string{}, leaves: int64(fs.Type) != 0x9123683E, mounts: mounts}
	if w.setUp(skip) != nil {
		w.Close()
		return nil
	}
	return w
}

// setUp adds the watches, then checks what a watch cannot see.
func (w *Watch) setUp(skip string) error {
	sw := &stampWalk{root: w.root}
	if rel, err := filepath.Rel(w.root, skip); err == nil && skip != "" && rel != "." && !strings.HasPrefix(rel, "..") {
		sw.skip = filepath.ToSlash(rel)
		sw.ignoredStore()
	}
	w.skip = sw.skip
	if err := w.add(".git"); err != nil {
		return err
	}
	for _, d := range []string{".git/refs", ".git/info"} {
		if err := w.tree(d, true); err != nil {
			return err
		}
	}
	if err := w.tree("", false); err != nil {
		return err
	}
	if err := w.gitChecks(); err != nil {
		return err
	}
	var err error
	w.outside, w.racy, err = w.outsideStamp()
	return err
}

// gitChecks refuses what the repository's index and configuration could
// make git read unwatched (see Stamp's index and config).
func (w *Watch) gitChecks() error {
	sw := &stampWalk{root: w.root, skip: w.skip}
	if err := sw.checkIndex(); err != nil {
		return err
	}
	return sw.config(filepath.Join(w.root, ".git", "config"))
}

// add watches the directory at rel.
func (w *Watch) add(rel string) error {
	if len(w.dirs) >= maxWatchDirs {
		return errNoStamp
	}
	wd, err := syscall.InotifyAddWatch(w.fd, filepath.Join(w.root, filepath.FromSlash(rel)), watchMask)
	if err != nil {
		return errNoStamp
	}
	w.dirs[int32(wd)] = rel
	return nil
}

// tree watches the directory rel and every directory under it; in the work
// tree (inGit false) it refuses a nested repository or submodule and
// leaves out the store and .git. A missing directory of .git is not
// watched (its parent's watch sees it appear).
func (w *Watch) tree(rel string, inGit bool) error {
	return w.treeAt(-1, "", rel, inGit)
}

// treeAt is tree for the directory rel, whose parent is open at parent
// under the name name (parent < 0: looked up from the root). A directory's
// subdirectories are looked at through its own descriptor, one path
// component each, not from the root: in a tree of hundreds of directories
// that and one buffer for every directory's entries are most of what the
// walk costs besides the watches.
func (w *Watch) treeAt(parent int, name, rel string, inGit bool) error {
	if !inGit && (rel == ".git" || strings.HasSuffix(rel, "/.git")) {
		return errNoStamp // a nested repository made since the watch began
	}
	if err := w.add(rel); err != nil {
		if inGit && errors.Is(w.missing(rel), syscall.ENOENT) {
			return nil
		}
		return err
	}
	// The link count is read after the watch was added: a subdirectory
	// made after that is an event.
	var st unix.Stat_t
	var err error
	if parent >= 0 {
		err = unix.Fstatat(parent, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	} else {
		err = unix.Lstat(filepath.Join(w.root, filepath.FromSlash(rel)), &st)
	}
	if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return errNoStamp
	}
	if !w.leaves || st.Nlink != 2 {
		// A directory's link count is 2 and one per subdirectory where
		// leaves is set.
		if err := w.subtrees(parent, name, rel, inGit); err != nil {
			return err
		}
	}
	if !inGit && rel == "" {
		if err := w.missing(".gitmodules"); !errors.Is(err, syscall.ENOENT) {
			return errNoStamp // a submodule, or a .gitmodules that could not be looked at
		}
		if st, err := lstat(".git", w.root); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			return errNoStamp
		}
	}
	return nil
}

// subtrees watches the subdirectories of the directory rel (open at parent
// as name, or from the root when parent < 0), through a descriptor of it
// held while they are walked.
func (w *Watch) subtrees(parent int, name, rel string, inGit bool) error {
	var fd int
	var err error
	const flags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC | syscall.O_NOFOLLOW
	if parent >= 0 {
		fd, err = unix.Openat(parent, name, flags, 0)
	} else {
		fd, err = syscall.Open(filepath.Join(w.root, filepath.FromSlash(rel)), flags, 0)
	}
	if err != nil {
		return errNoStamp
	}
	defer syscall.Close(fd)
	if w.dbuf == nil {
		w.dbuf = make([]byte, 8192)
	}
	subs, err := subdirs(fd, w.dbuf)
	if err != nil {
		return errNoStamp
	}
	for _, name := range subs {
		sub := name
		if rel != "" {
			sub = rel + "/" + name
		}
		switch {
		case inGit:
		case name == ".git" && rel == "":
			continue
		case name == ".git", sub == w.skip:
			if name == ".git" {
				return errNoStamp // a nested repository: git's to judge
			}
			continue
		}
		if err := w.treeAt(fd, name, sub, inGit); err != nil {
			return err
		}
	}
	return nil
}

// missing is the error of an lstat of rel (ENOENT when it does not exist).
func (w *Watch) missing(rel string) error {
	_, err := lstat(rel, w.root)
	return err
}

func lstat(rel, root string) (*syscall.Stat_t, error) {
	var st syscall.Stat_t
	err := syscall.Lstat(filepath.Join(root, filepath.FromSlash(rel)), &st)
	return &st, err
}

// Changed reports whether anything git status reads may have changed since
// the watch was set up or Changed last returned: an event queued, the
// queue overflowed, the configuration outside the tree changed, or the
// watch could not look. After a change it watches the directories created
// (or sets itself up again, after an overflow or a directory moved), so it
// vouches for the tree again from its return on; when it cannot, Dead is
// set and every later call reports a change.
func (w *Watch) Changed() bool {
	if w.fd < 0 {
		return true
	}
	changed, redo, made, err := w.read()
	outside, racy, oerr := w.outsideStamp()
	if oerr != nil || err != nil || w.remounted() {
		w.Close()
		return true
	}
	if w.racy || !bytes.Equal(outside, w.outside) {
		changed = true
	}
	w.outside, w.racy = outside, racy
	if !changed {
		return false
	}
	if redo {
		w.rebuild()
		return true
	}
	if w.gitChecks() != nil {
		w.Close()
		return true
	}
	for _, d := range made {
		if w.tree(d, strings.HasPrefix(d, ".git/")) != nil {
			w.Close()
			break
		}
	}
	return true
}

// read drains the event queue: changed when it held any event, redo when
// the watch must be set up again (an overflow, a directory moved, .git or
// .gitmodules touched), made the directories created since.
func (w *Watch) read() (changed, redo bool, made []string, err error) {
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(w.fd, buf)
		if errors.Is(err, syscall.EAGAIN) || err == nil && n <= 0 {
			return changed, redo, made, nil
		}
		if err != nil {
			return true, true, nil, err
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := string(bytes.TrimRight(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)], "\x00"))
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			changed = true
			dir, known := w.dirs[ev.Wd]
			switch {
			case ev.Mask&syscall.IN_Q_OVERFLOW != 0, !known && ev.Mask&syscall.IN_IGNORED == 0:
				redo = true
			case ev.Mask&syscall.IN_IGNORED != 0:
				delete(w.dirs, ev.Wd)
			case ev.Mask&(syscall.IN_MOVE_SELF|syscall.IN_MOVED_FROM|syscall.IN_MOVED_TO) != 0 && ev.Mask&syscall.IN_ISDIR != 0,
				ev.Mask&syscall.IN_MOVE_SELF != 0, dir == "" && (name == ".git" || name == ".gitmodules"):
				redo = true
			case ev.Mask&syscall.IN_CREATE != 0 && ev.Mask&syscall.IN_ISDIR != 0:
				if dir != "" {
					name = dir + "/" + name
				}
				if dir != ".git" && name != w.skip || name == ".git/refs" || name == ".git/info" {
					made = append(made, name)
				}
			}
		}
	}
}

// rebuild sets the watch up again from nothing.
func (w *Watch) rebuild() {
	skip := ""
	if w.skip != "" {
		skip = filepath.Join(w.root, filepath.FromSlash(w.skip))
	}
	root := w.root
	w.Close()
	if nw := WatchTree(root, skip); nw != nil {
		*w = *nw
	}
}

// Dead reports whether the watch stopped vouching for the tree.
func (w *Watch) Dead() bool { return w == nil || w.fd < 0 }

// Close releases the watch (nil-safe).
func (w *Watch) Close() {
	if w != nil && w.fd >= 0 {
		syscall.Close(w.fd)
		syscall.Close(w.mounts)
		w.fd, w.mounts = -1, -1
	}
}

// outsideStamp is the stat of what git status reads that the watch does
// not see: the git configuration outside the work tree (the user's and the
// system's), refusing configuration that names other files, and the
// store's .gitignore (the store's directory is not watched: it changes
// with every run); racy when one changed within the racy window.
func (w *Watch) outsideStamp() ([]byte, bool, error) {
	sw := &stampWalk{since: time.Now().Add(-racyWindow).UnixNano()}
	for _, f := range userConfigs() {
		if err := sw.config(f); err != nil {
			return nil, false, err
		}
	}
	if w.skip != "" {
		if _, _, err := sw.statAt(filepath.Join(w.root, filepath.FromSlash(w.skip), ".gitignore")); err != nil {
			return nil, false, err
		}
	}
	return sw.buf.Bytes(), sw.racy, nil
}

// mountedUnder reports whether a mount point lies under root in the mount
// table open at fd (or whether it could not be read).
func mountedUnder(fd int, root string) bool {
	if _, err := syscall.Seek(fd, 0, 0); err != nil {
		return true
	}
	data, err := readAll(fd)
	if err != nil {
		return true
	}
	prefix := []byte(" " + strings.TrimSuffix(root, "/") + "/")
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		// id parent major:minor root mountpoint ...
		f := bytes.SplitN(line, []byte(" "), 6)
		if len(f) >= 5 && bytes.HasPrefix(append([]byte(" "), f[4]...), prefix) {
			return true
		}
	}
	return false
}

// remounted reports whether a mount point may lie under the tree since the
// watch began. The mount table is pollable (proc(5): POLLPRI once a mount
// or unmount changed it since the last poll), so it is read again only
// after a change: a step's look at a large tree polls, where it read and
// parsed the whole table (tens of KB in a container) every time.
func (w *Watch) remounted() bool {
	fds := []unix.PollFd{{Fd: int32(w.mounts), Events: unix.POLLPRI}}
	n, err := unix.Poll(fds, 0)
	for errors.Is(err, syscall.EINTR) {
		n, err = unix.Poll(fds, 0)
	}
	switch {
	case err != nil || fds[0].Revents&unix.POLLNVAL != 0:
		return true
	case n == 0:
		return false
	}
	return mountedUnder(w.mounts, w.root)
}

// subdirs are the names of the directories in the directory open at fd,
// from the entries' types (getdents into buf, no stat, where the file
// system gives types).
func subdirs(fd int, buf []byte) ([]string, error) {
	var names []string
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			// linux_dirent64: ino 8, off 8, reclen 2, type 1, name
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, errNoStamp
			}
			typ, name := b[18], b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			s := string(name)
			if typ == syscall.DT_UNKNOWN {
				var st unix.Stat_t
				if unix.Fstatat(fd, s, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
					return nil, errNoStamp
				}
				if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
					typ = syscall.DT_DIR
				}
			}
			if typ == syscall.DT_DIR {
				names = append(names, s)
			}
		}
	}
}
