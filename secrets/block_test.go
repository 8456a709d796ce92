package secrets

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// TestQuietText: when QuietText passes a text, Line passes each of its
// lines unchanged and leaves the state alone; and it does not pass texts
// holding a line Line would change.
func TestQuietText(t *testing.T) {
	plain := "2026-12-01 10:00:01 INFO worker 3 request 1234567 done in 12 ms\n12345678\n" +
		"  at java.base/java.lang.Thread.run(Thread.java:829)\n\n"
	for _, c := range []struct {
		text  string
		quiet bool
	}{
		{plain, true},
		{plain + "export API_TOKEN=abcd1234efgh5678ijkl\n", false},
		{plain + "-----BEGIN RSA PRIVATE KEY-----\n", false},
		{plain + "data:\n", false},
		{plain + `  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",` + "\n", false},
		{plain + strings.Repeat("abcdefghij", 3) + "\n", false}, // a long token run
		{strings.Repeat("x ", 31) + "x\n", true},                // 63 bytes: too short for a key line
	} {
		var r Redactor
		if got := r.QuietText([]byte(c.text)); got != c.quiet {
			t.Errorf("QuietText(%q) = %v, want %v", c.text, got, c.quiet)
		}
	}
	var r Redactor
	r.Line([]byte("-----BEGIN RSA PRIVATE KEY-----"))
	if r.QuietText([]byte(plain)) {
		t.Errorf("QuietText passed text inside a key block")
	}
	// Random texts from these lines: a quiet one changes nothing line by line.
	pool := strings.SplitAfter(plain+fakePEM+"token: abcdefgh12345678\nAuthorization: Bearer abcdefghijklmnop1234\nhello world\n", "\n")
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.Intn(6) {
			b.WriteString(pool[rng.Intn(len(pool))])
		}
		text := b.String()
		var q Redactor
		if !q.QuietText([]byte(text)) {
			continue
		}
		st := q.State()
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if out := q.Line([]byte(l)); !bytes.Equal(out, []byte(l)) {
				t.Fatalf("QuietText passed %q but Line changes %q", text, l)
			}
		}
		if q.State() != st {
			t.Fatalf("QuietText passed %q but its lines change the state", text)
		}
	}
}

// TestHasLongRun: the skipping search finds what the byte-by-byte one does.
func TestHasLongRun(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := "ab9_- .\n/"
	for range 20000 {
		b := make([]byte, rng.Intn(120))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
			if rng.Intn(3) > 0 {
				b[i] = 'a'
			}
		}
		if hasLongRun(b) != longRun(b) {
			t.Fatalf("hasLongRun(%q) = %v, longRun %v", b, hasLongRun(b), longRun(b))
		}
	}
}
