package bench

import (
	"io"
	"os"
	"os/exec"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/ctxhq/ctx/capture"
)

// BareRead runs argv and reads its stdout to the end, doing nothing else: the
// baseline ctx's capture is compared with. With usePty the stdout is a
// pseudo-terminal in raw mode, as ctx run uses by default.
func BareRead(argv []string, usePty bool) (int64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var r *os.File
	if usePty {
		m, s, err := pty.Open()
		if err != nil {
			return 0, err
		}
		defer m.Close()
		if err := capture.MakeRaw(int(s.Fd())); err != nil {
			s.Close()
			return 0, err
		}
		cmd.Stdout = s
		if err := cmd.Start(); err != nil {
			s.Close()
			return 0, err
		}
		s.Close()
		r = m
	} else {
		pr, pw, err := os.Pipe()
		if err != nil {
			return 0, err
		}
		defer pr.Close()
		cmd.Stdout = pw
		if err := cmd.Start(); err != nil {
			pw.Close()
			return 0, err
		}
		pw.Close()
		r = pr
	}
	buf := make([]byte, 256<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		n += int64(k)
		if err != nil {
			if err == io.EOF || isEIO(err) {
				break
			}
			return n, err
		}
	}
	return n, cmd.Wait()
}

func isEIO(err error) bool {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err == unix.EIO
	}
	return false
}
