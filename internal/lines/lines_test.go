package lines

import (
	"bytes"
	"context"
	"math/rand/v2"
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

// Short Latin-1 text is a few odd bytes over the 1 % rule, and is text;
// binary with no NUL byte still is not.
func TestPrintableLatin1(t *testing.T) {
	l1 := func(s string) []byte { // s's runes as ISO 8859-1 bytes
		var b []byte
		for _, r := range s {
			b = append(b, byte(r))
		}
		return b
	}
	for _, s := range []string{
		"Grüße aus München\n",
		"Grüße\n",
		"Fehler: Datei nicht gefunden: /tmp/übung.txt\n",
		"café crème à la carte, s'il vous plaît\n",
		"Temperatur: 21°C ± 0,5°\n",
		"año, niño, señor\r\n",
	} {
		if !Printable(l1(s)) {
			t.Errorf("Latin-1 %q judged binary", s)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	// (Under about 32 bytes random bytes can spell Latin-1 words.)
	for _, n := range []int{32, 64, 200, 4096} {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(255) + 1) // no NUL
			}
			if Printable(b) {
				t.Fatalf("random %d bytes without NUL judged text: %q", n, b)
			}
		}
	}
	for _, b := range [][]byte{
		[]byte("\x89PNG\r\n\x1a\n\xde\xad\xbe\xef\xca\xfe\xba\xbe"),
		{0x1f, 0x8b, 0x08, 0x08, 0xe3, 0xfa, 0xb1, 0x5e, 0x02, 0x03, 'a', '.', 't', 'x', 't'},
		l1("ÿØÿàJFIFÿÛCÿÀ"),  // JPEG's markers, no NUL
		l1("ÞÞÞÞ ÿÿÿÿ ëëëë"), // long runs of high bytes
	} {
		if Printable(b) {
			t.Errorf("binary %q judged text", b)
		}
	}
}
