package maven

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

// TestRealRuns parses every captured Maven run, compares the graph and the
// digest with their goldens, and holds the digest to the profile's promises:
// every failing test, error and the BUILD line are stated.
func TestRealRuns(t *testing.T) {
	for _, r := range profiletest.RealRuns(t, "testdata/realrun") {
		t.Run(r.Name, func(t *testing.T) {
			if !matchArgv(cmdline.Normalize(r.Argv)) {
				t.Errorf("argv %q is not claimed by the maven profile", r.Argv)
			}
			g, d := r.Check(t, Profile, *update)
			want := "BUILD SUCCESS"
			if r.Exit != 0 {
				want = "BUILD FAILURE"
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

// TestFailures pins what the real runs must yield.
func TestFailures(t *testing.T) {
	for _, c := range []struct {
		run     string
		want    []string // "class|name|outcome|exception|message|file:line"
		verdict string
	}{
		{"test-fail", []string{
			"demo.CalcTest|addsWrong|fail|AssertionFailedError|expected: <1> but was: <0>|CalcTest.java:8",
			"demo.CalcTest|dividesByZero|error|ArithmeticException|/ by zero|CalcTest.java:10"}, "fail"},
		{"test-fail-quiet", []string{
			"demo.CalcTest|addsWrong|fail|AssertionFailedError|expected: <1> but was: <0>|CalcTest.java:8",
			"demo.CalcTest|dividesByZero|error|ArithmeticException|/ by zero|CalcTest.java:10"}, "fail"},
		{"test-fail-pty", []string{
			"demo.CalcTest|addsWrong|fail|AssertionFailedError|expected: <1> but was: <0>|CalcTest.java:8"}, "fail"},
		{"multi-module", []string{
			"demo.app.LibTest|named|fail|AssertionFailedError|expected: <application> but was: <app>|LibTest.java:5"}, "fail"},
		{"pass", nil, "pass"},
	} {
		t.Run(c.run, func(t *testing.T) {
			r := find(t, c.run)
			g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
			var got []string
			for _, it := range g.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
				got = append(got, strings.Join([]string{it.Package, it.Name, string(it.Outcome), it.Class, it.Message, it.File + ":" + strconv.Itoa(it.Line)}, "|"))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if g.Verdict != c.verdict {
				t.Errorf("verdict %q, want %q", g.Verdict, c.verdict)
			}
		})
	}
	for _, c := range []struct{ run, want string }{
		{"compile-syntax", "Calc.java:4:48 error ';' expected"},
		{"compile-error", "Calc.java:5:47 error cannot find symbol; symbol: variable c; location: class demo.Calc\n" +
			"Calc.java:8:16 error incompatible types: int cannot be converted to java.lang.String"},
	} {
		r := find(t, c.run)
		g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
		var diags []string
		for _, it := range g.Items {
			if it.Kind == evidence.KindDiagnostic {
				diags = append(diags, filepath.Base(it.File)+":"+strconv.Itoa(it.Line)+":"+strconv.Itoa(it.Col)+" "+string(it.Severity)+" "+it.Message)
			}
		}
		if strings.Join(diags, "\n") != c.want || g.Verdict != "error" {
			t.Errorf("%s: compile errors (verdict %q):\n%s\nwant:\n%s", c.run, g.Verdict, strings.Join(diags, "\n"), c.want)
		}
	}
	// The reactor: app failed, cli was skipped.
	r := find(t, "multi-module")
	g := profiletest.Parse(t, Profile, r.Argv, r.Exit, r.Stdout, r.Stderr)
	var mods []string
	for _, it := range g.Items {
		if it.Kind == evidence.KindSummary && strings.HasPrefix(it.Name, "module ") {
			mods = append(mods, it.Name+" "+it.Text)
		}
	}
	if strings.Join(mods, ", ") != "module app FAILURE, module cli SKIPPED" {
		t.Errorf("modules: %v", mods)
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

// FuzzParse: the parser never fails or panics, parses the same bytes to the
// same graph, never reads a failed exit as a pass unless Maven itself printed
// BUILD SUCCESS, and always states the build's outcome on a failed exit.
func FuzzParse(f *testing.F) {
	for _, r := range profiletest.RealRuns(f, "testdata/realrun") {
		f.Add(r.Stdout, r.Stderr, r.Exit)
	}
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, exit int) {
		g, err := profiletest.ParseTwice(Profile, []string{"mvn", "test"}, exit, stdout, stderr)
		if err != nil {
			t.Fatal(err)
		}
		if exit == 0 {
			return
		}
		said := bytes.Contains(stdout, []byte("BUILD SUCCESS")) || bytes.Contains(stderr, []byte("BUILD SUCCESS"))
		if g.Verdict == "pass" && !said {
			t.Fatalf("exit %d read as a pass", exit)
		}
		if g.Count(func(it *evidence.Item) bool { return it.Kind == evidence.KindSummary && it.Name == "build" }) != 1 {
			t.Fatalf("exit %d: no build summary", exit)
		}
	})
}
