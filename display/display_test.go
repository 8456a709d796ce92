package display

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestDecisions(t *testing.T) {
	tty := Settings{OutTTY: true, InTTY: true, Getenv: env(nil)}
	for _, tc := range []struct {
		name   string
		s      Settings
		vars   map[string]string
		colour bool
		pager  string
	}{
		{"terminal", tty, nil, true, "less"},
		{"piped stdout", Settings{InTTY: true}, nil, false, ""},
		{"stdin not a terminal", Settings{OutTTY: true}, nil, true, ""},
		{"--no-pager", Settings{OutTTY: true, InTTY: true, NoPager: true}, nil, true, ""},
		{"NO_COLOR", tty, map[string]string{"NO_COLOR": "1"}, false, "less"},
		{"dumb terminal", tty, map[string]string{"TERM": "dumb"}, false, ""},
		{"an agent session", tty, map[string]string{"CTX_SESSION": "s1"}, true, ""},
		{"PAGER", tty, map[string]string{"PAGER": "more -s"}, true, "more -s"},
		{"CTX_PAGER over PAGER", tty, map[string]string{"PAGER": "more", "CTX_PAGER": "less -S"}, true, "less -S"},
		{"cat is no pager", tty, map[string]string{"PAGER": "cat"}, true, ""},
	} {
		tc.s.Getenv = env(tc.vars)
		if got := tc.s.Colour(); got != tc.colour {
			t.Errorf("%s: colour %v, want %v", tc.name, got, tc.colour)
		}
		if got := tc.s.Pager(); got != tc.pager {
			t.Errorf("%s: pager %q, want %q", tc.name, got, tc.pager)
		}
	}
}

// TestWriterHoldsThenPages: output that fits is written at Close, as it
// came; the line that overflows the screen starts the pager, which gets
// every byte, split however the writes came.
func TestWriterHoldsThenPages(t *testing.T) {
	var out bytes.Buffer
	piped := New(&out, io.Discard, Settings{Getenv: env(nil)}, Digest)
	if piped != io.Writer(&out) {
		t.Fatal("piped output is wrapped")
	}
	dir := t.TempDir()
	got := filepath.Join(dir, "paged")
	s := Settings{OutTTY: true, InTTY: true, Rows: 5, Getenv: env(map[string]string{"CTX_PAGER": "cat > " + got, "NO_COLOR": "1"})}
	w := New(&out, io.Discard, s, Digest)
	io.WriteString(w, "a\nb\nc")
	io.WriteString(w, "\nd\n")
	if out.Len() != 0 {
		t.Fatalf("written before it was known to fit: %q", out.String())
	}
	if err := Close(w); err != nil || out.String() != "a\nb\nc\nd\n" {
		t.Fatalf("fits: %q %v", out.String(), err)
	}
	if _, err := os.Stat(got); err == nil {
		t.Fatal("a pager ran for output that fits")
	}
	out.Reset()
	w = New(&out, io.Discard, s, Digest)
	text := strings.Repeat("x\n", 3) + "y" + strings.Repeat("\nz", 10) + "tail"
	for i := 0; i < len(text); i += 3 {
		io.WriteString(w, text[i:min(i+3, len(text))])
	}
	if err := Close(w); err != nil {
		t.Fatal(err)
	}
	paged, _ := os.ReadFile(got)
	if string(paged) != text || out.Len() != 0 {
		t.Fatalf("paged %q, direct %q", paged, out.String())
	}
}

func TestDigestColoursOnlyCtxLines(t *testing.T) {
	for in, want := range map[string]string{
		"run:ab12cd34ef56 · exit 0 · whole output\n": "\x1b[1m\x1b[36mrun:ab12cd34ef56\x1b[0m\x1b[1m · exit \x1b[32m0\x1b[0m\x1b[1m · whole output\x1b[0m\n",
		"$ go test ./...\n":                          "\x1b[1m$ go test ./...\x1b[0m\n",
		"! pytest/1 fell back\n":                     "\x1b[33m! pytest/1 fell back\x1b[0m\n",
		"··· L11-280 (270 lines)":                    "\x1b[2m··· L11-280 (270 lines)\x1b[0m",
		"FAIL: TestA\n":                              "FAIL: TestA\n",
		"\x1b[31mred\x1b[0m\n":                       "\x1b[31mred\x1b[0m\n",
	} {
		if got := string(Digest([]byte(in))); got != want {
			t.Errorf("Digest(%q) = %q, want %q", in, got, want)
		}
	}
}
