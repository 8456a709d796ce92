//go:build !linux

package capture

import "os"

// openPty opens one pseudo-terminal, sized and raw, its parent side
// non-blocking and close-on-exec. Outside Linux there is no TIOCGPTPEER, so
// the child's side is opened by name.
func openPty(cols, rows uint16) (parent, child *os.File, err error) {
	return openPtyByName(cols, rows)
}
