package lines

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func collect(t *testing.T, in string) (got []string, longs []bool) {
	t.Helper()
	err := Scan(context.Background(), strings.NewReader(in), func(n int, line []byte, long bool) error {
		if n != len(got)+1 {
			t.Fatalf("line number %d, want %d", n, len(got)+1)
		}
		got = append(got, string(line))
		longs = append(longs, long)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, longs
}

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"\n\n", []string{"", ""}},
		{"x\ny", []string{"x", "y"}},
	} {
		got, _ := collect(t, tc.in)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Scan(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScanLongLine(t *testing.T) {
	huge := strings.Repeat("z", 3*Max+17)
	got, longs := collect(t, "short\n"+huge+"\nafter")
	if len(got) != 3 {
		t.Fatalf("got %d lines, want 3", len(got))
	}
	if len(got[1]) != Max || !longs[1] || longs[0] || longs[2] {
		t.Errorf("long line: len %d long %v", len(got[1]), longs)
	}
	if got[2] != "after" {
		t.Errorf("line after the long one = %q", got[2])
	}
}

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[31mFAILED\x1b[0m x", "FAILED x"},
		{"10%\r50%\rdone", "done"},
		{"done\r", "done"},
		{"\x1b]0;title\x07text", "text"},
		{"a\x1b", "a"},
		{"ok\x1b(B\x1b[m", "ok"},
		{"\x1b)0line", "line"},
	} {
		if got := string(Clean([]byte(tc.in))); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPrintable(t *testing.T) {
	if !Printable([]byte("héllo\tworld\n\x1b[1m")) {
		t.Error("text judged binary")
	}
	if Printable([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0}) {
		t.Error("ELF judged text")
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	if Printable(bytes.Repeat(all, 4)) {
		t.Error("all byte values judged text")
	}
}
