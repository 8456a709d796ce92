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

// TestStatic: when Static passes a text, its lines redacted one by one from
// the starting State, in reverse order, give what one pass in order gives,
// and leave the State alone; it does not pass texts that open, close or
// continue a block, or whose orphan key line would name the block's marker.
func TestStatic(t *testing.T) {
	pool := strings.SplitAfter("2026-12-01 INFO worker 3 request 1234567\nexport API_TOKEN=abcd1234efgh5678ijkl\n"+
		"Authorization: Bearer abcdefghijklmnop1234\n"+`  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",`+"\n"+
		fakePEM+"data:\n  password: c3VwZXJzZWNyZXQ=\nstringData:\n  token: hunter2hunter2\n"+`{"data": {`+"\n}\nhello world\n", "\n")
	rng := rand.New(rand.NewSource(3))
	passed, refused := 0, 0
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.Intn(6) {
			b.WriteString(pool[rng.Intn(len(pool))])
		}
		text := b.String()
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		var start Redactor
		if rng.Intn(3) == 0 {
			start.Line([]byte(pool[3][:len(pool[3])-1])) // an orphan key line seen: the marker is named
		}
		st := start.State()
		if !start.Static([]byte(text)) {
			refused++
			continue
		}
		passed++
		var seq, each Redactor
		seq.SetState(st)
		each.SetState(st)
		want := make([]string, len(lines))
		for i, l := range lines {
			want[i] = string(seq.Line([]byte(l)))
		}
		for i := len(lines) - 1; i >= 0; i-- {
			if got := string(each.Line([]byte(lines[i]))); got != want[i] {
				t.Fatalf("Static passed %q but line %d redacts to %q alone, %q in order", text, i, got, want[i])
			}
		}
		if seq.State() != st || each.State() != st {
			t.Fatalf("Static passed %q but its lines change the state", text)
		}
	}
	if passed < 100 || refused < 100 {
		t.Errorf("Static passed %d and refused %d texts: the test tests too little", passed, refused)
	}
}

// TestIntroduces: a literal redaction can put into a line (a marker's
// parts) is told from one it cannot.
func TestIntroduces(t *testing.T) {
	for lit, want := range map[string]bool{
		"REDACTED": true, "[": true, "x]": true, "ACTED:gith": true, "private-key:": true, ":ab1": true,
		"cdef": true, "key": true, "5965232": false, "error": false, "ghp_1a2B3c": false, "request 12": false, "ABCD": false,
	} {
		if got := Introduces([]byte(lit)); got != want {
			t.Errorf("Introduces(%q) = %v, want %v", lit, got, want)
		}
	}
	// Every marker Line writes bears it out.
	var r Redactor
	for _, l := range []string{"export API_TOKEN=abcd1234efgh5678ijkl", "Authorization: Bearer abcdefghijklmnop1234", "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"} {
		out := string(r.Line([]byte(l)))
		i := strings.Index(out, "[REDACTED:")
		if i < 0 {
			t.Fatalf("%q was not redacted", l)
		}
		m := out[i : i+strings.Index(out[i:], "]")+1]
		for a := 0; a < len(m); a++ {
			for b := a + 1; b <= len(m); b++ {
				if !Introduces([]byte(m[a:b])) {
					t.Fatalf("Introduces(%q) = false, but it is part of the marker %s", m[a:b], m)
				}
			}
		}
	}
}

// TestMaybeText: the whole-text prefilter agrees with the per-line one on
// lines made of keywords' pieces in either case, and on every keyword.
func TestMaybeText(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, k := range keywordList {
		up := []byte(strings.ToUpper(k))
		if !maybeText([]byte(k)) || !maybeText(up) {
			t.Fatalf("maybeText misses the keyword %q", k)
		}
	}
	for range 20000 {
		var b []byte
		for range 1 + rng.Intn(4) {
			k := keywordList[rng.Intn(len(keywordList))]
			k = k[rng.Intn(len(k)):]
			k = k[:rng.Intn(len(k)+1)]
			for _, c := range []byte(k) {
				if rng.Intn(2) == 0 && 'a' <= c && c <= 'z' {
					c -= 'a' - 'A'
				}
				b = append(b, c)
			}
			b = append(b, " .:9\x00\xff"[rng.Intn(6)])
		}
		if maybeText(b) != maybe(b) {
			t.Fatalf("maybeText(%q) = %v, maybe %v", b, maybeText(b), maybe(b))
		}
	}
}
