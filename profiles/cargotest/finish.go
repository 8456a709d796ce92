package cargotest

import (
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// finish pairs binaries with their output, settles each test's outcome
// against the binary's own report, and builds the graph.
func (p *parser) finish() *evidence.Graph {
	g := &evidence.Graph{Profile: Name, Version: Version, Tool: "cargo"}
	unpairedH, unpairedB := p.pair()
	size := len(p.diags) + len(p.builds) + len(p.reruns) + len(p.nx.tests) + 1
	for _, b := range p.blocks {
		size += len(b.tests) + 1
	}
	g.Items = make([]evidence.Item, 0, size)

	var (
		explicitFail bool // the output itself says something failed
		incomplete   []string
	)
	// A build or resolution error stopped the run.
	buildErr := p.addDiags(g)
	if len(p.builds) > 0 {
		buildErr = true
	}
	p.addBuilds(g)

	for _, b := range p.blocks {
		if b.result == nil {
			incomplete = append(incomplete, blockLabel(b))
		}
		if p.emitBlock(g, b) {
			explicitFail = true
		}
	}
	if p.addReruns(g, len(incomplete) > 0) {
		explicitFail = true
	}

	nxFail, nxDone := p.nx.emit(g, p)
	if nxFail {
		explicitFail = true
	}
	if p.nx.used {
		g.Tool = "cargo-nextest"
		if !nxDone {
			incomplete = append(incomplete, "nextest run")
		}
	}

	if p.dropped > 0 {
		g.Lose("item-cap", "kept %d tests and diagnostics; %d more were not itemised (the stream keeps them)", MaxItems, p.dropped)
	}
	if p.tooMany > 0 {
		g.Lose("item-cap", "tracked %d test binaries; %d more were not parsed", maxBinaries, p.tooMany)
	}
	if unpairedH > 0 && unpairedB == 0 && len(p.blocks) > 0 {
		incomplete = append(incomplete, plural(unpairedH, "announced test binary", "announced test binaries")+" with no output")
	} else if unpairedH > 0 || unpairedB > 0 && len(p.headers) > 0 {
		g.Lose("partial-parse", "could not pair %d test binaries with %d blocks of output; their package may be missing", unpairedH, unpairedB)
	}
	p.verdict(g, explicitFail, buildErr, incomplete)
	return g
}

// addDiags adds the compiler's diagnostics and reports whether any was an
// error.
func (p *parser) addDiags(g *evidence.Graph) (buildErr bool) {
	for _, d := range p.diags {
		it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: "cargo", File: d.file, Line: d.line, Col: d.col,
			Severity: d.sev, Code: d.code, Message: capText(d.msg),
			Span: evidence.Span{Stream: d.stream, From: d.from, To: max(d.from, d.locLine)}}
		if d.file != "" || d.code != "" {
			it.Tool = "rustc"
		}
		if d.to > it.Span.To {
			it.Detail = evidence.Span{Stream: d.stream, From: d.from, To: d.to}
		}
		g.Add(it)
		if d.sev == evidence.SeverityError {
			buildErr = true
		}
	}
	return buildErr
}

// addBuilds adds one build failure per crate; cargo reports each target
// that failed (lib, lib test) after the same errors.
func (p *parser) addBuilds(g *evidence.Graph) {
	byCrate := make(map[string]int) // crate → index in g.Items
	for _, b := range p.builds {
		if i, ok := byCrate[b.crate]; ok {
			it := &g.Items[i]
			switch {
			case b.target == "":
			case it.Attrs == nil:
				it.Attrs = map[string]string{"targets": b.target}
			default:
				it.Attrs["targets"] = capText(it.Attrs["targets"] + ", " + b.target)
			}
			continue
		}
		it := evidence.Item{Kind: evidence.KindTest, Package: b.crate, Name: "build", Outcome: evidence.OutcomeError,
			Class: "build", Message: b.message, Span: evidence.Span{Stream: b.stream, From: b.line, To: b.line}}
		if b.target != "" {
			it.Attrs = map[string]string{"targets": b.target}
		}
		for _, d := range p.diags[b.diagsFrom:b.diagsTo] {
			if d.sev != evidence.SeverityError {
				continue
			}
			it.File, it.Line, it.Col = d.file, d.line, d.col
			if d.stream == b.stream {
				it.Detail = evidence.Span{Stream: b.stream, From: d.from, To: b.line}
			}
			break
		}
		byCrate[b.crate] = len(g.Items)
		g.Add(it)
	}
}

// addReruns adds a diagnostic for each binary that ended without a result
// (cargo says why) and reports whether there was any such binary.
func (p *parser) addReruns(g *evidence.Graph, incomplete bool) (explicitFail bool) {
	for _, r := range p.reruns {
		explicitFail = true
		crashed := strings.Contains(r.cause, "signal")
		if !crashed && (r.cause == "" || !incomplete) {
			continue
		}
		msg := "test binary ended without a result (" + r.cause + ")"
		if crashed {
			msg = "test binary crashed (" + r.cause + ")"
		}
		if r.hint != "" {
			msg += "; to rerun pass " + r.hint
		}
		g.Add(evidence.Item{Kind: evidence.KindDiagnostic, Tool: "cargo", Severity: evidence.SeverityError,
			Code: "crash", Message: capText(msg), Span: evidence.Span{Stream: r.stream, From: r.line, To: max(r.line, r.to)}})
	}
	return explicitFail
}

// verdict settles the graph's verdict and notes what the output left
// unfinished.
func (p *parser) verdict(g *evidence.Graph, explicitFail, buildErr bool, incomplete []string) {
	anyResult := p.nx.summary != nil
	for _, b := range p.blocks {
		anyResult = anyResult || b.result != nil
	}
	killed := p.src.Exit() == 124 || p.src.Exit() >= 128
	switch {
	case explicitFail:
		g.Verdict = "fail"
	case buildErr:
		g.Verdict = "error"
	case len(incomplete) > 0:
	case !anyResult:
	case killed:
	case p.src.Exit() != 0:
		g.Lose("partial-parse", "exit status %d, yet every test result in the output passed", p.src.Exit())
	default:
		g.Verdict = "pass"
	}
	if len(incomplete) > 0 {
		g.Lose("partial-parse", "output ends before %s reported a result%s", strings.Join(capList(incomplete, 5), ", "), exitNote(p.src.Exit()))
	} else if killed && anyResult && g.Verdict == "" {
		g.Lose("partial-parse", "the run was stopped%s; binaries after the last result may be missing", exitNote(p.src.Exit()))
	}
}

func exitNote(exit int) string {
	switch {
	case exit == 124:
		return " (exit 124: timed out)"
	case exit >= 128:
		return " (exit " + itoa(exit) + ": killed by a signal)"
	}
	return ""
}

func capList(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	out := append([]string(nil), xs[:n]...)
	return append(out, "and "+itoa(len(xs)-n)+" more")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

func blockLabel(b *block) string {
	if b.hdr != nil {
		if b.hdr.target != "" {
			return b.hdr.target + " (" + b.hdr.pkg + ")"
		}
		return b.hdr.pkg
	}
	return "the test binary at " + b.stream + " line " + itoa(b.line)
}

// pair gives each block its binary header. Blocks whose stream announced
// the binary already have it; the rest (stdout blocks whose headers went to
// stderr) are paired in order. A doc-test header may own several blocks
// (merged and standalone doc-tests): it takes further blocks until
// `all doctests ran` closes the group, while more blocks than headers remain
// and the doc-tests sit in the same crate directory. It returns how many
// headers and blocks stayed unpaired.
func (p *parser) pair() (unpairedH, unpairedB int) {
	var free []*header
	for _, h := range p.headers {
		if !h.used {
			free = append(free, h)
		}
	}
	var orphans []*block
	for _, b := range p.blocks {
		if b.hdr == nil {
			orphans = append(orphans, b)
		}
	}
	i := 0
	for hi, h := range free {
		if i >= len(orphans) {
			unpairedH = len(free) - hi
			break
		}
		b := orphans[i]
		b.hdr, h.used = h, true
		i++
		if !h.doc {
			continue
		}
		left := len(free) - hi - 1
		first := docDir(b)
		for i < len(orphans) && !b.docEnd && len(orphans)-i > left {
			nb := orphans[i]
			if d := docDir(nb); d != "" && first != "" && d != first {
				break
			}
			nb.hdr = h
			b = nb
			i++
		}
	}
	if len(free) > 0 {
		unpairedB = len(orphans) - i
	}
	return unpairedH, unpairedB
}

// docDir is the crate directory of a block's doc-tests ("" for the root
// crate's "src/lib.rs - f (line 3)", "util_b/" for a workspace member), or ""
// when the block holds no doc-test names.
func docDir(b *block) string {
	for _, t := range b.tests {
		if f, _, ok := docLocation(t.name); ok {
			if i := strings.LastIndex(f, "src/"); i >= 0 {
				return "dir:" + f[:i]
			}
			return "dir:" + f
		}
	}
	return ""
}

// emitBlock settles a binary's tests and adds them with its summary. It
// reports whether the block shows a failure.
func (p *parser) emitBlock(g *evidence.Graph, b *block) bool {
	pkg := ""
	if b.hdr != nil {
		pkg = b.hdr.pkg
	}
	failed := b.result != nil && !b.result.ok
	// Which tests failed: the `failures:` list is the authority; a result
	// with zero failures means none did; otherwise the FAILED lines stand.
	var authority map[string]bool
	switch {
	case b.hasList:
		authority = make(map[string]bool, len(b.failList))
		for _, n := range b.failList {
			authority[n] = true
		}
	case b.result != nil && b.result.counts["failed"] == 0:
		authority = map[string]bool{}
	}
	for _, t := range b.tests {
		fail := t.fail
		if authority != nil {
			fail = authority[t.name]
		}
		var out evidence.Outcome
		inferred := false
		switch {
		case fail:
			out = evidence.OutcomeFail
		case t.pass:
			out = evidence.OutcomePass
		case t.skip:
			out = evidence.OutcomeSkip
		case t.slow && b.result == nil:
			// Still running when the output ended: a hang, not a failure
			// the output reports.
			out, inferred = evidence.OutcomeFail, true
			t.pi = panicInfo{class: "timeout", message: "still running when the output ended (reported running for over 60 seconds)"}
		case b.result != nil && !t.fail && t.detail.IsZero():
			out = evidence.OutcomePass // quiet mode: named only by a slow warning
		default:
			continue // only captured output claimed it failed
		}
		it := evidence.Item{Kind: evidence.KindTest, Package: pkg, Name: t.name, Outcome: out}
		line := t.line
		if out == evidence.OutcomeFail {
			failed = failed || !inferred
			if t.fail0 > 0 {
				line = t.fail0
			}
			pi := t.pi
			if sp, ok := p.panics[t.name]; ok {
				pi = mergePanic(pi, sp)
			}
			if f, l, ok := docLocation(t.name); ok && (pi.file == "" || isAbs(pi.file)) {
				pi.file, pi.line, pi.col = f, l, 0
			}
			if pi.class == "" || pi.class == "doctest" {
				if pi.class == "" {
					pi.class = "fail"
				}
			}
			it.Class, it.Message, it.File, it.Line, it.Col = pi.class, pi.message, pi.file, pi.line, pi.col
			if len(pi.attrs) > 0 {
				it.Attrs = pi.attrs
			}
			it.Detail = t.detail
		}
		if line == 0 {
			line = b.line
		}
		it.Span = evidence.Span{Stream: b.stream, From: line, To: line}
		g.Add(it)
	}
	// Names on the failures list that no line named (cannot happen with
	// libtest's own output, but keeps the list's promise).
	if b.hasList {
		for _, n := range b.failList {
			if _, ok := b.byName[n]; !ok {
				g.Add(evidence.Item{Kind: evidence.KindTest, Package: pkg, Name: n, Outcome: evidence.OutcomeFail,
					Class: "fail", Span: evidence.Span{Stream: b.stream, From: b.line, To: b.line}})
				failed = true
			}
		}
	}
	if b.result != nil {
		it := evidence.Item{Kind: evidence.KindSummary, Tool: "cargo", Package: pkg, Counts: b.result.counts,
			Span:   evidence.Span{Stream: b.stream, From: b.result.line, To: b.result.line},
			Detail: evidence.Span{Stream: b.stream, From: b.line, To: b.result.line}}
		if b.hdr != nil {
			it.Name = b.hdr.target
		}
		g.Add(it)
	}
	return failed
}

// mergePanic fills what a failure block left out (under --nocapture the
// panic itself went to stderr) from a stray panic of the same thread.
func mergePanic(pi, stray panicInfo) panicInfo {
	if pi.class == "" {
		pi.class = stray.class
	}
	if pi.message == "" {
		pi.message = stray.message
	}
	if pi.file == "" {
		pi.file, pi.line, pi.col = stray.file, stray.line, stray.col
	}
	for k, v := range stray.attrs {
		pi.set(k, v)
	}
	return pi
}

func isAbs(f string) bool {
	return strings.HasPrefix(f, "/") || len(f) > 2 && f[1] == ':' && (f[2] == '\\' || f[2] == '/')
}

func itoa(n int) string { return strconv.Itoa(n) }
