package store

import (
	"os"
	"syscall"
)

// openNoFollow opens a file under the store directory without following a
// symbolic link in its last component: nothing under .ctx/ is trusted, and a
// planted link must not redirect a write (or a read) outside the store.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW, perm)
}
