package digest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/realrun"
)

// realRuns discovers every real-run fixture in the repository, in either
// layout internal/realrun reads (profiles/gotest/testdata/realrun/README.md
// describes the convention).
func realRuns(t testing.TB) []goldenCase {
	t.Helper()
	fixtures, err := realrun.Load("..")
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenCase
	for _, f := range fixtures {
		c := goldenCase{name: f.Name, argv: f.Argv, exit: f.Exit}
		prof := filepath.Join("..", "profiles")
		if f.StdoutPath != "" {
			c.stdout, _ = filepath.Rel(prof, f.StdoutPath)
		}
		if f.StderrPath != "" {
			c.stderr, _ = filepath.Rel(prof, f.StderrPath)
		}
		out = append(out, c)
	}
	return out
}

// TestRealRunReceipts is the receipt property over every golden case and
// every real-run fixture, at the first digest and at a reflex rerun: each
// REQUIRED item's identity and message appear in the digest or its census, or
// the receipt counts it unrepresented; no digest is larger than the output
// beyond a one-line header; a failing run's digest states the failure.
func TestRealRunReceipts(t *testing.T) {
	cases := append(realRuns(t), goldenCases...)
	if n := len(realRuns(t)); n < 40 {
		t.Errorf("%d real-run fixtures; issue 10 asks for at least 40", n)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr := c.streams(t)
			for _, level := range []int{0, 1} {
				res := digest(t, t.TempDir(), c, stdout, stderr, Options{Level: level})
				checkReceipt(t, c, res, stdout, stderr, level)
			}
		})
	}
}

func checkReceipt(t *testing.T, c goldenCase, res *Result, stdout, stderr []byte, level int) {
	t.Helper()
	d := res.Digest
	text := flat(string(d.Text))
	census := flat(string(d.Census))
	missing := 0
	var names []string
	for i := range res.Graph.Items {
		it := &res.Graph.Items[i]
		if res.Contract.ClassOf(it) != contract.Required {
			continue
		}
		ok := true
		for _, n := range mustShow(it) {
			if !strings.Contains(text, n) && !strings.Contains(census, n) &&
				!(res.Plan.Mode == "whole" && wholeComposes(text, n)) {
				ok = false
			}
		}
		if !ok {
			missing++
			names = append(names, fmt.Sprintf("%s %q %q", it.Kind, it.Name, it.Message))
		}
	}
	if got := d.Coverage.RequiredUnrepresented; got < missing {
		t.Errorf("level %d: %d REQUIRED items not shown but the receipt says unrepresented required %d: %s\n%s", level, missing, got, strings.Join(names, "; "), d.Text)
	}
	if d.Coverage.RequiredUnrepresented > 0 {
		t.Errorf("level %d: unrepresented required %d: %s\n%s", level, d.Coverage.RequiredUnrepresented, strings.Join(names, "; "), d.Text)
	}

	raw := len(stdout) + len(stderr)
	bin := bytes.IndexByte(stdout, 0) >= 0 || bytes.IndexByte(stderr, 0) >= 0
	if res.Plan.Mode == "whole" {
		// The output, a one-line header and stdout:/stderr: labels (DESIGN
		// §10a); a ctx: line for a REQUIRED item the output does not spell
		// out counts against it like any other byte.
		header, _, _ := bytes.Cut(d.Text, []byte("\n"))
		slack := len(header) + 1 + len("stdout:\nstderr:\n")
		// The header carries the handle, the exit status and any loss;
		// it must not become a second digest.
		if len(header) > 200 {
			t.Errorf("level %d: whole output header of %d bytes: %s", level, len(header), header)
		}
		if len(d.Text) > raw+slack {
			t.Errorf("level %d: whole digest %d bytes for %d bytes of output", level, len(d.Text), raw)
		}
		// Whole means whole: no line clipped (issue 10: a one-line gh
		// --json result lost fields at 240 bytes). Lines holding terminal
		// control bytes are shown cleaned, so they are not compared here.
		for _, out := range [][]byte{stdout, stderr} {
			for _, l := range strings.Split(string(out), "\n") {
				if !bin && l != "" && !strings.ContainsAny(l, "\x1b\r") && !strings.Contains(string(d.Text), l) {
					t.Errorf("level %d: a whole output lacks the line %q", level, l)
					break
				}
			}
		}
	} else if est := (len(d.Text) + 3) / 4; est > res.Plan.Budget+res.Plan.Budget/4+80 {
		// Budgets bind every profile (the header and footer aside).
		t.Errorf("level %d: digest ~%d tokens (%s), budget %d", level, est, res.Plan.Mode, res.Plan.Budget)
	}
	if res.Plan.Mode != "whole" && !bin {
		if len(d.Text) >= raw || (len(d.Text)+3)/4 >= (raw+3)/4 {
			t.Errorf("level %d: digest %d bytes (%s) is not smaller than the output, %d bytes", level, len(d.Text), res.Plan.Mode, raw)
		}
	}

	if c.exit != 0 || res.Graph.Verdict == "fail" || res.Graph.Verdict == "error" {
		if res.Plan.Outcome == "pass" {
			t.Errorf("level %d: a failing run (exit %d, verdict %q) planned as a pass", level, c.exit, res.Graph.Verdict)
		}
		first, _, _ := strings.Cut(string(d.Text), "\n")
		if second := strings.SplitN(string(d.Text), "\n", 3); len(second) > 1 {
			first += " " + second[1]
		}
		if c.exit != 0 && !strings.Contains(first, fmt.Sprintf("exit %d", c.exit)) {
			t.Errorf("level %d: the header does not state exit %d:\n%s", level, c.exit, d.Text)
		}
		if c.exit == 0 && !strings.Contains(strings.ToLower(string(d.Text)), "fail") {
			t.Errorf("level %d: exit 0 but the tool reports failure, and the digest does not say so:\n%s", level, d.Text)
		}
	}
}

// mustShow is what a reader needs of a REQUIRED item: its identity and the
// start of its message (first line, white space collapsed).
func mustShow(it *evidence.Item) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		s, _, _ = strings.Cut(s, "\n")
		s = flat(s)
		if len(s) > 40 {
			s = strings.ToValidUTF8(s[:40], "")
		}
		if s != "" {
			out = append(out, s)
		}
	}
	switch it.Kind {
	case evidence.KindTest:
		name := it.Name
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		add(name)
		add(it.Message)
	case evidence.KindDiagnostic:
		add(filepath.Base(it.File))
		add(it.Message)
	case evidence.KindSummary:
		add(it.Message)
	case evidence.KindAnomaly, evidence.KindRecord:
		add(it.Text)
	default:
		add(it.File)
	}
	return out
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// wholeComposes reports whether a whole output shows what a message a
// profile composed from several of its lines says: every word of the needle
// (runs of letters and digits; the last one dropped, as the needle may cut
// it) is a word of the output, but for at most one in ten (a label the
// profile joined the lines with).
func wholeComposes(text, needle string) bool {
	isSep := func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, isSep) {
		have[w] = true
	}
	ws := strings.FieldsFunc(needle, isSep)
	if len(ws) > 1 {
		ws = ws[:len(ws)-1]
	}
	missing := 0
	for _, w := range ws {
		if !have[w] {
			missing++
		}
	}
	return len(ws) > 0 && missing <= len(ws)/10
}
