package pytest

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// failingNames returns the names of the fail and error test items.
func failingNames(g *evidence.Graph) []string {
	var out []string
	for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
		out = append(out, it.Name)
	}
	sort.Strings(out)
	return out
}

func summaries(g *evidence.Graph) []evidence.Item {
	var out []evidence.Item
	for _, it := range g.Items {
		if it.Kind == evidence.KindSummary {
			out = append(out, it)
		}
	}
	return out
}

func hasLoss(g *evidence.Graph, code string) bool {
	for _, l := range g.Losses {
		if l.Code == code {
			return true
		}
	}
	return false
}

// TestTruncatedEverywhere cuts every real capture after every line, as if the
// run were killed there (exit 137). A cut run must never claim a pass, must
// label the missing counts line, must only take counts from pytest's real
// final line, and must never name a failure the full run does not name (text
// in captured output and nested sessions stays text).
func TestTruncatedEverywhere(t *testing.T) {
	for _, c := range loadCaptures(t) {
		full := parseSource(t, c.source())
		fullFailing := map[string]bool{}
		for _, n := range failingNames(full) {
			fullFailing[n] = true
		}
		var fullStats *evidence.Item
		if s := summaries(full); len(s) == 1 {
			fullStats = &s[0]
		}
		lines := bytes.SplitAfter(c.stdout, []byte("\n"))
		for k := 0; k < len(lines); k++ {
			prefix := bytes.Join(lines[:k], nil)
			src := evidence.BytesSource(c.argv(), 137, prefix, nil)
			g, err := Parse(t.Context(), src)
			if err != nil {
				continue // nothing pytest-like yet: the registry falls back to text
			}
			g.Seal("run:test")
			reachedEnd := fullStats != nil && fullStats.Span.To <= k
			if g.Verdict == "pass" && !reachedEnd {
				t.Errorf("%s cut after line %d: verdict pass", c.name, k)
			}
			sums := summaries(g)
			if !reachedEnd && len(c.stderr) == 0 && len(sums) > 0 && fullStats != nil {
				t.Errorf("%s cut after line %d: summary %q before pytest's counts line", c.name, k, sums[0].Text)
			}
			// pytest's own errors (INTERNALERROR, usage) are a complete verdict without counts.
			if len(sums) == 0 && !hasLoss(g, "partial-parse") && g.Verdict != "error" {
				t.Errorf("%s cut after line %d: no counts line and no loss", c.name, k)
			}
			for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
				if !fullFailing[it.Name] && !(it.Attrs["name_from"] == "header" && suffixOfAny(it.Name, fullFailing)) {
					t.Errorf("%s cut after line %d: failure %q that the full run does not report", c.name, k, it.Name)
				}
			}
		}
	}
}

// suffixOfAny reports whether name is the tail of one of the node ids: a node
// id rebuilt from a failure title may lack its file.
func suffixOfAny(name string, ids map[string]bool) bool {
	for id := range ids {
		if strings.HasSuffix(id, "::"+name) {
			return true
		}
	}
	return false
}

// TestCRLF: a capture with CRLF line endings (a pty's output post-processing,
// a Windows log) parses to the same graph.
func TestCRLF(t *testing.T) {
	for _, c := range loadCaptures(t) {
		want := graphJSON(t, parseSource(t, c.source()))
		crlf := c
		crlf.stdout = bytes.ReplaceAll(bytes.ReplaceAll(c.stdout, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		crlf.stderr = bytes.ReplaceAll(c.stderr, []byte("\n"), []byte("\r\n"))
		if got := graphJSON(t, parseSource(t, crlf.source())); !bytes.Equal(got, want) {
			t.Errorf("%s: CRLF graph differs:\n%s", c.name, got)
		}
	}
}

// TestColourAndPtyMatchPlain: colour codes and a pty's wider terminal change
// nothing in the graph.
func TestColourAndPtyMatchPlain(t *testing.T) {
	byName := map[string]capture{}
	for _, c := range loadCaptures(t) {
		byName[c.name] = c
	}
	for _, pair := range [][2]string{
		{"failing-color", "failing-q"},
		{"pty-failing", "failing-q"},
		{"pty-failing-v", "failing-v"},
		{"passing-color", "passing-plain"},
	} {
		a, b := byName[pair[0]], byName[pair[1]]
		ga, gb := parseSource(t, a.source()), parseSource(t, b.source())
		ja, jb := graphJSON(t, ga), graphJSON(t, gb)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s and %s differ:\n%s\n----\n%s", pair[0], pair[1], ja, jb)
		}
	}
}

var durationRe = regexp.MustCompile(`in [0-9]+\.[0-9]+s`)

// redraw replaces the durations of counts lines the way pytest would print
// another run: a banner is redrawn at the run's width with TerminalWriter.sep's
// arithmetic (the width is the widest "=" banner of the capture).
func redraw(out []byte, d string) []byte {
	plain := func(b []byte) string { return string(lines.Clean(bytes.TrimRight(b, "\r\n"))) }
	w := 0
	for _, ln := range bytes.SplitAfter(out, []byte("\n")) {
		if s := plain(ln); strings.HasPrefix(s, "=") && strings.HasSuffix(s, "=") && utf8.RuneCountInString(s) > w {
			w = utf8.RuneCountInString(s)
		}
	}
	var b bytes.Buffer
	for _, ln := range bytes.SplitAfter(out, []byte("\n")) {
		s := plain(ln)
		if !durationRe.MatchString(s) {
			b.Write(ln)
			continue
		}
		nl := ln[len(bytes.TrimRight(ln, "\r\n")):]
		if title, _, ok := banner(s, '='); ok {
			title = durationRe.ReplaceAllString(title, d)
			n := max((w-utf8.RuneCountInString(title)-2)/2, 1)
			s = strings.Repeat("=", n) + " " + title + " " + strings.Repeat("=", n)
			if utf8.RuneCountInString(s)+1 <= w {
				s += "="
			}
		} else {
			s = durationRe.ReplaceAllString(s, d)
		}
		b.WriteString(s)
		b.Write(nl)
	}
	return b.Bytes()
}

// TestDurationsNotStored: reruns whose only difference is timing give
// byte-identical JSON.
func TestDurationsNotStored(t *testing.T) {
	for _, c := range loadCaptures(t) {
		want := graphJSON(t, parseSource(t, c.source()))
		for _, d := range []string{"in 123.45s (0:02:03)", "in 0.01s", "in 9.99s"} {
			slow := c
			slow.stdout = redraw(c.stdout, d)
			if got := graphJSON(t, parseSource(t, slow.source())); !bytes.Equal(got, want) {
				t.Errorf("%s with %q: graph differs", c.name, d)
			}
		}
		if bytes.Contains(want, []byte(" in 0.")) {
			t.Errorf("%s: a duration reached the graph", c.name)
		}
	}
}

// TestDeterministic: parsing twice gives the same bytes.
func TestDeterministic(t *testing.T) {
	for _, c := range loadCaptures(t) {
		a := graphJSON(t, parseSource(t, c.source()))
		b := graphJSON(t, parseSource(t, c.source()))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two parses differ", c.name)
		}
	}
}

// TestExitDisagrees: the verdict follows pytest's text, and a disagreeing exit
// status is labelled, never silently believed.
func TestExitDisagrees(t *testing.T) {
	byName := map[string]capture{}
	for _, c := range loadCaptures(t) {
		byName[c.name] = c
	}
	for _, tc := range []struct {
		capture string
		exit    int
		verdict string
		loss    bool
	}{
		{"failing-q", 0, "fail", true},
		{"failing-q", 1, "fail", false},
		{"passing-q", 1, "pass", true},
		{"passing-q", 0, "pass", false},
		{"failing-interrupted", 0, "error", true},
		{"passing-qq", 1, "", true}, // -qq prints no counts line: only exit 0 confirms the pass
	} {
		c := byName[tc.capture]
		c.exit = tc.exit
		g := parseSource(t, c.source())
		if g.Verdict != tc.verdict {
			t.Errorf("%s exit %d: verdict %q, want %q", tc.capture, tc.exit, g.Verdict, tc.verdict)
		}
		if got := hasLoss(g, "partial-parse"); got != tc.loss {
			t.Errorf("%s exit %d: loss %v, want %v (%v)", tc.capture, tc.exit, got, tc.loss, g.Losses)
		}
	}
	// Without argv naming pytest (make test, ctx ingest) the exit status is not compared.
	c := byName["failing-q"]
	g := parseSource(t, evidence.BytesSource([]string{"make", "test"}, 0, c.stdout, nil))
	if g.Verdict != "fail" || len(g.Losses) != 0 {
		t.Errorf("make test: verdict %q losses %v", g.Verdict, g.Losses)
	}
}

// TestCapturedTextIsNotAResult: the failing suite prints "FAILED …",
// "Traceback", "E   AssertionError" and a fake counts line in captured output
// (of a failing test, and of a passing one shown by -rA); none of it may
// become a result or a count.
func TestCapturedTextIsNotAResult(t *testing.T) {
	for _, c := range loadCaptures(t) {
		if c.suite != "failing" {
			continue
		}
		g := parseSource(t, c.source())
		for _, it := range g.Items {
			if strings.Contains(it.Name, "test_fake.py") || strings.Contains(it.Name, "not_real") {
				t.Errorf("%s: item from captured output: %+v", c.name, it)
			}
			if it.Kind == evidence.KindSummary && it.Counts["failed"] == 99 {
				t.Errorf("%s: counts from captured output", c.name)
			}
		}
		for _, it := range g.Tests() {
			if it.Name == "test_output.py::test_passing_prints_failure_text" && it.Outcome != evidence.OutcomePass {
				t.Errorf("%s: passing test that prints failure text is %s", c.name, it.Outcome)
			}
		}
	}
	// The nested pytester session: its inner failure is captured output.
	for _, c := range loadCaptures(t) {
		if c.suite != "nested" {
			continue
		}
		g := parseSource(t, c.source())
		if got := failingNames(g); len(got) != 1 || got[0] != "test_nested.py::test_inner_session_fails" {
			t.Errorf("%s: failing %v", c.name, got)
		}
	}
}

// TestSpansInsideStreams: every span points at lines that exist.
func TestSpansInsideStreams(t *testing.T) {
	for _, c := range loadCaptures(t) {
		src := c.source()
		g := parseSource(t, src)
		for _, it := range g.Items {
			for _, sp := range []evidence.Span{it.Span, it.Detail} {
				if sp.IsZero() {
					continue
				}
				if sp.From > sp.To || sp.To > src.Stream(sp.Stream).Lines() {
					t.Errorf("%s: span %s outside %s (%d lines)", c.name, sp.Handle(), sp.Stream, src.Stream(sp.Stream).Lines())
				}
			}
		}
	}
}
