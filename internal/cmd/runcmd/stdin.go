package runcmd

import (
	"io"
	"os"
)

// stdinIsData reports whether r is input someone gave ctx on purpose — a
// pipe, a socket or a redirected file — rather than a terminal or /dev/null
// (a character device), which the command must not wait on.
func stdinIsData(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m&(os.ModeNamedPipe|os.ModeSocket) != 0 || m.IsRegular()
}
