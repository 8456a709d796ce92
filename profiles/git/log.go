package git

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// The log parser reads git log (default, --oneline, --stat, -p, --graph),
// git show (a commit's header, message, stat and diff) and git diff (with
// --stat, --numstat, --name-status, --raw, and plain diff -u) in one pass:
// a commit header opens a commit, a diff header opens a file inside the
// current commit (or at the top level for a plain diff).

type commitAcc struct {
	hash, refs   string
	author, date string
	merge        string
	subject      string
	from, to     int
	stat         map[string]int // the commit's --stat summary line
	files        int
	state        int // header, message, body
}

const (
	stHeader = iota
	stMessage
	stBody
)

type fileAcc struct {
	commit         *commitAcc
	path, from     string
	status         string
	added, removed int
	hunks          int
	changed        int // from --stat
	binary         bool
	similarity     string
	oldMode        string
	newMode        string
	fromLine, to   int
	hasDiff        bool
	git            bool // opened by a "diff --git" header
	counted        bool // added/removed known exactly (diff or numstat)
	hunkList       []hunkAcc
}

// hunkAcc is one "@@ -a,b +c,d @@ context" hunk of a file's diff.
type hunkAcc struct {
	header         string
	from, to       int
	added, removed int
}

// maxHunks bounds the hunks itemised per file; the file's counts cover the rest.
const maxHunks = 200

// lastHunk is the hunk being read, or nil.
func (f *fileAcc) lastHunk() *hunkAcc {
	if len(f.hunkList) == 0 || f.hunks > len(f.hunkList) {
		return nil // none yet, or past the cap
	}
	return &f.hunkList[len(f.hunkList)-1]
}

type logParser struct {
	c       command
	stream  string
	commits []*commitAcc
	files   []*fileAcc
	index   map[string]*fileAcc
	cur     *commitAcc
	file    *fileAcc
	extra   int // items past the cap

	// Hunk state.
	oldLeft, newLeft int
	combined         int // parent columns of a combined diff hunk, 0 otherwise
	binPatch         bool
	pendingMinus     string // a "--- " line seen outside a git header
	pendingLine      int

	stat       map[string]int // a top-level --stat summary
	statAt     int
	unknown    int
	badLines   []int
	incomplete []string
	lastLine   int
	graphW     int // width of the --graph columns
}

func (p *logParser) newCommit(hash, refs string, n int) {
	p.endFile()
	if p.cur != nil {
		p.cur.to = p.lastContent(p.cur.to)
	}
	if len(p.commits)+len(p.files) >= maxItems {
		p.extra++
		p.cur = &commitAcc{hash: hash, from: n, to: n} // counted, not kept
		return
	}
	p.cur = &commitAcc{hash: hash, refs: refs, from: n, to: n}
	p.commits = append(p.commits, p.cur)
}

func (p *logParser) lastContent(to int) int { return max(to, p.lastLine) }

// fileFor returns the file item for path in the current commit, adding it.
func (p *logParser) fileFor(path string, n int) *fileAcc {
	key := path
	if p.cur != nil {
		key = p.cur.hash + "\x00" + path
	}
	if f := p.index[key]; f != nil {
		return f
	}
	f := &fileAcc{commit: p.cur, path: path, fromLine: n, to: n}
	if len(p.commits)+len(p.files) >= maxItems {
		p.extra++
		return f
	}
	p.index[key] = f
	p.files = append(p.files, f)
	if p.cur != nil {
		p.cur.files++
	}
	return f
}

// findStatFile matches a path from a diff to a file the stat listed, whose
// path may be shortened to ".../tail".
func (p *logParser) findStatFile(path string) *fileAcc {
	for i := len(p.files) - 1; i >= 0; i-- {
		f := p.files[i]
		if f.commit != p.cur {
			break
		}
		if f.hasDiff {
			continue
		}
		if f.path == path || (strings.HasPrefix(f.path, ".../") && strings.HasSuffix(path, f.path[3:])) {
			return f
		}
	}
	return nil
}

func (p *logParser) endFile() {
	if p.file != nil && (p.oldLeft > 0 || p.newLeft > 0) {
		p.incomplete = append(p.incomplete, p.file.path)
	}
	p.file = nil
	p.oldLeft, p.newLeft, p.combined = 0, 0, 0
	p.binPatch = false
}

func (p *logParser) miss(n int) {
	p.unknown++
	if len(p.badLines) < maxUnknowns {
		p.badLines = append(p.badLines, n)
	}
}

func parseLog(ctx context.Context, g *evidence.Graph, c command, st evidence.Stream) error {
	p := &logParser{c: c, stream: st.Name, index: make(map[string]*fileAcc)}
	if len(st.Head()) > 0 && st.Open != nil { // not Size: it waits for the end of a running capture
		rc, err := st.Open()
		if err != nil {
			return fmt.Errorf("open %s: %w", st.Name, err)
		}
		err = lines.Scan(ctx, rc, func(n int, line []byte, long bool) error {
			p.line(n, string(lines.StripANSI(line))) // not Clean: a diff line keeps its carriage returns (file content), and its first byte is its kind
			return nil
		})
		rc.Close()
		if err != nil {
			return err
		}
	}
	p.endFile()
	if p.cur != nil {
		p.cur.to = p.lastContent(p.cur.to)
	}
	content := len(p.commits) + len(p.files)
	if p.unknown > 0 && p.unknown > content*4 && p.unknown*2 > max(st.Lines(), 1) {
		return fmt.Errorf("git %s output: %d lines not recognised", c.kind, p.unknown)
	}
	p.items(g)
	if p.unknown > 0 {
		g.Lose("partial-parse", "%d lines not recognised as git %s output (first at line %s)", p.unknown, c.kind, joinInts(p.badLines))
	}
	if len(p.incomplete) > 0 {
		g.Lose("partial-parse", "the diff ends inside a hunk of %s: the output was cut short", p.incomplete[len(p.incomplete)-1])
	}
	if p.extra > 0 {
		g.Lose("item-cap", "%d commit and file items kept; %d more counted only", maxItems, p.extra)
	}
	return nil
}

// graphChars draw the --graph columns.
const graphChars = "*|/\\_ "

// stripGraph removes the --graph columns from the start of a line. A commit
// line sets the width of the columns for the lines that follow it; a line
// of graph drawing only reads as a blank line.
func (p *logParser) stripGraph(s string) string {
	w := 0
	for w < len(s) && strings.IndexByte(graphChars, s[w]) >= 0 {
		w++
	}
	if w == len(s) {
		return ""
	}
	if rest := s[w:]; isCommitLine(rest) || (p.c.oneline && strings.Contains(s[:w], "*")) {
		p.graphW = w
		return rest
	}
	if p.graphW <= len(s) && strings.Trim(s[:p.graphW], graphChars) == "" {
		return s[p.graphW:]
	}
	return s[w:]
}

func (p *logParser) line(n int, s string) {
	if p.c.graph {
		s = p.stripGraph(s)
	}
	// Inside a hunk every line is content until its counts run out.
	if p.file != nil && p.hunkLine(n, s) {
		p.lastLine = n
		return
	}
	if p.binPatch {
		if s == "" {
			p.binPatch = false
		}
		if p.file != nil {
			p.file.to = n
		}
		return
	}
	switch {
	case strings.HasPrefix(s, "commit ") && isCommitLine(s):
		rest := strings.TrimPrefix(s, "commit ")
		hash, refs, _ := strings.Cut(rest, " ")
		p.newCommit(hash, strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(refs), "("), ")"), n)
		p.lastLine = n
		return
	case p.c.oneline && p.onelineCommit(n, s):
		p.lastLine = n
		return
	}
	if p.cur != nil && p.cur.state != stBody && p.file == nil && p.commitLine(n, s) {
		p.lastLine = n
		return
	}
	if p.diffLine(n, s) {
		p.lastLine = n
		return
	}
	if strings.TrimSpace(s) == "" || s == "---" { // format-patch puts "---" before the stat
		return
	}
	p.miss(n)
}

// onelineCommit reads "abc1234 (HEAD -> main) subject".
func (p *logParser) onelineCommit(n int, s string) bool {
	hash, rest, _ := strings.Cut(s, " ")
	if !isHex(hash, 4) {
		return false
	}
	refs := ""
	if strings.HasPrefix(rest, "(") {
		if i := strings.Index(rest, ") "); i > 0 {
			refs, rest = rest[1:i], rest[i+2:]
		} else if strings.HasSuffix(rest, ")") {
			refs, rest = rest[1:len(rest)-1], ""
		}
	}
	p.newCommit(hash, refs, n)
	p.cur.subject = evidence.Clip(rest, maxText)
	p.cur.state = stBody
	return true
}

// commitLine reads the header and message of the current commit.
func (p *logParser) commitLine(n int, s string) bool {
	c := p.cur
	if c.state == stHeader {
		if s == "" {
			c.state = stMessage
			c.to = n
			return true
		}
		key, val, ok := strings.Cut(s, ":")
		if !ok {
			return false
		}
		val = strings.TrimSpace(val)
		switch key {
		case "Author":
			c.author = val
		case "Date", "AuthorDate":
			c.date = val
		case "Merge":
			c.merge = val
		case "Commit", "CommitDate", "Reflog", "Reflog message", "gpg", "Primary key fingerprint", "Notes":
		default:
			return false
		}
		c.to = n
		return true
	}
	// The message: lines indented by four spaces, blank lines between.
	if strings.HasPrefix(s, "    ") {
		if c.subject == "" {
			c.subject = evidence.Clip(strings.TrimSpace(s), maxText)
		}
		c.to = n
		return true
	}
	if s == "" {
		return true
	}
	c.state = stBody
	return false
}

// hunkLine consumes a line of the current hunk and reports whether it was one.
func (p *logParser) hunkLine(n int, s string) bool {
	f := p.file
	if p.combined > 0 {
		if len(s) < p.combined || strings.Trim(s[:p.combined], " +-") != "" {
			p.combined = 0
			return false
		}
		prefix := s[:p.combined]
		h := f.lastHunk()
		if strings.ContainsRune(prefix, '+') {
			f.added++
			if h != nil {
				h.added++
			}
		} else if strings.ContainsRune(prefix, '-') {
			f.removed++
			if h != nil {
				h.removed++
			}
		}
		if h != nil {
			h.to = n
		}
		f.to = n
		return true
	}
	if p.oldLeft <= 0 && p.newLeft <= 0 {
		if strings.HasPrefix(s, `\ `) && f.hunks > 0 { // \ No newline at end of file
			f.to = n
			return true
		}
		return false
	}
	h := f.lastHunk()
	switch {
	case s == "" || s[0] == ' ':
		p.oldLeft--
		p.newLeft--
	case s[0] == '-':
		p.oldLeft--
		f.removed++
		if h != nil {
			h.removed++
		}
	case s[0] == '+':
		p.newLeft--
		f.added++
		if h != nil {
			h.added++
		}
	case s[0] == '\\':
	default:
		// The hunk ended before its counts: the output is cut or mangled.
		p.incomplete = append(p.incomplete, f.path)
		p.oldLeft, p.newLeft = 0, 0
		return false
	}
	if h != nil {
		h.to = n
	}
	f.to = n
	return true
}

// diffLine reads diff headers, hunk headers, stat and numstat lines.
func (p *logParser) diffLine(n int, s string) bool {
	switch {
	case strings.HasPrefix(s, "diff --git "):
		p.startFile(n, gitDiffPath(s[len("diff --git "):]))
		p.file.git = true
		return true
	case strings.HasPrefix(s, "diff --cc ") || strings.HasPrefix(s, "diff --combined "):
		_, path, _ := strings.Cut(s[len("diff --"):], " ")
		p.startFile(n, unquote(path))
		p.file.status = "modified"
		return true
	case strings.HasPrefix(s, "diff ") && p.c.kind == "diff" && !strings.HasPrefix(s, "diff --"):
		// diff -ru a/x b/x: the paths come from the --- and +++ lines.
		p.endFile()
		p.pendingMinus, p.pendingLine = "", n
		return true
	case strings.HasPrefix(s, "--- "):
		if p.file != nil && p.file.hunks == 0 {
			if path := diffSidePath(s[4:]); path == "" {
				p.file.status = "added"
			}
			p.file.to = n
			return true
		}
		p.endFile()
		if p.pendingLine == 0 {
			p.pendingLine = n
		}
		p.pendingMinus = s[4:]
		return true
	case strings.HasPrefix(s, "+++ "):
		path := diffSidePath(s[4:])
		if p.file == nil || p.file.hunks > 0 {
			// A plain unified diff: the file starts at its --- line.
			from := diffSidePath(p.pendingMinus)
			start := p.pendingLine
			if start == 0 {
				start = n
			}
			name := path
			if name == "" {
				name = from
			}
			p.startFile(start, name)
			switch {
			case from == "":
				p.file.status = "added"
			case path == "":
				p.file.status = "deleted"
			}
		} else if path == "" {
			p.file.status = "deleted"
		}
		p.pendingMinus, p.pendingLine = "", 0
		p.file.to = n
		return true
	case strings.HasPrefix(s, "@@") && p.file != nil:
		p.hunkHeader(n, s)
		return true
	}
	if p.file != nil && p.file.hunks == 0 && p.headerLine(n, s) {
		return true
	}
	if p.readStat(n, s) {
		return true
	}
	return p.listLine(n, s)
}

func (p *logParser) startFile(n int, path string) {
	p.endFile()
	f := p.findStatFile(path)
	if f == nil {
		f = p.fileFor(path, n)
	} else {
		f.path = path
		f.fromLine = n
	}
	f.hasDiff = true
	f.fromLine, f.to = n, n
	p.file = f
	p.pendingMinus, p.pendingLine = "", 0
}

// headerLine reads the extended header lines between "diff --git" and the
// first hunk.
func (p *logParser) headerLine(n int, s string) bool {
	f := p.file
	key, val, _ := strings.Cut(s, " ")
	switch key {
	case "index", "old", "new", "deleted", "similarity", "dissimilarity", "rename", "copy":
	default:
		switch {
		case strings.HasPrefix(s, "Binary files ") && strings.HasSuffix(s, " differ"):
			f.binary = true
			if strings.HasPrefix(s, "Binary files /dev/null and ") {
				f.status = "added"
			} else if strings.HasSuffix(s, " and /dev/null differ") {
				f.status = "deleted"
			}
		case s == "GIT binary patch":
			f.binary = true
			p.binPatch = true
		default:
			return false
		}
		f.to = n
		return true
	}
	switch {
	case strings.HasPrefix(s, "new file mode "):
		f.status, f.newMode = "added", strings.TrimPrefix(s, "new file mode ")
	case strings.HasPrefix(s, "deleted file mode "):
		f.status, f.oldMode = "deleted", strings.TrimPrefix(s, "deleted file mode ")
	case strings.HasPrefix(s, "old mode "):
		f.oldMode = strings.TrimPrefix(s, "old mode ")
	case strings.HasPrefix(s, "new mode "):
		f.newMode = strings.TrimPrefix(s, "new mode ")
	case strings.HasPrefix(s, "similarity index "):
		f.similarity = strings.TrimPrefix(s, "similarity index ")
	case strings.HasPrefix(s, "rename from "):
		f.status, f.from = "renamed", unquote(strings.TrimPrefix(s, "rename from "))
	case strings.HasPrefix(s, "rename to "):
		f.status, f.path = "renamed", unquote(strings.TrimPrefix(s, "rename to "))
	case strings.HasPrefix(s, "copy from "):
		f.status, f.from = "copied", unquote(strings.TrimPrefix(s, "copy from "))
	case strings.HasPrefix(s, "copy to "):
		f.status, f.path = "copied", unquote(strings.TrimPrefix(s, "copy to "))
	case key == "index" || key == "dissimilarity":
	default:
		_ = val
		return false
	}
	f.to = n
	return true
}

// hunkHeader reads "@@ -a,b +c,d @@" or a combined "@@@ -a,b -c,d +e,f @@@".
func (p *logParser) hunkHeader(n int, s string) {
	f := p.file
	at := 0
	for at < len(s) && s[at] == '@' {
		at++
	}
	f.hunks++
	f.to = n
	f.counted = true
	if len(f.hunkList) < maxHunks {
		f.hunkList = append(f.hunkList, hunkAcc{header: evidence.Clip(s, 160), from: n, to: n})
	}
	if at > 2 {
		p.combined = at - 1
		return
	}
	fields := strings.Fields(s[at:])
	p.oldLeft, p.newLeft = 1, 1
	for _, fl := range fields {
		if strings.HasPrefix(fl, "@@") {
			break
		}
		cnt := 1
		if _, c, ok := strings.Cut(fl[1:], ","); ok {
			cnt, _ = strconv.Atoi(c)
		}
		switch fl[0] {
		case '-':
			p.oldLeft = cnt
		case '+':
			p.newLeft = cnt
		}
	}
	// diff -N shows a missing side as an empty file: "@@ -0,0 +1 @@".
	if f.hunks == 1 && f.status == "" && !f.git {
		switch {
		case strings.HasPrefix(s, "@@ -0,0 "):
			f.status = "added"
		case strings.Contains(s, " +0,0 @@"):
			f.status = "deleted"
		}
	}
}

// readStat reads " path | 12 ++--", " path | Bin 0 -> 12 bytes" and the
// " 3 files changed, 10 insertions(+), 2 deletions(-)" summary.
func (p *logParser) readStat(n int, s string) bool {
	if !strings.HasPrefix(s, " ") {
		return false
	}
	if counts, ok := statSummary(s); ok {
		if p.cur != nil {
			p.cur.stat = counts
			p.cur.to = max(p.cur.to, n)
		} else {
			p.stat, p.statAt = counts, n
		}
		return true
	}
	i := strings.LastIndex(s, " | ")
	if i < 0 {
		// --summary lines: " create mode 100644 path", " rename a => b (90%)".
		t := strings.TrimSpace(s)
		for _, pre := range []string{"create mode ", "delete mode ", "mode change ", "rename ", "copy "} {
			if strings.HasPrefix(t, pre) {
				return true
			}
		}
		return false
	}
	path := statPath(strings.TrimSpace(s[:i]))
	rest := strings.TrimSpace(s[i+3:])
	f := p.fileFor(path, n)
	switch {
	case strings.HasPrefix(rest, "Bin"):
		f.binary = true
	default:
		num, _, _ := strings.Cut(rest, " ")
		v, err := strconv.Atoi(num)
		if err != nil {
			return false
		}
		f.changed = v
	}
	if strings.Contains(s[:i], " => ") {
		f.status = "renamed"
		f.from = statFrom(strings.TrimSpace(s[:i]))
	}
	return true
}

// statSummary parses " 3 files changed, 10 insertions(+), 2 deletions(-)".
func statSummary(s string) (map[string]int, bool) {
	t := strings.TrimSpace(s)
	if !strings.Contains(t, " changed") || !(strings.Contains(t, " file changed") || strings.Contains(t, " files changed")) {
		return nil, false
	}
	counts := map[string]int{}
	for _, part := range strings.Split(t, ", ") {
		num, word, ok := strings.Cut(part, " ")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, false
		}
		switch {
		case strings.HasPrefix(word, "file"):
			counts["files_changed"] = v
		case strings.HasPrefix(word, "insertion"):
			counts["insertions"] = v
		case strings.HasPrefix(word, "deletion"):
			counts["deletions"] = v
		default:
			return nil, false
		}
	}
	return counts, true
}

// statPath resolves a stat path with a rename: "a => b" or "dir/{a => b}/f".
func statPath(s string) string {
	s = unquote(s)
	if i := strings.Index(s, "{"); i >= 0 {
		if j := strings.Index(s[i:], "}"); j > 0 {
			inner := s[i+1 : i+j]
			if _, to, ok := strings.Cut(inner, " => "); ok {
				return strings.ReplaceAll(s[:i]+to+s[i+j+1:], "//", "/")
			}
		}
	}
	if _, to, ok := strings.Cut(s, " => "); ok {
		return to
	}
	return s
}

func statFrom(s string) string {
	if i := strings.Index(s, "{"); i >= 0 {
		if j := strings.Index(s[i:], "}"); j > 0 {
			inner := s[i+1 : i+j]
			if from, _, ok := strings.Cut(inner, " => "); ok {
				return strings.ReplaceAll(s[:i]+from+s[i+j+1:], "//", "/")
			}
		}
	}
	from, _, _ := strings.Cut(s, " => ")
	return from
}

// listLine reads --numstat ("3\t1\tpath"), --name-status ("M\tpath",
// "R100\told\tnew") and --raw (":100644 100644 abc def M\tpath") lines.
func (p *logParser) listLine(n int, s string) bool {
	fields := strings.Split(s, "\t")
	if len(fields) < 2 {
		return false
	}
	head := fields[0]
	if strings.HasPrefix(head, ":") {
		parts := strings.Fields(head)
		if len(parts) < 5 {
			return false
		}
		head = parts[len(parts)-1]
	}
	if len(fields) >= 3 && (isCount(head) && isCount(fields[1])) {
		path := fields[len(fields)-1]
		f := p.fileFor(statPath(unquote(path)), n)
		if head == "-" {
			f.binary = true
		} else {
			f.added, _ = strconv.Atoi(head)
			f.removed, _ = strconv.Atoi(fields[1])
			f.counted = true
		}
		if strings.Contains(path, " => ") {
			f.status, f.from = "renamed", statFrom(path)
		}
		return true
	}
	status, ok := statusLetter(head)
	if !ok {
		return false
	}
	path := unquote(fields[len(fields)-1])
	f := p.fileFor(path, n)
	f.status = status
	if (status == "renamed" || status == "copied") && len(fields) >= 3 {
		f.from = unquote(fields[1])
		if len(head) > 1 {
			f.similarity = head[1:] + "%"
		}
	}
	return true
}

func isCount(s string) bool {
	if s == "-" {
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// statusLetter maps a --name-status letter (with an optional score).
func statusLetter(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if len(s) > 1 {
		if _, err := strconv.Atoi(s[1:]); err != nil {
			return "", false
		}
	}
	switch s[0] {
	case 'M':
		return "modified", true
	case 'A':
		return "added", true
	case 'D':
		return "deleted", true
	case 'R':
		return "renamed", true
	case 'C':
		return "copied", true
	case 'T':
		return "typechange", true
	case 'U':
		return "unmerged", true
	}
	return "", false
}

// gitDiffPath takes the path from "a/x b/x" (or quoted forms, or prefixes
// other than a/ and b/): the new side's path.
func gitDiffPath(rest string) string {
	if strings.HasPrefix(rest, `"`) || strings.HasSuffix(rest, `"`) {
		// "a/x y" "b/x y" — take the last quoted or plain field.
		if i := strings.LastIndex(rest, ` "`); i >= 0 && strings.HasSuffix(rest, `"`) {
			return stripPrefix(unquote(rest[i+1:]))
		}
		if i := strings.Index(rest, `" `); i >= 0 {
			return stripPrefix(rest[i+2:])
		}
	}
	if (len(rest)-1)%2 == 0 {
		half := (len(rest) - 1) / 2
		if rest[half] == ' ' && stripPrefix(rest[:half]) == stripPrefix(rest[half+1:]) {
			return stripPrefix(rest[half+1:])
		}
	}
	if i := strings.Index(rest, " b/"); i >= 0 {
		return rest[i+3:]
	}
	_, b, _ := strings.Cut(rest, " ")
	return stripPrefix(b)
}

// stripPrefix drops a one-letter diff prefix ("a/", "b/", "i/", "w/").
func stripPrefix(s string) string {
	if len(s) > 2 && s[1] == '/' && s[0] >= 'a' && s[0] <= 'z' {
		return s[2:]
	}
	return s
}

// diffSidePath reads the path of a "--- " or "+++ " line: "" for /dev/null.
func diffSidePath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i] // diff -u appends a timestamp
	}
	s = unquote(strings.TrimSpace(s))
	if s == "/dev/null" {
		return ""
	}
	return stripPrefix(s)
}

func (p *logParser) items(g *evidence.Graph) {
	stream := p.stream
	filesOf := map[*commitAcc][]*fileAcc{}
	var loose []*fileAcc
	for _, f := range p.files {
		if f.commit == nil {
			loose = append(loose, f)
		} else {
			filesOf[f.commit] = append(filesOf[f.commit], f)
		}
	}
	added, removed, exact := 0, 0, false
	for _, f := range p.files {
		added += f.added
		removed += f.removed
		exact = exact || f.counted || f.hasDiff
	}
	for _, f := range loose {
		fi := p.fileItem(f, stream)
		g.Add(fi)
		p.hunkItems(g, f, fi.Key(), stream)
	}
	for _, c := range p.commits {
		attrs := map[string]string{}
		for k, v := range map[string]string{"author": c.author, "date": c.date, "subject": c.subject, "refs": c.refs, "merge": c.merge} {
			if v != "" {
				attrs[k] = v
			}
		}
		it := evidence.Item{Kind: evidence.KindCommit, Tool: "git", Name: c.hash, Text: c.subject,
			Attrs: attrs, Counts: c.stat, Span: evidence.Span{Stream: stream, From: c.from, To: c.to}}
		g.Add(it)
		key := it.Key()
		for _, f := range filesOf[c] {
			fi := p.fileItem(f, stream)
			fi.Rel = []evidence.Relation{{Type: "part-of", To: key}}
			g.Add(fi)
			p.hunkItems(g, f, fi.Key(), stream)
		}
	}
	counts := map[string]int{}
	if len(p.commits) > 0 || p.c.kind == "log" || p.c.kind == "show" {
		counts["commits"] = len(p.commits)
	}
	counts["files"] = len(p.files)
	if exact {
		// Line counts are claimed only when a diff or --numstat gave them.
		counts["added"], counts["removed"] = added, removed
	}
	for k, v := range p.stat {
		counts[k] = v
	}
	kind := p.c.kind
	sum := evidence.Item{Kind: evidence.KindSummary, Tool: "git", Name: kind, Counts: counts}
	switch {
	case len(p.commits) > 0:
		sum.Text = fmt.Sprintf("%d commits", len(p.commits))
	case exact:
		sum.Text = fmt.Sprintf("%d files changed, +%d -%d", len(p.files), added, removed)
	default:
		sum.Text = fmt.Sprintf("%d files changed", len(p.files))
	}
	if p.statAt > 0 {
		sum.Span = evidence.Span{Stream: stream, From: p.statAt, To: p.statAt}
	} else if p.lastLine > 0 {
		sum.Span = evidence.Span{Stream: stream, From: 1, To: p.lastLine}
	}
	g.Add(sum)
}

func (p *logParser) fileItem(f *fileAcc, stream string) evidence.Item {
	status := f.status
	if status == "" {
		switch {
		case f.oldMode != "" && f.newMode != "" && f.hunks == 0 && !f.binary:
			status = "mode"
		case f.binary:
			status = "binary"
		default:
			status = "modified"
		}
	}
	attrs := map[string]string{"status": status}
	if f.from != "" {
		attrs["from"] = f.from
	}
	if f.binary {
		attrs["binary"] = "true"
	}
	if f.similarity != "" {
		attrs["similarity"] = f.similarity
	}
	if f.oldMode != "" && f.newMode != "" {
		attrs["mode"] = f.oldMode + " -> " + f.newMode
	}
	name := ""
	if f.commit != nil {
		name = f.commit.hash
		attrs["commit"] = f.commit.hash
	}
	counts := map[string]int{}
	if f.counted || f.hasDiff {
		counts["added"], counts["removed"] = f.added, f.removed
	}
	if f.hasDiff {
		counts["hunks"] = f.hunks
	}
	if f.changed > 0 || (!f.counted && !f.hasDiff && !f.binary && f.status == "") {
		counts["changed"] = f.changed
	}
	if len(counts) == 0 {
		counts = nil
	}
	return evidence.Item{Kind: evidence.KindFile, Tool: "git", File: f.path, Name: name,
		Counts: counts, Attrs: attrs, Span: evidence.Span{Stream: stream, From: f.fromLine, To: f.to}}
}

// hunkItems adds a region item per hunk of a file: its "@@" header (with the
// function context git prints) and its own added and removed lines.
func (p *logParser) hunkItems(g *evidence.Graph, f *fileAcc, fileKey, stream string) {
	for _, h := range f.hunkList {
		g.Add(evidence.Item{Kind: evidence.KindRegion, Tool: "git", Why: "hunk", File: f.path, Name: h.header,
			Counts: map[string]int{"added": h.added, "removed": h.removed},
			Rel:    []evidence.Relation{{Type: "part-of", To: fileKey}},
			Span:   evidence.Span{Stream: stream, From: h.from, To: h.to}})
	}
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
