package capture

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// end is one output channel: the parent's reading side and the child's side.
type end struct {
	parent *os.File
	child  *os.File
	isPty  bool
}

func (e *end) close() {
	if e.child != nil {
		e.child.Close()
	}
	if e.parent != nil {
		e.parent.Close()
	}
}

// interrupt makes a blocked read return.
func (e *end) interrupt() { _ = e.parent.SetReadDeadline(time.Now()) }

// readBuf is large enough that a pipe delivers its whole buffer in one read.
const readBuf = 256 << 10

// drain copies everything the child writes to sink, until the child side is
// closed everywhere (EOF on a pipe, EIO on a pty) or the read is interrupted. A
// sink error is remembered, and draining continues so the child never blocks.
func (e *end) drain(sink io.Writer) error {
	buf := make([]byte, readBuf)
	var sinkErr error
	for {
		n, err := e.parent.Read(buf)
		if n > 0 && sink != nil {
			if _, werr := sink.Write(buf[:n]); werr != nil && sinkErr == nil {
				sinkErr = werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) || errors.Is(err, os.ErrDeadlineExceeded) {
				return sinkErr
			}
			if sinkErr != nil {
				return sinkErr
			}
			return err
		}
	}
}

func pipes() ([]*end, error) {
	var ends []*end
	for range 2 {
		r, w, err := os.Pipe()
		if err != nil {
			for _, e := range ends {
				e.close()
			}
			return nil, err
		}
		growPipe(r)
		ends = append(ends, &end{parent: r, child: w})
	}
	return ends, nil
}

// ptys opens two pseudo-terminals in raw mode (no output processing, so "\n"
// stays "\n") with the given size. The parent side is made non-blocking so a
// read can be interrupted.
func ptys(cols, rows uint16) ([]*end, error) {
	var ends []*end
	fail := func(err error) ([]*end, error) {
		for _, e := range ends {
			e.close()
		}
		return nil, err
	}
	for range 2 {
		m, s, err := pty.Open()
		if err != nil {
			return fail(err)
		}
		if err := pty.Setsize(m, &pty.Winsize{Cols: cols, Rows: rows}); err != nil {
			m.Close()
			s.Close()
			return fail(err)
		}
		if err := MakeRaw(int(s.Fd())); err != nil {
			m.Close()
			s.Close()
			return fail(err)
		}
		fd, err := unix.Dup(int(m.Fd()))
		m.Close()
		if err != nil {
			s.Close()
			return fail(err)
		}
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
			s.Close()
			return fail(err)
		}
		ends = append(ends, &end{parent: os.NewFile(uintptr(fd), "/dev/ptmx"), child: s, isPty: true})
	}
	return ends, nil
}

// MakeRaw puts a terminal in raw mode like cfmakeraw(3): no input or output
// processing, no echo, no signals from keys.
func MakeRaw(fd int) error {
	_, err := term.MakeRaw(fd)
	return err
}

// findExecutable resolves argv0 as the child would: a name with a slash is a
// path (relative to dir), anything else is searched in the child's PATH.
func findExecutable(argv0, dir string, env []string) (string, error) {
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		return p, checkExecutable(p)
	}
	pathEnv := os.Getenv("PATH")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	var firstErr error
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, argv0)
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		err := checkExecutable(p)
		if err == nil {
			return p, nil
		}
		if firstErr == nil && !errors.Is(err, fs.ErrNotExist) {
			firstErr = err
		}
	}
	if firstErr != nil {
		// Found, but not executable: report that rather than "not found".
		return "", firstErr
	}
	return "", exec.ErrNotFound
}

func checkExecutable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "exec", Path: p, Err: syscall.EISDIR}
	}
	if fi.Mode()&0o111 == 0 {
		return &fs.PathError{Op: "exec", Path: p, Err: fs.ErrPermission}
	}
	return nil
}
