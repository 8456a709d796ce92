package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing a file range to disk
// without waiting for it to be written.
func startWriteback(f *os.File, off, n int64) {
	syncRange(f, off, n, unix.SYNC_FILE_RANGE_WRITE)
}

// waitWriteback waits until a file range whose writeback was started has
// been written, starting it where it was not.
func waitWriteback(f *os.File, off, n int64) {
	syncRange(f, off, n, unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
}

// syncRange calls sync_file_range through f's descriptor, held for the
// call: a file closed meanwhile is not touched, and its number never
// names another file.
func syncRange(f *os.File, off, n int64, flags int) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_ = unix.SyncFileRange(int(fd), off, n, flags)
	})
}

// releasePages drops a file range's clean pages from the page cache (its
// bytes are on disk; a later read reads them from there). Dirty pages are
// not dropped.
func releasePages(f *os.File, off, n int64) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_ = unix.Fadvise(int(fd), off, n, unix.FADV_DONTNEED)
	})
}
