package gotest

import (
	"cmp"
	"slices"
	"sort"
	"strconv"

	"github.com/ctxhq/ctx/evidence"
)

// finish handles the end of the output: blocks still open are either the
// verdict of a test binary run directly, a trailing overall line, or a run
// cut short.
func (p *parser) finish() {
	for _, st := range p.streams {
		b := p.pending[st]
		if b == nil {
			continue
		}
		p.closePending(st)
		if b.tr != nil {
			p.endTrace(b)
		}
		switch {
		case p.pkgLines == 0 && b.bare != "" && !p.goCommand:
			// A test binary run directly ends with its own PASS or FAIL (the
			// go command would have printed a package line after it).
			b.status = "ok"
			if b.bare == "FAIL" {
				b.status = "FAIL"
			}
			b.span = b.bareSpan
			p.close(b)
		case b.structural == 0:
			if b.bare != "" {
				p.overall = b.bareSpan
			}
		default:
			p.truncate(b)
		}
	}
	for _, b := range p.jsonOrder {
		if !b.closed {
			p.truncate(b)
			continue
		}
		p.keepBlock(b)
	}
}

func (p *parser) truncate(b *block) {
	if b.tr != nil {
		p.endTrace(b)
	}
	b.truncated = true
	p.settle(b)
	name := b.pkg
	if name == "" {
		name = "(unnamed)"
	}
	if len(p.truncated) < 10 {
		p.truncated = append(p.truncated, name)
	}
	p.keepBlock(b)
}

func summaryKey(pkg, name string) string {
	it := evidence.Item{Kind: evidence.KindSummary, Tool: Tool, Package: pkg, Name: name}
	return it.Key()
}

// graph assembles the items: per package its diagnostics, its tests and its
// summary; then diagnostics no package claimed; then the overall summary.
func (p *parser) graph(exit int) *evidence.Graph {
	p.finish()
	size := len(p.goDiags) + p.diagsKept + 1
	for _, b := range p.blocks {
		size += len(b.list) + 1
	}
	g := &evidence.Graph{Profile: Name, Version: Version, Tool: Tool, Items: make([]evidence.Item, 0, size)}

	byPkg := map[string][]*group{}
	for _, gr := range p.groups {
		byPkg[gr.pkg] = append(byPkg[gr.pkg], gr)
	}
	claims := map[*block][]*group{}
	for _, b := range p.blocks {
		if b.build == "" || b.truncated {
			continue
		}
		var found []*group
		if b.buildKey != "" {
			if gr := p.groupByKey[b.buildKey]; gr != nil {
				found = append(found, gr)
			}
		}
		if len(found) == 0 {
			found = append(found, byPkg[b.pkg]...)
		}
		for _, gr := range found {
			gr.claims = append(gr.claims, b)
		}
		claims[b] = found
	}

	sums := 0
	total := map[string]int{}
	for _, b := range p.blocks {
		var sum evidence.Item
		if !b.truncated {
			sum = p.summary(b, claims[b])
		}
		for _, gr := range claims[b] {
			p.emitGroup(g, gr)
		}
		p.emitTests(g, b)
		if b.truncated {
			continue
		}
		g.Add(sum)
		sums++
		for k, v := range sum.Counts {
			total[k] += v
		}
		switch sum.Attrs["status"] {
		case "ok":
			total["packages_ok"]++
		case "no test files":
			total["packages_no_test_files"]++
		default:
			total["packages_failed"]++
		}
	}
	orphanErrors := 0
	for _, gr := range p.groups {
		if gr.emitted || len(gr.diags) == 0 {
			continue
		}
		// Build output no package line claimed: keep located diagnostics (and
		// everything -json marked as build output).
		n := p.emitGroup(g, gr)
		orphanErrors += n
	}
	goErrors := 0
	for _, d := range p.goDiags {
		// A go command error stops the run before any package reports; once
		// packages report, such lines are read as notes on the run.
		if d.severity == evidence.SeverityError && p.pkgLines == 0 {
			goErrors++
		}
		g.Add(diagItem(d))
	}
	if sums >= 2 {
		total["packages"] = sums
		delete(total, "no_test_files")
		it := evidence.Item{Kind: evidence.KindSummary, Tool: Tool, Name: "total", Counts: nonzero(total), Span: p.overall}
		g.Add(it)
	}

	p.verdict(g, exit, orphanErrors+goErrors)
	p.losses(g)
	return g
}

// emitGroup adds a build group's diagnostics, related to every package that
// failed with them. It returns how many errors it added.
func (p *parser) emitGroup(g *evidence.Graph, gr *group) int {
	if gr.emitted {
		return 0
	}
	gr.emitted = true
	// Every diagnostic is part of each package that failed with it; blocks
	// of one package (a package built in each of many runs) name the same
	// summary, related once.
	var rels []evidence.Relation
	seen := map[string]bool{}
	for _, b := range gr.claims {
		if to := summaryKey(b.pkg, ""); !seen[to] {
			seen[to] = true
			rels = append(rels, evidence.Relation{Type: "part-of", To: to})
		}
	}
	n := 0
	for _, d := range gr.diags {
		if len(gr.claims) == 0 && !d.located && !gr.json {
			continue
		}
		it := diagItem(d)
		it.Rel = slices.Clone(rels)
		if d.severity == evidence.SeverityError {
			n++
		}
		g.Add(it)
	}
	return n
}

func diagItem(d *diag) evidence.Item {
	it := evidence.Item{Kind: evidence.KindDiagnostic, Tool: d.tool, Package: d.pkg, File: d.file, Line: d.line, Col: d.col,
		Severity: d.severity, Message: d.msg, Span: d.span}
	if d.detail.Lines() > 1 {
		it.Detail = d.detail
	}
	return it
}

// emitTests adds a block's kept tests in the order they started.
func (p *parser) emitTests(g *evidence.Graph, b *block) {
	list := b.list
	if !slices.IsSortedFunc(list, func(a, b *rec) int { return cmp.Compare(a.seq, b.seq) }) {
		sort.SliceStable(list, func(i, j int) bool { return list[i].seq < list[j].seq })
	}
	// The runs of each name (under -count a name runs several times): the
	// index in list of its last run, and of each run the one before, -1
	// for none.
	lastRun := make(map[string]int, len(list))
	prevRun := make([]int, len(list))
	for i, r := range list {
		prevRun[i] = -1
		if j, ok := lastRun[r.name]; ok {
			prevRun[i] = j
		}
		lastRun[r.name] = i
	}
	// parentOf is the nearest kept ancestor that started before r.
	parentOf := func(r *rec) *rec {
		for name := parentName(r.name); name != ""; name = parentName(name) {
			j, ok := lastRun[name]
			for ; ok && j >= 0; j = prevRun[j] {
				if list[j].seq < r.seq {
					return list[j]
				}
			}
		}
		return nil
	}
	parents := make([]*rec, len(list))
	failedSubs := map[*rec]int{}
	for i := len(list) - 1; i >= 0; i-- {
		r := list[i]
		if a := parentOf(r); a != nil {
			parents[i] = a
			if r.outcome == evidence.OutcomeFail {
				failedSubs[a]++
			}
			if a.outcome == evidence.OutcomeFail && r.outcome == evidence.OutcomeFail {
				extend(&a.detail, r.detail)
			}
		}
	}
	parentKeys := map[*rec]string{}                         // a parent's item key, built once for its subtests
	rels := make([]evidence.Relation, 0, subtests(parents)) // the subtests' part-of relations, allocated together
	for i, r := range list {
		// Filled in place: copying each 400-byte item into the graph
		// showed in a large run's profile.
		it := newItem(g)
		it.Kind, it.Tool, it.Package, it.Name, it.Outcome = evidence.KindTest, Tool, b.pkg, r.name, r.outcome
		it.Span, it.Detail = r.span, r.detail
		x := r.about()
		if r.interleaved && !x.msgRun.IsZero() {
			// Its output block covers parallel siblings' lines: point at
			// the run of its own lines that holds the failure instead.
			it.Detail = x.msgRun
		}
		if it.Span.IsZero() {
			it.Span = evidence.Span{Stream: r.detail.Stream, From: r.detail.From, To: r.detail.From}
		}
		switch r.outcome {
		case evidence.OutcomeFail:
			it.Class, it.Message, it.File, it.Line, it.Why = x.class, x.msg, x.file, x.line, x.why
		case evidence.OutcomeSkip:
			if x.logged {
				it.Message, it.File, it.Line = x.msg, x.file, x.line
			}
		}
		subs := 0
		if len(failedSubs) > 0 {
			subs = failedSubs[r]
		}
		it.Attrs = testAttrs(r, subs)
		if a := parents[i]; a != nil {
			key, ok := parentKeys[a]
			if !ok {
				pk := evidence.Item{Kind: evidence.KindTest, Package: b.pkg, Name: a.name}
				key = pk.Key()
				parentKeys[a] = key
			}
			rels = append(rels, evidence.Relation{Type: "part-of", To: key})
			it.Rel = rels[len(rels)-1 : len(rels) : len(rels)]
		}
	}
}

// newItem appends a zero item to g's and returns it. graph makes the
// items with room for all and nothing shortens them, so the room is zero.
func newItem(g *evidence.Graph) *evidence.Item {
	if n := len(g.Items); n < cap(g.Items) {
		g.Items = g.Items[:n+1]
		return &g.Items[n]
	}
	return g.Add(evidence.Item{})
}

// subtests counts the records with a kept parent.
func subtests(parents []*rec) int {
	n := 0
	for _, a := range parents {
		if a != nil {
			n++
		}
	}
	return n
}

// testAttrs are a test item's attributes, nil when it has none (most
// tests: a map each would be most of a large run's garbage).
func testAttrs(r *rec, failedSubs int) map[string]string {
	x := r.about()
	if r.kind == kindTest && len(x.metrics) == 0 && x.runs <= 1 && failedSubs == 0 {
		return nil
	}
	attrs := map[string]string{}
	if r.kind != kindTest {
		attrs["kind"] = r.kind.String()
	}
	for k, v := range x.metrics {
		attrs[k] = v
	}
	if x.runs > 1 {
		attrs["runs"] = strconv.Itoa(x.runs)
	}
	if failedSubs > 0 {
		attrs["failed_subtests"] = strconv.Itoa(failedSubs)
	}
	if len(attrs) == 0 {
		return nil
	}
	return attrs
}

// classRank orders failure classes, most telling first.
var classRank = map[string]int{"build": 6, "panic": 5, "timeout": 4, "race": 3, "exit": 2, "fail": 1}

// summary builds a package's summary item.
func (p *parser) summary(b *block, groups []*group) evidence.Item {
	it := evidence.Item{Kind: evidence.KindSummary, Tool: Tool, Package: b.pkg, Span: b.span, Detail: b.detail}
	counts := map[string]int{}
	b.counts.copyTo(counts)
	attrs := map[string]string{}
	switch {
	case b.status == "ok":
		it.Outcome = evidence.OutcomePass
		attrs["status"] = "ok"
	case b.status == "?":
		it.Outcome = evidence.OutcomeSkip
		attrs["status"] = "no test files"
		counts["no_test_files"] = 1
	case b.build != "":
		it.Outcome = evidence.OutcomeFail
		it.Class = "build"
		attrs["status"] = b.build
		if b.build == "setup failed" {
			counts["setup_failed"] = 1
		} else {
			counts["build_failed"] = 1
		}
		for _, gr := range groups {
			if !gr.span.IsZero() {
				it.Detail = gr.span
				break
			}
		}
		for _, gr := range groups {
			if len(gr.diags) > 0 {
				d := gr.diags[0]
				it.Message, it.File, it.Line, it.Col = d.msg, d.file, d.line, d.col
				break
			}
		}
	default:
		it.Outcome = evidence.OutcomeFail
		attrs["status"] = "FAIL"
		it.Class = "fail"
		if len(b.traces) > 0 {
			t := b.traces[0]
			it.Class = t.kind
			it.Message = t.msg
			it.File, it.Line = t.locate("")
		} else {
			best := 0
			for _, r := range b.list {
				if c := r.about().class; r.outcome == evidence.OutcomeFail && classRank[c] > best {
					best = classRank[c]
					it.Class = c
				}
			}
			if best == 0 && b.race != nil {
				it.Class = "race"
				it.Message = "race detected during execution of test"
				it.File, it.Line = b.race.locate("")
			}
			if best == 0 && it.Message == "" && b.exit != "" {
				it.Class, it.Message = "exit", b.exit
			}
			if best == 0 && it.Message == "" && b.stray != "" {
				// No test failed, yet the package did: TestMain (or init)
				// exited, and what it printed last says why.
				it.Class, it.Message = "exit", b.stray
				if !b.straySpan.IsZero() {
					extend(&it.Detail, b.straySpan)
				}
			}
		}
	}
	if b.status != "?" && b.build == "" {
		if b.cached {
			attrs["cached"] = "true"
		}
		if b.coverage != "" {
			attrs["coverage"] = b.coverage
		}
		if b.noTests {
			attrs["no_tests_to_run"] = "true"
		}
		if !b.verbose && (b.status == "ok" || len(b.list) > 0) {
			attrs["listing"] = "failures-only"
		}
		if b.exit != "" {
			attrs["exit"] = b.exit
		}
	}
	if b.pkg == "" {
		attrs["binary"] = "true"
	}
	it.Counts = nonzero(counts)
	it.Attrs = attrs
	return it
}

func nonzero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// verdict states what the output says: "fail" when a test or package run
// failed, "error" when only builds, setup or the go command failed, "pass"
// when every package passed and the exit status agrees, "" otherwise.
func (p *parser) verdict(g *evidence.Graph, exit, otherErrors int) {
	closed := p.okPkgs + p.noTestPkgs + p.runFails + p.buildFails
	switch {
	case p.runFails > 0 || p.failKept > 0 || p.failedTests > 0:
		g.Verdict = "fail"
	case p.buildFails > 0 || otherErrors > 0:
		g.Verdict = "error"
	case len(p.truncated) > 0:
	case closed > 0 && exit == 0:
		g.Verdict = "pass"
	case closed > 0:
		g.Lose("partial-parse", "the output reports every package passing but the exit status is %d", exit)
	default:
		g.Lose("partial-parse", "the output has no package result line")
	}
}

func (p *parser) losses(g *evidence.Graph) {
	if len(p.truncated) > 0 {
		g.Lose("partial-parse", "output ends before the result of package %s: the run was cut short", joinNames(p.truncated))
	}
	if p.unfinished > 0 {
		g.Lose("partial-parse", "%d tests started without reporting a result before the output ends", p.unfinished)
	}
	if p.fakes > 0 {
		g.Lose("partial-parse", "%d failure lines inside passing packages were read as test output", p.fakes)
	}
	if p.badJSON > 0 {
		g.Lose("partial-parse", "%d -json lines could not be decoded", p.badJSON)
	}
	if p.cutNames > 0 {
		g.Lose("partial-parse", "%d names longer than %d bytes were cut", p.cutNames, maxName)
	}
	if p.capped > 0 || p.untracked > 0 {
		g.Lose("item-cap", "%d tests beyond the cap of %d per outcome were counted, not itemised", p.capped+p.untracked, MaxTests)
	}
	if p.diagsCapped > 0 {
		g.Lose("item-cap", "%d diagnostics beyond the cap of %d were not itemised", p.diagsCapped, MaxDiags)
	}
	if p.pkgsCapped > 0 {
		g.Lose("item-cap", "%d packages beyond the cap of %d were not itemised", p.pkgsCapped, MaxPkgs)
	}
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
