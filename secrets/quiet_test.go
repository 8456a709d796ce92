package secrets

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A line quiet passes is one the full steps would return unchanged, leaving
// the block state as it was: checked over the lines of this package's own
// sources and tests (which hold planted secrets, key blocks and Kubernetes
// data blocks) and over random short lines of the bytes that matter.
func TestQuietChangesNothing(t *testing.T) {
	var lines []string
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	// Every line that opens or closes a block.
	lines = append(lines, "-----BEGIN CERTIFICATE-----", "MIIB", "-----END CERTIFICATE-----",
		"-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAA", "-----END OPENSSH PRIVATE KEY-----",
		"data:", "  password: aHVudGVyMg==", "kind: Secret", "stringData:", "  token: x", `  "data": {`, `    "k": "aHVudGVyMg=="`, "  }")
	rng := rand.New(rand.NewSource(1))
	const alphabet = "ab:-= \t\"{}AKIAghp_0123456789/+"
	for range 20000 {
		b := make([]byte, rng.Intn(140))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		lines = append(lines, string(b))
	}
	// Key lines shown without their block: a last field of 64 or 70 base64
	// characters, behind a log prefix.
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range 200 {
		f := make([]byte, []int{64, 70, 63}[i%3])
		for j := range f {
			f[j] = b64[rng.Intn(len(b64))]
		}
		lines = append(lines, "2026-12-01 12:00:00 INFO key "+string(f), `  "`+string(f)+`",`)
	}
	var r Redactor
	quiet := 0
	for _, l := range lines {
		line := []byte(l)
		if r.quiet(line) {
			quiet++
			before := r
			if out := r.line(line); !bytes.Equal(out, line) {
				t.Errorf("quiet line %q is redacted to %q", line, out)
			}
			if r.data != before.data || r.inPublic != before.inPublic || r.inKey != before.inKey || r.keyLines != before.keyLines {
				t.Errorf("quiet line %q changes the block state", line)
			}
			continue
		}
		r.line(line) // follow the blocks as Line does
	}
	if quiet == 0 || quiet == len(lines) {
		t.Fatalf("%d of %d lines quiet: the test checks nothing", quiet, len(lines))
	}
}
