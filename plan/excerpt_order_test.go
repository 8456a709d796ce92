package plan

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/profiles/text"
)

// TestExcerptInLineOrder: an excerpt prints its lines in line order and never
// marks as omitted a line it prints. A Python traceback in the middle of a
// long repetitive output gives the generic profile error lines (the
// "Traceback" and the exception) and rare lines (the frames between them),
// which it lists after the error lines; the excerpt printed the frames after
// the exception, under an omission mark that covered them and one that
// covered the exception.
func TestExcerptInLineOrder(t *testing.T) {
	var out []string
	for i := range 3000 {
		out = append(out, fmt.Sprintf("step %d fine", i))
	}
	out = append(out,
		"Traceback (most recent call last):",
		`  File "/src/tb.py", line 6, in <module>`,
		"    inner()",
		`  File "/src/tb.py", line 4, in inner`,
		`    def inner(): return {}["missing_key_zzz"]`,
		"                        ~~^^^^^^^^^^^^^^^^^^^",
		"KeyError: 'missing_key_zzz'")
	for i := range 300 {
		out = append(out, fmt.Sprintf("continuing %d", i))
	}
	stdout := []byte(strings.Join(out, "\n") + "\n")
	g, err := text.Parse(context.Background(), evidence.BytesSource([]string{"python3", "tb.py"}, 1, stdout, nil))
	if err != nil {
		t.Fatal(err)
	}
	g.Seal("run:0123456789ab")
	ls := lineSource{"stdout": out}
	in := Inputs{Exit: 1, Status: "exited", Streams: []StreamInfo{{Name: "stdout", Size: int64(len(stdout)), Lines: int64(len(out))}}}
	outcome, _ := Outcome(g, in)
	c := mustContract(t, g.Profile, outcome)
	p := Decide(g, c, in)
	d, err := Render(Input{Run: RunInfo{Handle: "run:0123456789ab", Argv: []string{"python3", "tb.py"}, Dir: ".", Exit: 1, Status: "exited"},
		Streams: in.Streams, Graph: g, Contract: c, Plan: p, Lines: ls})
	if err != nil {
		t.Fatal(err)
	}
	gap := regexp.MustCompile(`^··· L(\d+)-(\d+) `)
	shown := regexp.MustCompile(`^L(\d+): `)
	var last int64
	var omitted [][2]int64
	for _, l := range strings.Split(string(d.Text), "\n") {
		if m := gap.FindStringSubmatch(l); m != nil {
			from, _ := strconv.ParseInt(m[1], 10, 64)
			to, _ := strconv.ParseInt(m[2], 10, 64)
			if from <= last {
				t.Errorf("omission L%d-%d after line %d was printed:\n%s", from, to, last, d.Text)
			}
			omitted = append(omitted, [2]int64{from, to})
			last = to
		} else if m := shown.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			if n <= last {
				t.Errorf("line %d printed after line %d:\n%s", n, last, d.Text)
			}
			for _, o := range omitted {
				if n >= o[0] && n <= o[1] {
					t.Errorf("line %d printed inside the omission L%d-%d", n, o[0], o[1])
				}
			}
			last = n
		}
	}
	for _, want := range []string{"L3001: Traceback", "L3007: KeyError: 'missing_key_zzz'"} {
		if !strings.Contains(string(d.Text), want) {
			t.Errorf("the digest does not show %q:\n%s", want, d.Text)
		}
	}
}
