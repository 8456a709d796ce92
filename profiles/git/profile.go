package git

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

const (
	name    = "git"
	version = 3 // 2: diff lines keep their carriage returns (progress bars in file content no longer break hunks); 3: a status -z entry over 64 KiB is a loss, not a cut path

	maxItems    = 100000 // file and commit items; the rest are counted with a loss
	maxText     = 300    // bytes of a subject or message kept
	maxStderr   = 20     // stderr lines listed as anomalies
	maxUnknowns = 5
)

// Profile is the git profile: diff, show, log and status.
var Profile = evidence.Profile{
	Name:    name,
	Version: version,
	Argv:    func(argv []string) bool { return commandOf(argv).kind != "" },
	Content: matchContent,
	Parse:   parse,
}

// command is what argv says about the output.
type command struct {
	kind    string // "diff", "show", "log", "status"; "" when not ours
	oneline bool   // log --oneline / --pretty=oneline
	graph   bool   // log --graph
	short   bool   // status --short / --porcelain
	v2      bool   // status --porcelain=v2
	nul     bool   // -z: NUL-terminated entries
}

// prettyNames are the built-in --pretty formats the parser reads.
var prettyNames = map[string]bool{"oneline": true, "short": true, "medium": true, "full": true,
	"fuller": true, "raw": true, "reference": true, "email": true}

// commandOf classifies argv: git diff|show|log|whatchanged|status (after
// git's global options), `git stash show`, and diff -u of two files.
func commandOf(argv []string) command {
	var c command
	if len(argv) == 0 {
		return c
	}
	var args []string
	switch argv[0] {
	case "git":
		var sub string
		sub, args = cmdline.ToolSubcommand("git", argv[1:])
		switch sub {
		case "diff", "show", "log", "whatchanged", "status":
			c.kind = sub
		case "stash":
			if len(args) > 0 && args[0] == "show" {
				c.kind, args = "diff", args[1:]
			}
		}
		if sub == "whatchanged" {
			c.kind = "log"
		}
	case "diff":
		for _, a := range argv[1:] {
			if a == "-u" || strings.HasPrefix(a, "-U") || strings.HasPrefix(a, "--unified") ||
				(len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'u')) {
				c.kind = "diff"
			}
		}
		return c
	}
	for _, a := range args {
		switch {
		case a == "--":
			return c
		case a == "--oneline":
			c.oneline = true
		case a == "--graph":
			c.graph = true
		case a == "-s" || a == "--short" || strings.HasPrefix(a, "--porcelain"):
			if c.kind == "status" {
				c.short = true
				c.v2 = a == "--porcelain=v2"
			}
		case a == "-z":
			c.nul = true
		case strings.HasPrefix(a, "--pretty=") || strings.HasPrefix(a, "--format="):
			_, v, _ := strings.Cut(a, "=")
			if v == "oneline" {
				c.oneline = true
			} else if !prettyNames[v] {
				return command{} // a user format: nothing to read safely
			}
		case a == "--format" || a == "--pretty":
			return command{}
		case c.kind == "show" && !strings.HasPrefix(a, "-") && strings.Contains(a, ":"):
			return command{} // git show REV:path prints a file
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && c.kind == "status":
			if strings.ContainsRune(a[1:], 's') {
				c.short = true
			}
			if strings.ContainsRune(a[1:], 'z') {
				c.nul = true
			}
		}
	}
	return c
}

// firstLines returns up to n cleaned, non-blank lines of a stream's head.
func firstLines(head []byte, n int) []string {
	var out []string
	for len(head) > 0 && len(out) < n {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		s := strings.TrimRight(string(lines.Clean(bytes.TrimSuffix(line, []byte{'\r'}))), " ")
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// matchContent claims output whose first line only git writes: a diff
// header, a commit header, or the first line of git status.
func matchContent(src *evidence.Source) bool {
	return sniff(src.Stream(evidence.Stdout).Head()) != ""
}

func sniff(head []byte) string {
	ls := firstLines(head, 3)
	if len(ls) == 0 {
		return ""
	}
	first := ls[0]
	switch {
	case strings.HasPrefix(first, "diff --git ") || strings.HasPrefix(first, "diff --cc ") || strings.HasPrefix(first, "diff --combined "):
		return "diff"
	case isCommitLine(first):
		return "log"
	case strings.HasPrefix(first, "On branch ") || strings.HasPrefix(first, "HEAD detached at ") ||
		strings.HasPrefix(first, "HEAD detached from ") || first == "Not currently on any branch.":
		return "status"
	case len(ls) > 1 && strings.HasPrefix(first, "--- ") && strings.HasPrefix(ls[1], "+++ "):
		return "diff"
	}
	return ""
}

func isCommitLine(s string) bool {
	rest, ok := strings.CutPrefix(s, "commit ")
	if !ok {
		return false
	}
	h, _, _ := strings.Cut(rest, " ")
	return isHex(h, 7)
}

func isHex(s string, min int) bool {
	if len(s) < min || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func parse(ctx context.Context, src *evidence.Source) (*evidence.Graph, error) {
	c := commandOf(cmdline.Normalize(src.Argv))
	out := src.Stream(evidence.Stdout)
	if c.kind == "" {
		c.kind = sniff(out.Head())
		if c.kind == "" {
			return nil, fmt.Errorf("git output: not a diff, log or status")
		}
	}
	g := &evidence.Graph{Profile: name, Version: version, Tool: "git"}
	var err error
	if c.kind == "status" {
		err = parseStatus(ctx, g, c, out)
	} else {
		err = parseLog(ctx, g, c, out)
	}
	if err != nil {
		return nil, err
	}
	// stderr's anomalies go before the summary, which stays last.
	sum := g.Items[len(g.Items)-1]
	g.Items = g.Items[:len(g.Items)-1]
	stderrItems(ctx, g, src)
	g.Items = append(g.Items, sum)
	if src.Exit() >= 124 {
		g.Lose("partial-parse", "git stopped with exit status %d: the output may be cut short", src.Exit())
	}
	return g, nil
}

// stderrItems lists git's warnings and errors, and sets the verdict "error"
// when git failed with a fatal message.
func stderrItems(ctx context.Context, g *evidence.Graph, src *evidence.Source) {
	st := src.Stream(evidence.Stderr)
	if len(st.Head()) == 0 || st.Open == nil {
		return
	}
	rc, err := st.Open()
	if err != nil {
		return
	}
	defer rc.Close()
	n := 0
	fatal := false
	lines.Scan(ctx, rc, func(i int, line []byte, long bool) error {
		s := strings.TrimSpace(string(lines.Clean(line)))
		if s == "" || strings.HasPrefix(s, "hint:") {
			return nil
		}
		sev := evidence.SeverityInfo
		switch {
		case strings.HasPrefix(s, "fatal:") || strings.HasPrefix(s, "error:"):
			sev = evidence.SeverityError
			fatal = true
		case strings.HasPrefix(s, "warning:"):
			sev = evidence.SeverityWarning
		}
		n++
		if n > maxStderr {
			return nil
		}
		g.Add(evidence.Item{Kind: evidence.KindAnomaly, Tool: "git", Line: i, Text: evidence.Clip(s, maxText),
			Why: "stderr", Severity: sev, Span: evidence.Span{Stream: evidence.Stderr, From: i, To: i}})
		return nil
	})
	if n > maxStderr {
		g.Lose("item-cap", "%d of %d stderr lines listed", maxStderr, n)
	}
	if fatal && src.Exit() != 0 {
		g.Verdict = "error"
	}
}

// unquote decodes a path git quoted C-style ("a\tb", "\303\251").
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3':
			if i+2 < len(s) {
				v := (int(e-'0') << 6) | (int(s[i+1]-'0') << 3) | int(s[i+2]-'0')
				b.WriteByte(byte(v))
				i += 2
			}
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}
