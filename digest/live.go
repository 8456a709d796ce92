package digest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles"
	"github.com/ctxhq/ctx/store"
)

// Spooled is a stream being spooled: the capture writes it, and the parse
// reads back what was written (store.StreamWriter).
type Spooled interface {
	io.Writer
	ReadAt(p []byte, off int64) (int, error)
}

var _ Spooled = (*store.StreamWriter)(nil)

// LiveStart is how many bytes a capture prints before its parse starts
// alongside it: below that the digest after the end takes a few
// milliseconds, and the later the start, the more of the heads detection sees.
const LiveStart = 1 << 20

// liveChunk is how much a reader that has caught up with the capture waits
// for before it reads again (unless the capture ends), so a command printing
// in small writes does not wake the parse for each one.
const liveChunk = 64 << 10

// errVoid ends the readers of a live parse that can no longer count: a
// stream passed its cap (the spool's ring rewrites what was read), the spool
// could not be written, or the capture was abandoned.
var errVoid = errors.New("the live parse was abandoned")

// Live parses a capture while it runs, on its own goroutine, so that what is
// left once the command ends is the end of the parse, the rendering and the
// commit. Once the capture has printed LiveStart bytes, the profile chain is
// detected from the heads seen so far and the parse reads the streams from
// the spool as they grow (the Source's facts — exit status, sizes, line
// counts — wait for Settle, which gives them as Prepare computed them). Make then uses that parse only when detecting
// again from the final heads gives the same chain and nothing was dropped;
// otherwise it parses after the end as Make always did. Either way the
// digest is the same bytes.
//
// Tap's writers are called by the capture's readers; Settle (after Prepare)
// and Make by the one goroutine that runs the capture, after those writers
// have returned.
type Live struct {
	argv  []string
	force string
	limit int64 // bytes a stream may receive before the ring rewrites them
	start int64 // bytes printed before the parse starts (LiveStart)
	chunk int64 // bytes a reader at the end waits for (liveChunk)

	mu      sync.Mutex
	cond    sync.Cond
	streams [2]liveStream
	promise *evidence.Promise // set when the parse starts
	ended   bool              // settled or abandoned
	void    bool              // the parse cannot count
	result  chan liveResult
	final   chan []profiles.Choice // the chain detected from the settled facts (Settle)
	cancel  context.CancelFunc
	counted bool // Make used the live parse
}

type liveStream struct {
	w     Spooled
	n     int64        // bytes written and readable from the spool
	need  int64        // the n a waiting reader waits for (0: none waits)
	head  []byte       // the first bytes, up to evidence.HeadSize
	given bool         // head handed to the promise
	read  atomic.Int64 // the furthest any reader has read (tests check the parse keeps up)
}

type liveResult struct {
	chain []profiles.Choice
	graph *evidence.Graph
	err   error
}

// NewLive prepares a live parse of a capture of argv whose streams keep
// limit bytes each in order (the spool's cap); force names a profile as
// Options.Profile does.
func NewLive(argv []string, force string, limit int64) *Live {
	l := &Live{argv: argv, force: force, limit: limit, start: LiveStart, chunk: liveChunk}
	l.cond.L = &l.mu
	return l
}

// Tap wraps the spool writer of stream i (0 stdout, 1 stderr): the bytes go
// to w, and the parse learns they are there.
func (l *Live) Tap(i int, w Spooled) io.Writer {
	l.streams[i].w = w
	return &liveTap{l: l, i: i, w: w}
}

type liveTap struct {
	l *Live
	i int
	w Spooled
}

func (t *liveTap) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	l := t.l
	l.mu.Lock()
	defer l.mu.Unlock()
	s := &l.streams[t.i]
	switch {
	case err != nil:
		// The spool does not hold these bytes (a full disk).
		l.abandonLocked()
	case s.n+int64(len(p)) > l.limit:
		l.abandonLocked()
	}
	s.n += int64(len(p))
	if len(s.head) < evidence.HeadSize {
		s.head = append(s.head, p[:min(len(p), evidence.HeadSize-len(s.head))]...)
	}
	if l.promise == nil && !l.ended && l.streams[0].n+l.streams[1].n >= l.start {
		l.startLocked()
	}
	l.giveHeadsLocked()
	if s.need > 0 && s.n >= s.need {
		// Wake the reader only once what it waits for is there: a pty
		// delivers a flood a few KiB at a time.
		s.need = 0
		l.cond.Broadcast()
	}
	return n, err
}

// startLocked starts the parse: the chain is detected from a snapshot of the
// heads, sizes and line counts so far.
func (l *Live) startLocked() {
	var snap []evidence.Stream
	for i := range l.streams {
		s := &l.streams[i]
		snap = append(snap, evidence.NewStream(streamNames[i], s.n, s.lines(), bytes.Clone(s.head), nil))
	}
	snapshot := evidence.NewSource(l.argv, 0, snap)
	l.promise = evidence.NewPromise(l.argv, streamNames[:], func(i int) (io.ReadCloser, error) {
		return &liveReader{l: l, s: &l.streams[i]}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	l.result = make(chan liveResult, 1)
	src := l.promise.Source()
	go func() {
		var r liveResult
		defer func() {
			// Detection is not guarded as parsers are: a panic voids this
			// parse, and the digest after the end meets it where it always did.
			if p := recover(); p != nil {
				r = liveResult{err: fmt.Errorf("live parse: %v", p)}
			}
			l.result <- r
		}()
		r.chain = profiles.Detect(snapshot, l.force)
		r.graph, r.err = profiles.ExtractChain(ctx, src, r.chain)
	}()
}

var streamNames = [2]string{evidence.Stdout, evidence.Stderr}

// giveHeadsLocked hands the promise each head that is final: more bytes than
// it holds have arrived.
func (l *Live) giveHeadsLocked() {
	if l.promise == nil || l.ended {
		return
	}
	for i := range l.streams {
		s := &l.streams[i]
		if !s.given && s.n > evidence.HeadSize {
			s.given = true
			l.promise.Head(i, s.head)
		}
	}
}

// abandonLocked voids the parse and releases it wherever it waits.
func (l *Live) abandonLocked() {
	l.void = true
	if !l.ended {
		l.ended = true
		if l.promise != nil {
			l.promise.Abandon()
		}
	}
	if l.cancel != nil {
		l.cancel()
	}
	l.cond.Broadcast()
}

// Abandon gives the live parse up (the capture will not be digested).
func (l *Live) Abandon() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.abandonLocked()
}

// Settle tells the parse how the capture ended: the run's exit status and
// streams as Prepare computed them. A stream that dropped bytes (its cap),
// or whose size is not what the taps saw, voids the parse.
func (l *Live) Settle(m store.Manifest) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	var facts []evidence.Facts
	for i, ref := range [2]store.StreamRef{m.Stdout, m.Stderr} {
		s := &l.streams[i]
		if ref.Dropped != 0 || ref.Size != s.n {
			l.abandonLocked()
			return
		}
		facts = append(facts, evidence.Facts{Size: ref.Size, Lines: int(ref.Lines), Head: s.head})
	}
	l.ended = true
	if l.promise != nil {
		l.promise.Settle(m.Exit, facts)
		l.detectFinal()
	}
	l.cond.Broadcast()
}

// detectFinal detects the chain again from the settled facts, on its own
// goroutine: what the parse alongside must agree with (graph). It runs while
// the parse reads its last bytes and Make reads the streams' heads, not
// after them (detection over a 64 KiB head of short lines took 10-20 ms,
// most of a flood's digest phase). A panic sends no chain: graph then gives
// the parse up, and Make meets the panic where it always did.
func (l *Live) detectFinal() {
	l.final = make(chan []profiles.Choice, 1)
	src := l.promise.Source()
	go func() {
		var chain []profiles.Choice
		defer func() {
			_ = recover()
			l.final <- chain
		}()
		chain = profiles.Detect(src, l.force)
	}()
}

// lines guesses the line count so far for detection (logs asks for 20
// lines): exact within the head, scaled from it beyond.
func (s *liveStream) lines() int {
	n := evidence.CountLines(s.head)
	if s.n > int64(len(s.head)) && len(s.head) > 0 {
		n = int(int64(n) * s.n / int64(len(s.head)))
	}
	return n
}

// graph waits for the live parse and returns its graph when it counts: it
// ran, it finished, and detection from the final heads picks the same chain.
func (l *Live) graph() *evidence.Graph {
	l.mu.Lock()
	started, void := l.promise != nil, l.void
	l.mu.Unlock()
	if !started {
		return nil
	}
	r := <-l.result
	l.mu.Lock()
	void = void || l.void
	l.mu.Unlock()
	var final []profiles.Choice
	if l.final != nil {
		final = <-l.final
	}
	if void || r.err != nil || r.graph == nil || final == nil {
		return nil
	}
	if !profiles.SameChain(r.chain, final) {
		return nil
	}
	return r.graph
}

// Make renders the digest of the capture settled with run's manifest: from
// the live parse when it counts, else by Make.
func (l *Live) Make(ctx context.Context, st Blobs, run *store.Run, opts Options) (*Result, error) {
	if l.final == nil {
		return Make(ctx, st, run, opts) // no parse alongside, or it was given up
	}
	// The streams' facts are read while the chain is detected again.
	_, infos, serr := Source(st, run)
	g := l.graph()
	if g == nil {
		return Make(ctx, st, run, opts)
	}
	if serr != nil {
		return nil, serr
	}
	l.counted = true
	return digestGraph(st, run, g, infos, opts)
}

// Counted reports whether Make used the parse that ran alongside the
// capture (a developer's trace says so).
func (l *Live) Counted() bool { return l.counted }

// liveReader reads a stream of a running capture from the spool, waiting at
// the end of what has arrived.
type liveReader struct {
	l   *Live
	s   *liveStream
	off int64
}

func (r *liveReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	want := min(int64(len(p)), r.l.chunk)
	l := r.l
	l.mu.Lock()
	for !l.void && !l.ended && r.s.n-r.off < want {
		r.s.need = r.off + want
		l.cond.Wait()
	}
	void, avail := l.void, r.s.n-r.off
	l.mu.Unlock()
	if void {
		return 0, errVoid
	}
	if avail <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), avail)
	n, err := r.s.w.ReadAt(p[:k], r.off)
	r.off += int64(n)
	for old := r.s.read.Load(); r.off > old && !r.s.read.CompareAndSwap(old, r.off); old = r.s.read.Load() {
	}
	if errors.Is(err, io.EOF) && int64(n) == k {
		err = nil
	}
	return n, err
}

func (r *liveReader) Close() error { return nil }
