// Package display shows ctx's output to a person at a terminal the way git
// and gh do: colour on ctx's own digest lines only when stdout is a terminal
// and NO_COLOR is unset, and a pager only when the output is longer than the
// screen, stdout and stdin are terminals, and nobody said --no-pager. Piped
// (an agent, a script, a file) it changes nothing: the bytes are the same as
// without it, written as they come.
//
// It must never colour the command's own output lines' bytes into storage,
// and never start a pager an agent could hang on.
package display

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
)

// Close finishes w when it is a display Writer (flushing what it holds and
// waiting for the pager) and does nothing otherwise.
func Close(w io.Writer) error {
	if dw, ok := w.(*Writer); ok {
		return dw.Close()
	}
	return nil
}

// Getenv reads the environment: os.Getenv, or a test's map.
type Getenv func(string) string

// Settings is what the decisions depend on.
type Settings struct {
	OutTTY  bool // stdout is a terminal
	InTTY   bool // stdin is a terminal (a person can scroll a pager)
	NoPager bool // --no-pager
	Getenv  Getenv
	Rows    int // the terminal's height; 0 when unknown
}

// Colour reports whether digest lines are coloured: stdout is a terminal,
// NO_COLOR is unset or empty (https://no-color.org) and TERM is not dumb.
func (s Settings) Colour() bool {
	return s.OutTTY && s.Getenv("NO_COLOR") == "" && s.Getenv("TERM") != "dumb"
}

// Pager is the pager command line, or "" for none: CTX_PAGER, then PAGER,
// then less; "cat" means none. No pager
// unless stdout and stdin are terminals, and none under an agent session
// (CTX_SESSION) or on a dumb terminal.
func (s Settings) Pager() string {
	if !s.OutTTY || !s.InTTY || s.NoPager || s.Getenv("CTX_SESSION") != "" || s.Getenv("TERM") == "dumb" {
		return ""
	}
	p := "less"
	if v := s.Getenv("CTX_PAGER"); v != "" {
		p = v
	} else if v := s.Getenv("PAGER"); v != "" {
		p = v
	}
	if p = strings.TrimSpace(p); p == "cat" {
		return ""
	}
	return p
}

// Writer holds back output until it knows whether it fits the screen: up to
// Rows-1 lines are kept; the line after that starts the pager and everything
// goes to it from then on. Close writes what was kept when it fitted.
// Colour, when on, is applied line by line as lines complete.
type Writer struct {
	out    io.Writer
	errw   io.Writer
	pager  string
	rows   int
	colour func([]byte) []byte

	line   []byte // the incomplete last line
	held   bytes.Buffer
	nlines int
	cmd    *exec.Cmd
	pipe   io.WriteCloser
	broken bool // the pager quit early: discard the rest
	env    []string
}

// New returns a writer over out, or out itself when neither colour nor a
// pager applies. colour is the line colouring to use when colour is on (nil:
// none, as for raw output).
func New(out, errw io.Writer, s Settings, colour func([]byte) []byte) io.Writer {
	w := &Writer{out: out, errw: errw, rows: s.Rows}
	if s.Colour() {
		w.colour = colour
	}
	if w.pager = s.Pager(); w.pager != "" && w.rows <= 0 {
		w.rows = 24
	}
	if w.colour == nil && w.pager == "" {
		return out
	}
	if s.Getenv("LESS") == "" {
		w.env = append(w.env, "LESS=FRX") // quit when it fits, keep colour, leave the screen
	}
	if s.Getenv("LV") == "" {
		w.env = append(w.env, "LV=-c")
	}
	return w
}

// Write takes output in any pieces.
func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.line = append(w.line, p...)
			break
		}
		w.line = append(w.line, p[:i+1]...)
		p = p[i+1:]
		if err := w.emit(w.line); err != nil {
			return n - len(p), err
		}
		w.line = w.line[:0]
	}
	return n, nil
}

// emit routes one complete line (or the final partial one).
func (w *Writer) emit(line []byte) error {
	if w.colour != nil {
		line = w.colour(line)
	}
	switch {
	case w.pipe != nil:
		return w.toPager(line)
	case w.pager == "":
		_, err := w.out.Write(line)
		return err
	}
	w.held.Write(line)
	if w.nlines++; w.nlines < w.rows {
		return nil
	}
	if !w.startPager() {
		w.pager = "" // could not start one: write directly from here on
		_, err := w.held.WriteTo(w.out)
		return err
	}
	err := w.toPager(w.held.Bytes())
	w.held.Reset()
	return err
}

func (w *Writer) toPager(b []byte) error {
	if w.broken {
		return nil
	}
	if _, err := w.pipe.Write(b); err != nil {
		w.broken = true // the person quit the pager: nothing more to show
	}
	return nil
}

// startPager runs the pager through sh, like git, so PAGER may carry flags.
func (w *Writer) startPager() bool {
	cmd := exec.Command("sh", "-c", w.pager)
	cmd.Env = append(os.Environ(), w.env...)
	cmd.Stdout, cmd.Stderr = w.out, w.errw
	pipe, err := cmd.StdinPipe()
	if err != nil {
		return false
	}
	if err := cmd.Start(); err != nil {
		return false
	}
	w.cmd, w.pipe = cmd, pipe
	return true
}

// Close flushes what is held and waits for the pager, if one runs.
func (w *Writer) Close() error {
	if len(w.line) > 0 {
		if err := w.emit(w.line); err != nil {
			return err
		}
		w.line = nil
	}
	if w.pipe == nil {
		_, err := w.held.WriteTo(w.out)
		return err
	}
	w.pipe.Close()
	_ = w.cmd.Wait() // the pager's own status is the person's business, as with git
	return nil
}
