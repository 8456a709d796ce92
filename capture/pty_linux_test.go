package capture

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPtyByName: the fallback for kernels without TIOCGPTPEER gives the
// same terminal: sized, raw, its parent side non-blocking.
func TestPtyByName(t *testing.T) {
	for name, open := range map[string]func(uint16, uint16) (*os.File, *os.File, error){"peer": openPty, "by name": openPtyByName} {
		m, s, err := open(80, 24)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ws, err := unix.IoctlGetWinsize(int(s.Fd()), unix.TIOCGWINSZ)
		if err != nil || ws.Col != 80 || ws.Row != 24 {
			t.Errorf("%s: size %+v %v", name, ws, err)
		}
		tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
		if err != nil || tio.Lflag&(unix.ECHO|unix.ICANON) != 0 || tio.Oflag&unix.OPOST != 0 {
			t.Errorf("%s: not raw: %+v %v", name, tio, err)
		}
		if fl, err := unix.FcntlInt(m.Fd(), unix.F_GETFL, 0); err != nil || fl&unix.O_NONBLOCK == 0 {
			t.Errorf("%s: parent flags %#x %v, want non-blocking", name, fl, err)
		}
		m.Close()
		s.Close()
	}
}
