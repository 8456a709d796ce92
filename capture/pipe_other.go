//go:build !linux

package capture

import "syscall"

// pipeCloexec opens a pipe whose ends are closed on exec. Without pipe2 the
// flag is set after the pipe is made, under the fork lock, as os.Pipe does,
// so no command started meanwhile inherits the ends.
func pipeCloexec(fds *[2]int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(fds[:]); err != nil {
		return err
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return nil
}

// growPipe is a no-op where pipe buffers cannot be resized: it returns 0.
func growPipe(int) int { return 0 }

// unreadBytes cannot ask the channel here: it returns 0, so a capture stops
// reading at the end of the drain period, as it always did.
func unreadBytes(int) int { return 0 }

// writersGone cannot ask the channel here: it returns false.
func writersGone(int) bool { return false }
