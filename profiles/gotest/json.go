package gotest

import (
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// This file reads go test -json events (test2json): run/pause/cont and the
// pass/fail/skip actions give identities and outcomes; output events are read
// line by line like text output, attributed to their Test.

type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string
	FailedBuild string
}

func (p *parser) jsonBlock(pkg string) *block {
	if len(pkg) > maxName {
		pkg = cut(pkg, maxName)
	}
	b := p.jsonBlocks[pkg]
	if b == nil {
		b = p.newBlock()
		b.pkg, b.json, b.verbose = pkg, true, true
		p.jsonBlocks[pkg] = b
		p.jsonOrder = append(p.jsonOrder, b)
	}
	return b
}

func (p *parser) event(ln evidence.Span, ev event) {
	p.recognise++
	switch ev.Action {
	case "build-output":
		g := p.jsonGroup(ev.ImportPath, ln)
		for _, s := range splitOutput(ev.Output) {
			if rest, ok := strings.CutPrefix(s, "# "); ok {
				p.headerInto(g, ln, rest)
				continue
			}
			p.buildLine(g, ln, s, true)
		}
		return
	case "build-fail":
		g := p.jsonGroup(ev.ImportPath, ln)
		g.failed = true
		return
	}
	if ev.Package == "" {
		return
	}
	b := p.jsonBlock(ev.Package)
	extend(&b.detail, ln)
	switch ev.Action {
	case "run":
		b.structural++
		h := hashName(ev.Test)
		i, r := b.recs.find(ev.Test, h)
		if r == nil || r.outcome != "" {
			r = p.rerun(b, r, ev.Test, h, i, ln)
		}
		if r != nil {
			extend(&r.detail, ln)
		}
		b.cur = r
	case "pause":
		if r := p.get(b, ev.Test, ln); r != nil {
			extend(&r.detail, ln)
		}
	case "cont":
		if r := p.get(b, ev.Test, ln); r != nil {
			extend(&r.detail, ln)
			b.cur = r
		}
	case "pass", "fail", "skip":
		if ev.Test != "" {
			p.testEnd(b, ln, ev)
		} else if !b.closed {
			p.packageEnd(b, ln, ev)
		}
	case "output", "bench":
		p.jsonText(b, ln, ev)
	}
}

// testEnd settles a test's outcome from its pass, fail or skip event.
func (p *parser) testEnd(b *block, ln evidence.Span, ev event) {
	o := evidence.Outcome(ev.Action)
	b.structural++
	r := p.get(b, ev.Test, ln)
	if r == nil {
		b.counts.add(countKey(o), 1)
		return
	}
	extend(&r.detail, ln)
	if r.span.IsZero() {
		r.span = ln
	}
	p.resolve(b, r, o)
	if b.cur == r {
		b.cur = nil
	}
}

// packageEnd closes a package's block on its pass, fail or skip event.
func (p *parser) packageEnd(b *block, ln evidence.Span, ev event) {
	switch ev.Action {
	case "pass":
		b.status = "ok"
	case "fail":
		b.status = "FAIL"
	case "skip":
		b.status = "?"
	}
	if ev.FailedBuild != "" {
		b.buildKey = ev.FailedBuild
		if b.build == "" {
			b.build = "build failed"
		}
	}
	if b.span.IsZero() {
		b.span = ln
	}
	p.flushPartial(b)
	p.pkgLines++
	p.close(b)
}

// jsonText reads an output or bench event's text line by line. An Output may
// hold part of a line ("BenchmarkX-8 \t" then "1000\t 5 ns/op\n"): the
// part waits for the rest of its line.
func (p *parser) jsonText(b *block, ln evidence.Span, ev event) {
	text := ev.Output
	if prev, ok := b.partial[ev.Test]; ok {
		text = prev + text
		delete(b.partial, ev.Test)
	}
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		p.jsonOutput(b, ln, cleanLine(text[:i]), ev)
		text = text[i+1:]
	}
	if text != "" {
		if len(text) >= lines.Max {
			p.jsonOutput(b, ln, cleanLine(text), ev)
		} else {
			if b.partial == nil {
				b.partial = map[string]string{}
			}
			b.partial[ev.Test] = text
		}
	}
}

func (p *parser) jsonOutput(b *block, ln evidence.Span, s string, ev event) {
	if pl, ok := parsePkgLine(s); ok && pl.pkg == ev.Package && ev.Test == "" {
		p.applyPkgLine(b, ln, pl)
		return
	}
	p.blockLine(b, ln, s, ev.Test)
}

// flushPartial reads the unfinished lines of a -json block as whole lines.
func (p *parser) flushPartial(b *block) {
	keys := evidence.SortedKeys(b.partial)
	for _, k := range keys {
		end := evidence.Span{Stream: b.detail.Stream, From: b.detail.To, To: b.detail.To}
		p.jsonOutput(b, end, cleanLine(b.partial[k]), event{Package: b.pkg, Test: k})
	}
	b.partial = nil
}

// cleanLine removes colour and carriage-return overwrites from an Output line.
func cleanLine(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if strings.IndexByte(s, 0x1b) >= 0 || strings.IndexByte(s, '\r') >= 0 {
		s = string(lines.Clean([]byte(s)))
	}
	return s
}

// splitOutput cuts a build-output Output field into lines.
func splitOutput(out string) []string {
	parts := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, s := range parts {
		parts[i] = cleanLine(s)
	}
	return parts
}
