package retrieve

import (
	"bytes"
	"context"
	"regexp"
	"regexp/syntax"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// parallelMinFrames is the fewest frames a region spans for grep to read it
// frame by frame on several goroutines (a variable: tests force either path).
var parallelMinFrames = 2

// redone counts frames redone from the true Redactor state, sparse the
// frames of which only the lines that can match were redacted (for tests).
var redone, sparse atomic.Int64

// parallel reports whether grep reads the region frame by frame: a line
// range of a stored blob spanning several frames.
func (reg *Region) parallel() bool {
	if reg.blob == nil || reg.openMerged != nil || reg.unit != 'L' || reg.from < 1 {
		return false
	}
	off, end, err := reg.byteRange()
	if err != nil || end <= off {
		return false
	}
	return reg.blob.FrameAt(end-1)-reg.blob.FrameAt(off)+1 >= parallelMinFrames
}

// byteRange is the region's lines as bytes [off, end) of its blob.
func (reg *Region) byteRange() (int64, int64, error) {
	if reg.from == 1 && reg.to >= reg.blob.Lines() {
		return 0, reg.blob.Size(), nil
	}
	return reg.blob.LineRange(reg.from, reg.to)
}

// parallelGrep feeds the printer the region's matches and the lines around
// them, reading its frames on every core: each worker decompresses one
// frame, redacts its whole lines and finds its matches; this goroutine
// takes the frames in order, redacts the lines that cross from one frame to
// the next, and prints. The bytes printed are grepStream's:
//
//   - a worker redacts from a guessed Redactor state (the last one this
//     goroutine knew); when the state its frame really starts in differs (a
//     key block crossing a frame boundary), the frame is redone here from
//     the right one, so every line is redacted exactly as one pass would;
//   - lines are cut, cleaned and matched as lines.Scan and grepStream do,
//     and a line crossing frames is redacted in secrets.Reader's pieces;
//   - the whole blob's bytes are checked against its id, as Reader does.
//
// At most 2 frames per worker are in flight.
func parallelGrep(ctx context.Context, reg *Region, re *regexp.Regexp, p *grepPrinter) error {
	off, end, err := reg.byteRange()
	if err != nil {
		return err
	}
	m := newFrameMatcher(re, p.around, reg.Reveal)
	g := &frameGrep{reg: reg, m: m, p: p, n: reg.from - 1}
	if !reg.Reveal {
		if err := reg.prime(&g.red); err != nil {
			return err
		}
	}
	if off == 0 && end == reg.blob.Size() {
		g.verify = reg.blob.Verifier()
	}
	first, last := reg.blob.FrameAt(off), reg.blob.FrameAt(end-1)
	workers := max(1, runtime.GOMAXPROCS(0))
	pipe := startFrames(reg.blob, first, last, off, end, workers, 2*workers, m, g.hint)
	defer pipe.stop()
	for j := range pipe.done {
		<-j.ready
		if err := g.take(j); err != nil {
			return err
		}
		pipe.recycle(j)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return g.finish()
}

// frameGrep is parallelGrep's in-order side.
type frameGrep struct {
	reg    *Region
	m      *frameMatcher
	p      *grepPrinter
	n      int64            // lines fed so far (the last line's number)
	red    secrets.Redactor // in the state after the last line taken
	cross  partialLine      // a line begun in an earlier frame
	verify *store.Verifier  // nil unless the region is the whole blob
	mu     sync.Mutex       // guards known
	known  secrets.State    // red's state, for workers' guesses
	begun  bool             // a frame was taken
}

// hint is the latest Redactor state the in-order side knew.
func (g *frameGrep) hint() secrets.State {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.known
}

// take prints one frame's part of the region.
func (g *frameGrep) take(j *frameJob) error {
	if j.err != nil {
		return j.err
	}
	if g.verify != nil {
		g.verify.Write(j.raw)
	}
	red := g.redactor()
	if g.begun || len(j.head) > 0 {
		g.cross.add(j.head, red)
		if !bytes.HasSuffix(j.head, []byte{'\n'}) {
			return nil // no newline in this frame: the line goes on
		}
		g.endCross(true, red)
	}
	g.begun = true
	if !g.reg.Reveal && j.assumed != g.red.State() {
		j.run(g.m, g.red.State()) // the guess was wrong: redo from the true state
		redone.Add(1)
	}
	for _, f := range j.fed {
		line, long := asScanned(f.line)
		g.p.line(g.n+1+f.idx, line, long, f.matched)
	}
	for _, idx := range j.long {
		g.p.partial(g.n + 1 + idx)
	}
	g.n += j.lines
	if !g.reg.Reveal {
		g.red.SetState(j.end)
		g.mu.Lock()
		g.known = j.end
		g.mu.Unlock()
	}
	g.cross.add(j.tail, red)
	return nil
}

// redactor is the in-order Redactor, or nil when secrets are revealed.
func (g *frameGrep) redactor() *secrets.Redactor {
	if g.reg.Reveal {
		return nil
	}
	return &g.red
}

// endCross redacts, matches and feeds the line that crossed frames.
func (g *frameGrep) endCross(nl bool, red *secrets.Redactor) {
	text := g.cross.end(nl, red)
	line, long := asScanned(text)
	g.n++
	matched := g.m.re.Match(lines.Clean(line))
	g.p.line(g.n, line, long, matched)
	if long && !matched {
		g.p.partial(g.n)
	}
}

// finish feeds a last line without a newline and checks the blob's id.
func (g *frameGrep) finish() error {
	if g.cross.pending() {
		g.endCross(false, g.redactor())
	}
	if g.verify != nil {
		return g.verify.Check()
	}
	return nil
}

// prime puts red in the state a Redactor has at the region's first line: a
// key block may have begun above it.
func (reg *Region) prime(red *secrets.Redactor) error {
	if reg.blob == nil || reg.unit != 'L' || reg.from <= 1 {
		return nil
	}
	from := max(1, reg.from-secrets.Lookback)
	off, end, err := reg.blob.LineRange(from, reg.from-1)
	if err != nil {
		return err
	}
	return lines.Scan(context.Background(), reg.blob.Section(off, end), func(_ int, line []byte, _ bool) error {
		red.Prime(line)
		return nil
	})
}

// asScanned is one line as lines.Scan gives it: b is the line with its
// newline (none at the end of a stream); a line longer than lines.Max is
// cut there (counting its newline), then a newline and a carriage return
// are trimmed.
func asScanned(b []byte) ([]byte, bool) {
	long := false
	if len(b) > lines.Max {
		b, long = b[:lines.Max], true
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'}), long
}

// partialLine is a line that crosses frames, redacted as secrets.Reader
// redacts it (whole, or in pieces of secrets.PieceLen) and keeping only
// what lines.Scan shows of it, so memory stays bounded whatever its length.
type partialLine struct {
	piece []byte // raw bytes not redacted yet
	shown []byte // the redacted line's first lines.Max+1 bytes
	any   bool
}

func (pl *partialLine) pending() bool { return pl.any }

func (pl *partialLine) keep(b []byte) {
	if room := lines.Max + 1 - len(pl.shown); room > 0 {
		pl.shown = append(pl.shown, b[:min(room, len(b))]...)
	}
}

// add appends raw bytes of the line (red nil: not redacted).
func (pl *partialLine) add(b []byte, red *secrets.Redactor) {
	if len(b) == 0 {
		return
	}
	pl.any = true
	b = bytes.TrimSuffix(b, []byte{'\n'})
	if red == nil {
		pl.keep(b)
		return
	}
	pl.piece = append(pl.piece, b...)
	for len(pl.piece) >= secrets.PieceLen {
		pl.keep(red.Line(pl.piece[:secrets.PieceLen]))
		pl.piece = append(pl.piece[:0], pl.piece[secrets.PieceLen:]...)
	}
}

// end redacts the rest and returns the line as shown, with its newline
// when it had one; the partialLine is empty again.
func (pl *partialLine) end(nl bool, red *secrets.Redactor) []byte {
	if red != nil {
		pl.keep(red.Line(pl.piece))
	}
	if nl {
		pl.keep([]byte{'\n'})
	}
	out := pl.shown
	pl.shown, pl.piece, pl.any = pl.shown[:0:0], pl.piece[:0], false
	return out
}

// requiredLiteral is a case-sensitive literal every match of re holds, or
// nil: lines without it need no regexp at all.
func requiredLiteral(re *regexp.Regexp) []byte {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	lit := literalIn(t)
	if lit == "" {
		return nil
	}
	return []byte(lit)
}

func literalIn(t *syntax.Regexp) string {
	switch t.Op {
	case syntax.OpLiteral:
		s := string(t.Rune)
		// A folded literal matches other bytes; U+FFFD matches any invalid
		// byte as well as its own encoding.
		if t.Flags&syntax.FoldCase != 0 || bytes.ContainsRune([]byte(s), utf8.RuneError) {
			return ""
		}
		return s
	case syntax.OpCapture, syntax.OpPlus:
		return literalIn(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return literalIn(t.Sub[0])
		}
	case syntax.OpConcat:
		best := ""
		for _, s := range t.Sub {
			if l := literalIn(s); len(l) > len(best) {
				best = l
			}
		}
		return best
	}
	return ""
}
