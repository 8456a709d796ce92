package gradle

import (
	"bytes"
	"flag"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/internal/profiletest"
)

var update = flag.Bool("update", false, "rewrite the golden graphs and digests in testdata/realrun")

// TestRealRuns parses every captured Gradle run, compares the graph and the
// digest with their goldens, and holds the digest to the profile's promises:
// every failing test, error and the BUILD line are stated.
func TestRealRuns(t *testing.T) {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		t.Run(r.Name, func(t *testing.T) {
			if !matchArgv(cmdline.Normalize(r.Argv)) {
				t.Errorf("argv %q is not claimed by the gradle profile", r.Argv)
			}
			g, d := r.Check(t, Profile, *update)
			want := "BUILD SUCCESSFUL"
			if r.Exit != 0 {
				want = "BUILD FAILED"
			}
			if !strings.Contains(string(d.Text), want) {
				t.Errorf("digest does not say %s:\n%s", want, d.Text)
			}
			if (r.Exit == 0) != (g.Verdict == "pass") {
				t.Errorf("exit %d but verdict %q", r.Exit, g.Verdict)
			}
		})
	}
}

// TestFailures pins what the real runs must yield, so a parser change that
// loses a failure's message or location fails here and not only in a golden.
func TestFailures(t *testing.T) {
	for _, c := range []struct {
		run  string
		want []string // "class|name|exception|message|file:line"
	}{
		{"test-fail-short", []string{
			"demo.CalcTest|addsWrong|AssertionError||CalcTest.java:8",
			"demo.CalcTest|dividesByZero|ArithmeticException||CalcTest.java:10"}},
		{"test-fail-full", []string{
			"demo.CalcTest|addsWrong|AssertionError|expected:<1> but was:<0>|CalcTest.java:8",
			"demo.CalcTest|dividesByZero|ArithmeticException|/ by zero|CalcTest.java:10"}},
		{"test-fail-pty", []string{
			"demo.CalcTest|addsWrong|AssertionError|expected:<1> but was:<0>|CalcTest.java:8",
			"demo.CalcTest|dividesByZero|ArithmeticException|/ by zero|CalcTest.java:10"}},
	} {
		t.Run(c.run, func(t *testing.T) {
			r := find(t, c.run)
			g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
			var got []string
			for _, it := range g.Tests(evidence.OutcomeFail) {
				got = append(got, strings.Join([]string{it.Package, it.Name, it.Class, it.Message, it.File + ":" + itoa(it.Line)}, "|"))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if g.Verdict != "fail" {
				t.Errorf("verdict %q, want fail", g.Verdict)
			}
		})
	}
	r := find(t, "compile-error")
	g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
	var diags []string
	for _, it := range g.Items {
		if it.Kind == evidence.KindDiagnostic {
			diags = append(diags, filepath.Base(it.File)+":"+itoa(it.Line)+" "+string(it.Severity)+" "+it.Message)
		}
	}
	want := "Calc.java:5 error cannot find symbol; symbol: variable c; location: class Calc\n" +
		"Calc.java:8 error incompatible types: int cannot be converted to String"
	if strings.Join(diags, "\n") != want || g.Verdict != "error" {
		t.Errorf("compile errors (verdict %q):\n%s\nwant:\n%s", g.Verdict, strings.Join(diags, "\n"), want)
	}
}

func find(t *testing.T, name string) profiletest.RealRun {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no real run %s", name)
	return profiletest.RealRun{}
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// FuzzParse: the parser never fails or panics on any output, parses the same
// bytes to the same graph, never reads a failed exit as a pass unless Gradle
// itself printed BUILD SUCCESSFUL, and always states the build's outcome when
// the exit status says it failed.
func FuzzParse(f *testing.F) {
	for _, r := range profiletest.RealRuns(f, "testdata/realrun") {
		f.Add(r.Stdout, r.Stderr, r.Exit)
	}
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		g, err := profiletest.ParseTwice(Profile, []string{"gradle", "test"}, exit, stdout, stderr)
		if err != nil {
			t.Fatal(err)
		}
		if exit == 0 {
			return
		}
		said := bytes.Contains(stdout, []byte("BUILD SUCCESSFUL")) || bytes.Contains(stderr, []byte("BUILD SUCCESSFUL"))
		if g.Verdict == "pass" && !said {
			t.Fatalf("exit %d read as a pass", exit)
		}
		if g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindSummary && it.Name == "build" }) != 1 {
			t.Fatalf("exit %d: no build summary", exit)
		}
	})
}
