package evidence

import "io"

// Promise is the producer's side of a Source whose capture is still running:
// its streams open readers that follow the capture (given by the producer),
// and its exit status and stream facts become known when the producer
// settles it. Profiles reading the Source wait for each fact until then (see
// Source).
//
// A Promise is settled exactly once, by Settle or by Abandon. Each stream's
// head may be given earlier, once its first HeadSize bytes have arrived.
type Promise struct {
	src   *Source
	facts []*facts
	heads []chan struct{}
	done  chan struct{}
}

// Facts are a finished stream's size, line count and head.
type Facts struct {
	Size  int64
	Lines int
	Head  []byte
}

// NewPromise is a Source of streams with the given names, opened by open(i),
// whose facts are not known yet.
func NewPromise(argv []string, names []string, open func(i int) (io.ReadCloser, error)) *Promise {
	p := &Promise{done: make(chan struct{})}
	p.src = &Source{Argv: argv, done: p.done}
	for i, name := range names {
		h := make(chan struct{})
		f := &facts{headDone: h, done: p.done}
		p.facts = append(p.facts, f)
		p.heads = append(p.heads, h)
		p.src.Streams = append(p.src.Streams, Stream{Name: name, f: f, Open: func() (io.ReadCloser, error) { return open(i) }})
	}
	return p
}

// Source is the Source profiles read.
func (p *Promise) Source() *Source { return p.src }

// Head gives stream i's head, its first HeadSize bytes, once more than
// that have arrived (so the head is final, and the stream goes on past it).
// It may be called once per stream, before Settle.
func (p *Promise) Head(i int, head []byte) {
	p.facts[i].head, p.facts[i].more = head, true
	close(p.heads[i])
	p.heads[i] = nil
}

// Settle records the exit status and each stream's final facts (a head
// given earlier is kept) and releases everyone waiting for them.
func (p *Promise) Settle(exit int, streams []Facts) {
	p.src.exit = exit
	for i, f := range p.facts {
		f.size, f.lines = streams[i].Size, streams[i].Lines
		if p.heads[i] != nil {
			f.head, f.more = streams[i].Head, streams[i].Size > int64(len(streams[i].Head))
		}
	}
	close(p.done)
}

// Abandon releases everyone waiting without facts: the capture will not be
// described (what a profile reads from the Source is then meaningless, and
// its readers are expected to fail).
func (p *Promise) Abandon() { close(p.done) }
