package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ctxhq/ctx/bench/diagcorpus"
	"github.com/ctxhq/ctx/bench/gotestcorpus"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

// CorpusResult is the score of the profiles on the external corpora.
type CorpusResult struct {
	GoTest      GoTestScore `json:"gotest"`
	Diagnostics DiagScore   `json:"diagnostics"`
	// Fixtures are the go test outputs with the failing identities each must
	// keep, for comparing peers on the same facts.
	Fixtures []Fixture `json:"-"`
	// CtxDigest is ctx's own figure on those fixtures, beside any peers.
	CtxDigest PeerResult   `json:"ctx"`
	Peers     []PeerResult `json:"peers,omitempty"`
}

// GoTestScore is the go test profile on the go-junit-report corpus.
type GoTestScore struct {
	Files          int      `json:"files"`
	Failing        int      `json:"failing"`
	FailingFound   int      `json:"failing_found"`
	FailingExtra   int      `json:"failing_extra"`
	Recall         float64  `json:"recall"`
	Precision      float64  `json:"precision"`
	Tests          int      `json:"tests"`
	TestsFound     int      `json:"tests_found"`
	Packages       int      `json:"packages"`
	CountsAgree    int      `json:"counts_agree"`
	DigestNamesAll bool     `json:"digest_names_every_failing_test"`
	DigestMisses   []string `json:"digest_misses,omitempty"`
	ShortFiles     []string `json:"short_files,omitempty"` // files that fall short, with the reason
}

// DiagScore is the diagnostics profile on the errorformat corpus.
type DiagScore struct {
	Files      int      `json:"files"`
	Expected   int      `json:"expected"`
	Recovered  int      `json:"recovered"`
	Recall     float64  `json:"recall"`
	Extra      int      `json:"extra"`
	Precision  float64  `json:"precision"`
	PerTool    []string `json:"per_tool"`
	ShortFiles []string `json:"short_files,omitempty"`
}

var gotestOutput = lines.Lazy(`^\d{3}-.*\.txt$`)

// RunCorpus scores the go test and diagnostics profiles on dir/gotest and
// dir/diagnostics, and checks that the go test digests name every failing test.
func RunCorpus(ctx context.Context, dir string) (*CorpusResult, error) {
	res := &CorpusResult{}
	gt, err := gotestcorpus.CorpusScore(filepath.Join(dir, "gotest"))
	if err != nil {
		return nil, err
	}
	t := gt.Totals()
	res.GoTest = GoTestScore{Files: len(gt.Files), Failing: t.Failing, FailingFound: t.FailingFound, FailingExtra: t.FailingExtra,
		Recall: t.Recall(), Precision: t.Precision(), Tests: t.Tests, TestsFound: t.TestsFound, Packages: t.Packages, CountsAgree: t.CountsAgree}
	for _, f := range gt.Files {
		if f.FailingFound < f.Failing || f.FailingExtra > 0 || f.CountsAgree < f.Packages {
			res.GoTest.ShortFiles = append(res.GoTest.ShortFiles, fmt.Sprintf("%s: %s", f.Name, strings.Join(f.Misses, "; ")))
		}
	}
	misses, fixtures, ctxRes, err := digestNamesFailures(ctx, filepath.Join(dir, "gotest"))
	if err != nil {
		return nil, err
	}
	res.Fixtures, res.CtxDigest = fixtures, ctxRes
	res.GoTest.DigestMisses = misses
	res.GoTest.DigestNamesAll = len(misses) == 0

	dg, err := diagcorpus.CorpusScore(filepath.Join(dir, "diagnostics"))
	if err != nil {
		return nil, err
	}
	extra := 0
	for _, f := range dg.Files {
		extra += f.Extra
		res.Diagnostics.PerTool = append(res.Diagnostics.PerTool, fmt.Sprintf("%s %d/%d", f.Tool, f.Recovered, f.Expected))
		if f.Recovered < f.Expected || f.Extra > 0 {
			var why []string
			for _, m := range f.Misses {
				why = append(why, fmt.Sprint(m))
			}
			res.Diagnostics.ShortFiles = append(res.Diagnostics.ShortFiles, fmt.Sprintf("%s: %d/%d, %d extra: %s", f.Tool, f.Recovered, f.Expected, f.Extra, strings.Join(why, "; ")))
		}
	}
	res.Diagnostics.Files, res.Diagnostics.Expected, res.Diagnostics.Recovered = len(dg.Files), dg.Expected, dg.Recovered
	res.Diagnostics.Recall = dg.Recall()
	res.Diagnostics.Extra = extra
	res.Diagnostics.Precision = float64(dg.Recovered) / float64(max(dg.Recovered+extra, 1))
	return res, nil
}

// digestNamesFailures digests every go test corpus output (as `ctx ingest`
// would, detecting the profile from the content) and lists failing tests the
// digest does not name. It also returns the fixtures with their facts, and
// ctx's own figures on them in the form peers are reported.
func digestNamesFailures(ctx context.Context, dir string) ([]string, []Fixture, PeerResult, error) {
	self := PeerResult{Name: "ctx", Present: true}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, self, err
	}
	sc, err := NewScratch("")
	if err != nil {
		return nil, nil, self, err
	}
	defer sc.Close()
	var misses []string
	var fixtures []Fixture
	var times Sample
	for _, e := range ents {
		if !gotestOutput.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		out, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, self, err
		}
		start := time.Now()
		res, err := sc.Digest(ctx, nil, 1, out, nil, digest.Options{})
		if err != nil {
			return nil, nil, self, fmt.Errorf("%s: %w", e.Name(), err)
		}
		times = append(times, time.Since(start))
		fx := Fixture{Name: e.Name(), Path: path}
		for _, it := range res.Graph.Tests(evidence.OutcomeFail, evidence.OutcomeError) {
			fx.Facts = append(fx.Facts, it.Name)
			self.Facts++
			if !strings.Contains(string(res.Digest.Text), it.Name) {
				misses = append(misses, fmt.Sprintf("%s: %s %s", e.Name(), it.Package, it.Name))
			} else {
				self.FactsKept++
			}
		}
		fixtures = append(fixtures, fx)
		rt, err := Tokens(out)
		if err != nil {
			return nil, nil, self, err
		}
		dt, err := Tokens(res.Digest.Text)
		if err != nil {
			return nil, nil, self, err
		}
		self.Fixtures++
		self.RawTokens += rt
		self.OutTokens += dt
	}
	self.MedianMS = ms(times.Median())
	sort.Strings(misses)
	return misses, fixtures, self, nil
}

// WriteText prints the corpus figures.
func (r *CorpusResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	g := r.GoTest
	fmt.Fprintf(tw, "go test\t%d files\tfailing identities %d/%d (recall %.3f, precision %.3f)\tall identities %d/%d\tpackage counts %d/%d\tdigests name every failing test: %v\n",
		g.Files, g.FailingFound, g.Failing, g.Recall, g.Precision, g.TestsFound, g.Tests, g.CountsAgree, g.Packages, g.DigestNamesAll)
	d := r.Diagnostics
	fmt.Fprintf(tw, "diagnostics\t%d files\trecovered %d/%d (recall %.3f, precision %.3f)\n", d.Files, d.Recovered, d.Expected, d.Recall, d.Precision)
	fmt.Fprintf(tw, "\tper tool: %s\n", strings.Join(d.PerTool, ", "))
	for _, s := range append(g.ShortFiles, d.ShortFiles...) {
		fmt.Fprintf(tw, "short\t%s\n", s)
	}
	for _, s := range g.DigestMisses {
		fmt.Fprintf(tw, "digest misses\t%s\n", s)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return WritePeersText(w, append([]PeerResult{r.CtxDigest}, r.Peers...))
}
