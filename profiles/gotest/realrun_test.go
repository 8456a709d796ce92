package gotest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

// realRun parses the fixture testdata/realrun/NAME (see its README).
func realRun(t *testing.T, name string) *evidence.Graph {
	t.Helper()
	dir := filepath.Join("testdata", "realrun", name)
	read := func(f string) string {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return string(b)
	}
	exit, err := strconv.Atoi(strings.TrimSpace(read("exit")))
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, strings.Fields(read("cmd")), exit, read("stdout"), read("stderr"))
}

// TestRealRunMessages holds the failures of issue 10 to their reasons, on
// real runs (testdata/realrun/gen.sh): package-level failures (a panic in a
// goroutine, os.Exit in a test, a failing TestMain) say why; a failing
// test's message is its failure, not the log line before it; parallel
// subtests keep their own messages in every output format.
func TestRealRunMessages(t *testing.T) {
	type want struct{ pkg, name, msg string }
	const p = "example.com/rr/"
	cases := map[string][]want{
		"failmsg": {{p + "fail", "TestOne", "got 1, want 2"}},
		"pkgfail": {{p + "gopanic", "", "panic: in goroutine"}, {p + "exitpkg", "", "exit status 3"}, {p + "testmain", "", "setup: database unreachable at localhost:5432"}, {p + "fail", "TestOne", "got 1, want 2"}},
		// With -v and -json go test prints no reason for TestExit (no
		// "exit status 3"): the item says "exit" by its class and carries
		// no message ctx made up (issue 10: a receipt must not need words
		// the output does not have).
		"pkgfail-v":     {{p + "gopanic", "TestGo", "panic: in goroutine"}, {p + "exitpkg", "TestExit", ""}, {p + "testmain", "", "setup: database unreachable at localhost:5432"}, {p + "fail", "TestOne", "got 1, want 2"}},
		"pkgfail-json":  {{p + "gopanic", "TestGo", "panic: in goroutine"}, {p + "exitpkg", "TestExit", ""}, {p + "testmain", "", "setup: database unreachable at localhost:5432"}, {p + "fail", "TestOne", "got 1, want 2"}},
		"parallel":      {{p + "parallel", "TestTable/alpha", "alpha: value mismatch"}, {p + "parallel", "TestTable/gamma", "gamma: value mismatch"}},
		"parallel-v":    {{p + "parallel", "TestTable/alpha", "alpha: value mismatch"}, {p + "parallel", "TestTable/gamma", "gamma: value mismatch"}},
		"parallel-json": {{p + "parallel", "TestTable/alpha", "alpha: value mismatch"}, {p + "parallel", "TestTable/gamma", "gamma: value mismatch"}},
		"bench-json":    {{p + "bench", "BenchmarkBroken", "fixture missing: data.bin"}},
		"bench-v":       {{p + "bench", "BenchmarkBroken", "fixture missing: data.bin"}},
	}
	for name, wants := range cases {
		t.Run(name, func(t *testing.T) {
			g := realRun(t, name)
			for _, w := range wants {
				var found *evidence.Item
				for i := range g.Items {
					it := &g.Items[i]
					if it.Package != w.pkg || it.Name != w.name {
						continue
					}
					if w.name == "" && it.Kind == evidence.KindSummary || w.name != "" && it.Kind == evidence.KindTest {
						found = it
					}
				}
				if found == nil {
					t.Errorf("no item for %s %s", w.pkg, w.name)
					continue
				}
				if found.Message != w.msg {
					t.Errorf("%s %s: message %q, want %q", w.pkg, w.name, found.Message, w.msg)
				}
				if found.Outcome != evidence.OutcomeFail || w.msg == "" && found.Class != "exit" {
					t.Errorf("%s %s: outcome %q class %q, want a failure (class exit when go test printed no reason)", w.pkg, w.name, found.Outcome, found.Class)
				}
			}
			// Only the failing subtests fail, each once; of the benchmarks
			// only BenchmarkBroken (BenchmarkFast and BenchmarkSlow ran
			// beside it and passed).
			for i := range g.Items {
				it := &g.Items[i]
				if it.Kind == evidence.KindTest && strings.Contains(it.Name, "/") && it.Outcome == evidence.OutcomeFail &&
					it.Name != "TestTable/alpha" && it.Name != "TestTable/gamma" {
					t.Errorf("%s fails, but it passed", it.Name)
				}
				if it.Kind == evidence.KindTest && strings.HasPrefix(it.Name, "Benchmark") && (it.Outcome == evidence.OutcomeFail) != (it.Name == "BenchmarkBroken") {
					t.Errorf("%s: outcome %s", it.Name, it.Outcome)
				}
			}
		})
	}
}

// TestRealRunParallelDetail holds a parallel subtest's detail span to its
// own lines: it holds the failure message and no line of a sibling (issue
// 10: -v and -json spans covered the siblings printed in between).
func TestRealRunParallelDetail(t *testing.T) {
	for _, name := range []string{"parallel-v", "parallel-json"} {
		t.Run(name, func(t *testing.T) {
			g := realRun(t, name)
			b, err := os.ReadFile(filepath.Join("testdata", "realrun", name, "stdout"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			subs := []string{"alpha", "beta", "gamma", "delta"}
			checked := 0
			for _, it := range g.Items {
				if it.Kind != evidence.KindTest || it.Outcome != evidence.OutcomeFail || !strings.Contains(it.Name, "/") {
					continue
				}
				checked++
				own := it.Name[strings.LastIndexByte(it.Name, '/')+1:]
				d := it.Detail
				if d.IsZero() || d.To > len(lines) {
					t.Fatalf("%s: detail %v", it.Name, d)
				}
				block := strings.Join(lines[d.From-1:d.To], "\n")
				if !strings.Contains(block, it.Message) {
					t.Errorf("%s: detail L%d-%d lacks its message %q:\n%s", it.Name, d.From, d.To, it.Message, block)
				}
				for _, sib := range subs {
					if sib != own && strings.Contains(block, sib) {
						t.Errorf("%s: detail L%d-%d holds sibling %s's lines:\n%s", it.Name, d.From, d.To, sib, block)
					}
				}
			}
			if checked != 2 {
				t.Errorf("%d failing subtests checked, want 2", checked)
			}
		})
	}
}
