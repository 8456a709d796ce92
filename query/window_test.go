package query

import (
	"errors"
	"strings"
	"testing"
)

// TestLongQueryErrorIsShort: an error in a long query quotes the part around
// the problem, cut with "…", with the caret under the problem; before, it
// printed the whole query again (6 KB for 500 stages).
func TestLongQueryErrorIsShort(t *testing.T) {
	q := strings.Repeat("from runs | ", 500) + "wher x"
	_, err := Compile(q)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	msg := se.Error()
	if len(msg) > 400 {
		t.Fatalf("the error is %d bytes:\n%.300s", len(msg), msg)
	}
	lines := strings.Split(msg, "\n")
	if len(lines) != 3 {
		t.Fatalf("want message, source, caret; got %q", msg)
	}
	src, caret := []rune(lines[1]), strings.Index(lines[2], "^")
	if caret < 0 || caret >= len(src) || !strings.HasPrefix(lines[1], "  …") {
		t.Fatalf("caret at %d in %q", caret, lines[1])
	}
	// The caret points at the byte the column names.
	if want := string(q[se.Col-1]); string(src[caret]) != want {
		t.Errorf("caret under %q, column %d is %q\n%s", string(src[caret]), se.Col, want, msg)
	}
	// A short query is quoted whole, as before.
	_, err = Compile("from nowhere")
	if !strings.Contains(err.Error(), "\n  from nowhere\n       ^") {
		t.Errorf("short query: %q", err)
	}
}
