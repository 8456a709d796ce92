// Package progress draws the live status line of a running capture on a
// person's terminal: elapsed time, bytes and lines captured and the last line
// of output, erased before the digest. It never draws for an agent (stderr not
// a terminal) and nothing of it is stored.
package progress

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/lines"
)

// progressEvery is how often the status line is redrawn.
const progressEvery = 200 * time.Millisecond

// Line shows a running capture to a person: one status line on ctx's
// stderr — elapsed time, bytes and lines captured, the last line of output
// cut to the terminal's width — redrawn a few times a second and erased
// before the digest. It is used only when stderr is a terminal (never for an
// agent reading a pipe), and it only reads the bytes on their way to the
// spool: nothing of it is stored or enters a digest.
type Line struct {
	w     io.Writer
	width func() int
	start time.Time
	bytes atomic.Int64
	lines atomic.Int64

	mu   sync.Mutex
	last []byte // the last complete line
	cur  []byte // the line being written

	stop chan struct{}
	done chan struct{}
}

// progressLineMax bounds the tail of output kept for the status line.
const progressLineMax = 1024

// Start starts redrawing on ios.Err if it is a terminal and the user has not
// turned progress off (CTX_PROGRESS=0); otherwise it returns nil, and a nil
// *Line does nothing.
func Start(ios *cli.IO) *Line {
	if !ios.ErrTTY || ios.Getenv("CTX_PROGRESS") == "0" {
		return nil
	}
	p := &Line{w: ios.Err, width: termWidth(ios.Err), start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go p.loop()
	return p
}

func termWidth(w io.Writer) func() int {
	return func() int {
		if f, ok := w.(*os.File); ok {
			if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
				return cols
			}
		}
		return 80
	}
}

// Tap returns a writer that shows what passes through it before handing it to w.
func (p *Line) Tap(w io.Writer) io.Writer {
	if p == nil {
		return w
	}
	return tapWriter{p, w}
}

type tapWriter struct {
	p *Line
	w io.Writer
}

func (t tapWriter) Write(b []byte) (int, error) {
	t.p.observe(b)
	return t.w.Write(b)
}

func (p *Line) observe(b []byte) {
	p.bytes.Add(int64(len(b)))
	n := bytes.Count(b, []byte{'\n'})
	p.lines.Add(int64(n))
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		line := b[:i]
		if j := bytes.LastIndexByte(line, '\n'); j >= 0 {
			p.last = append(p.last[:0], tail(line[j+1:])...)
		} else {
			p.last = append(append(p.last[:0], p.cur...), line...)
			p.last = append(p.last[:0], tail(p.last)...)
		}
		p.cur = append(p.cur[:0], tail(b[i+1:])...)
		return
	}
	p.cur = append(p.cur, b...)
	if len(p.cur) > 2*progressLineMax {
		p.cur = append(p.cur[:0], tail(p.cur)...)
	}
}

func tail(b []byte) []byte {
	if len(b) > progressLineMax {
		return b[len(b)-progressLineMax:]
	}
	return b
}

func (p *Line) loop() {
	defer close(p.done)
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	drawn := false
	for {
		select {
		case <-p.stop:
			if drawn {
				fmt.Fprint(p.w, "\r\x1b[K")
			}
			return
		case <-t.C:
			fmt.Fprint(p.w, "\r\x1b[K"+p.status(p.width()))
			drawn = true
		}
	}
}

// status is the line drawn: "ctx 12s · 48.2 KiB · 1,204 lines │ last line".
func (p *Line) status(width int) string {
	s := fmt.Sprintf("ctx %s · %s · %s lines", time.Since(p.start).Truncate(time.Second), contract.Size(p.bytes.Load()), contract.Num(p.lines.Load()))
	p.mu.Lock()
	text := statusText(lines.Clean(p.cur))
	if text == "" {
		text = statusText(lines.Clean(p.last))
	}
	p.mu.Unlock()
	if text != "" {
		s += " │ " + text
	}
	return cut(s, width-1) // the last column would wrap on some terminals
}

// statusText makes a line safe to draw: control characters become spaces,
// invalid UTF-8 the replacement character, surrounding space trimmed.
func statusText(b []byte) string {
	var out []rune
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		if unicode.IsControl(r) {
			r = ' '
		}
		out = append(out, r)
	}
	return string(bytes.TrimSpace([]byte(string(out))))
}

// cut shortens s to at most width runes, marking the cut with "…".
func cut(s string, width int) string {
	if width < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// Stop erases the status line and waits until it is gone. Safe on nil.
func (p *Line) Stop() {
	if p == nil {
		return
	}
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	<-p.done
}
