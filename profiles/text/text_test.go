package text

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/internal/lines"
)

func parse(t *testing.T, stdout []byte) *evidence.Graph {
	t.Helper()
	g, err := Parse(context.Background(), evidence.BytesSource([]string{"x"}, 0, stdout, nil))
	if err != nil {
		t.Fatal(err)
	}
	g.Seal("run:test")
	return g
}

func anomalies(g *evidence.Graph) []string {
	var out []string
	for _, it := range Errors(g) {
		out = append(out, fmt.Sprintf("L%d×%d %s", it.Line, it.Count, it.Text))
	}
	return out
}

func TestErrorLines(t *testing.T) {
	in := strings.Join([]string{
		"starting",
		"error: connection to 10.0.0.1 refused",
		"all good, 0 errors",
		"error: connection to 10.0.0.2 refused",
		"\x1b[31mFAILED\x1b[0m test_login",
		"errors: 0",
		"Traceback (most recent call last):",
		"done",
	}, "\n")
	got := anomalies(parse(t, []byte(in)))
	want := []string{
		"L2×2 error: connection to 10.0.0.1 refused",
		"L5×1 FAILED test_login",
		"L7×1 Traceback (most recent call last):",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("anomalies:\n got %q\nwant %q", got, want)
	}
}

// TestLineNumbersAcrossChunks puts error lines around the reader's chunk
// boundaries, after long runs of letter-free lines (the fast path), and checks
// every line number.
func TestLineNumbersAcrossChunks(t *testing.T) {
	var b bytes.Buffer
	var want []string
	n := 0
	for b.Len() < 900<<10 {
		n++
		if n%9973 == 0 {
			fmt.Fprintf(&b, "fatal: shard %d lost\n", n)
			want = append(want, fmt.Sprintf("L%d×1 fatal: shard %d lost", n, n))
			continue
		}
		if n/20000%2 == 0 {
			fmt.Fprintf(&b, "%d %x\n", n, n*7) // hex letters: the line-by-line path
		} else {
			fmt.Fprintf(&b, "%d %d\n", n, n*7) // no letters: the fast path
		}
	}
	// A last line without a newline, straddling nothing.
	n++
	fmt.Fprintf(&b, "panic: the end")
	want = append(want, fmt.Sprintf("L%d×1 panic: the end", n))
	g := parse(t, b.Bytes())
	got := anomalies(g)
	if len(got) == 0 || got[len(got)-1] != want[len(want)-1] {
		t.Fatalf("last anomaly %q, want %q", got, want[len(want)-1])
	}
	// The fatal lines differ only in their digits: one group, first line kept.
	if first := strings.Replace(want[0], "×1", fmt.Sprintf("×%d", len(want)-1), 1); got[0] != first {
		t.Errorf("first anomaly %q, want %q", got[0], first)
	}
	total := 0
	for _, it := range Errors(g) {
		total += it.Count
	}
	if total != len(want) {
		t.Errorf("%d error lines counted, want %d", total, len(want))
	}
}

func TestBinary(t *testing.T) {
	elf := append([]byte("\x7fELF\x02\x01\x01\x00"), bytes.Repeat([]byte{0, 1, 2, 3}, 100)...)
	g := parse(t, elf)
	if len(g.Items) != 1 || g.Items[0].Kind != evidence.KindBinary || g.Items[0].Attrs["type"] != "ELF executable" {
		t.Fatalf("items %+v", g.Items)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("error: x\nok\n"))
	f.Add([]byte("\x00\xff\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g1, err := Parse(context.Background(), evidence.BytesSource(nil, 0, data, data))
		if err != nil {
			t.Fatal(err)
		}
		g2, _ := Parse(context.Background(), evidence.BytesSource(nil, 0, data, data))
		if fmt.Sprint(g1.Items) != fmt.Sprint(g2.Items) {
			t.Fatal("not deterministic")
		}
		for _, it := range g1.Items {
			if it.Kind == evidence.KindAnomaly && (it.Line < 1 || it.Line > evidence.CountLines(data)) {
				t.Fatalf("line %d outside 1..%d", it.Line, evidence.CountLines(data))
			}
		}
	})
}

func TestHasLetter(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		for pos := range 11 {
			b := bytes.Repeat([]byte{'7'}, 11)
			b[pos] = byte(c)
			if got := hasLetter(b); got != want {
				t.Fatalf("hasLetter with byte %#x at %d = %v, want %v", c, pos, got, want)
			}
		}
	}
}

// TestLongLineSaid: what lies past lines.Max of a line is not looked at, so
// the graph says which line was read only in part; a line of exactly
// lines.Max bytes (with or without its CR) is read whole and says nothing.
func TestLongLineSaid(t *testing.T) {
	long := strings.Repeat("A", 100_000) + " error: the end"
	cases := []struct {
		name, stdout string
		want         string // the loss's detail, "" for none
	}{
		{"past the cut", "ok\n" + long + "\nok\n", "stdout: 1 line longer than 64 KiB read for errors only in their first 64 KiB (the first is line 2;"},
		{"letters only past a flood", "1\n" + strings.Repeat("9", 300_000) + " error\n", "stdout: 1 line longer than 64 KiB read for errors only in their first 64 KiB (the first is line 2;"},
		{"two, no newline at the end", long + "\n" + long, "stdout: 2 lines longer than"},
		// The cut part has letters; the line ends in a chunk without any.
		{"ends in a chunk without letters", strings.Repeat("9", 70_000) + " error " + strings.Repeat("9", 400_000) + "\n1\n", "stdout: 1 line longer than 64 KiB read for errors only in their first 64 KiB (the first is line 1;"},
		{"exactly the cut", strings.Repeat("b", lines.Max) + "\n", ""},
		{"exactly the cut and a CR", strings.Repeat("b", lines.Max) + "\r\n", ""},
		{"short", "error: short\n", ""},
	}
	for _, c := range cases {
		g, err := Parse(context.Background(), evidence.BytesSource([]string{"x"}, 0, []byte(c.stdout), nil))
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, l := range g.Losses {
			if l.Code == "long-line" {
				got = l.Detail
			}
		}
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: long-line loss %q, want it to start %q", c.name, got, c.want)
		}
	}
}
