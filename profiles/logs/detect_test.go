package logs

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
)

func TestFailure(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"Failed to start nginx.service - A high performance web server.", true},
		{"Traceback (most recent call last):", true},
		{"connect() failed (111: Connection refused)", true},
		{"open() \"/srv/x\" failed (13: Permission denied)", true},
		{"Out of memory: Killed process 4242 (java)", true},
		{"npm ERR! code ELIFECYCLE", true},
		{"Aborted (core dumped)", true},
		{"java.lang.IllegalStateException: closed", true},
		{"OSError: [Errno 28] No space left on device", true},
		{"request to 10.0.0.1 timed out after 30s", true},
		{"CRITICAL disk almost full", true},
		// Calm lines and words that only contain a failure word.
		{"build finished with 0 errors", false},
		{"no errors found", false},
		{"errors=0 warnings=2", false},
		{"failures: 0", false},
		{"Setting up liberror-perl (0.17029-2) ...", false},
		{"Unpacking failsafe-tools (1.0) ...", false},
		{"connection 42 returned to pool", false},
		{"ErrorHandler registered", false},
		{"Error", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := failure([]byte(tt.line)); got != tt.want {
			t.Errorf("failure(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// diverseLog returns n lines that each have a template of their own (so
// rarity is switched off), with the given lines inserted after line at.
func diverseLog(n, at int, insert ...string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		// Too few constant words for a word position to merge.
		fmt.Fprintf(&b, "2024-05-01 12:00:%02d INFO %s done\n", i%60, letters(i))
		if i == at {
			for _, l := range insert {
				b.WriteString(l + "\n")
			}
		}
	}
	return b.String()
}

// TestProfileFailuresInDiverseLog checks that failures phrased as such are
// reported where rarity means nothing, at whatever level.
func TestProfileFailuresInDiverseLog(t *testing.T) {
	problems := []string{
		"2024-05-01 12:00:07 INFO Failed to start nginx.service - A high performance web server.",
		"2024-05-01 12:00:08 DEBUG Connection refused by 10.0.0.9:5432",
		"Aborted (core dumped)",
	}
	src := evidence.BytesSource([]string{"cat", "app.log"}, 0, []byte(diverseLog(600, 300, problems...)), nil)
	g, err := Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(g.Losses), "too-diverse") {
		t.Fatalf("the log is not too diverse for rarity: %v", g.Losses)
	}
	got := map[string]string{}
	for _, it := range g.Items {
		if it.Kind == evidence.KindAnomaly {
			got[it.Text] = it.Why
		}
	}
	for _, p := range problems {
		if got[p] != WhyFailure {
			t.Errorf("%q: reported as %q, want %q", p, got[p], WhyFailure)
		}
	}
	if len(got) != len(problems) {
		t.Errorf("%d anomalies, want %d: %v", len(got), len(problems), got)
	}
}

// TestProfileOverflowChecked checks that lines past the template cap are
// still checked and reported, and the loss says how many lines overflowed.
func TestProfileOverflowChecked(t *testing.T) {
	var b strings.Builder
	for i := 0; i < DefaultMaxTemplates+50; i++ {
		// Every line its own template: a first word that differs by
		// letters (a leaf of its own, so clustering does not merge them).
		fmt.Fprintf(&b, "%s event happened\n", letters(i))
	}
	b.WriteString("fatal: unable to access the repository\n")
	src := evidence.BytesSource([]string{"cat", "app.log"}, 0, []byte(b.String()), nil)
	g, err := Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range g.Items {
		if it.Kind == evidence.KindAnomaly && strings.HasPrefix(it.Text, "fatal:") {
			found = it.Line == DefaultMaxTemplates+51
		}
	}
	if !found {
		t.Errorf("the failure past the template cap was not reported at its line")
	}
	lost := fmt.Sprint(g.Losses)
	if !strings.Contains(lost, "templated as overflow") {
		t.Errorf("losses %s do not say lines overflowed", lost)
	}
}

// letters spells i in base 26 with letters only, so it has no digit.
func letters(i int) string {
	s := []byte{}
	for {
		s = append(s, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(s)
		}
	}
}
