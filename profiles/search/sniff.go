package search

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// sampleLines is how many lines of a stream's head decide its layout.
const sampleLines = 200

// sample returns the first complete lines of head, cleaned of colour.
func sample(head []byte, cut bool) []string {
	if cut {
		if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
			head = head[:i]
		}
	}
	var out []string
	for len(head) > 0 && len(out) < sampleLines {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		out = append(out, string(lines.Clean(line)))
	}
	return out
}

// content drops blank lines, separators and binary notes from a sample.
func content(sample []string) []string {
	var out []string
	for _, s := range sample {
		if strings.TrimSpace(s) == "" || s == "--" {
			continue
		}
		if _, ok := binaryMessage(s, nil, ""); ok {
			continue
		}
		out = append(out, s)
	}
	return out
}

// isNumbered reports a line that starts with a line number: 12:text, 12-text.
func isNumbered(s string) bool {
	_, _, _, _, ok := numbered(s, false)
	return ok
}

// flatSplit finds path:12: (a hit) or else path-12- (context) in a line
// and returns the path and the rest after the line number's separator. A NUL
// ends the path when grep -Z printed one.
func flatSplit(s string) (path, rest string, hit, ok bool) {
	if i := strings.IndexByte(s, 0); i > 0 {
		if _, r, ok := leadingNumber(s[i+1:], ':'); ok {
			return s[:i], r, true, true
		}
		if _, r, ok := leadingNumber(s[i+1:], '-'); ok {
			return s[:i], r, false, true
		}
	}
	for _, sep := range []byte{':', '-'} {
		for i := 1; i < len(s); i++ {
			if s[i] != sep {
				continue
			}
			if _, r, ok := leadingNumber(s[i+1:], sep); ok {
				return s[:i], r, sep == ':', true
			}
		}
	}
	return "", "", false, false
}

// pickMode decides the layout from the options and a sample of stdout.
func pickMode(o opts, single string, sample []string) mode {
	switch {
	case o.json:
		return modeJSON
	case o.count:
		return modeCount
	case o.files:
		return modeFiles
	}
	lines := content(sample)
	if len(lines) > 0 && strings.HasPrefix(lines[0], `{"type":"`) {
		return modeJSON
	}
	nA, nB := 0, 0
	for _, s := range lines {
		if isNumbered(s) {
			nA++
		}
		if _, _, _, ok := flatSplit(s); ok {
			nB++
		}
	}
	n := len(lines)
	heading := n > 0 && !isNumbered(lines[0]) && nA > 0 && nA*2 >= n
	switch {
	case o.heading == 1:
		return modeHeading
	case single != "" && o.tool == "grep":
		if o.numbers == 1 {
			return modeBareNum
		}
		return modeBare
	case o.heading != 0 && heading:
		return modeHeading
	case n > 0 && nA == n:
		return modeBareNum
	case single != "":
		if o.numbers == 1 {
			return modeBareNum
		}
		return modeBare
	case o.numbers != 0 && n > 0 && nB*2 >= n:
		return modeFlat
	case o.numbers == 1:
		return modeFlat
	}
	return modePlain
}

// matchContent claims output that is unmistakably search results: rg --json,
// heading blocks, or path:12:text lines with path-like prefixes that do not
// look like compiler or linter diagnostics.
func matchContent(src *evidence.Source) bool {
	out := src.Stream(evidence.Stdout)
	lines := content(sample(out.Head(), out.More()))
	if len(lines) == 0 {
		return false
	}
	if strings.HasPrefix(lines[0], `{"type":"begin","data":{"path":`) {
		return true
	}
	return headingBlocks(sample(out.Head(), out.More())) || flatHits(lines)
}

// pathLike is a plausible relative or absolute file path.
// A time of day (12:30:05) is not a path and a line number.
func pathLike(s string) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, "\t[](){}<>\"'=,;") ||
		s[0] == ' ' || s[len(s)-1] == ' ' || (s[len(s)-1] >= '0' && s[len(s)-1] <= '9') {
		return false
	}
	return strings.ContainsAny(s, "/.")
}

func flatHits(lines []string) bool {
	good, hits, diag := 0, 0, 0
	for _, s := range lines {
		path, rest, hit, ok := flatSplit(s)
		if !ok || !pathLike(path) {
			continue
		}
		good++
		if !hit {
			continue
		}
		hits++
		// Diagnostics: a column (path:12:5:), or a message after one space.
		if startsNumbered(rest, ':') || (len(rest) > 1 && rest[0] == ' ' && rest[1] != ' ' && rest[1] != '\t') {
			diag++
		}
	}
	return hits*3 >= len(lines) && good*10 >= len(lines)*9 && diag*2 < hits
}

// headingBlocks reports rg/ag heading layout: blocks of a path line and
// numbered lines, separated by blank lines.
func headingBlocks(sample []string) bool {
	blocks, numberedLines, expectPath := 0, 0, true
	for _, s := range sample {
		switch {
		case strings.TrimSpace(s) == "":
			expectPath = true
		case s == "--":
		case expectPath:
			if _, ok := binaryMessage(s, nil, ""); ok {
				continue
			}
			if isNumbered(s) || !pathLike(s) {
				return false
			}
			blocks++
			expectPath = false
		case isNumbered(s):
			numberedLines++
		default:
			if _, ok := binaryMessage(s, nil, ""); !ok {
				return false
			}
		}
	}
	return blocks > 0 && numberedLines >= blocks
}

// rgMessage is one line of rg --json.
type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path         rgText `json:"path"`
		Lines        rgText `json:"lines"`
		LineNumber   int    `json:"line_number"`
		BinaryOffset *int64 `json:"binary_offset"`
		Submatches   []struct {
			Start int `json:"start"`
		} `json:"submatches"`
		Stats *struct {
			Matches           int `json:"matches"`
			MatchedLines      int `json:"matched_lines"`
			Searches          int `json:"searches"`
			SearchesWithMatch int `json:"searches_with_match"`
		} `json:"stats"`
	} `json:"data"`
}

// rgText is rg's text-or-base64 value.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (t rgText) String() string {
	if t.Text != nil {
		return *t.Text
	}
	b, err := base64.StdEncoding.DecodeString(t.Bytes)
	if err != nil {
		return t.Bytes
	}
	return string(b)
}

func (p *parser) jsonLine(n int, line []byte) {
	var m rgMessage
	if err := json.Unmarshal(line, &m); err != nil {
		p.miss(n)
		return
	}
	switch m.Type {
	case "begin":
		p.cur = nil
		p.pendingStart = n
	case "match":
		col := 0
		if p.o.column && len(m.Data.Submatches) > 0 {
			col = m.Data.Submatches[0].Start + 1
		}
		p.hit(m.Data.Path.String(), n, m.Data.LineNumber, col, strings.TrimRight(m.Data.Lines.String(), "\r\n"))
	case "context":
		p.context(m.Data.Path.String(), n)
	case "end":
		if f := p.index[m.Data.Path.String()]; f != nil {
			f.to = max(f.to, n)
			if m.Data.BinaryOffset != nil && !f.binary {
				f.binary = true
				p.binary++
			}
		}
		p.pendingStart = 0
	case "summary":
		if st := m.Data.Stats; st != nil {
			p.stats = map[string]int{"matches": st.Matches, "matched_lines": st.MatchedLines,
				"searches": st.Searches, "searches_with_match": st.SearchesWithMatch}
		}
	default:
		p.miss(n)
	}
}
