package git

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/testenv"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

func parseTwice(argv []string, exit int, stdout, stderr []byte) (*evidence.Graph, error) {
	return profiletest.ParseTwice(Profile, argv, exit, stdout, stderr)
}

func parseOut(t *testing.T, argv []string, exit int, stdout, stderr []byte) *evidence.Graph {
	t.Helper()
	g, err := parseTwice(argv, exit, stdout, stderr)
	if err != nil {
		t.Fatalf("Parse %q: %v\n%s", argv, err, stdout)
	}
	return g
}

// repo is a scratch repository with fixed authors and dates.
type repo struct {
	t   *testing.T
	dir string
	day int
}

var gitEnv = []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=/nonexistent", "GIT_PAGER=cat", "PAGER=cat", "LC_ALL=C", "TZ=UTC"}

func newRepo(t *testing.T) *repo {
	t.Helper()
	testenv.Tool(t, "apt-get install git", "git")
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main", ".")
	return r
}

// git runs git and returns its exit status, stdout and stderr.
func (r *repo) run(args ...string) (int, []byte, []byte) {
	r.t.Helper()
	date := fmt.Sprintf("2020-01-%02dT12:00:00Z", r.day+1)
	cmd := exec.Command("git", append([]string{"-c", "user.name=Ada Lovelace", "-c", "user.email=ada@example.com",
		"-c", "core.abbrev=12", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), gitEnv...)
	cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return code, out.Bytes(), errb.Bytes()
}

func (r *repo) git(args ...string) []byte {
	r.t.Helper()
	code, out, errb := r.run(args...)
	if code != 0 {
		r.t.Fatalf("git %q: exit %d: %s", args, code, errb)
	}
	return out
}

func (r *repo) write(name, body string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	r.day++
}

// history builds three commits and a dirty work tree:
//
//	1 add a.txt, lib/b.go, img.bin, old.txt, run.sh
//	2 edit a.txt, rename old.txt -> new.txt, chmod run.sh, change img.bin, add c.txt
//	3 add header-looking lines to lib/b.go
//
// then: a.txt edited (unstaged), c.txt staged and edited again, s.txt added,
// new.txt renamed to renamed.txt (staged), lib/b.go deleted (unstaged),
// u.txt untracked.
func history(t *testing.T) *repo {
	r := newRepo(t)
	r.write("a.txt", "one\ntwo\nthree\n")
	r.write("lib/b.go", "package lib\n\nfunc B() int {\n\treturn 1\n}\n")
	r.write("img.bin", "\x00\x01\x02PNG")
	r.write("old.txt", "a file that moves\nwith two lines\n")
	r.write("run.sh", "#!/bin/sh\necho hi\n")
	r.commit("Add the first files")

	r.write("a.txt", "one\n2\nthree\n")
	r.git("mv", "old.txt", "new.txt")
	os.Chmod(filepath.Join(r.dir, "run.sh"), 0o755)
	r.write("img.bin", "\x00\x01\x02PNG2")
	r.write("c.txt", "c\n")
	r.commit("Edit, rename, chmod\n\nThe body explains why.\nFAILED is just a word here.")

	r.write("lib/b.go", "package lib\n\n// --- not a header\n// +++ nor this\ndiff --git a/x b/x\ncommit 0123456789abcdef0123456789abcdef01234567\n@@ -1 +1 @@\nfunc B() int {\n\treturn 1\n}\n")
	r.commit("Add lines that look like headers")

	r.write("a.txt", "one\n2\nthree\nfour\n")
	r.write("c.txt", "c staged\n")
	r.git("add", "c.txt")
	r.write("c.txt", "c staged\nand more\n")
	r.write("s.txt", "s\n")
	r.git("add", "s.txt")
	r.git("mv", "new.txt", "renamed.txt")
	os.Remove(filepath.Join(r.dir, "lib/b.go"))
	r.write("u.txt", "untracked\n")
	return r
}

// render is a compact account of a graph for comparisons.
func render(g *evidence.Graph) string {
	var parts []string
	for _, it := range g.Items {
		var s string
		switch it.Kind {
		case evidence.KindFile:
			s = it.File + "[" + it.Attrs["status"]
			if it.Attrs["section"] != "" {
				s += " " + it.Attrs["section"]
			}
			if it.Attrs["from"] != "" {
				s += " from " + it.Attrs["from"]
			}
			if it.Attrs["binary"] != "" {
				s += " bin"
			}
			if it.Attrs["mode"] != "" {
				s += " " + it.Attrs["mode"]
			}
			s += "]"
			for _, k := range evidence.SortedKeys(it.Counts) {
				s += " " + k + "=" + strconv.Itoa(it.Counts[k])
			}
		case evidence.KindCommit:
			s = "commit " + it.Text + " <" + it.Attrs["author"] + "> " + it.Attrs["date"]
			if it.Attrs["refs"] != "" {
				s += " (" + it.Attrs["refs"] + ")"
			}
			for _, k := range evidence.SortedKeys(it.Counts) {
				s += " " + k + "=" + strconv.Itoa(it.Counts[k])
			}
		case evidence.KindSummary:
			s = "summary " + it.Name
			for _, k := range evidence.SortedKeys(it.Counts) {
				s += " " + k + "=" + strconv.Itoa(it.Counts[k])
			}
		case evidence.KindAnomaly:
			s = "! " + it.Text
		case evidence.KindRegion:
			continue // hunks: see hunks
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n")
}

// runBoth runs a git command plain and with colour forced, as ctx's pty
// gets it, checks both parse to the same items, and returns the plain one.
func runBoth(t *testing.T, r *repo, args ...string) (*evidence.Graph, []byte) {
	t.Helper()
	code, out, errb := r.run(args...)
	g := parseOut(t, append([]string{"git"}, args...), code, out, errb)
	colored := append([]string{"-c", "color.ui=always"}, args...)
	code, cout, errb := r.run(colored...)
	gc := parseOut(t, append([]string{"git"}, colored...), code, cout, errb)
	if a, b := render(g)+hunks(g), render(gc)+hunks(gc); a != b {
		t.Errorf("git %v: plain and colour differ:\n%s\n---\n%s", args, a, b)
	}
	crlf := bytes.ReplaceAll(cout, []byte("\n"), []byte("\r\n"))
	if a, b := render(g), render(parseOut(t, append([]string{"git"}, colored...), code, crlf, errb)); a != b {
		t.Errorf("git %v: CRLF differs:\n%s\n---\n%s", args, a, b)
	}
	if len(g.Losses) != 0 {
		t.Errorf("git %v: losses %v", args, g.Losses)
	}
	return g, out
}

func TestRealGit(t *testing.T) {
	r := history(t)
	const (
		c3 = "commit Add lines that look like headers <Ada Lovelace <ada@example.com>> Fri Jan 3 12:00:00 2020 +0000"
		c2 = "commit Edit, rename, chmod <Ada Lovelace <ada@example.com>> Thu Jan 2 12:00:00 2020 +0000"
		c1 = "commit Add the first files <Ada Lovelace <ada@example.com>> Wed Jan 1 12:00:00 2020 +0000"
	)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff"}, `a.txt[modified] added=1 hunks=1 removed=0
c.txt[modified] added=1 hunks=1 removed=0
lib/b.go[deleted] added=0 hunks=1 removed=10
summary diff added=2 files=3 removed=10`},
		{[]string{"diff", "--cached"}, `c.txt[modified] added=1 hunks=1 removed=1
renamed.txt[renamed from new.txt] added=0 hunks=0 removed=0
s.txt[added] added=1 hunks=1 removed=0
summary diff added=2 files=3 removed=1`},
		{[]string{"diff", "HEAD~2", "HEAD"}, `a.txt[modified] added=1 hunks=1 removed=1
c.txt[added] added=1 hunks=1 removed=0
img.bin[binary bin] added=0 hunks=0 removed=0
lib/b.go[modified] added=5 hunks=1 removed=0
new.txt[renamed from old.txt] added=0 hunks=0 removed=0
run.sh[mode 100644 -> 100755] added=0 hunks=0 removed=0
summary diff added=7 files=6 removed=1`},
		{[]string{"diff", "--stat", "HEAD~2", "HEAD"}, `a.txt[modified] changed=2
c.txt[modified] changed=1
img.bin[binary bin]
lib/b.go[modified] changed=5
new.txt[renamed from old.txt]
run.sh[modified] changed=0
summary diff deletions=1 files=6 files_changed=6 insertions=7`},
		{[]string{"diff", "--numstat", "HEAD~2", "HEAD"}, `a.txt[modified] added=1 removed=1
c.txt[modified] added=1 removed=0
img.bin[binary bin]
lib/b.go[modified] added=5 removed=0
new.txt[renamed from old.txt] added=0 removed=0
run.sh[modified] added=0 removed=0
summary diff added=7 files=6 removed=1`},
		{[]string{"diff", "--name-status", "-M", "HEAD~2", "HEAD"}, `a.txt[modified]
c.txt[added]
img.bin[modified]
lib/b.go[modified]
new.txt[renamed from old.txt]
run.sh[modified]
summary diff files=6`},
		{[]string{"diff", "--stat", "-p", "HEAD~2", "HEAD"}, `a.txt[modified] added=1 changed=2 hunks=1 removed=1
c.txt[added] added=1 changed=1 hunks=1 removed=0
img.bin[binary bin] added=0 hunks=0 removed=0
lib/b.go[modified] added=5 changed=5 hunks=1 removed=0
new.txt[renamed from old.txt] added=0 hunks=0 removed=0
run.sh[mode 100644 -> 100755] added=0 hunks=0 removed=0
summary diff added=7 deletions=1 files=6 files_changed=6 insertions=7 removed=1`},
		{[]string{"log"}, c3 + "\n" + c2 + "\n" + c1 + "\nsummary log commits=3 files=0"},
		{[]string{"log", "--graph"}, c3 + "\n" + c2 + "\n" + c1 + "\nsummary log commits=3 files=0"},
		{[]string{"log", "--oneline"}, "commit Add lines that look like headers <> \ncommit Edit, rename, chmod <> \ncommit Add the first files <> \nsummary log commits=3 files=0"},
		{[]string{"log", "--graph", "--oneline"}, "commit Add lines that look like headers <> \ncommit Edit, rename, chmod <> \ncommit Add the first files <> \nsummary log commits=3 files=0"},
		{[]string{"log", "--stat"}, c3 + ` files_changed=1 insertions=5
lib/b.go[modified] changed=5
` + c2 + ` deletions=1 files_changed=5 insertions=2
a.txt[modified] changed=2
c.txt[modified] changed=1
img.bin[binary bin]
new.txt[renamed from old.txt]
run.sh[modified] changed=0
` + c1 + ` files_changed=5 insertions=12
a.txt[modified] changed=3
img.bin[binary bin]
lib/b.go[modified] changed=5
old.txt[modified] changed=2
run.sh[modified] changed=2
summary log commits=3 files=11`},
		{[]string{"log", "-p"}, c3 + `
lib/b.go[modified] added=5 hunks=1 removed=0
` + c2 + `
a.txt[modified] added=1 hunks=1 removed=1
c.txt[added] added=1 hunks=1 removed=0
img.bin[binary bin] added=0 hunks=0 removed=0
new.txt[renamed from old.txt] added=0 hunks=0 removed=0
run.sh[mode 100644 -> 100755] added=0 hunks=0 removed=0
` + c1 + `
a.txt[added] added=3 hunks=1 removed=0
img.bin[added bin] added=0 hunks=0 removed=0
lib/b.go[added] added=5 hunks=1 removed=0
old.txt[added] added=2 hunks=1 removed=0
run.sh[added] added=2 hunks=1 removed=0
summary log added=19 commits=3 files=11 removed=1`},
		{[]string{"show", "HEAD~1"}, c2 + `
a.txt[modified] added=1 hunks=1 removed=1
c.txt[added] added=1 hunks=1 removed=0
img.bin[binary bin] added=0 hunks=0 removed=0
new.txt[renamed from old.txt] added=0 hunks=0 removed=0
run.sh[mode 100644 -> 100755] added=0 hunks=0 removed=0
summary show added=2 commits=1 files=5 removed=1`},
		{[]string{"show", "--stat", "HEAD~1"}, c2 + ` deletions=1 files_changed=5 insertions=2
a.txt[modified] changed=2
c.txt[modified] changed=1
img.bin[binary bin]
new.txt[renamed from old.txt]
run.sh[modified] changed=0
summary show commits=1 files=5`},
		{[]string{"status"}, `c.txt[modified staged]
renamed.txt[renamed staged from new.txt]
s.txt[added staged]
a.txt[modified unstaged]
c.txt[modified unstaged]
lib/b.go[deleted unstaged]
u.txt[untracked untracked]
summary status staged=3 unstaged=3 untracked=1`},
	} {
		g, _ := runBoth(t, r, tc.args...)
		if got := render(g); got != tc.want {
			t.Errorf("git %v:\ngot\n%s\nwant\n%s", tc.args, got, tc.want)
		}
	}
	short := `a.txt[modified unstaged]
c.txt[modified staged]
c.txt[modified unstaged]
lib/b.go[deleted unstaged]
renamed.txt[renamed staged from new.txt]
s.txt[added staged]
u.txt[untracked untracked]
summary status staged=3 unstaged=3 untracked=1`
	for _, args := range [][]string{{"status", "--short"}, {"status", "-sb"}, {"status", "--porcelain", "-b"},
		{"status", "--porcelain=v2", "-b"}, {"status", "-z", "--porcelain"}, {"status", "--porcelain=v2", "-z"}} {
		g, _ := runBoth(t, r, args...)
		if got := render(g); got != short {
			t.Errorf("git %v:\ngot\n%s\nwant\n%s", args, got, short)
		}
	}
	g, _ := runBoth(t, r, "status", "--porcelain=v2", "-b")
	if sum := g.Items[len(g.Items)-1]; sum.Attrs["branch"] != "main" {
		t.Errorf("branch attrs %v", sum.Attrs)
	}
	// Decorations become the refs attribute; the hash is the item's name.
	for _, args := range [][]string{{"log", "--oneline", "--decorate"}, {"log", "--decorate"}} {
		g, _ := runBoth(t, r, args...)
		head := g.Items[0]
		if head.Kind != evidence.KindCommit || head.Attrs["refs"] != "HEAD -> main" || len(head.Name) < 7 {
			t.Errorf("git %v: first commit %+v", args, head)
		}
	}
}

// Spans: each file's covers its whole diff block; each commit's covers its
// block up to the next commit.
func TestSpans(t *testing.T) {
	r := history(t)
	_, out := runBoth(t, r, "log", "-p")
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	var starts []int
	for i, l := range lines {
		if strings.HasPrefix(l, "commit ") || strings.HasPrefix(l, "diff --git ") {
			starts = append(starts, i+1)
		}
	}
	starts = append(starts, len(lines)+1)
	g, _ := runBoth(t, r, "log", "-p")
	var spans []string
	for _, it := range g.Items {
		if it.Kind == evidence.KindFile || it.Kind == evidence.KindCommit {
			spans = append(spans, it.Span.Handle())
		}
	}
	var want []string
	for i := 0; i+1 < len(starts); i++ {
		from, to := starts[i], starts[i+1]-1
		if lines[to-1] == "" && strings.HasPrefix(lines[from-1], "diff") {
			to-- // the blank line before the next commit is not the file's
		}
		want = append(want, evidence.Span{Base: "run:test", Stream: "stdout", From: from, To: to}.Handle())
	}
	// Commit spans end before their first file; compare files exactly and
	// commits by their first line.
	if len(spans) != len(want) {
		t.Fatalf("spans %v, want %v", spans, want)
	}
	for i := range spans {
		ps, _ := evidence.ParseSpan(spans[i])
		pw, _ := evidence.ParseSpan(want[i])
		if ps.From != pw.From || (strings.HasPrefix(lines[ps.From-1], "diff") && ps.To != pw.To) {
			t.Errorf("span %d = %s, want %s (%q)", i, spans[i], want[i], lines[ps.From-1])
		}
	}
}

// Lines inside a hunk that look like headers are content.
func TestHeaderLookingContent(t *testing.T) {
	r := history(t)
	g, _ := runBoth(t, r, "show", "HEAD")
	commits := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindCommit })
	files := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindFile })
	if commits != 1 || files != 1 {
		t.Errorf("%d commits and %d files, want 1 and 1:\n%s", commits, files, render(g))
	}
	// "FAILED" in a commit message is a word, not a verdict.
	g, _ = runBoth(t, r, "log", "-p")
	if g.Verdict != "" || g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindAnomaly }) != 0 {
		t.Errorf("log -p: verdict %q\n%s", g.Verdict, render(g))
	}
}

func TestQuotedPaths(t *testing.T) {
	r := newRepo(t)
	r.write("tést.txt", "a\n")
	r.write("sp ace.txt", "a\n")
	r.write("tab\there.txt", "a\n")
	r.commit("odd names")
	r.write("tést.txt", "b\n")
	r.write("sp ace.txt", "b\n")
	r.write("tab\there.txt", "b\n")
	for _, args := range [][]string{{"diff"}, {"status"}, {"status", "--short"}, {"diff", "--stat"}, {"diff", "--numstat"}} {
		g, out := runBoth(t, r, args...)
		var files []string
		for _, it := range g.Items {
			if it.Kind == evidence.KindFile {
				files = append(files, it.File)
			}
		}
		if strings.Join(files, "|") != "sp ace.txt|tab\there.txt|tést.txt" {
			t.Errorf("git %v: files %q\n%s", args, files, out)
		}
	}
}

func TestMergeCombinedDiff(t *testing.T) {
	r := newRepo(t)
	r.write("f.txt", "base\n")
	r.commit("base")
	r.git("checkout", "-q", "-b", "side")
	r.write("f.txt", "side\n")
	r.commit("side")
	r.git("checkout", "-q", "main")
	r.write("f.txt", "main\n")
	r.commit("main")
	r.run("merge", "-q", "side")
	r.write("f.txt", "resolved\n")
	r.commit("Merge side")
	g, _ := runBoth(t, r, "show", "HEAD")
	var commit, file *evidence.Item
	for i := range g.Items {
		switch g.Items[i].Kind {
		case evidence.KindCommit:
			commit = &g.Items[i]
		case evidence.KindFile:
			file = &g.Items[i]
		}
	}
	if commit == nil || commit.Attrs["merge"] == "" || commit.Text != "Merge side" {
		t.Fatalf("merge commit %+v", commit)
	}
	if file == nil || file.File != "f.txt" || file.Counts["added"] != 1 || file.Counts["removed"] != 2 {
		t.Errorf("combined diff file %+v", file)
	}
	g, _ = runBoth(t, r, "log", "--graph")
	if n := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindCommit }); n != 4 {
		t.Errorf("log --graph of a merge: %d commits\n%s", n, render(g))
	}
	g, _ = runBoth(t, r, "log", "--graph", "--oneline")
	if n := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindCommit }); n != 4 {
		t.Errorf("log --graph --oneline of a merge: %d commits\n%s", n, render(g))
	}
}

// A diff cut inside a hunk (the process was killed) keeps what arrived and
// says the rest is missing; no verdict is claimed.
func TestTruncatedDiff(t *testing.T) {
	r := history(t)
	_, out, _ := r.run("log", "-p")
	cut := out[:bytes.LastIndex(out[:len(out)/2], []byte("\n"))+1]
	g := parseOut(t, []string{"git", "log", "-p"}, 137, cut, nil)
	if g.Verdict != "" || len(g.Losses) == 0 {
		t.Errorf("verdict %q losses %v", g.Verdict, g.Losses)
	}
	_, out, _ = r.run("diff", "HEAD~2", "HEAD")
	i := bytes.Index(out, []byte("+2\n"))
	g = parseOut(t, []string{"git", "diff"}, 0, out[:i], nil)
	found := false
	for _, l := range g.Losses {
		found = found || strings.Contains(l.Detail, "inside a hunk of a.txt")
	}
	if !found {
		t.Errorf("losses %v, want the cut hunk of a.txt", g.Losses)
	}
}

// git's exit status and text can disagree: diff --exit-code exits 1 with a
// normal diff (not an error); a fatal error is an error with its message.
func TestExitAndStderr(t *testing.T) {
	r := history(t)
	code, out, errb := r.run("diff", "--exit-code")
	g := parseOut(t, []string{"git", "diff", "--exit-code"}, code, out, errb)
	if code != 1 || g.Verdict != "" || g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindFile }) != 3 {
		t.Errorf("diff --exit-code: exit %d verdict %q", code, g.Verdict)
	}
	r.dir = t.TempDir() // not a repository
	code, out, errb = r.run("status")
	g = parseOut(t, []string{"git", "status"}, code, out, errb)
	an := 0
	for _, it := range g.Items {
		if it.Kind == evidence.KindAnomaly && strings.HasPrefix(it.Text, "fatal:") && it.Severity == evidence.SeverityError {
			an++
		}
	}
	if code != 128 || g.Verdict != "error" || an != 1 {
		t.Errorf("status outside a repository: exit %d verdict %q\n%s", code, g.Verdict, render(g))
	}
}

func TestPlainDiffU(t *testing.T) {
	testenv.Tool(t, "apt-get install diffutils", "diff")
	dir := t.TempDir()
	for name, body := range map[string]string{"a/x.txt": "1\n2\n3\n", "b/x.txt": "1\ntwo\n3\n4\n", "a/gone.txt": "g\n", "b/new.txt": "n\n"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	cmd := exec.Command("diff", "-ruN", "a", "b")
	cmd.Dir = dir
	out, _ := cmd.Output()
	g := parseOut(t, []string{"diff", "-ruN", "a", "b"}, 1, out, nil)
	got := render(g)
	want := `gone.txt[deleted] added=0 hunks=1 removed=1
new.txt[added] added=1 hunks=1 removed=0
x.txt[modified] added=2 hunks=1 removed=1
summary diff added=3 files=3 removed=2`
	if got != want {
		t.Errorf("diff -ruN:\n%s\nwant\n%s\n%s", got, want, out)
	}
}

func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "diff"}, "diff"},
		{[]string{"git", "--no-pager", "-C", "x", "-c", "color.ui=always", "diff", "--cached"}, "diff"},
		{[]string{"git", "show", "HEAD"}, "show"},
		{[]string{"git", "show", "HEAD:go.mod"}, ""},
		{[]string{"git", "log", "--oneline", "-5"}, "log"},
		{[]string{"git", "log", "--format=%H %s"}, ""},
		{[]string{"git", "log", "--pretty=fuller"}, "log"},
		{[]string{"git", "log", "--pretty", "%H"}, ""},
		{[]string{"git", "whatchanged"}, "log"},
		{[]string{"git", "status", "-sb"}, "status"},
		{[]string{"git", "stash", "show", "-p"}, "diff"},
		{[]string{"git", "commit", "-m", "x"}, ""},
		{[]string{"git", "grep", "x"}, ""},
		{[]string{"diff", "-u", "a", "b"}, "diff"},
		{[]string{"diff", "-ruN", "a", "b"}, "diff"},
		{[]string{"diff", "a", "b"}, ""},
		{nil, ""},
	} {
		if got := commandOf(tc.argv).kind; got != tc.want {
			t.Errorf("commandOf(%q) = %q, want %q", tc.argv, got, tc.want)
		}
		if Profile.Argv(tc.argv) != (tc.want != "") {
			t.Errorf("Argv(%q) = %v", tc.argv, !(tc.want != ""))
		}
	}
}

func TestContent(t *testing.T) {
	r := history(t)
	for _, args := range [][]string{{"diff"}, {"log"}, {"log", "-p"}, {"show", "HEAD~1"}, {"status"}} {
		for _, color := range []bool{false, true} {
			full := args
			if color {
				full = append([]string{"-c", "color.ui=always"}, args...)
			}
			_, out, _ := r.run(full...)
			src := evidence.BytesSource(nil, 0, out, nil)
			if !Profile.Content(src) {
				t.Errorf("Content(git %v) = false", full)
				continue
			}
			// Without argv the parse reads the same items.
			g := parseOut(t, nil, 0, out, nil)
			code, out2, errb := r.run(args...)
			want := render(parseOut(t, append([]string{"git"}, args...), code, out2, errb))
			want = strings.Replace(want, "summary show", "summary log", 1) // a commit alone reads as a log
			if render(g) != want {
				t.Errorf("git %v without argv:\n%s\nwant\n%s", full, render(g), want)
			}
		}
	}
	for _, args := range [][]string{{"log", "--oneline"}, {"status", "--short"}, {"diff", "--stat"}} {
		_, out, _ := r.run(args...)
		if Profile.Content(evidence.BytesSource(nil, 0, out, nil)) {
			t.Errorf("Content(git %v) = true: too ambiguous to claim", args)
		}
	}
	if _, err := parseTwice(nil, 0, []byte("hello\n"), nil); err == nil {
		t.Error("plain text parsed as git output")
	}
}

// corpusDir finds shared/corpus beside the repository root, or skips.
func corpusDir(t testing.TB) string {
	t.Helper()
	return testenv.Corpus(t, "")
}

func TestCorpusIsNotGit(t *testing.T) {
	root := corpusDir(t)
	var files []string
	for _, pat := range []string{"gotest/*.txt", "diagnostics/*.in", "loghub2k/*/*_2k.log"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if Profile.Content(evidence.BytesSource(nil, 0, in, nil)) {
			t.Errorf("%s: taken for git output", f)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"), uint8(0))
	f.Add([]byte("commit 0123456789abcdef0123456789abcdef01234567\nAuthor: A <a@b>\nDate:   now\n\n    subject\n\n a | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"), uint8(1))
	f.Add([]byte("On branch main\nChanges to be committed:\n\tmodified:   a\n\tnew file:   b\n\nUntracked files:\n\tc\n"), uint8(2))
	f.Add([]byte("## main...o/main [ahead 1]\n M a\nR  b -> c\n?? d\n"), uint8(3))
	f.Add([]byte("@@@ -1,2 -1,2 +1,2 @@@\n- a\n +b\n++c\n"), uint8(4))
	argvs := [][]string{nil, {"git", "log", "--graph"}, {"git", "status"}, {"git", "status", "-sb"},
		{"git", "show"}, {"git", "status", "--porcelain=v2", "-z"}, {"git", "log", "--oneline"}, {"diff", "-u", "a", "b"}}
	f.Fuzz(func(t *testing.T, out []byte, pick uint8) {
		argv := argvs[int(pick)%len(argvs)]
		g, err := parseTwice(argv, 0, out, out)
		if err != nil {
			return
		}
		added := 0
		for _, it := range g.Items {
			if it.Kind == evidence.KindFile {
				if it.Span.IsZero() {
					t.Errorf("file item without a span: %+v", it)
				}
				added += it.Counts["added"]
			}
		}
		sum := g.Items[len(g.Items)-1]
		if sum.Kind != evidence.KindSummary {
			t.Fatalf("last item %+v is not the summary", sum)
		}
		if v, ok := sum.Counts["added"]; ok && v != added {
			t.Errorf("summary added %d, files add up to %d", v, added)
		}
	})
}

// TestDiffContentWithCarriageReturns: a file whose lines hold carriage returns
// (a captured progress bar) must not break hunk counting.
func TestDiffContentWithCarriageReturns(t *testing.T) {
	diff := "diff --git a/out.txt b/out.txt\n" +
		"new file mode 100644\n" +
		"index 0000000..1111111\n" +
		"--- /dev/null\n" +
		"+++ b/out.txt\n" +
		"@@ -0,0 +1,3 @@\n" +
		"+building 10%\rbuilding 50%\rbuilding 100%\n" +
		"+\x1b[32mdone\x1b[0m\r\n" +
		"+end\n" +
		"diff --git a/two.txt b/two.txt\n" +
		"index 1111111..2222222 100644\n" +
		"--- a/two.txt\n" +
		"+++ b/two.txt\n" +
		"@@ -1 +1 @@\n" +
		"-old\n" +
		"+new\n"
	g, err := Profile.Parse(context.Background(), evidence.BytesSource([]string{"git", "diff"}, 0, []byte(diff), nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Losses) != 0 {
		t.Errorf("losses: %+v", g.Losses)
	}
	var files []string
	for _, it := range g.Items {
		if it.Kind == evidence.KindFile {
			files = append(files, fmt.Sprintf("%s +%d -%d", it.File, it.Counts["added"], it.Counts["removed"]))
		}
	}
	if got := strings.Join(files, ", "); got != "out.txt +3 -0, two.txt +1 -1" {
		t.Errorf("files: %s", got)
	}
}

// hunks renders the hunk items of a graph: file, header, +/-, span.
func hunks(g *evidence.Graph) string {
	var b strings.Builder
	for _, it := range g.Items {
		if it.Kind == evidence.KindRegion && it.Why == "hunk" {
			fmt.Fprintf(&b, "%s %s +%d -%d L%d-%d\n", it.File, it.Name, it.Counts["added"], it.Counts["removed"], it.Span.From, it.Span.To)
		}
	}
	return b.String()
}

// A -z entry longer than lines.Max (no real git prints one: its paths stop
// at PATH_MAX, so the record is spliced into real output in git's own
// format) was cut there and read as a shorter path, with no loss. It is
// left out, not counted, and recorded as a loss; the entries around it
// stay.
func TestStatusZLongEntryIsALoss(t *testing.T) {
	r := history(t)
	code, out, errb := r.run("status", "--porcelain=v2", "-z", "--branch")
	long := "? " + strings.Repeat("d/", 35000) + "f.txt\x00"
	spliced := append([]byte(long), out...)
	g := parseOut(t, []string{"git", "status", "--porcelain=v2", "-z", "--branch"}, code, spliced, errb)
	want := parseOut(t, []string{"git", "status", "--porcelain=v2", "-z", "--branch"}, code, out, errb)
	if got := render(g); got != render(want) {
		t.Errorf("with a long entry:\n%s\nwithout:\n%s", got, render(want))
	}
	var loss string
	for _, l := range g.Losses {
		if l.Code == "long-line" {
			loss = l.Detail
		}
	}
	if !strings.Contains(loss, "1 status entry longer than 64 KiB not read, nor counted (the first is NUL-separated entry 1;") {
		t.Errorf("losses %+v", g.Losses)
	}
}
