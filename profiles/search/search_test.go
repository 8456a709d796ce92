package search

import (
	"bytes"
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
		t.Fatalf("Parse: %v", err)
	}
	return g
}

// render is a compact, ordered account of a graph's hits, for comparing
// with expectations: "path=count@line" per file (b for binary), then the
// summary counts, errors and verdict.
func render(g *evidence.Graph) string {
	var parts []string
	for _, it := range g.Items {
		switch it.Kind {
		case evidence.KindHit:
			s := it.File + "=" + strconv.Itoa(it.Count)
			if it.Line > 0 {
				s += "@" + strconv.Itoa(it.Line)
			}
			if it.Col > 0 {
				s += ":" + strconv.Itoa(it.Col)
			}
			if it.Attrs["binary"] == "true" {
				s += "b"
			}
			parts = append(parts, s)
		case evidence.KindAnomaly:
			parts = append(parts, "!"+it.Text)
		case evidence.KindSummary:
			var cs []string
			for _, k := range evidence.SortedKeys(it.Counts) {
				cs = append(cs, k+"="+strconv.Itoa(it.Counts[k]))
			}
			parts = append(parts, "{"+strings.Join(cs, " ")+"}")
		}
	}
	return strings.Join(parts, " | ") + " | verdict=" + g.Verdict
}

type captured struct {
	name   string
	exit   int
	argv   []string
	stdout []byte
	stderr []byte
}

func loadCases(t *testing.T) []captured {
	t.Helper()
	list, err := os.ReadFile("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []captured
	for _, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		f := strings.SplitN(line, "\t", 3)
		exit, _ := strconv.Atoi(f[1])
		c := captured{name: f[0], exit: exit, argv: strings.Fields(f[2])}
		c.stdout, _ = os.ReadFile(filepath.Join("testdata", c.name+".out"))
		c.stderr, _ = os.ReadFile(filepath.Join("testdata", c.name+".err"))
		out = append(out, c)
	}
	return out
}

// Every captured real output, with what it must yield. Binary matches are
// hits without a line ("b"); grep's exit 1 is a pass with no hits.
func TestCaptured(t *testing.T) {
	want := map[string]string{
		"grep-rn":                  "./src/util/strings.go=1@4 | ./src/main.go=2@3 | ./v1-2-3.txt=1@2 | ./docs/release notes.md=2@3 | ./data.bin=1b | {binary_files=1 files=5 hits=7} | verdict=pass",
		"grep-r":                   "./src/util/strings.go=1 | ./src/main.go=2 | ./v1-2-3.txt=1 | ./docs/release notes.md=2 | ./data.bin=1b | {binary_files=1 files=5 hits=7} | verdict=pass",
		"grep-rn-color":            "./src/util/strings.go=1@4 | ./src/main.go=2@3 | ./v1-2-3.txt=1@2 | ./docs/release notes.md=2@3 | ./data.bin=1b | {binary_files=1 files=5 hits=7} | verdict=pass",
		"grep-c":                   "src/main.go=2 | src/util/strings.go=1 | v1-2-3.txt=1 | {files=3 files_without_match=1 hits=4} | verdict=pass",
		"grep-C1":                  "src/util/strings.go=1@4 | src/main.go=2@3 | v1-2-3.txt=1@2 | {context_lines=6 files=3 hits=4} | verdict=pass",
		"grep-C1-plain":            "src/util/strings.go=1 | src/main.go=2 | v1-2-3.txt=1 | {context_lines=6 files=3 hits=4} | verdict=pass",
		"grep-n-single":            "src/main.go=2@3 | {files=1 hits=2} | verdict=pass",
		"grep-single":              "src/main.go=2 | {files=1 hits=2} | verdict=pass",
		"grep-none":                "{files=0 hits=0} | verdict=pass",
		"grep-missing":             "src/main.go=2@3 | !grep: nosuch.txt: No such file or directory | {errors=1 files=1 hits=2} | verdict=error",
		"grep-binary":              "src/main.go=2@3 | data.bin=1b | {binary_files=1 files=2 hits=3} | verdict=pass",
		"grep-l":                   "./data.bin=0 | ./src/util/strings.go=0 | ./src/main.go=0 | ./v1-2-3.txt=0 | ./docs/release notes.md=0 | {files=5 hits=0} | verdict=pass",
		"grep-Z":                   "src/util/strings.go=1@4 | src/main.go=2@3 | {files=2 hits=3} | verdict=pass",
		"rg-heading":               "docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {files=4 hits=6} | verdict=pass",
		"rg-heading-C1":            "docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {context_lines=7 files=4 hits=6} | verdict=pass",
		"rg-pipe":                  "docs/release notes.md=2 | src/main.go=2 | src/util/strings.go=1 | v1-2-3.txt=1 | {files=4 hits=6} | verdict=pass",
		"rg-no-heading":            "docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {files=4 hits=6} | verdict=pass",
		"rg-json":                  "docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {files=4 hits=6 matched_lines=6 matches=6 searches=4 searches_with_match=4} | verdict=pass",
		"rg-count":                 "docs/release notes.md=2 | src/main.go=2 | src/util/strings.go=1 | v1-2-3.txt=1 | {files=4 hits=6} | verdict=pass",
		"rg-binary":                "src/main.go=2@3 | data.bin=1b | {binary_files=1 files=2 hits=3} | verdict=pass",
		"rg-vimgrep":               "docs/release notes.md=2@3:3 | src/main.go=2@3:4 | src/util/strings.go=1@4:4 | v1-2-3.txt=1@2:1 | {files=4 hits=6} | verdict=pass",
		"rg-single":                "src/main.go=2@3 | {files=1 hits=2} | verdict=pass",
		"rg-none":                  "{files=0 hits=0} | verdict=pass",
		"ag-group":                 "src/util/strings.go=1@4 | src/main.go=2@3 | v1-2-3.txt=1@2 | docs/release notes.md=2@3 | {files=4 hits=6} | verdict=pass",
		"ag-pipe":                  "src/util/strings.go=1@4 | src/main.go=2@3 | v1-2-3.txt=1@2 | docs/release notes.md=2@3 | {files=4 hits=6} | verdict=pass",
		"git-grep-n":               "data.bin=1b | docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {binary_files=1 files=5 hits=7} | verdict=pass",
		"git-grep-color":           "data.bin=1b | docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {binary_files=1 files=5 hits=7} | verdict=pass",
		"git-grep-heading":         "docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {files=4 hits=6} | verdict=pass",
		"git-grep-heading-nobreak": "data.bin=1b | docs/release notes.md=2@3 | src/main.go=2@3 | src/util/strings.go=1@4 | v1-2-3.txt=1@2 | {binary_files=1 files=5 hits=7} | verdict=pass",
		"git-grep-plain":           "data.bin=1b | docs/release notes.md=2 | src/main.go=2 | src/util/strings.go=1 | v1-2-3.txt=1 | {binary_files=1 files=5 hits=7} | verdict=pass",
	}
	cases := loadCases(t)
	if len(cases) != len(want) {
		t.Errorf("%d captured cases, %d expectations", len(cases), len(want))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !Profile.Argv(c.argv) {
				t.Errorf("Argv(%q) = false", c.argv)
			}
			g := parseOut(t, c.argv, c.exit, c.stdout, c.stderr)
			if got := render(g); got != want[c.name] {
				t.Errorf("got  %s\nwant %s", got, want[c.name])
			}
			if len(g.Losses) != 0 {
				t.Errorf("losses %v", g.Losses)
			}
			// CRLF line ends change nothing.
			crlf := bytes.ReplaceAll(c.stdout, []byte("\n"), []byte("\r\n"))
			if got := render(parseOut(t, c.argv, c.exit, crlf, c.stderr)); got != want[c.name] {
				t.Errorf("CRLF: got %s", got)
			}
		})
	}
}

func findCase(t *testing.T, name string) captured {
	t.Helper()
	for _, c := range loadCases(t) {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return captured{}
}

// Spans cover each file's block: the heading line through the last hit, or
// the context lines around the hits.
func TestSpans(t *testing.T) {
	for name, want := range map[string][]string{
		"rg-heading":  {"run:test#stdout:L1-3", "run:test#stdout:L5-7", "run:test#stdout:L9-10", "run:test#stdout:L12-13"},
		"grep-C1":     {"run:test#stdout:L1-3", "run:test#stdout:L5-9", "run:test#stdout:L11-12"},
		"rg-json":     {"run:test#stdout:L1-4", "run:test#stdout:L5-8", "run:test#stdout:L9-11", "run:test#stdout:L12-14"},
		"grep-binary": {"run:test#stdout:L1-2", "run:test#stderr:L1"},
	} {
		c := findCase(t, name)
		g := parseOut(t, c.argv, c.exit, c.stdout, c.stderr)
		var got []string
		for _, it := range g.Items {
			if it.Kind == evidence.KindHit {
				got = append(got, it.Span.Handle())
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s spans = %v, want %v", name, got, want)
		}
	}
}

// Hit text is text: FAILED and Traceback inside matched lines are not
// failures, and the first hit's text is kept as printed, colour removed.
func TestFailureLookingHits(t *testing.T) {
	c := findCase(t, "rg-heading")
	g := parseOut(t, c.argv, c.exit, c.stdout, c.stderr)
	if g.Verdict != "pass" || g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindAnomaly }) != 0 {
		t.Errorf("verdict %q with anomalies: %+v", g.Verdict, g.Items)
	}
	if it := g.Items[0]; it.Text != "- TODO: FAILED tests section" {
		t.Errorf("first hit text %q", it.Text)
	}
}

// The exit status and the text can disagree; the verdict follows the
// tool's exit convention and never hides the hits.
func TestExitAndTextDisagree(t *testing.T) {
	c := findCase(t, "grep-rn")
	for _, tc := range []struct {
		exit    int
		verdict string
		loss    bool
	}{
		{0, "pass", false},
		{1, "pass", false},  // "no match" although lines were printed (a pipeline): still not a failure
		{2, "error", false}, // an error alongside the hits
		{137, "", true},     // killed: the list may be cut short
		{124, "", true},
	} {
		g := parseOut(t, c.argv, tc.exit, c.stdout, c.stderr)
		if g.Verdict != tc.verdict || (len(g.Losses) > 0) != tc.loss {
			t.Errorf("exit %d: verdict %q losses %v", tc.exit, g.Verdict, g.Losses)
		}
		if n := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindHit }); n != 5 {
			t.Errorf("exit %d: %d hit items", tc.exit, n)
		}
	}
	// Without argv the output alone says nothing about success.
	g := parseOut(t, []string{"sh", "-c", "grep -rn TODO . | head"}, 0, c.stdout, nil)
	if g.Verdict != "" || g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindHit }) != 4 {
		t.Errorf("content-detected: verdict %q, items %+v", g.Verdict, g.Items)
	}
}

// Output cut mid-line by a kill: what arrived is kept and labelled.
func TestTruncated(t *testing.T) {
	c := findCase(t, "rg-no-heading")
	cut := c.stdout[:len(c.stdout)-12]
	g := parseOut(t, c.argv, 143, cut, nil)
	if g.Verdict != "" || len(g.Losses) == 0 {
		t.Errorf("verdict %q losses %v", g.Verdict, g.Losses)
	}
}

func TestFileCap(t *testing.T) {
	var b bytes.Buffer
	for i := range maxFiles + 5 {
		fmt.Fprintf(&b, "dir/f%06d.go:1:x\n", i)
	}
	g := parseOut(t, []string{"grep", "-rn", "x", "."}, 0, b.Bytes(), nil)
	hits := g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindHit })
	if hits != maxFiles || len(g.Losses) != 1 || g.Losses[0].Code != "item-cap" {
		t.Errorf("%d hit items, losses %v", hits, g.Losses)
	}
	sum := g.Items[len(g.Items)-1]
	if sum.Counts["files"] != maxFiles+5 || sum.Counts["hits"] != maxFiles+5 {
		t.Errorf("summary %v", sum.Counts)
	}
}

func TestArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"grep", "-rn", "x"}, true},
		{[]string{"egrep", "x"}, true},
		{[]string{"rg", "x"}, true},
		{[]string{"ag", "x"}, true},
		{[]string{"ack", "x"}, true},
		{[]string{"git", "grep", "-n", "x"}, true},
		{[]string{"git", "-C", "repo", "--no-pager", "grep", "x"}, true},
		{[]string{"git", "-c", "color.ui=always", "grep", "x"}, true},
		{[]string{"git", "log", "--grep", "x"}, false},
		{[]string{"git", "-C", "grep", "status"}, false},
		{[]string{"jq", "."}, false},
		{nil, false},
	} {
		if got := Profile.Argv(tc.argv); got != tc.want {
			t.Errorf("Argv(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
	o := parseArgs([]string{"grep", "-e", "pat", "-A", "2", "-rnH", "--include", "*.go", "src"})
	if !o.context || o.numbers != 1 || !o.recursive || !o.withName || o.paths()[0] != "src" || len(o.paths()) != 1 {
		t.Errorf("parseArgs = %+v", o)
	}
	if f := parseArgs([]string{"grep", "-n", "x", "a.txt"}).singleFile(); f != "a.txt" {
		t.Errorf("single file %q", f)
	}
	if f := parseArgs([]string{"grep", "-rn", "x", "a"}).singleFile(); f != "" {
		t.Errorf("recursive single file %q", f)
	}
}

func TestContent(t *testing.T) {
	yes := map[string]bool{"grep-rn": true, "grep-rn-color": true, "grep-C1": true, "rg-heading": true,
		"rg-heading-C1": true, "rg-no-heading": true, "rg-json": true, "ag-group": true, "ag-pipe": true,
		"git-grep-n": true, "git-grep-color": true, "git-grep-heading": true, "grep-binary": true, "rg-binary": true,
		"grep-missing": true, "grep-Z": true}
	for _, c := range loadCases(t) {
		got := Profile.Content(evidence.BytesSource(nil, 0, c.stdout, c.stderr))
		if got != yes[c.name] {
			t.Errorf("Content(%s) = %v, want %v", c.name, got, yes[c.name])
		}
	}
	for _, s := range []string{
		"main.go:12:5: undefined: x\nmain.go:13:2: declared and not used: y\n",
		"main.go:12: undefined: x\nutil.go:3: something\n",
		"    foo_test.go:12: got 1 want 2\n",
		"{\"a\":1}\n",
		"2024-01-01 12:00:01 INFO start\n2024-01-01 12:00:02 INFO stop\n",
		"",
	} {
		if Profile.Content(evidence.BytesSource(nil, 0, []byte(s), nil)) {
			t.Errorf("Content(%q) = true", s)
		}
	}
}

// corpusDir finds shared/corpus beside the repository root, or skips.
func corpusDir(t testing.TB) string {
	t.Helper()
	return testenv.Corpus(t, "")
}

// Compiler, linter, test and log outputs of the external corpus are never
// taken for search results.
func TestCorpusIsNotSearch(t *testing.T) {
	root := corpusDir(t)
	var files []string
	for _, pat := range []string{"gotest/*.txt", "diagnostics/*.in", "loghub2k/*/*_2k.log"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		testenv.Missing(t, "files in the shared corpus")
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if Profile.Content(evidence.BytesSource(nil, 0, in, nil)) {
			t.Errorf("%s: taken for search output", f)
		}
	}
}

// A real grep run, when grep is installed.
func TestLiveGrep(t *testing.T) {
	testenv.Tool(t, "apt-get install grep", "grep")
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.txt":     "alpha\nneedle one\nbeta\nneedle two\n",
		"sub/b.txt": "needle: three\n",
		"c.txt":     "nothing\n",
	} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (int, []byte, []byte) {
		cmd := exec.Command("grep", args...)
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, out.Bytes(), errb.Bytes()
	}
	argv := []string{"grep", "-rn", "--color=always", "needle", "."}
	code, out, errb := run(argv[1:]...)
	g := parseOut(t, argv, code, out, errb)
	counts := map[string]int{}
	for _, it := range g.Items {
		if it.Kind == evidence.KindHit {
			counts[it.File] = it.Count
		}
	}
	if counts["./a.txt"] != 2 || counts["./sub/b.txt"] != 1 || len(counts) != 2 || g.Verdict != "pass" {
		t.Errorf("hits %v verdict %q", counts, g.Verdict)
	}
	argv = []string{"grep", "-rn", "haystack", "."}
	code, out, errb = run(argv[1:]...)
	g = parseOut(t, argv, code, out, errb)
	if code != 1 || g.Verdict != "pass" || g.Items[0].Counts["hits"] != 0 {
		t.Errorf("no match: exit %d verdict %q items %+v", code, g.Verdict, g.Items)
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range []string{"rg-heading", "grep-C1", "rg-json", "grep-c", "grep-Z"} {
		b, _ := os.ReadFile(filepath.Join("testdata", c+".out"))
		f.Add(b, uint8(len(c)))
	}
	argvs := [][]string{nil, {"grep", "-rn", "x"}, {"rg", "x"}, {"grep", "-c", "x"}, {"rg", "--json", "x"},
		{"grep", "-l", "x"}, {"grep", "x", "one.txt"}, {"git", "grep", "--heading", "x"}, {"grep", "-rZ", "-C2", "x"}}
	f.Fuzz(func(t *testing.T, out []byte, pick uint8) {
		argv := argvs[int(pick)%len(argvs)]
		g, err := parseTwice(argv, 0, out, out)
		if err != nil {
			return
		}
		total := 0
		for _, it := range g.Items {
			if it.Kind == evidence.KindHit {
				if it.File == "" {
					t.Errorf("hit without a file: %+v", it)
				}
				if it.Span.IsZero() {
					t.Errorf("hit without a span: %+v", it)
				}
				total += it.Count
			}
		}
		sum := g.Items[len(g.Items)-1]
		if sum.Kind != evidence.KindSummary || sum.Counts["hits"] != total {
			t.Errorf("summary %+v, hits in items %d", sum, total)
		}
	})
}

// Parse reads argv as the registry normalises it for Argv.
func TestParseNormalisesArgv(t *testing.T) {
	c := findCase(t, "grep-c")
	for _, argv := range [][]string{
		{"/usr/bin/grep", "-c", "TODO", "a", "b"},
		{"env", "LC_ALL=C", "grep", "-c", "TODO", "a", "b"},
		{"time", "grep", "-c", "TODO", "a", "b"},
	} {
		g := parseOut(t, argv, 0, c.stdout, nil)
		if g.Tool != "grep" || g.Verdict != "pass" || g.Items[0].Count != 2 {
			t.Errorf("%q: tool %q verdict %q items %+v", argv, g.Tool, g.Verdict, g.Items)
		}
	}
}
