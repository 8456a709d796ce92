package capture

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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
	gate   gate
	// gatherPipe: the pipe's buffer is large enough (1 MiB) for a flood to
	// be gathered while the reader waits (see gatherWait).
	gatherPipe bool
	// read counts the bytes the reader took from the channel. It runs ahead
	// of gate.entered while the reader holds bytes it has not written yet.
	read atomic.Int64
	// ended is set when the reader has returned.
	ended atomic.Bool
}

// hungUp reports whether no one holds the channel's writing side any more,
// so its reader is about to see the end.
func (e *end) hungUp() bool {
	rc, err := e.parent.SyscallConn()
	if err != nil {
		return false
	}
	var hup bool
	_ = rc.Control(func(fd uintptr) { hup = writersGone(int(fd)) })
	return hup
}

// pending is how many bytes the channel holds that no one has read yet, or
// 0 where the system cannot say.
func (e *end) pending() int64 {
	rc, err := e.parent.SyscallConn()
	if err != nil {
		return 0
	}
	var n int
	_ = rc.Control(func(fd uintptr) { n = unreadBytes(int(fd)) })
	return int64(n)
}

func (e *end) close() {
	if e.child != nil {
		e.child.Close()
	}
	if e.parent != nil {
		e.parent.Close()
	}
}

// interrupt makes a blocked read return where it can (ptys), and shuts the
// gate so whatever the reader gets later is dropped.
func (e *end) interrupt() {
	e.gate.shut()
	_ = e.parent.SetReadDeadline(time.Now())
}

// gate passes writes to a sink until it is shut; after that it drops them, so
// a reader left blocked on a pipe never writes into a finished spool.
type gate struct {
	mu      sync.Mutex
	w       io.Writer
	closed  bool
	entered atomic.Int64 // bytes handed to Write, passed or dropped
}

func (g *gate) Write(p []byte) (int, error) {
	g.entered.Add(int64(len(p)))
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.w == nil {
		return len(p), nil
	}
	return g.w.Write(p)
}

func (g *gate) shut() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

func (g *gate) isShut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// readBuf is large enough that a pipe delivers its whole buffer in one read.
// A reader starts with firstBuf and grows to readBuf when a read fills it:
// most commands print little, and two 1 MiB buffers would cost a garbage
// collection (the first comes at 4 MiB of heap) on the path of every ctx run.
const (
	readBuf  = 1 << 20
	firstBuf = 64 << 10
)

// A pipe flood is read in large chunks even when ctx keeps up with it: once
// floodBytes have arrived, a read that found less than gatherBelow waits
// gatherWait before the next, so the pipe (1 MiB, growPipe) gathers a few
// hundred KiB and the spool gets one large write instead of dozens of
// small ones. The bytes wait in the kernel's pipe, as they would for a
// slower reader; a producer fast enough to fill the pipe in gatherWait
// gets full reads, which never wait. Not for a pty, whose buffer is small,
// nor a pipe that could not be grown.
const (
	floodBytes  = 16 << 20
	gatherBelow = 256 << 10
	gatherWait  = 500 * time.Microsecond
)

// drain copies everything the child writes to sink, until the child side is
// closed everywhere (EOF on a pipe, EIO on a pty) or the read is interrupted. A
// sink error is remembered, and draining continues so the child never blocks.
func (e *end) drain(sink io.Writer) error {
	if e.isPty {
		if rc, err := e.parent.SyscallConn(); err == nil {
			return e.gather(rc, sink)
		}
	}
	buf := make([]byte, firstBuf)
	var sinkErr error
	var total int64
	for {
		n, err := e.parent.Read(buf)
		e.read.Add(int64(n))
		if n > 0 && sink != nil {
			if _, werr := sink.Write(buf[:n]); werr != nil && sinkErr == nil {
				sinkErr = werr
			}
		}
		total += int64(n)
		if e.gatherPipe && err == nil && n < gatherBelow && total >= floodBytes {
			time.Sleep(gatherWait)
		}
		if n == len(buf) && n < readBuf {
			buf = make([]byte, readBuf) // a flood: read it in large chunks
		}
		if err != nil {
			return drainEnd(err, sinkErr)
		}
	}
}

// drainEnd is what drain returns when a read failed with err.
func drainEnd(err, sinkErr error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) || errors.Is(err, os.ErrDeadlineExceeded) {
		return sinkErr
	}
	if sinkErr != nil {
		return sinkErr
	}
	return err
}

// gatherMax is how many bytes a pty's drain gathers before it writes them.
const gatherMax = 256 << 10

// gather is drain for a pty, whose parent side is non-blocking: it reads
// what the pty holds into one buffer and writes it to sink when the pty is
// empty (the next read would wait) or gatherMax bytes are gathered. A pty
// delivers a flood a few KiB per read; the spool then gets one write per
// burst instead of one per read, and no byte waits in ctx's memory while
// the pty is idle.
func (e *end) gather(rc syscall.RawConn, sink io.Writer) error {
	buf := make([]byte, firstBuf)
	filled := 0
	var sinkErr error
	flush := func() {
		if filled > 0 && sink != nil {
			if _, werr := sink.Write(buf[:filled]); werr != nil && sinkErr == nil {
				sinkErr = werr
			}
		}
		filled = 0
	}
	for {
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			n, err := syscall.Read(int(fd), buf[filled:])
			for err == syscall.EINTR {
				n, err = syscall.Read(int(fd), buf[filled:])
			}
			if err == syscall.EAGAIN {
				flush()
				return false // wait until the pty is readable
			}
			switch {
			case n > 0:
				e.read.Add(int64(n))
				filled += n
			case err == nil:
				err = io.EOF
			}
			rerr = err
			return true
		})
		if err == nil {
			err = rerr
		}
		if filled == len(buf) && len(buf) < readBuf {
			buf = append(buf, make([]byte, readBuf-len(buf))...) // a flood: gather more
		}
		if filled >= gatherMax || err != nil {
			flush()
		}
		if err != nil {
			return drainEnd(err, sinkErr)
		}
	}
}

// pipes opens two pipes. Their read ends stay in blocking mode: a blocking
// read costs one system call per chunk, where a non-blocking one also goes
// through the poller (measurably slower for a flood). A blocked read cannot be
// interrupted, so a drain that must give up closes the end's gate instead.
func pipes() ([]*end, error) {
	var ends []*end
	for range 2 {
		var fds [2]int
		if err := pipeCloexec(&fds); err != nil {
			for _, e := range ends {
				e.close()
			}
			return nil, err
		}
		big := growPipe(fds[0]) >= 1<<20
		ends = append(ends, &end{parent: os.NewFile(uintptr(fds[0]), "|0"), child: os.NewFile(uintptr(fds[1]), "|1"), gatherPipe: big})
	}
	return ends, nil
}

// ptys opens two pseudo-terminals in raw mode (no output processing, so "\n"
// stays "\n") with the given size. The parent side is made non-blocking so a
// read can be interrupted.
func ptys(cols, rows uint16) ([]*end, error) {
	var ends []*end
	for range 2 {
		parent, child, err := openPty(cols, rows)
		if err != nil {
			for _, e := range ends {
				e.close()
			}
			return nil, err
		}
		ends = append(ends, &end{parent: parent, child: child, isPty: true})
	}
	return ends, nil
}

// openPtyByName is openPty through pty.Open, for kernels without
// TIOCGPTPEER.
func openPtyByName(cols, rows uint16) (parent, child *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*os.File, *os.File, error) {
		m.Close()
		s.Close()
		return nil, nil, err
	}
	if err := pty.Setsize(m, &pty.Winsize{Cols: cols, Rows: rows}); err != nil {
		return fail(err)
	}
	if err := MakeRaw(int(s.Fd())); err != nil {
		return fail(err)
	}
	fd, err := unix.Dup(int(m.Fd()))
	m.Close()
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	unix.CloseOnExec(fd)
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		s.Close()
		return nil, nil, err
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s, nil
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
