// Package diagcorpus scores the diag profile against an external corpus of
// compiler and linter outputs paired with errorformat expectations
// (shared/corpus/diagnostics). It is a benchmark, not part of the parser:
// nothing in ctx run imports it.
package diagcorpus

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/diag"
)

// Result is the score of the profile on an external diagnostics corpus: for
// each `<tool>.in` output, how many of the diagnostics its `<tool>.ok` lists
// were recovered as items with the right file, line and severity.
type Result struct {
	Files     []FileResult `json:"files"`
	Expected  int          `json:"expected"`
	Recovered int          `json:"recovered"`
	AsWritten int          `json:"as_written"` // recovered against the .ok files as written
}

// Recall is the fraction of expected diagnostics recovered (1 when none expected).
func (r Result) Recall() float64 {
	if r.Expected == 0 {
		return 1
	}
	return float64(r.Recovered) / float64(r.Expected)
}

// FileResult is the score on one corpus file.
type FileResult struct {
	Tool      string `json:"tool"` // the corpus file's base name: "rubocop", "eslint-compact"
	Expected  int    `json:"expected"`
	Recovered int    `json:"recovered"`
	// AsWritten is Recovered scored against the .ok lines as written, before
	// the corrections in Corrected.
	AsWritten int `json:"as_written"`
	// Extra counts diagnostics the profile found that no expected line claims.
	Extra int `json:"extra"`
	// Unscored counts expected lines with no severity: file and line are scored, severity is not.
	Unscored int `json:"unscored"`
	// Corrected lists the expected lines this scorer reads differently from
	// the .ok file, with the reason (see corpusCorrections).
	Corrected []string `json:"corrected,omitempty"`
	Misses    []Miss   `json:"misses,omitempty"`
	Verdict   string   `json:"verdict"`
	// Detected reports whether Content claims the output without argv.
	Detected bool `json:"detected"`
}

// Miss is one expected diagnostic that was not recovered.
type Miss struct {
	OkLine int    `json:"ok_line"` // 1-based line of the .ok file
	Want   string `json:"want"`    // "file|line sev"
	Reason string `json:"reason"`
}

// expectation is one parsed .ok line.
type expectation struct {
	okLine int
	file   string
	line   int
	col    int
	sev    evidence.Severity // "" when the .ok line has none
	rawSev string
	msg    string
}

// correction replaces an expected line that the reference parser read wrongly.
type correction struct {
	file   string
	line   int
	sev    string
	reason string
}

// corpusCorrections are the .ok lines where errorformat's reading is wrong
// against the raw output. Keyed by corpus tool and 1-based .ok line.
var corpusCorrections = map[string]map[int]correction{
	"msbuild": {4: {
		file:   `C:\Program Files (x86)\Microsoft Visual Studio\2019\Community\MSBuild\Current\Bin\Microsoft.CSharp.CurrentVersion.targets`,
		line:   135,
		sev:    "warning",
		reason: "the .ok file has no location because the path holds spaces and parentheses; the raw line is `…targets(135,9): warning MSB3884: …`",
	}},
	"black": {1: {
		file:   "/home/ricks/Development/personal/gh-actions/errorformat/fmts/testdata/resources/python/subfolder/syntax_error.py",
		line:   1,
		sev:    "error",
		reason: "the .ok file has no location; the raw line names the file and `Cannot parse: 1:3:`",
	}},
}

// CorpusScore parses every `<tool>.in` in dir as ingested output (no argv,
// stdout only, exit 0) and matches the items against `<tool>.ok`.
//
// Scoring: each expected line must be matched by a distinct diagnostic item
// with the same file (as printed) and line. When the .ok line gives a
// severity it must match too, after mapping errorformat's type letters (e/E
// and F: error, w/W: warning, i/I and rubocop's C and R: info, n: note); a
// line with no severity is scored on file and line only.
func CorpusScore(dir string) (Result, error) {
	ins, err := filepath.Glob(filepath.Join(dir, "*.in"))
	if err != nil {
		return Result{}, err
	}
	if len(ins) == 0 {
		return Result{}, fmt.Errorf("diag: no *.in files in %s", dir)
	}
	sort.Strings(ins)
	var res Result
	for _, in := range ins {
		tool := strings.TrimSuffix(filepath.Base(in), ".in")
		fr, err := scoreFile(tool, in, strings.TrimSuffix(in, ".in")+".ok")
		if err != nil {
			return Result{}, err
		}
		res.Files = append(res.Files, fr)
		res.Expected += fr.Expected
		res.Recovered += fr.Recovered
		res.AsWritten += fr.AsWritten
	}
	return res, nil
}

func scoreFile(tool, inPath, okPath string) (FileResult, error) {
	fr := FileResult{Tool: tool}
	raw, err := os.ReadFile(inPath)
	if err != nil {
		return fr, err
	}
	okb, err := os.ReadFile(okPath)
	if err != nil {
		return fr, err
	}
	want, err := parseOK(okb)
	if err != nil {
		return fr, fmt.Errorf("diag: %s: %w", okPath, err)
	}
	written := append([]expectation(nil), want...)
	for i := range want {
		if c, ok := corpusCorrections[tool][want[i].okLine]; ok {
			want[i].file, want[i].line, want[i].rawSev = c.file, c.line, c.sev
			want[i].sev = okSeverity(c.sev)
			fr.Corrected = append(fr.Corrected, fmt.Sprintf("ok line %d: %s", want[i].okLine, c.reason))
		}
	}
	src := evidence.BytesSource(nil, 0, raw, nil)
	fr.Detected = diag.Content(src)
	g, err := diag.Parse(context.Background(), src)
	var items []*evidence.Item
	if err == nil {
		fr.Verdict = g.Verdict
		for i := range g.Items {
			if g.Items[i].Kind == evidence.KindDiagnostic {
				items = append(items, &g.Items[i])
			}
		}
	}
	fr.Expected = len(want)
	for _, w := range want {
		if w.sev == "" {
			fr.Unscored++
		}
	}
	fr.AsWritten, _, _ = match(written, items, err)
	fr.Recovered, fr.Misses, fr.Extra = match(want, items, err)
	return fr, nil
}

// match pairs expectations with distinct items (same file and line, and
// severity when expected) and explains each miss.
func match(want []expectation, items []*evidence.Item, err error) (recovered int, misses []Miss, extra int) {
	used := make([]bool, len(items))
	for _, w := range want {
		found := -1
		reason := "no item for this file"
		for i, it := range items {
			if used[i] || it.File != w.file {
				continue
			}
			if it.Line != w.line {
				if reason == "no item for this file" {
					reason = fmt.Sprintf("no item at line %d of this file", w.line)
				}
				continue
			}
			if w.sev != "" && it.Severity != w.sev {
				reason = fmt.Sprintf("severity %q, want %q", it.Severity, w.sev)
				continue
			}
			found = i
			break
		}
		if found >= 0 {
			used[found] = true
			recovered++
			continue
		}
		if err != nil {
			reason = "parse failed: " + err.Error()
		}
		misses = append(misses, Miss{OkLine: w.okLine, Want: fmt.Sprintf("%s|%d %s", w.file, w.line, w.rawSev), Reason: reason})
	}
	for _, u := range used {
		if !u {
			extra++
		}
	}
	return recovered, misses, extra
}

// parseOK reads errorformat's expected lines: `file|line col N sev| message`,
// where the location part may be empty, "N", "N col M", with an optional
// severity word or letter after it.
func parseOK(b []byte) ([]expectation, error) {
	var out []expectation
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.SplitN(line, "|", 3)
		if len(parts) < 3 {
			return nil, fmt.Errorf("line %d: want file|loc| message", n)
		}
		e := expectation{okLine: n, file: parts[0], msg: strings.TrimPrefix(parts[2], " ")}
		f := strings.Fields(parts[1])
		if len(f) > 0 {
			if v, err := strconv.Atoi(f[0]); err == nil {
				e.line = v
				f = f[1:]
				if len(f) >= 2 && f[0] == "col" {
					e.col, _ = strconv.Atoi(f[1])
					f = f[2:]
				}
			}
		}
		if len(f) > 0 {
			e.rawSev = f[0]
			e.sev = okSeverity(f[0])
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// okSeverity maps errorformat's type word or letter to a severity.
func okSeverity(s string) evidence.Severity {
	switch s {
	case "error", "e", "E", "F":
		return evidence.SeverityError
	case "warning", "w", "W":
		return evidence.SeverityWarning
	case "info", "i", "I", "C", "R":
		return evidence.SeverityInfo
	case "note", "n", "N":
		return evidence.SeverityNote
	}
	return ""
}
