package main

import (
	"io"
	"os"

	"github.com/ctxhq/ctx/store"
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

// lazyStream opens the spool's stdin stream at the first byte, so a forwarded
// input that turns out empty is recorded as no input at all: the run is the
// same as with /dev/null (same run id, same digest).
type lazyStream struct {
	sp *store.Spool
	w  io.Writer
}

func (l *lazyStream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if l.w == nil {
		w, err := l.sp.Stream("stdin")
		if err != nil {
			return 0, err
		}
		l.w = w
	}
	return l.w.Write(p)
}
