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
}

// fedLine is a line of the body for the printer: idx counts from 0 at the
// body's first line; line holds its newline.
type fedLine struct {
	idx     int64
	off     int // where line starts in the body
	line    []byte
	matched bool
}

// load decodes the frame and cuts it; the region's first frame has no head.
func (j *frameJob) load(b *store.Blob, off, end int64, first bool) {
	j.buf, j.err = b.DecodeFrame(j.i, j.buf)
	if j.err != nil {
		return
	}
	fo, fe := b.FrameSpan(j.i)
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

// run redacts the body from Redactor state st and finds its matches.
func (j *frameJob) run(m *frameMatcher, st secrets.State) {
	j.assumed, j.end, j.fed = st, st, j.fed[:0]
	text := j.body
	if !m.reveal {
		var red secrets.Redactor
		red.SetState(st)
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
	}
	j.lines = int64(bytes.Count(text, []byte{'\n'}))
	m.find(j, text)
}

// frameMatcher finds the lines of a body that grep prints.
type frameMatcher struct {
	re     *regexp.Regexp
	lit    []byte // in every match (nil: none known)
	around int
	reveal bool
}

// find fills j.fed from text, j's body as redacted.
func (m *frameMatcher) find(j *frameJob, text []byte) {
	if m.lit != nil && plainLines(text) {
		m.findLiteral(j, text)
	} else {
		m.findEach(j, text)
	}
	if len(j.fed) == 0 && m.around == 0 {
		return
	}
	m.addContext(j, text)
}

// plainLines reports lines that lines.Clean leaves alone and lines.Scan does
// not cut: no escape, no carriage return, none of lines.Max bytes or more.
func plainLines(text []byte) bool {
	if bytes.IndexByte(text, 0x1b) >= 0 || bytes.IndexByte(text, '\r') >= 0 {
		return false
	}
	for p := 0; len(text)-p >= lines.Max; {
		i := bytes.LastIndexByte(text[p:p+lines.Max], '\n')
		if i < 0 {
			return false
		}
		p += i + 1
	}
	return true
}

// findLiteral tries the regexp only on lines holding the literal.
func (m *frameMatcher) findLiteral(j *frameJob, text []byte) {
	var idx int64
	counted := 0 // idx is the number of the line starting at counted
	for pos := 0; pos < len(text); {
		k := bytes.Index(text[pos:], m.lit)
		if k < 0 {
			return
		}
		ls := bytes.LastIndexByte(text[:pos+k], '\n') + 1
		le := pos + k + bytes.IndexByte(text[pos+k:], '\n')
		idx += int64(bytes.Count(text[counted:ls], []byte{'\n'}))
		counted = ls
		if m.re.Match(text[ls:le]) {
			j.fed = append(j.fed, fedLine{idx: idx, off: ls, line: text[ls : le+1], matched: true})
		}
		pos = le + 1
	}
}

// findEach matches every line as grepStream does.
func (m *frameMatcher) findEach(j *frameJob, text []byte) {
	var idx int64
	for s := 0; s < len(text); idx++ {
		e := s + bytes.IndexByte(text[s:], '\n') + 1
		line, _ := asScanned(text[s:e])
		if m.re.Match(lines.Clean(line)) {
			j.fed = append(j.fed, fedLine{idx: idx, off: s, line: text[s:e], matched: true})
		}
		s = e
	}
}

// addContext adds the lines within around of each match and the body's
// first and last around lines (context for matches in the frames beside
// it), in order, each once.
func (m *frameMatcher) addContext(j *frameJob, text []byte) {
	a := int64(m.around)
	add := func(idx int64, s int) {
		e := s + bytes.IndexByte(text[s:], '\n') + 1
		j.fed = append(j.fed, fedLine{idx: idx, off: s, line: text[s:e]})
	}
	for _, f := range j.fed {
		s, e := f.off, f.off+len(f.line)
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
