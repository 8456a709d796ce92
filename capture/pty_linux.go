package capture

import (
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openPty opens one pseudo-terminal, sized and raw: its parent side
// non-blocking and both close-on-exec from the start, the child's side
// opened from the parent's (TIOCGPTPEER, Linux 4.13), not by its name. Every
// step of a sequence opens two, and this takes half the system calls of
// opening by name and fixing the flags after (pty.Open, then dup, fcntl):
// where TIOCGPTPEER is refused, it does that.
func openPty(cols, rows uint16) (parent, child *os.File, err error) {
	m, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open a pseudo-terminal: %w", &fs.PathError{Op: "open", Path: "/dev/ptmx", Err: err})
	}
	if err := unix.IoctlSetPointerInt(m, unix.TIOCSPTLCK, 0); err != nil {
		unix.Close(m)
		return nil, nil, fmt.Errorf("unlock a pseudo-terminal: %w", err)
	}
	sfd, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(m), unix.TIOCGPTPEER, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC)
	if errno != 0 {
		unix.Close(m)
		return openPtyByName(cols, rows)
	}
	s := int(sfd)
	fail := func(what string, err error) (*os.File, *os.File, error) {
		unix.Close(m)
		unix.Close(s)
		return nil, nil, fmt.Errorf("%s a pseudo-terminal: %w", what, err)
	}
	if err := unix.IoctlSetWinsize(m, unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		return fail("size", err)
	}
	if err := MakeRaw(s); err != nil {
		return fail("set up", err)
	}
	return os.NewFile(uintptr(m), "/dev/ptmx"), os.NewFile(uintptr(s), "pty"), nil
}
