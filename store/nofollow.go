package store

import (
	"fmt"
	"os"
	"syscall"
)

// openNoFollow opens a file under the store directory without following a
// symbolic link in its last component: nothing under .ctx/ is trusted, and a
// planted link must not redirect a write (or a read) outside the store.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW, perm)
}

// checkOwned refuses a path (never followed if it is a link) that is not a
// directory (when dir) or regular file owned by this user, or that others
// can write to.
func checkOwned(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	return checkInfo(path, fi, dir)
}

func checkOwnedFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return checkInfo(f.Name(), fi, false)
}

func checkInfo(path string, fi os.FileInfo, dir bool) error {
	switch {
	case dir && !fi.IsDir():
		return fmt.Errorf("%s is not a directory (%s)", path, fi.Mode().Type())
	case !dir && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s belongs to user %d, not to you", path, st.Uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (%s)", path, fi.Mode().Perm())
	}
	return nil
}
