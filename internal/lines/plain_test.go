package lines

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

func TestPlain(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		changed        bool
	}{
		{"untouched", "a  \n\tb\xff\n", "a  \n\tb\xff\n", false},
		{"crlf kept", "one\r\ntwo\r\n", "one\r\ntwo\r\n", false},
		{"no final newline", "x\x1b[0m", "x", true},
		{"colour", "\x1b[1;31m-old\x1b[m\n\x1b[32m+new\x1b[m\n", "-old\n+new\n", true},
		{"progress", "  0%\r 50%\r100%\ndone\n", "100%\ndone\n", true},
		{"shorter overwrite keeps the tail", "abcdef\rxy\n", "xycdef\n", true},
		{"erase to end", "abcdef\rxy\x1b[K\n", "xy\n", true},
		{"erase line", "abcdef\x1b[2K\rxy\n", "xy\n", true},
		{"erase then write past", "abc\x1b[2Kz\n", "   z\n", true},
		{"backspace", "ab\bc\n", "ac\n", true},
		{"utf-8 cells", "héllo\rHÉ\n", "HÉllo\n", true},
		{"osc title", "\x1b]0;title\x07text\n", "text\n", true},
		{"crlf with colour", "\x1b[31m-x\x1b[m\r\n", "-x\r\n", true},
		{"cr before colour reset ends the line", "+gamma\x1b[m\x1b[41m\r\x1b[m\n", "+gamma\r\n", true},
		{"long line", strings.Repeat("z", 300<<10) + "\x1b[0m\n", strings.Repeat("z", 300<<10) + "\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			st, err := Plain(&out, iotest.OneByteReader(strings.NewReader(c.in)))
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != c.want {
				t.Errorf("Plain(%q) = %q, want %q", trim(c.in), trim(out.String()), trim(c.want))
			}
			if st.Changed() != c.changed {
				t.Errorf("changed = %v (%+v), want %v", st.Changed(), st, c.changed)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// FuzzPlain: text with no ESC, CR or BS passes through byte for byte, and
// cleaning is idempotent.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{"a\r\nb\n", "\x1b[31mx\x1b[0m\n", "1\r2\r3", "\x1b]0;t\x1b\\x", "ab\b\bc", "\x1b[2Kz"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var once, twice bytes.Buffer
		if _, err := Plain(&once, bytes.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		if !bytes.ContainsAny(in, "\x1b\r\b") && !bytes.Equal(once.Bytes(), in) {
			t.Fatalf("plain text changed: %q → %q", in, once.Bytes())
		}
		if _, err := Plain(&twice, bytes.NewReader(once.Bytes())); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Fatalf("not idempotent: %q → %q → %q", in, once.Bytes(), twice.Bytes())
		}
	})
}
