package profiletest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/plan"
)

// RealRun is one captured run of a real tool, stored under a profile's
// testdata/realrun as NAME.argv (the command as a JSON array of strings),
// NAME.stdout, NAME.stderr and NAME.exit (the exit status); a README.md
// beside them says how each was made.
type RealRun struct {
	Name   string
	Dir    string
	Argv   []string
	Exit   int
	Stdout []byte
	Stderr []byte
}

// RealRuns loads every run under dir (usually "testdata/realrun").
func RealRuns(t testing.TB, dir string) []RealRun {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.argv"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var out []RealRun
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".argv")
		r := RealRun{Name: name, Dir: dir}
		read := func(ext string) []byte {
			b, err := os.ReadFile(filepath.Join(dir, name+ext))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return b
		}
		if err := json.Unmarshal(read(".argv"), &r.Argv); err != nil || len(r.Argv) == 0 {
			t.Fatalf("%s: want a JSON array of the command's words: %v", p, err)
		}
		if e := strings.TrimSpace(string(read(".exit"))); e != "" {
			if r.Exit, err = strconv.Atoi(e); err != nil {
				t.Fatalf("%s.exit: %v", name, err)
			}
		}
		r.Stdout, r.Stderr = read(".stdout"), read(".stderr")
		out = append(out, r)
	}
	if len(out) == 0 {
		t.Fatalf("no real runs under %s", dir)
	}
	return out
}

// Source is the run as profiles read it.
func (r RealRun) Source() *evidence.Source {
	return evidence.BytesSource(r.Argv, r.Exit, r.Stdout, r.Stderr)
}

type memLines map[string][]string

func (m memLines) Lines(stream string, from, to int64) ([]string, error) {
	ls := m[stream]
	if from < 1 || to > int64(len(ls)) || from > to {
		return nil, fmt.Errorf("%s: lines %d-%d of %d", stream, from, to, len(ls))
	}
	return ls[from-1 : to], nil
}

func splitLines(b []byte) []string {
	var out []string
	_ = lines.Scan(context.Background(), bytes.NewReader(b), func(_ int, line []byte, _ bool) error {
		out = append(out, string(line))
		return nil
	})
	return out
}

// Digest renders the digest of a sealed graph of r as ctx run would (same
// contract, plan and renderer, an in-memory store of lines).
func (r RealRun) Digest(t testing.TB, g *evidence.Graph) *plan.Digest {
	t.Helper()
	infos := []plan.StreamInfo{
		{Name: evidence.Stdout, Size: int64(len(r.Stdout)), Lines: int64(evidence.CountLines(r.Stdout)), Binary: !lines.Printable(r.Stdout)},
		{Name: evidence.Stderr, Size: int64(len(r.Stderr)), Lines: int64(evidence.CountLines(r.Stderr)), Binary: !lines.Printable(r.Stderr)},
	}
	in := plan.Inputs{Exit: r.Exit, Status: "exited", Streams: infos}
	outcome, _ := plan.Outcome(g, in)
	c, err := contract.Load(g.Profile, outcome, "")
	if err != nil {
		t.Fatal(err)
	}
	p := plan.Decide(g, c, in)
	d, err := plan.Render(plan.Input{
		Run:     plan.RunInfo{Handle: "run:test", Argv: r.Argv, Dir: ".", Exit: r.Exit, Status: "exited"},
		Streams: infos, Graph: g, Contract: c, Plan: p,
		Lines:  memLines{evidence.Stdout: splitLines(r.Stdout), evidence.Stderr: splitLines(r.Stderr)},
		Census: func(b []byte) string { return "blob:census" },
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Golden compares got with the file at path, or rewrites it when update is
// set (each test package owns its -update flag).
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// CheckRequired fails the test when a failing test, an error diagnostic or a
// summary of g is missing from the digest text: its identity and the start
// of its message must both be there (or the digest must point to a census).
// A digest that shows the whole output represents every item by the output
// itself; only its receipt is checked.
func CheckRequired(t testing.TB, g *evidence.Graph, d *plan.Digest) {
	t.Helper()
	text := string(d.Text)
	if header, _, _ := strings.Cut(text, "\n"); strings.HasSuffix(header, "· whole output") {
		if d.Coverage.RequiredUnrepresented != 0 {
			t.Errorf("receipt: %d REQUIRED items unrepresented", d.Coverage.RequiredUnrepresented)
		}
		return
	}
	if d.Census != nil {
		text += string(d.Census)
	}
	has := func(what, s string) {
		t.Helper()
		s = strings.TrimSpace(s)
		if len(s) > 60 {
			s = s[:60]
		}
		if s != "" && !strings.Contains(text, s) {
			t.Errorf("digest lacks %s %q:\n%s", what, s, d.Text)
		}
	}
	for i := range g.Items {
		it := &g.Items[i]
		switch {
		case it.Kind == evidence.KindTest && it.Outcome.Failed():
			has("the failing test", it.Name)
			has("the failure message of "+it.Name, it.Message)
		case it.Kind == evidence.KindDiagnostic && it.Severity == evidence.SeverityError:
			loc := filepath.Base(it.File)
			if it.Line > 0 {
				loc += ":" + strconv.Itoa(it.Line)
			}
			has("the error at", loc)
			has("the error message", it.Message)
		case it.Kind == evidence.KindSummary && it.Text != "" && len(it.Counts) == 0:
			has("the summary", it.Text)
		}
	}
	if d.Coverage.RequiredUnrepresented != 0 {
		t.Errorf("receipt: %d REQUIRED items unrepresented", d.Coverage.RequiredUnrepresented)
	}
}

// Check parses r with p, compares the graph and the digest with the goldens
// beside the run (NAME.golden.json, NAME.digest; rewritten when update is
// set) and holds the digest to CheckRequired. It returns both for the
// profile's own checks.
func (r RealRun) Check(t testing.TB, p evidence.Profile, update bool) (*evidence.Graph, *plan.Digest) {
	t.Helper()
	g := Parse(t, p, r.Argv, r.Exit, r.Stdout, r.Stderr)
	d := r.Digest(t, g)
	base := filepath.Join(r.Dir, r.Name)
	Golden(t, base+".golden.json", JSON(t, g), update)
	Golden(t, base+".digest", d.Text, update)
	CheckRequired(t, g, d)
	return g, d
}
