package secrets

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkLoad is the one-time cost of parsing the rules (no regexp is
// compiled until a keyword occurs).
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTextPlain is redaction over ordinary output with no candidate.
func BenchmarkTextPlain(b *testing.B) {
	line := "2026-11-30T10:04:12Z INFO worker 7 finished batch 1182 in 41ms (3 retries, queue depth 17)\n"
	text := []byte(strings.Repeat(line, 10000))
	rules()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Text(text)
	}
}

// BenchmarkTextGoTest is redaction over go test -v output, whose lines hold
// keywords (PASS, key) now and then.
func BenchmarkTextGoTest(b *testing.B) {
	var buf bytes.Buffer
	for i := range 3000 {
		buf.WriteString("=== RUN   TestParseKey/case_" + strings.Repeat("x", i%7) + "\n--- PASS: TestParseKey (0.00s)\n    key_test.go:12: token count 12\n")
	}
	text := buf.Bytes()
	rules()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Text(text)
	}
}

// BenchmarkQuietText is the whole-text test over seq's output and a
// service log, neither of which holds a candidate.
func BenchmarkQuietText(b *testing.B) {
	var seq bytes.Buffer
	for i := 59000000; seq.Len() < 256<<10; i++ {
		fmt.Fprintf(&seq, "%d\n", i)
	}
	log := strings.Repeat("2026-11-30T10:04:12.118Z INFO  worker 7 request 4435761 done\n", 4096)
	for _, c := range []struct{ name, text string }{{"seq", seq.String()}, {"log", log}} {
		b.Run(c.name, func(b *testing.B) {
			var r Redactor
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				if !r.QuietText([]byte(c.text)) {
					b.Fatal("not quiet")
				}
			}
		})
	}
}
