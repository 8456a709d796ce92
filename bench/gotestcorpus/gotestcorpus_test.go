package gotestcorpus

import (
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

// corpusDir finds shared/corpus/gotest beside the repository root (the
// directory holding go.mod); absent, the test is skipped (fails in CI).
func corpusDir(t *testing.T) string {
	t.Helper()
	return testenv.Corpus(t, "gotest")
}

// TestCorpus checks every output of the external corpus against its JUnit
// report: every failing identity recovered, no failure invented, every
// package's pass/fail/skip counts equal. The readings of the XML that the
// output contradicts are listed in gotestcorpus.go and reported per file.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	res, err := CorpusScore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 {
		t.Fatal("no corpus files scored")
	}
	formats := map[string]int{}
	for _, f := range res.Files {
		formats[f.Format]++
		for _, m := range f.Misses {
			t.Errorf("%s: %s", f.Name, m)
		}
		for _, e := range f.Exceptions {
			t.Logf("%s: exception: %s", f.Name, e)
		}
		if f.Recall() != 1 || f.Precision() != 1 || f.CountsAgree != f.Packages || f.TestsFound != f.Tests {
			t.Errorf("%s: failing recall %.2f precision %.2f, identities %d/%d, counts %d/%d packages",
				f.Name, f.Recall(), f.Precision(), f.TestsFound, f.Tests, f.CountsAgree, f.Packages)
		}
	}
	if formats["text"] == 0 || formats["json"] == 0 {
		t.Errorf("formats scored: %v, want both text and json", formats)
	}
	tot := res.Totals()
	t.Logf("%d files: failing %d/%d (extra %d), identities %d/%d, counts %d/%d packages",
		len(res.Files), tot.FailingFound, tot.Failing, tot.FailingExtra, tot.TestsFound, tot.Tests, tot.CountsAgree, tot.Packages)
}
