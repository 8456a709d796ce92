package retrieve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/storetest"
)

// stored puts a run with the given streams in a fresh store and returns the
// store and the run's target.
func stored(t *testing.T, stdout, stderr string) (*store.Store, *store.Target) {
	t.Helper()
	st, _ := storetest.Open(t)
	sp, err := st.NewSpool(store.SpoolMeta{Argv: []string{"x"}, Dir: ".", Mode: "ingest", Started: time.Now(), Cap: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"stdout": stdout, "stderr": stderr} {
		w, err := sp.Stream(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	run, err := st.CommitSpool(sp, store.Manifest{Argv: []string{"x"}, Dir: ".", Mode: "ingest", Status: store.StatusIngested}, store.Exec{Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	h, err := store.ParseHandle(run.Handle() + "#stdout")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := st.Resolve(h)
	if err != nil {
		t.Fatal(err)
	}
	return st, tg
}

func numbered(n int, mark map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if m, ok := mark[i]; ok {
			b.WriteString(m + "\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestParseSelector(t *testing.T) {
	for _, c := range []struct {
		in   string
		unit byte
		want store.Range
		bad  bool
	}{
		{"3:7", 'L', store.Range{Unit: 'L', From: 3, To: 7}, false},
		{"3:", 'L', store.Range{Unit: 'L', From: 3, To: 0}, false},
		{":7", 'L', store.Range{Unit: 'L', From: 1, To: 7}, false},
		{"5", 'L', store.Range{Unit: 'L', From: 5, To: 5}, false},
		{"0:3", 'L', store.Range{}, true},
		{"7:3", 'L', store.Range{}, true},
		{"x", 'L', store.Range{}, true},
		{"10:20", 'B', store.Range{Unit: 'B', From: 10, To: 20}, false},
		{"10:", 'B', store.Range{Unit: 'B', From: 10, To: -1}, false},
		{"10", 'B', store.Range{}, true},
	} {
		got, err := ParseSelector(c.in, c.unit)
		if (err != nil) != c.bad || !c.bad && got != c.want {
			t.Errorf("ParseSelector(%q, %c) = %+v, %v", c.in, c.unit, got, err)
		}
	}
}

// TestGetRange prints exact lines and bytes of a stream, and refuses a range
// past its end.
func TestGetRange(t *testing.T) {
	st, tg := stored(t, numbered(10, nil), "")
	var out bytes.Buffer
	if _, err := Get(context.Background(), st, tg, &out, Options{Range: store.Range{Unit: 'L', From: 3, To: 4}}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "line 3\nline 4\n" {
		t.Errorf("L3-4 = %q", out.String())
	}
	out.Reset()
	if _, err := Get(context.Background(), st, tg, &out, Options{Range: store.Range{Unit: 'B', From: 0, To: 4}}); err != nil || out.String() != "line" {
		t.Errorf("B0-4 = %q, %v", out.String(), err)
	}
	if _, err := Get(context.Background(), st, tg, &out, Options{Range: store.Range{Unit: 'L', From: 11, To: 12}}); !errors.Is(err, store.ErrRange) {
		t.Errorf("L11-12 of 10 lines: %v, want ErrRange", err)
	}
}

// TestZoom: a region over the limit prints its head, tail, the lines that
// look like errors (not paths that merely hold the word) and its halves, and
// reports ErrZoomed.
func TestZoom(t *testing.T) {
	st, tg := stored(t, numbered(600, map[int]string{300: "error: disk full", 301: "./src/error/handler.go"}), "")
	var out bytes.Buffer
	_, err := Get(context.Background(), st, tg, &out, Options{})
	if !errors.Is(err, ErrZoomed) {
		t.Fatalf("err %v, want ErrZoomed", err)
	}
	got := out.String()
	for _, want := range []string{"over the inline limit of 240 lines", "1: line 1", "300: error: disk full", "600: line 600", ":L1-300 · ", ":L301-600"} {
		if !strings.Contains(got, want) {
			t.Errorf("zoom view lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "301: ./src/error/handler.go") {
		t.Errorf("zoom view lists a path as an error line:\n%s", got)
	}
	out.Reset()
	if _, err := Get(context.Background(), st, tg, &out, Options{Full: true}); err != nil || strings.Count(out.String(), "\n") != 600 {
		t.Errorf("--full printed %d lines, %v", strings.Count(out.String(), "\n"), err)
	}
}

// TestGrep numbers matches and context like grep -n and reports no match.
func TestGrep(t *testing.T) {
	st, tg := stored(t, numbered(20, map[int]string{5: "FAIL a", 12: "FAIL b"}), "")
	var out bytes.Buffer
	if _, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("FAIL"), Around: 1}); err != nil {
		t.Fatal(err)
	}
	want := "4-line 4\n5:FAIL a\n6-line 6\n--\n11-line 11\n12:FAIL b\n13-line 13\n"
	if out.String() != want {
		t.Errorf("grep:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if _, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("nothing")}); !errors.Is(err, ErrNoMatch) {
		t.Errorf("no match: %v", err)
	}
}

// TestPlainAndHex: plain text drops escapes and says so; a hexdump is bounded.
func TestPlainAndHex(t *testing.T) {
	st, tg := stored(t, "\x1b[31mred\x1b[0m\n", "")
	var out bytes.Buffer
	res, err := Get(context.Background(), st, tg, &out, Options{Form: Plain})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "red\n" || !strings.Contains(res.Note, "2 escape sequences removed") {
		t.Errorf("plain %q note %q", out.String(), res.Note)
	}
	out.Reset()
	if _, err := Get(context.Background(), st, tg, &out, Options{Hex: true}); err != nil || !strings.HasPrefix(out.String(), "00000000  1b 5b 33 31") {
		t.Errorf("hex %q %v", out.String(), err)
	}
}

// TestJSONParts selects a value by pointer and records by range.
func TestJSONParts(t *testing.T) {
	st, tg := stored(t, `{"a":1}`+"\n"+`{"a":2,"b":[true]}`+"\n"+`{"a":3}`+"\n", "")
	var out bytes.Buffer
	if _, err := Get(context.Background(), st, tg, &out, Options{Records: "2:3"}); err != nil {
		t.Fatal(err)
	}
	if out.String() != `{"a":2,"b":[true]}`+"\n"+`{"a":3}`+"\n" {
		t.Errorf("records 2:3 = %q", out.String())
	}
	var ue *UsageError
	if _, err := Get(context.Background(), st, tg, &out, Options{Records: "x", Pointer: "/a"}); !errors.As(err, &ue) {
		t.Errorf("pointer and records: %v, want a usage error", err)
	}
}

// TestGrepContextStopsVisibly: output that fills up inside a match's
// context says it stopped and where to go on (keeping --around), as it
// does when it stops at a match; and a match far from the start is shown
// even when --around asks for more context than the output holds.
func TestGrepContextStopsVisibly(t *testing.T) {
	st, tg := stored(t, numbered(1000, map[int]string{5: "FAIL a", 900: "FAIL b"}), "")
	var out bytes.Buffer
	if _, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("FAIL"), Around: 1000}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "5:FAIL a\n") || !strings.Contains(out.String(), "output stopped at 240 lines") ||
		!strings.Contains(out.String(), ":L241- for the rest of the context; ctx get ") || !strings.Contains(out.String(), ":L900- --grep \"FAIL\" --around 1000 for the next match\n") {
		t.Errorf("context cut at the limit without a word:\n…%s", tailOf(out.String(), 200))
	}
	out.Reset()
	if _, err := Get(context.Background(), st, tg, &out, Options{Grep: regexp.MustCompile("FAIL b"), Around: 5000}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "900:FAIL b\n") {
		t.Errorf("the match is not shown, only context before it:\n…%s", tailOf(out.String(), 200))
	}
}

func tailOf(s string, n int) string { return s[max(0, len(s)-n):] }
