package git

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// git status in its long form (sections of tab-indented entries under
// "Changes to be committed:" and the like) and its short forms (--short,
// --porcelain, --porcelain=v2, with -b and -z).

type statusEntry struct {
	path, from string
	status     string
	section    string // staged, unstaged, untracked, unmerged, ignored
	line       int
}

type statusParser struct {
	c        command
	entries  []statusEntry
	section  string
	header   []string // the branch lines, as printed
	branch   string
	upstream string
	ab       string // "ahead 1, behind 2"
	clean    bool
	unknown  int
	badLines []int
	extra    int
	lastLine int
	cut      int // -z entries longer than lines.Max, left unread
	firstCut int // the first one's number among the entries
}

// longSections maps the long form's section titles.
var longSections = map[string]string{
	"Changes to be committed:":       "staged",
	"Changes not staged for commit:": "unstaged",
	"Untracked files:":               "untracked",
	"Unmerged paths:":                "unmerged",
	"Ignored files:":                 "ignored",
}

// longStatus maps the long form's entry labels.
var longStatus = map[string]string{
	"modified":        "modified",
	"new file":        "added",
	"deleted":         "deleted",
	"renamed":         "renamed",
	"copied":          "copied",
	"typechange":      "typechange",
	"both modified":   "both modified",
	"both added":      "both added",
	"both deleted":    "both deleted",
	"added by us":     "added by us",
	"added by them":   "added by them",
	"deleted by us":   "deleted by us",
	"deleted by them": "deleted by them",
}

func parseStatus(ctx context.Context, g *evidence.Graph, c command, st evidence.Stream) error {
	p := &statusParser{c: c}
	if len(st.Head()) > 0 && st.Open != nil { // not Size: it waits for the end of a running capture
		rc, err := st.Open()
		if err != nil {
			return fmt.Errorf("open %s: %w", st.Name, err)
		}
		var r io.Reader = rc
		if c.nul {
			// -z ends entries with NUL; a rename's source follows as its own field.
			r = &nulLines{r: rc}
		}
		err = lines.Scan(ctx, r, func(n int, line []byte, long bool) error {
			if long && c.nul {
				// An entry cut at lines.Max would read as a shorter path,
				// and no tracked reader sees the cut through nulLines: the
				// entry is left out and the loss recorded below.
				p.cut++
				if p.firstCut == 0 {
					p.firstCut = n
				}
				return nil
			}
			p.line(n, string(lines.StripANSI(line))) // not Clean: a diff line keeps its carriage returns (file content), and its first byte is its kind
			return nil
		})
		rc.Close()
		if err != nil {
			return err
		}
	}
	if p.unknown > 0 && p.unknown*2 > len(p.entries)+len(p.header)+1 {
		return fmt.Errorf("git status output: %d lines not recognised", p.unknown)
	}
	counts := map[string]int{"staged": 0, "unstaged": 0, "untracked": 0}
	for _, e := range p.entries {
		counts[e.section]++
		if len(g.Items) >= maxItems {
			p.extra++
			continue
		}
		attrs := map[string]string{"status": e.status, "section": e.section}
		if e.from != "" {
			attrs["from"] = e.from
		}
		g.Add(evidence.Item{Kind: evidence.KindFile, Tool: "git", File: e.path, Name: e.section,
			Attrs: attrs, Span: evidence.Span{Stream: st.Name, From: e.line, To: e.line}})
	}
	attrs := map[string]string{}
	for k, v := range map[string]string{"branch": p.branch, "upstream": p.upstream, "ahead_behind": p.ab} {
		if v != "" {
			attrs[k] = v
		}
	}
	text := strings.Join(p.header, " ")
	if p.clean {
		text = strings.TrimSpace(text + " · clean")
	}
	sum := evidence.Item{Kind: evidence.KindSummary, Tool: "git", Name: "status", Counts: counts,
		Text: evidence.Clip(text, maxText), Attrs: attrs}
	if len(attrs) == 0 {
		sum.Attrs = nil
	}
	if p.lastLine > 0 {
		sum.Span = evidence.Span{Stream: st.Name, From: 1, To: p.lastLine}
	}
	g.Add(sum)
	if p.unknown > 0 {
		g.Lose("partial-parse", "%d lines not recognised as git status output (first at line %s)", p.unknown, joinInts(p.badLines))
	}
	if p.extra > 0 {
		g.Lose("item-cap", "%d status entries kept; %d more counted only", maxItems, p.extra)
	}
	if p.cut > 0 {
		which := fmt.Sprintf("%d status entries", p.cut)
		if p.cut == 1 {
			which = "1 status entry"
		}
		g.Lose("long-line", "%s: %s longer than %d KiB not read, nor counted (the first is NUL-separated entry %d; the run's handle with #%s and --raw returns the stream whole)",
			st.Name, which, lines.Max>>10, p.firstCut, st.Name)
	}
	return nil
}

func (p *statusParser) miss(n int) {
	p.unknown++
	if len(p.badLines) < maxUnknowns {
		p.badLines = append(p.badLines, n)
	}
}

func (p *statusParser) add(e statusEntry) { p.entries = append(p.entries, e) }

func (p *statusParser) line(n int, s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	p.lastLine = n
	if p.c.short {
		if !p.shortLine(n, s) {
			p.miss(n)
		}
		return
	}
	p.longLine(n, s)
}

// longLine reads the long form.
func (p *statusParser) longLine(n int, s string) {
	if sec, ok := longSections[strings.TrimSpace(s)]; ok {
		p.section = sec
		return
	}
	if strings.HasPrefix(s, "\t") && p.section != "" {
		entry := strings.TrimPrefix(s, "\t")
		e := statusEntry{section: p.section, line: n}
		if label, rest, ok := strings.Cut(entry, ":"); ok && longStatus[label] != "" && p.section != "untracked" && p.section != "ignored" {
			e.status = longStatus[label]
			entry = strings.TrimSpace(rest)
		} else {
			e.status = p.section
		}
		if p.section == "unmerged" && e.status == "unmerged" {
			e.status = "unmerged"
		}
		// Submodules: "sub (new commits)".
		if i := strings.LastIndex(entry, " ("); i > 0 && strings.HasSuffix(entry, ")") && !strings.HasPrefix(entry, `"`) {
			entry = entry[:i]
		}
		if e.status == "renamed" || e.status == "copied" {
			if from, to, ok := cutArrow(entry); ok {
				e.from, entry = unquote(from), to
			}
		}
		e.path = unquote(entry)
		p.add(e)
		return
	}
	t := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(t, "(use ") || strings.HasPrefix(t, "(fix ") || strings.HasPrefix(t, "(all conflicts") ||
		strings.HasPrefix(t, "(commit ") || strings.HasPrefix(t, "(see ") || strings.HasPrefix(t, "(run "):
	case strings.HasPrefix(t, "On branch "):
		p.branch = strings.TrimPrefix(t, "On branch ")
		p.header = append(p.header, t)
	case strings.HasPrefix(t, "HEAD detached "):
		p.branch = "(" + t + ")"
		p.header = append(p.header, t)
	case strings.HasPrefix(t, "Your branch "):
		p.header = append(p.header, t)
		if i := strings.Index(t, "'"); i >= 0 {
			if j := strings.Index(t[i+1:], "'"); j > 0 {
				p.upstream = t[i+1 : i+1+j]
			}
		}
		if strings.Contains(t, "ahead of") || strings.Contains(t, "behind") {
			p.ab = t
		}
	case strings.HasPrefix(t, "nothing to commit"):
		p.clean = strings.Contains(t, "working tree clean")
		p.header = append(p.header, t)
	case strings.HasPrefix(t, "no changes added to commit"), strings.HasPrefix(t, "nothing added to commit"),
		strings.HasPrefix(t, "and have "), t == "No commits yet", t == "Initial commit",
		strings.HasPrefix(t, "Untracked files not listed"), strings.HasPrefix(t, "You have unmerged paths"),
		strings.HasPrefix(t, "All conflicts fixed"), strings.HasPrefix(t, "You are currently "),
		strings.HasPrefix(t, "interactive rebase in progress"), strings.HasPrefix(t, "Last command"),
		strings.HasPrefix(t, "Next command"), strings.HasPrefix(t, "No commands"),
		strings.HasPrefix(t, "It took "), strings.HasPrefix(t, "Your stash currently"),
		t == "Not currently on any branch.", strings.HasPrefix(t, "rebase in progress"),
		strings.HasPrefix(t, "You are in a sparse checkout"):
		p.header = append(p.header, t)
	case p.section == "" && strings.HasPrefix(s, "   "):
		// The commands listed under an interactive rebase.
	default:
		p.miss(n)
	}
}

func cutArrow(s string) (string, string, bool) { return strings.Cut(s, " -> ") }

// shortLine reads --short, --porcelain and --porcelain=v2 lines.
func (p *statusParser) shortLine(n int, s string) bool {
	switch {
	case strings.HasPrefix(s, "## "):
		p.shortBranch(strings.TrimPrefix(s, "## "))
		return true
	case strings.HasPrefix(s, "# "):
		key, val, _ := strings.Cut(strings.TrimPrefix(s, "# "), " ")
		switch key {
		case "branch.head":
			p.branch = val
		case "branch.upstream":
			p.upstream = val
		case "branch.ab":
			p.ab = val
		}
		p.header = append(p.header, strings.TrimPrefix(s, "# "))
		return true
	}
	if p.c.v2 && len(s) >= 2 && s[1] == ' ' {
		switch s[0] {
		case '1', '2', 'u':
			return p.v2Line(n, s)
		case '?', '!':
			sec := "untracked"
			if s[0] == '!' {
				sec = "ignored"
			}
			p.add(statusEntry{path: unquote(s[2:]), status: sec, section: sec, line: n})
			return true
		}
		return false
	}
	if len(s) < 4 || s[2] != ' ' || !strings.ContainsRune(" MTADRCU?!", rune(s[0])) || !strings.ContainsRune(" MTADRCU?!", rune(s[1])) {
		return false
	}
	p.xy(n, s[0], s[1], s[3:], "")
	return true
}

// xy adds the entries of one short-form line.
func (p *statusParser) xy(n int, x, y byte, path, from string) {
	if from == "" && !p.c.v2 {
		if f, t, ok := cutArrow(path); ok {
			from, path = unquote(f), t
		}
	}
	path = unquote(path)
	switch {
	case x == '?' && y == '?':
		p.add(statusEntry{path: path, status: "untracked", section: "untracked", line: n})
		return
	case x == '!' && y == '!':
		p.add(statusEntry{path: path, status: "ignored", section: "ignored", line: n})
		return
	case x == 'U' || y == 'U' || (x == 'A' && y == 'A') || (x == 'D' && y == 'D'):
		p.add(statusEntry{path: path, status: unmergedName(x, y), section: "unmerged", line: n})
		return
	}
	if x != ' ' && x != '.' {
		e := statusEntry{path: path, status: letterName(x), section: "staged", line: n}
		if x == 'R' || x == 'C' {
			e.from = from
		}
		p.add(e)
	}
	if y != ' ' && y != '.' {
		e := statusEntry{path: path, status: letterName(y), section: "unstaged", line: n}
		if y == 'R' || y == 'C' {
			e.from = from
		}
		p.add(e)
	}
}

func letterName(c byte) string {
	if s, ok := statusLetter(string(c)); ok {
		return s
	}
	return string(c)
}

func unmergedName(x, y byte) string {
	switch string([]byte{x, y}) {
	case "DD":
		return "both deleted"
	case "AU":
		return "added by us"
	case "UD":
		return "deleted by them"
	case "UA":
		return "added by them"
	case "DU":
		return "deleted by us"
	case "AA":
		return "both added"
	}
	return "both modified"
}

// shortBranch reads "main...origin/main [ahead 1, behind 2]".
func (p *statusParser) shortBranch(s string) {
	p.header = append(p.header, "## "+s)
	if i := strings.Index(s, " ["); i >= 0 && strings.HasSuffix(s, "]") {
		p.ab = s[i+2 : len(s)-1]
		s = s[:i]
	}
	branch, up, _ := strings.Cut(s, "...")
	p.branch, p.upstream = branch, up
}

// v2Line reads porcelain v2 "1 XY sub mH mI mW hH hI path",
// "2 XY ... Xscore path<TAB>orig" and "u XY ... path".
func (p *statusParser) v2Line(n int, s string) bool {
	fields := 9
	switch s[0] {
	case '2':
		fields = 10
	case 'u':
		fields = 11
	}
	parts := strings.SplitN(s, " ", fields)
	if len(parts) < fields || len(parts[1]) != 2 {
		return false
	}
	path, from := parts[fields-1], ""
	if s[0] == '2' {
		if a, b, ok := strings.Cut(path, "\t"); ok {
			path, from = a, unquote(b)
		}
	}
	if s[0] == 'u' {
		p.add(statusEntry{path: unquote(path), status: unmergedName(parts[1][0], parts[1][1]), section: "unmerged", line: n})
		return true
	}
	p.xy(n, parts[1][0], parts[1][1], path, from)
	if from != "" {
		// xy reads "a -> b" only in v1; v2 gives the source separately.
		for i := len(p.entries) - 1; i >= 0 && p.entries[i].line == n; i-- {
			if p.entries[i].status == "renamed" || p.entries[i].status == "copied" {
				p.entries[i].from = from
			}
		}
	}
	return true
}

// nulLines turns NUL-terminated records (status -z) into lines. A rename's
// source is a record of its own after the entry: v1 "R  new\0old\0" becomes
// "R  old -> new" as the plain form prints it, v2 "2 … new\0old\0" becomes
// "2 … new<TAB>old".
type nulLines struct {
	r    io.Reader
	buf  []byte
	out  []byte
	eof  bool
	prev []byte // an entry waiting for its source record
}

func (z *nulLines) Read(b []byte) (int, error) {
	for len(z.out) == 0 {
		if z.eof {
			if len(z.prev) > 0 {
				z.out, z.prev = append(z.prev, '\n'), nil
				break
			}
			return 0, io.EOF
		}
		chunk := make([]byte, 32<<10)
		n, err := z.r.Read(chunk)
		z.buf = append(z.buf, chunk[:n]...)
		if err == io.EOF {
			z.eof = true
			if len(z.buf) > 0 {
				z.buf = append(z.buf, 0)
			}
		} else if err != nil {
			return 0, err
		}
		for {
			i := bytes.IndexByte(z.buf, 0)
			if i < 0 {
				break
			}
			rec := z.buf[:i]
			z.buf = z.buf[i+1:]
			var line []byte
			switch {
			case z.prev != nil && z.prev[0] == '2':
				line = append(append(append([]byte{}, z.prev...), '\t'), rec...)
				z.prev = nil
			case z.prev != nil:
				line = append(append([]byte{}, z.prev[:3]...), rec...)
				line = append(append(line, " -> "...), z.prev[3:]...)
				z.prev = nil
			case len(rec) > 3 && (rec[0] == 'R' || rec[0] == 'C') && rec[2] == ' ',
				len(rec) > 2 && rec[0] == '2' && rec[1] == ' ':
				z.prev = append([]byte{}, rec...)
				continue
			default:
				line = append([]byte{}, rec...)
			}
			z.out = append(z.out, append(line, '\n')...)
		}
	}
	n := copy(b, z.out)
	z.out = z.out[n:]
	return n, nil
}
