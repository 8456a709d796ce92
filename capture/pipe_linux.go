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

// unreadBytes is how many bytes a pipe or a pty's parent side holds unread
// (FIONREAD, which is TIOCINQ here), or 0 when it cannot be asked.
func unreadBytes(fd int) int {
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil {
		return 0
	}
	return n
}

// writersGone reports whether a pipe's or a pty's parent side is hung up:
// no process holds the other side open.
func writersGone(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n == 1 && fds[0].Revents&unix.POLLHUP != 0
}
