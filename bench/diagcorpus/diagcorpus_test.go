package diagcorpus

import (
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

// corpusDir finds shared/corpus/diagnostics beside the repository root (the
// directory holding go.mod), or skips the test when it is absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	return testenv.Corpus(t, "diagnostics")
}

// The figure to hold: at least 98% of the corpus's expected diagnostics
// recovered with the right file, line and severity.
const corpusFloor = 0.98

func TestCorpusRecall(t *testing.T) {
	res, err := CorpusScore(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		t.Logf("%-15s %3d/%-3d extra %-2d unscored-severity %-3d verdict %q", f.Tool, f.Recovered, f.Expected, f.Extra, f.Unscored, f.Verdict)
		if !f.Detected {
			t.Errorf("%s: Content does not claim the output", f.Tool)
		}
		for _, c := range f.Corrected {
			t.Logf("    corrected %s", c)
		}
		for _, m := range f.Misses {
			t.Logf("    miss ok:%d %s: %s", m.OkLine, m.Want, m.Reason)
		}
	}
	t.Logf("overall %d/%d = %.4f (against the .ok files as written: %d/%d)", res.Recovered, res.Expected, res.Recall(), res.AsWritten, res.Expected)
	if res.Recall() < corpusFloor {
		t.Errorf("recall %.4f below %.2f", res.Recall(), corpusFloor)
	}
}
