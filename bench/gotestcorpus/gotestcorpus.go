// Package gotestcorpus scores the gotest profile against an external corpus of
// real go test outputs paired with JUnit reports (shared/corpus/gotest). It
// is a benchmark, not part of the parser: nothing in ctx run imports it.
package gotestcorpus

import (
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
	"github.com/ctxhq/ctx/profiles/gotest"
)

// This file scores the profile against an external corpus of real go test
// outputs, each paired with the JUnit XML that go-junit-report derived from
// it (shared/corpus/gotest). Every <testcase> is a test identity (classname =
// package, name) with an outcome: a <failure> or <error> child is a failure,
// <skipped> a skip, else a pass. The bench command reuses CorpusScore.
//
// Where the XML and the output disagree, the output is right, and these
// readings of the XML are applied to every file:
//
//   - Synthetic test cases. go-junit-report names a package-level failure as
//     a test case: "[build failed]" and "[setup failed]" for a package that did
//     not compile or load, "Failure" for a test binary that died with no test
//     running (a panic in init). go test ran no test there, so the identity is
//     recovered by the package's summary failing (class build for the first
//     two) and it is left out of the package's test counts.
//   - Unnamed package. A test binary run directly prints no `ok pkg` line;
//     go-junit-report was told the package name on its command line. When the
//     graph has tests of an unnamed package and the XML one package, they are
//     the same package.

// CorpusFile is the score of one output file.
type CorpusFile struct {
	Name    string `json:"name"`
	Format  string `json:"format"` // "text" or "json"
	Verdict string `json:"verdict"`

	Failing      int `json:"failing"`       // failing identities in the XML
	FailingFound int `json:"failing_found"` // of those, failing in the graph
	FailingExtra int `json:"failing_extra"` // failing in the graph, not in the XML

	Tests      int `json:"tests"`       // every identity in the XML
	TestsFound int `json:"tests_found"` // found with the same outcome

	Packages    int `json:"packages"`     // packages in the XML
	CountsAgree int `json:"counts_agree"` // packages whose pass/fail/skip counts agree

	Misses     []string `json:"misses,omitempty"`     // what the graph got wrong, one line each
	Exceptions []string `json:"exceptions,omitempty"` // XML readings replaced (see above)
}

// Recall is the share of failing identities recovered (1 when there are none).
func (f CorpusFile) Recall() float64 { return ratio(f.FailingFound, f.Failing) }

// Precision is the share of the graph's failing identities that the XML has.
func (f CorpusFile) Precision() float64 {
	return ratio(f.FailingFound, f.FailingFound+f.FailingExtra)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// CorpusResult is the score of a whole corpus directory.
type CorpusResult struct {
	Files []CorpusFile `json:"files"`
}

// Totals sums the files.
func (r CorpusResult) Totals() CorpusFile {
	t := CorpusFile{Name: "total"}
	for _, f := range r.Files {
		t.Failing += f.Failing
		t.FailingFound += f.FailingFound
		t.FailingExtra += f.FailingExtra
		t.Tests += f.Tests
		t.TestsFound += f.TestsFound
		t.Packages += f.Packages
		t.CountsAgree += f.CountsAgree
	}
	return t
}

var corpusName = lines.Lazy(`^(\d+)-.*\.txt$`)

// CorpusScore parses every `NNN-*.txt` output of dir (`*.gojson.txt` as go
// test -json) and compares the graph with `NNN-report.xml`.
func CorpusScore(dir string) (CorpusResult, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return CorpusResult{}, fmt.Errorf("read corpus %s: %w", dir, err)
	}
	var res CorpusResult
	for _, e := range entries {
		m := corpusName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		out, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return res, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		report, err := os.ReadFile(filepath.Join(dir, m[1]+"-report.xml"))
		if err != nil {
			return res, fmt.Errorf("read report of %s: %w", e.Name(), err)
		}
		f, err := scoreFile(e.Name(), out, report)
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
	}
	return res, nil
}

type junit struct {
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name  string      `xml:"name,attr"`
	Cases []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string    `xml:"name,attr"`
	Classname string    `xml:"classname,attr"`
	Failure   *struct{} `xml:"failure"`
	Error     *struct{} `xml:"error"`
	Skipped   *struct{} `xml:"skipped"`
}

type ident struct{ pkg, name string }

// synthetic names the test cases go-junit-report makes up for package failures.
var synthetic = map[string]bool{"[build failed]": true, "[setup failed]": true, "Failure": true}

func scoreFile(name string, out, report []byte) (CorpusFile, error) {
	f := CorpusFile{Name: name, Format: "text"}
	if strings.HasSuffix(name, ".gojson.txt") {
		f.Format = "json"
	}
	var ju junit
	if err := xml.Unmarshal(report, &ju); err != nil {
		return f, fmt.Errorf("parse report of %s: %w", name, err)
	}
	// The outputs are files, ingested: no argv says how they were produced.
	g, err := gotest.Parse(context.Background(), evidence.BytesSource(nil, 0, out, nil))
	if err != nil {
		return f, fmt.Errorf("parse %s: %w", name, err)
	}
	f.Verdict = g.Verdict

	got, sums := reading(g, ju, &f)

	// The XML's reading, identity by identity.
	wantFail := map[ident]bool{}
	for _, s := range ju.Suites {
		scoreSuite(&f, s, got, sums, wantFail)
	}
	var extra []string
	for id, o := range got {
		if o == evidence.OutcomeFail && !wantFail[id] {
			f.FailingExtra++
			extra = append(extra, fmt.Sprintf("%s %s: failing, not in the report", id.pkg, id.name))
		}
	}
	sort.Strings(extra)
	f.Misses = append(f.Misses, extra...)
	return f, nil
}

// reading is the graph's reading of a file: each test identity's outcome and
// each package's summary, an unnamed package read as the report's only one.
func reading(g *evidence.Graph, ju junit, f *CorpusFile) (map[ident]evidence.Outcome, map[string]*evidence.Item) {
	got := map[ident]evidence.Outcome{}
	sums := map[string]*evidence.Item{}
	unnamed := false
	for i := range g.Items {
		it := &g.Items[i]
		switch {
		case it.Kind == evidence.KindTest:
			got[ident{it.Package, it.Name}] = it.Outcome
			unnamed = unnamed || it.Package == ""
		case it.Kind == evidence.KindSummary && it.Name == "":
			sums[it.Package] = it
		}
	}
	if unnamed && len(ju.Suites) == 1 {
		pkg := ju.Suites[0].Name
		f.Exceptions = append(f.Exceptions, fmt.Sprintf("unnamed package read as %s", pkg))
		for id, o := range got {
			if id.pkg == "" {
				delete(got, id)
				got[ident{pkg, id.name}] = o
			}
		}
		if s, ok := sums[""]; ok {
			sums[pkg] = s
		}
	}

	return got, sums
}

// scoreSuite scores one package of the report against the graph's reading.
func scoreSuite(f *CorpusFile, s junitSuite, got map[ident]evidence.Outcome, sums map[string]*evidence.Item, wantFail map[ident]bool) {
	f.Packages++
	var want [3]int // pass, fail, skip
	for _, c := range s.Cases {
		id := ident{c.Classname, c.Name}
		failed := c.Failure != nil || c.Error != nil
		if synthetic[c.Name] && failed {
			f.Failing++
			f.Tests++
			sum := sums[c.Classname]
			ok := sum != nil && sum.Outcome == evidence.OutcomeFail &&
				(c.Name == "Failure" || sum.Class == "build")
			f.Exceptions = append(f.Exceptions, fmt.Sprintf("%s %q read as its package summary", c.Classname, c.Name))
			if ok {
				f.FailingFound++
				f.TestsFound++
			} else {
				f.Misses = append(f.Misses, fmt.Sprintf("package failure %s %q not in its summary", c.Classname, c.Name))
			}
			continue
		}
		o := evidence.OutcomePass
		switch {
		case failed:
			o = evidence.OutcomeFail
			want[1]++
			f.Failing++
			wantFail[id] = true
		case c.Skipped != nil:
			o = evidence.OutcomeSkip
			want[2]++
		default:
			want[0]++
		}
		f.Tests++
		g, ok := got[id]
		switch {
		case ok && g == o:
			f.TestsFound++
			if o == evidence.OutcomeFail {
				f.FailingFound++
			}
		case ok:
			f.Misses = append(f.Misses, fmt.Sprintf("%s %s: %s, want %s", id.pkg, id.name, g, o))
		default:
			f.Misses = append(f.Misses, fmt.Sprintf("%s %s: missing, want %s", id.pkg, id.name, o))
		}
	}
	sum := sums[s.Name]
	var have [3]int
	if sum != nil {
		have = [3]int{sum.Counts["pass"], sum.Counts["fail"], sum.Counts["skip"]}
	}
	switch {
	case sum == nil:
		f.Misses = append(f.Misses, fmt.Sprintf("package %s: no summary", s.Name))
	case have != want:
		f.Misses = append(f.Misses, fmt.Sprintf("package %s: counts pass/fail/skip %v, want %v", s.Name, have, want))
	default:
		f.CountsAgree++
	}
}
