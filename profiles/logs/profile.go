package logs

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// Profile name and version. The logs profile groups lines by template and
// surfaces what a reader of a flood must not miss: lines at an error level, and
// lines whose template is rare among many busy ones (the needle).
const (
	Name    = "logs"
	Version = 1
)

// Profile is the logs profile.
var Profile = evidence.Profile{
	Name:    Name,
	Version: Version,
	Argv:    argvIsLogs,
	Content: contentIsLogs,
	Parse:   Parse,
}

// Limits on what one graph holds.
const (
	// maxTemplateItems bounds template items; the rest are counted.
	maxTemplateItems = 500
	// maxRare bounds rare-template anomalies. Past it the log is too diverse
	// for rarity to mean anything, and none are reported as anomalies (every
	// template is still an item or counted).
	maxRare = 25
	// minLinesForRarity: in a short log every template is rare.
	minLinesForRarity = 200
	textCap           = 512
)

func argvIsLogs(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch cmdline.Program(argv[0]) {
	case "journalctl", "dmesg":
		return true
	case "docker", "kubectl", "podman", "oc":
		if slices.Contains(argv[1:], "logs") {
			return true
		}
	case "tail", "cat", "zcat", "less", "head":
		for _, a := range argv[1:] {
			if strings.HasSuffix(a, ".log") || strings.Contains(a, "/log/") || strings.HasSuffix(a, ".log.1") {
				return true
			}
		}
	}
	return false
}

var timestampRE = lines.Lazy(`(^|[\s\[])(\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d|\d{2}/\w{3}/\d{4}|\w{3} [ \d]\d \d\d:|\d{10}(\.\d+)?\b|\d{6} \d{6})`)

// contentIsLogs: most of the first lines carry a timestamp near their start.
func contentIsLogs(src *evidence.Source) bool {
	for _, st := range src.Streams {
		if st.Lines() < 20 {
			continue
		}
		n, hits := 0, 0
		for _, line := range bytes.Split(st.Head(), []byte{'\n'}) {
			if n == 100 {
				break
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			n++
			head := lines.Clean(line)
			if len(head) > 48 {
				head = head[:48]
			}
			if timestampRE.Match(head) {
				hits++
			}
		}
		if n >= 20 && hits*10 >= n*7 {
			return true
		}
	}
	return false
}

// level returns "error", "warning" or "" for a cleaned line, looking only at
// its first 100 bytes (where log headers put the level): the first level
// word there, at the line's start or after a blank or one of "[<(|:", and
// before a blank, one of "]>):|," or the end of those bytes. An error word
// and a warning word cannot both fit at one place, so the first place
// with either decides. It answers as the pattern levelRE of its tests
// does (TestLevelMatchesPattern, FuzzLevel), by hand: the pattern's
// backtracking was three quarters of the profile's time.
func level(line []byte) string {
	if len(line) > maxLevelBytes {
		line = line[:maxLevelBytes]
	}
	after := true // whether a level word may start at p: the line starts, or one may come after line[p-1]
	for p := 0; p < len(line); p++ {
		c := levelClass[line[p]]
		if after && c&levelFirst != 0 {
			if l := levelAt(line, p); l != "" {
				return l
			}
		}
		after = c&levelBefore != 0
	}
	return ""
}

// maxLevelBytes is how much of a line's start level looks at.
const maxLevelBytes = 100

// lineFacts returns level(line) and levelWhy of it from the words the
// tokenizer recorded as it split line (tokenizer.split), without walking
// line's bytes again. It answers only when the miner's last template was
// of line itself (id, what Add returned for line, is no provisional id of
// a sampled line, and the tokenizer made one template since it had made
// before) and the tokenizer's cleaned line matches line byte for
// byte in its words and its other bytes' classes: no escape sequence
// dropped, no CR (lines.Clean would then return line as it is, and the
// control bytes mapped to spaces are, like spaces, no word bytes), nothing
// cut. ok is false otherwise, and the caller asks level and levelWhy.
//
// A level word starts a word: its first byte is a letter, and the byte
// before it (levelBefore) is none of failure's word bytes. The words
// starting in the first maxLevelBytes bytes are fewer than maxLineWords,
// so all of them are recorded.
func (t *tokenizer) lineFacts(line []byte, id, before int) (lvl, why string, ok bool) {
	if id < OverflowID || t.templates != before+1 || t.truncated || t.folded || len(t.buf) != len(line) {
		return "", "", false
	}
	words := t.words[:t.nwords]
	lim := line[:min(len(line), maxLevelBytes)]
	for _, w := range words {
		p := int(w[0])
		if p >= len(lim) {
			break
		}
		if levelClass[line[p]]&levelFirst != 0 && (p == 0 || levelClass[line[p-1]]&levelBefore != 0) {
			if lvl = levelAt(lim, p); lvl != "" {
				break
			}
		}
	}
	if lvl == "error" {
		return lvl, WhyErrorLevel, true
	}
	pi, pj := -1, -1
	f := failureFilters()
	for _, w := range words[:min(len(words), maxFailureWords)] {
		i, j := int(w[0]), int(w[1])
		// Before mayFail, what it needs at the least: a first byte a
		// failure word or pair's second word of this length may start
		// with, or an "o" before the end, or a "!" after it.
		if n := j - i; n <= maxPairWord && (f.words.first[n]|f.seconds.first[n])>>(line[i]&31)&1 != 0 ||
			n >= 6 && line[j-2] == 'o' || j < len(line) && line[j] == '!' {
			if f.mayFail(line, i, j, pi, pj) && failureAt(line, i, j, pi, pj) {
				return lvl, WhyFailure, true
			}
		}
		pi, pj = prevWord(i, j)
	}
	return lvl, "", true
}

// Level words, in the order the pattern tries them.
var (
	errorLevels   = [...]string{"ERROR", "ERR", "FATAL", "CRITICAL", "CRIT", "SEVERE", "PANIC", "EMERG", "ALERT", "error", "fatal", "critical", "panic"}
	warningLevels = [...]string{"WARN", "WARNING", "warn", "warning"}
)

// levelAt returns the level of the level word at line[p], if one is there
// and a byte that may end it follows (or the end).
func levelAt(line []byte, p int) string {
	for _, w := range levelWords[line[p]] {
		if levelWordAt(line, p, w.word) {
			return w.level
		}
	}
	return ""
}

// levelWords lists the level words by their first byte, the error words
// first.
var levelWords = func() (t [256][]struct{ word, level string }) {
	for _, w := range errorLevels {
		t[w[0]] = append(t[w[0]], struct{ word, level string }{w, "error"})
	}
	for _, w := range warningLevels {
		t[w[0]] = append(t[w[0]], struct{ word, level string }{w, "warning"})
	}
	return t
}()

func levelWordAt(line []byte, p int, w string) bool {
	e := p + len(w)
	return e <= len(line) && string(line[p:e]) == w && (e == len(line) || levelClass[line[e]]&levelAfter != 0)
}

// Classes of bytes for level: what may come before a level word, after
// one, and start one.
const (
	levelBefore = 1 << iota
	levelAfter
	levelFirst
)

var levelClass = func() (t [256]uint8) {
	for _, c := range []byte("\t\n\f\r ") { // the pattern's \s
		t[c] |= levelBefore | levelAfter
	}
	for _, c := range []byte("[<(|:") {
		t[c] |= levelBefore
	}
	for _, c := range []byte("]>):|,") {
		t[c] |= levelAfter
	}
	for c, ws := range levelWords {
		if len(ws) > 0 {
			t[c] |= levelFirst
		}
	}
	return t
}()

type tmplInfo struct {
	firstText string
	errFirst  int
	errText   string
	errCount  int
	warnCount int
	// lines phrased as a failure, at no error level
	failFirst int
	failText  string
	failCount int
}

// maxOverflowItems bounds the anomalies reported for lines past the
// template cap; the rest are counted.
const maxOverflowItems = 100

// Parse mines every line of each stream.
func Parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	g := &evidence.Graph{Profile: Name, Version: Version, Tool: "logs"}
	for _, st := range src.Streams {
		if len(st.Head()) == 0 { // empty (Size would wait for the end of a running capture)
			continue
		}
		if err := parseStream(ctx, g, st); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func parseStream(ctx context.Context, g *evidence.Graph, st evidence.Stream) error {
	r, err := st.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	sc := &streamScan{stream: st.Name, m: NewMiner(Options{})}
	if err := lines.Scan(ctx, r, sc.line); err != nil {
		return err
	}
	tmpls := sc.m.Templates()
	sc.foldMerged()
	total := sc.m.Lines()
	singletons := 0
	for _, t := range tmpls {
		if t.Count == 1 {
			singletons++
		}
	}
	sc.addTemplates(g, tmpls, rarityApplies(total, tmpls))
	for _, it := range sc.overflowItems {
		g.Add(it)
	}
	if sc.overflowDropped > 0 {
		g.Lose("item-cap", "%s: %d more anomalous lines past the template cap beyond the first %d", st.Name, sc.overflowDropped, maxOverflowItems)
	}
	if len(tmpls) > maxTemplateItems {
		g.Lose("item-cap", "%s: %d templates; the %d after the first %d are counted, not listed", st.Name, len(tmpls), len(tmpls)-maxTemplateItems, maxTemplateItems)
	}
	if sc.m.Overflow() > 0 {
		g.Lose("item-cap", "%s: the template cap was reached; %d lines were templated as overflow (each still checked for error levels and failures)", st.Name, sc.m.Overflow())
	}
	if total >= minLinesForRarity && singletons > maxRare {
		g.Lose("too-diverse", "%s: %d templates occur once; rarity is not reported for so diverse a log", st.Name, singletons)
	}
	counts := map[string]int{"lines": total, "templates": len(tmpls)}
	if sc.errLines > 0 {
		counts["error_lines"] = sc.errLines
	}
	if sc.warnLines > 0 {
		counts["warning_lines"] = sc.warnLines
	}
	if sc.failLines > 0 {
		counts["failure_lines"] = sc.failLines
	}
	if sc.m.Overflow() > 0 {
		counts["overflow_lines"] = sc.m.Overflow()
	}
	g.Add(evidence.Item{Kind: evidence.KindSummary, Tool: "logs", Package: st.Name, Counts: counts})
	return nil
}

// streamScan gathers one stream's templates and per-group facts.
type streamScan struct {
	stream                         string
	m                              *Miner
	info                           infoTable
	errLines, warnLines, failLines int
	overflowItems                  []evidence.Item
	overflowDropped                int
}

// line templates one line and records its level and failure facts.
func (sc *streamScan) line(n int, line []byte, long bool) error {
	before := sc.m.tok.templates
	id := sc.m.Add(line)
	lvl, why, ok := sc.m.tok.lineFacts(line, id, before)
	if !ok {
		clean := lines.Clean(line)
		lvl = level(clean)
		why = levelWhy(lvl, clean)
	}
	switch {
	case lvl == "error":
		sc.errLines++
	case lvl == "warning":
		sc.warnLines++
	}
	if why == WhyFailure {
		sc.failLines++
	}
	if id == OverflowID {
		sc.overflow(n, line, why)
		return nil
	}
	slot := sc.info.at(id)
	in := *slot
	if in == nil {
		in = &tmplInfo{firstText: clipText(line)}
		*slot = in
	}
	switch {
	case lvl == "error":
		in.errCount++
		if in.errFirst == 0 {
			in.errFirst, in.errText = n, clipText(line)
		}
	case lvl == "warning":
		in.warnCount++
	}
	if why == WhyFailure {
		in.failCount++
		if in.failFirst == 0 {
			in.failFirst, in.failText = n, clipText(line)
		}
	}
	return nil
}

// overflow reports a line past the template cap: it has no group, but it
// is still checked, and reported on its own.
func (sc *streamScan) overflow(n int, line []byte, why string) {
	if why == "" {
		return
	}
	if len(sc.overflowItems) == maxOverflowItems {
		sc.overflowDropped++
		return
	}
	sev := evidence.SeverityError
	if why == WhyFailure {
		sev = evidence.SeverityWarning
	}
	sc.overflowItems = append(sc.overflowItems, evidence.Item{Kind: evidence.KindAnomaly, Why: why, Line: n,
		Text: clipText(line), Count: 1, Severity: sev, Span: evidence.Span{Stream: sc.stream, From: n, To: n}})
}

// foldMerged folds the per-group facts of merged groups into their
// representatives.
func (sc *streamScan) foldMerged() {
	var merged []int // in increasing order, as the ids were sorted
	sc.info.each(func(id int, _ *tmplInfo) {
		if sc.m.Resolve(id) != id {
			merged = append(merged, id)
		}
	})
	for _, id := range merged {
		in := *sc.info.at(id)
		slot := sc.info.at(sc.m.Resolve(id))
		rep := *slot
		if rep == nil {
			// Its group got no line of its own: lines given a provisional
			// id while the miner sampled, or a group merged into one that
			// came later.
			c := *in
			*slot = &c
			continue
		}
		rep.errCount += in.errCount
		rep.warnCount += in.warnCount
		if in.errFirst > 0 && (rep.errFirst == 0 || in.errFirst < rep.errFirst) {
			rep.errFirst, rep.errText = in.errFirst, in.errText
		}
		rep.failCount += in.failCount
		if in.failFirst > 0 && (rep.failFirst == 0 || in.failFirst < rep.failFirst) {
			rep.failFirst, rep.failText = in.failFirst, in.failText
		}
	}
}

// infoTable holds the per-group facts by group id: a slice, not a map,
// as the ids are dense (a lookup per line). Provisional ids (the sample's
// lines, below OverflowID) are kept apart.
type infoTable struct {
	groups []*tmplInfo // by id
	prov   []*tmplInfo // by sample line: provisional(i) at i
	over   *tmplInfo   // OverflowID's, which no template reads
}

// at returns the slot of id's facts, growing the table to hold it.
func (t *infoTable) at(id int) **tmplInfo {
	if id == OverflowID {
		return &t.over
	}
	tab, i := &t.groups, id
	if id < 0 {
		tab, i = &t.prov, OverflowID-1-id
	}
	for len(*tab) <= i {
		*tab = append(*tab, nil)
	}
	return &(*tab)[i]
}

// each calls fn for every id with facts, in increasing order of id.
func (t *infoTable) each(fn func(id int, in *tmplInfo)) {
	for i := len(t.prov) - 1; i >= 0; i-- {
		if t.prov[i] != nil {
			fn(provisional(i), t.prov[i])
		}
	}
	for id, in := range t.groups {
		if in != nil {
			fn(id, in)
		}
	}
}

// addTemplates adds each template and its anomalies: rare lines, error
// levels and failures.
func (sc *streamScan) addTemplates(g *evidence.Graph, tmpls []Template, rarity bool) {
	st := sc.stream
	for i, t := range tmpls {
		in := *sc.info.at(t.ID)
		if in == nil {
			continue
		}
		span := evidence.Span{Stream: st, From: t.FirstLine, To: t.FirstLine}
		if i < maxTemplateItems {
			g.Add(evidence.Item{Kind: evidence.KindTemplate, Template: t.Text, Count: t.Count, FirstLine: t.FirstLine, Span: span})
		}
		if rarity && t.Count == 1 && in.errCount == 0 && in.failCount == 0 {
			g.Add(evidence.Item{Kind: evidence.KindAnomaly, Why: WhyRare, Line: t.FirstLine, Text: in.firstText,
				Count: 1, Severity: evidence.SeverityInfo, Span: span})
		}
		if in.errCount > 0 {
			g.Add(evidence.Item{Kind: evidence.KindAnomaly, Why: WhyErrorLevel, Line: in.errFirst, Text: in.errText,
				Count: in.errCount, Severity: evidence.SeverityError,
				Span: evidence.Span{Stream: st, From: in.errFirst, To: in.errFirst}})
		}
		if in.failCount > 0 && (in.errCount == 0 || in.failFirst != in.errFirst) {
			g.Add(evidence.Item{Kind: evidence.KindAnomaly, Why: WhyFailure, Line: in.failFirst, Text: in.failText,
				Count: in.failCount, Severity: evidence.SeverityWarning,
				Span: evidence.Span{Stream: st, From: in.failFirst, To: in.failFirst}})
		}
	}
}

func clipText(line []byte) string {
	c := lines.Clean(line)
	if len(c) > textCap {
		c = c[:textCap]
	}
	return strings.ToValidUTF8(string(bytes.TrimRight(c, " \t")), "\uFFFD")
}
