package capture

import (
	"os"

	"golang.org/x/sys/unix"
)

// growPipe enlarges a pipe's buffer: fewer wake-ups for a fast writer. It goes
// through SyscallConn, not Fd: Fd would put the file in blocking mode and
// stop read deadlines from interrupting a drain.
func growPipe(r *os.File) {
	if rc, err := r.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
	}
}
