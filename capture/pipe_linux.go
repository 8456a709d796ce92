package capture

import "golang.org/x/sys/unix"

// pipeCloexec opens a pipe whose ends are closed on exec, in one system call.
func pipeCloexec(fds *[2]int) error { return unix.Pipe2(fds[:], unix.O_CLOEXEC) }

// growPipe enlarges a pipe's buffer (fewer wake-ups for a fast writer) and
// returns its size in bytes, or 0 when it could not be had.
func growPipe(fd int) int {
	n, err := unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, 1<<20)
	if err != nil {
		return 0
	}
	return n
}
