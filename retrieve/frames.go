package retrieve

import (
	"bytes"
	"regexp"
	"slices"
	"sync"

	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// frameJob is one frame of a parallel grep: its bytes in the region, cut
// into the end of a line begun before it (head), its whole lines (body)
// and the start of a line that goes on after it (tail), and what a worker
// found in the body.
type frameJob struct {
	i                int
	buf              []byte // the decoded frame
	raw              []byte // its bytes inside the region
	head, body, tail []byte
	err              error
	ready            chan struct{} // closed when the worker is done

	assumed, end secrets.State // the Redactor state the body was redacted from, and after it
	out          []byte        // the redacted body, when redacting changed it
	lines        int64         // lines in the body
	fed          []fedLine     // matches and the lines around them, in order
	long         []int64       // body lines longer than lines.Max, as shown, that did not match (their idx)
}

// fedLine is a line of the body for the printer: idx counts from 0 at the
// body's first line; [off, end) is the line in the body, with its newline;
// line is it as shown (redacted), with its newline.
type fedLine struct {
	idx      int64
	off, end int
	line     []byte
	matched  bool
}

// decodeSlack is room past a frame's end in the buffer it is decoded into:
// with it, zstd copies whole 32-byte blocks in the frame's last block too,
// instead of the bounds-exact copies it makes when the buffer ends with the
// frame.
const decodeSlack = 64

// load decodes the frame and cuts it; the region's first frame has no head.
func (j *frameJob) load(b *store.Blob, off, end int64, first bool) {
	fo, fe := b.FrameSpan(j.i)
	if n := int(fe-fo) + decodeSlack; cap(j.buf) < n {
		j.buf = make([]byte, 0, n)
	}
	j.buf, j.err = b.DecodeFrame(j.i, j.buf)
	if j.err != nil {
		return
	}
	data := j.buf[max(off, fo)-fo : min(end, fe)-fo]
	j.raw, j.head, j.body, j.tail = data, nil, nil, nil
	if !first {
		k := bytes.IndexByte(data, '\n')
		if k < 0 {
			j.head = data
			return
		}
		j.head, data = data[:k+1], data[k+1:]
	}
	l := bytes.LastIndexByte(data, '\n')
	j.body, j.tail = data[:l+1], data[l+1:]
}

// run redacts the body from Redactor state st and finds its matches. When
// no line of the body changes the state and redacting cannot put the
// pattern's literal into a line, only the lines holding the literal (and
// the context printed around them) are redacted: a line without it cannot
// match once redacted. Otherwise the whole body is redacted first.
func (j *frameJob) run(m *frameMatcher, st secrets.State) {
	j.assumed, j.end, j.fed, j.long = st, st, j.fed[:0], j.long[:0]
	j.lines = int64(bytes.Count(j.body, []byte{'\n'}))
	if m.reveal {
		m.find(j, j.body, nil)
		return
	}
	var red secrets.Redactor
	red.SetState(st)
	if m.rawLit && red.Static(j.body) {
		sparse.Add(1)
		m.find(j, j.body, &red)
		return
	}
	text := j.body
	if !red.QuietText(text) {
		j.out = j.out[:0]
		for rest := text; len(rest) > 0; {
			k := bytes.IndexByte(rest, '\n')
			j.out = append(append(j.out, red.Line(rest[:k])...), '\n')
			rest = rest[k+1:]
		}
		text = j.out
	}
	j.end = red.State()
	m.find(j, text, nil)
}

// frameMatcher finds the lines of a body that grep prints.
type frameMatcher struct {
	re     *regexp.Regexp
	lit    []byte // in every match (nil: none known)
	rawLit bool   // lit is set and redacting cannot introduce it
	around int
	reveal bool
}

func newFrameMatcher(re *regexp.Regexp, around int, reveal bool) *frameMatcher {
	m := &frameMatcher{re: re, lit: requiredLiteral(re), around: around, reveal: reveal}
	m.rawLit = m.lit != nil && !reveal && !secrets.Introduces(m.lit)
	return m
}

// find fills j.fed from text, j's body: redacted already when red is nil,
// else raw, each line shown redacted by red (whose State no line changes).
func (m *frameMatcher) find(j *frameJob, text []byte, red *secrets.Redactor) {
	if m.lit != nil {
		red = m.findLiteral(j, text, red)
	} else {
		m.findEach(j, text)
	}
	m.findLong(j, text, red)
	if len(j.fed) > 0 || m.around > 0 {
		m.addContext(j, text)
	}
	for i := range j.fed {
		if f := &j.fed[i]; f.line == nil {
			f.line = shown(text[f.off:f.end], red)
		}
	}
}

// findLong records the body's lines longer than lines.Max as shown that do
// not match in their first lines.Max bytes (all grep searches of a line).
// Such a line holds an aligned block of lines.Max/2 bytes without a
// newline, so only blocks are probed: a few IndexByte calls a frame.
func (m *frameMatcher) findLong(j *frameJob, text []byte, red *secrets.Redactor) {
	const h = lines.Max / 2
	for b := 0; b+h <= len(text); b += h {
		if bytes.IndexByte(text[b:b+h], '\n') >= 0 {
			continue
		}
		s := bytes.LastIndexByte(text[:b], '\n') + 1
		e := b + h + bytes.IndexByte(text[b+h:], '\n') + 1 // a body ends with a newline
		if l, long := asScanned(shown(text[s:e], red)); long && !m.re.Match(lines.Clean(l)) {
			j.long = append(j.long, int64(bytes.Count(text[:s], []byte{'\n'})))
		}
		b = (e+h-1)/h*h - h // the next block starts at or after the line's end
	}
}

// shown is a line of the body (with its newline) as printed: redacted by
// red, when red is set.
func shown(line []byte, red *secrets.Redactor) []byte {
	if red == nil {
		return line
	}
	out := red.Line(line[:len(line)-1])
	if len(out) == len(line)-1 && (len(out) == 0 || &out[0] == &line[0]) {
		return line
	}
	return append(slices.Clip(out), '\n')
}

// match is whether a line of the body (with its newline) as shown matches,
// cut and cleaned as lines.Scan and grepStream do.
func (m *frameMatcher) match(line []byte) bool {
	l, _ := asScanned(line)
	return m.re.Match(lines.Clean(l))
}

// findLiteral tries the regexp only on the lines that can match: those
// holding the literal and those holding an escape (cleaning one can join
// the literal's pieces). Cutting a line or taking what follows its last
// carriage return leaves a part of it, which holds the literal only if the
// line does. It returns the Redactor the other lines are shown with: nil
// once many lines were candidates and QuietText passed the whole text
// (one scan of it costs less than redacting most of its lines).
func (m *frameMatcher) findLiteral(j *frameJob, text []byte, red *secrets.Redactor) *secrets.Redactor {
	var idx int64
	counted := 0 // idx is the number of the line starting at counted
	lit, esc := nextAt(text, 0, m.lit), nextAt(text, 0, []byte{0x1b})
	for pos, n := 0, 0; pos < len(text); n++ {
		if n == denseCandidates && red != nil && red.QuietText(text) {
			red = nil
		}
		if lit < pos {
			lit = nextAt(text, pos, m.lit)
		}
		if esc < pos {
			esc = nextAt(text, pos, []byte{0x1b})
		}
		k := min(lit, esc)
		if k == len(text) {
			return red
		}
		ls := bytes.LastIndexByte(text[:k], '\n') + 1
		le := k + bytes.IndexByte(text[k:], '\n') + 1
		idx += int64(bytes.Count(text[counted:ls], []byte{'\n'}))
		counted = ls
		if line := shown(text[ls:le], red); m.match(line) {
			j.fed = append(j.fed, fedLine{idx: idx, off: ls, end: le, line: line, matched: true})
		}
		pos = le
	}
	return red
}

// denseCandidates is how many candidate lines of a frame findLiteral
// redacts one by one before it tries QuietText on the whole frame.
const denseCandidates = 64

// nextAt is where sep next occurs in text from pos, or len(text).
func nextAt(text []byte, pos int, sep []byte) int {
	if k := bytes.Index(text[pos:], sep); k >= 0 {
		return pos + k
	}
	return len(text)
}

// findEach matches every line as grepStream does.
func (m *frameMatcher) findEach(j *frameJob, text []byte) {
	var idx int64
	for s := 0; s < len(text); idx++ {
		e := s + bytes.IndexByte(text[s:], '\n') + 1
		if m.match(text[s:e]) {
			j.fed = append(j.fed, fedLine{idx: idx, off: s, end: e, line: text[s:e], matched: true})
		}
		s = e
	}
}

// addContext adds the lines within around of each match and the body's
// first and last around lines (context for matches in the frames beside
// it), in order, each once; their shown text is filled in later.
func (m *frameMatcher) addContext(j *frameJob, text []byte) {
	a := int64(m.around)
	add := func(idx int64, s int) {
		e := s + bytes.IndexByte(text[s:], '\n') + 1
		j.fed = append(j.fed, fedLine{idx: idx, off: s, end: e})
	}
	for _, f := range j.fed {
		s, e := f.off, f.end
		for d := int64(1); d <= a && s > 0; d++ {
			s = bytes.LastIndexByte(text[:s-1], '\n') + 1
			add(f.idx-d, s)
		}
		for d := int64(1); d <= a && e < len(text); d++ {
			add(f.idx+d, e)
			e += bytes.IndexByte(text[e:], '\n') + 1
		}
	}
	for d, s := int64(0), 0; d < a && d < j.lines; d++ {
		add(d, s)
		s += bytes.IndexByte(text[s:], '\n') + 1
	}
	for d, e := int64(0), len(text); d < a && d < j.lines; d++ {
		e = bytes.LastIndexByte(text[:e-1], '\n') + 1
		add(j.lines-1-d, e)
	}
	slices.SortStableFunc(j.fed, func(x, y fedLine) int {
		switch {
		case x.idx != y.idx:
			return int(x.idx - y.idx)
		case x.matched == y.matched:
			return 0
		case x.matched:
			return -1
		}
		return 1
	})
	j.fed = slices.CompactFunc(j.fed, func(x, y fedLine) bool { return x.idx == y.idx })
}

// framePipe decodes and searches frames first..last on workers, handing
// them over in order through done; at most a fixed number are in flight.
type framePipe struct {
	done chan *frameJob
	free chan *frameJob
	quit chan struct{}
	wg   sync.WaitGroup
}

func startFrames(b *store.Blob, first, last int, off, end int64, workers, depth int, m *frameMatcher, hint func() secrets.State) *framePipe {
	pool := depth + workers
	fp := &framePipe{done: make(chan *frameJob, depth), free: make(chan *frameJob, pool), quit: make(chan struct{})}
	for range pool {
		fp.free <- &frameJob{}
	}
	work := make(chan *frameJob, pool)
	for range workers {
		fp.wg.Add(1)
		go func() {
			defer fp.wg.Done()
			for j := range work {
				j.load(b, off, end, j.i == first)
				if j.err == nil {
					j.run(m, hint())
				}
				close(j.ready)
			}
		}()
	}
	fp.wg.Add(1)
	go func() {
		defer fp.wg.Done()
		defer close(work)
		defer close(fp.done)
		for i := first; i <= last; i++ {
			var j *frameJob
			select {
			case j = <-fp.free:
			case <-fp.quit:
				return
			}
			j.i, j.err, j.ready = i, nil, make(chan struct{})
			select {
			case fp.done <- j:
			case <-fp.quit:
				return
			}
			work <- j // never blocks: work holds the whole pool
		}
	}()
	return fp
}

// recycle returns a job taken from done.
func (fp *framePipe) recycle(j *frameJob) { fp.free <- j }

// stop ends the workers and waits for them.
func (fp *framePipe) stop() {
	close(fp.quit)
	fp.wg.Wait()
}
