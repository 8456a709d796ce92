package retrieve

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/store"
)

// Planted secrets: a key block (its lines must all go, under one marker),
// a Kubernetes data block, a certificate (kept), a key line without its
// block, and one-line credentials.
const (
	keyBlock  = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\nLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo\n-----END RSA " + "PRIVATE KEY-----\n"
	dataBlock = "apiVersion: v1\nkind: Secret\ndata:\n  password: c3VwZXJzZWNyZXRwYXNzd29yZDEyMw==\n  token: ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUl4TWpNME5UWTNPRGt3SW4w\nmetadata:\n  name: db\n"
	certBlock = "-----BEGIN CERTIFICATE-----\nMIIBfzCCASWgAwIBAgIUZuXkCkRMIUV9azdMZJ53ngqDrS4wCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n"
	orphanKey = `      "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",` + "\n"
	oneLiners = "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY9\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U\ngit clone https://deploy:ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ@github.com/x/y\n"
)

// straddlers are one-line secrets planted in a line that crosses frames.
var straddlers = []string{"ghp_9z8Y7x6W5v4U3t2S1r0QpOnMlKjIhGfEdCbA", "password=Zx9wQ7vB3nM1kLp", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI5ODc2NTQzMjEwIn0.Qw3rTy7uIoPaSdFgHjKlZxCvBnM", "AKIAZ7RQ4XW2MNVPL3KD"}

// straddling is a line to follow content: 330 KiB of words with the
// straddlers every 30 KiB and one of them across the frame boundary that
// falls inside the line (where store cuts frames: at the last newline in
// the last quarter of store.FrameSize, else at the limit).
func straddling(content string) string {
	start := 0
	for len(content)-start > store.FrameSize {
		lim := start + store.FrameSize
		if i := strings.LastIndexByte(content[lim-store.FrameSize/4:lim], '\n'); i >= 0 {
			lim += i + 1 - store.FrameSize/4
		}
		start = lim
	}
	cut := start + store.FrameSize - len(content)
	if cut < store.FrameSize/4 {
		cut = store.FrameSize // the frame is cut before the line
	}
	var b strings.Builder
	for i := 0; b.Len() < 330<<10; i++ {
		b.WriteString("lorem ipsum ")
		if b.Len()%(30<<10) < 12 || b.Len() <= cut-10 && b.Len() > cut-22 {
			b.WriteString(straddlers[i%len(straddlers)] + " ")
		}
	}
	return b.String()
}

// secretValues must never be printed unless secrets are revealed.
var secretValues = []string{"MIIEow", "wJalrXUtnFEMI", "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "ghp_9z8Y7x6W5v4U3t2S1r0QpOnMlKjIhGfEdCbA", "Zx9wQ7vB3nM1kLp", "Qw3rTy7uIoPaSdFgHjKlZxCvBnM", "AKIAZ7RQ4XW2MNVPL3KD", "c3VwZXJzZWNyZXRwYXNzd29yZDEyMw"}

// corpusLines are real captured outputs: the shared corpus's logs, test
// runs and linter outputs.
func corpusLines(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..", "shared", "corpus")
	var out []string
	for _, dir := range []string{"loghub2k", "gotest", "diagnostics"} {
		_ = filepath.Walk(filepath.Join(root, dir), func(path string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || strings.HasSuffix(path, ".csv") || fi.Size() > 2<<20 {
				return nil
			}
			b, err := os.ReadFile(path)
			if err == nil {
				out = append(out, strings.SplitAfter(string(b), "\n")...)
			}
			return nil
		})
	}
	if len(out) < 10000 {
		t.Skipf("the shared corpus is missing beside the repository (%d lines)", len(out))
	}
	return out
}

// mixedOutput is several MiB of real output with the secrets above planted
// every few hundred lines, escapes and carriage returns, lines over
// lines.Max, and one line of 1.2 MiB with secrets in it, which crosses frames and
// secrets.Reader's pieces; it ends without a newline when noNL.
func mixedOutput(t *testing.T, seed int64, noNL bool) string {
	// The long line costs the redactor seconds (its rules' regexps over a
	// MiB): only the round that tests the ending has it.
	pieces := noNL
	corpus := corpusLines(t)
	rng := rand.New(rand.NewSource(seed))
	var b strings.Builder
	longKey := strings.Replace(keyBlock, "\nVTLw", strings.Repeat("\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", 40)+"\nVTLw", 1)
	plants := []string{keyBlock, longKey, longKey, dataBlock, certBlock, orphanKey, oneLiners,
		"\x1b[31merror:\x1b[0m build failed\n", "progress 10%\rprogress 100%\r\n"}
	// Key blocks of 80 KiB (lines of 2,000 base64 digits) every 400 KiB:
	// frame boundaries fall inside some of them.
	wideKey := "-----BEGIN RSA " + "PRIVATE KEY-----\n" + strings.Repeat(strings.Repeat("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", 31)+"\n", 40) + "-----END RSA " + "PRIVATE KEY-----\n"
	wides, longs, straddled := 0, 0, false
	for b.Len() < 3<<20 {
		if b.Len()/(400<<10) > wides {
			wides++
			b.WriteString(wideKey)
		}
		if rng.Intn(12) == 0 {
			b.WriteString(plants[rng.Intn(len(plants))])
			continue
		}
		l := corpus[rng.Intn(len(corpus))]
		if !strings.HasSuffix(l, "\n") {
			l += "\n"
		}
		b.WriteString(l)
		switch n := b.Len(); {
		case n > 3<<19 && !straddled:
			// A line of 330 KiB, longer than a frame and its slack, so a
			// frame boundary falls inside it, inside a secret.
			straddled = true
			b.WriteString(straddling(b.String()) + "\n")
		case n > 1<<20 && longs == 0, n > 5<<19 && longs == 2, n > 5<<19 && longs == 1:
			longs++
			b.WriteString(strings.Repeat("x", 70<<10) + " token=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA\n")
		case n > 2<<20 && longs == 1 && pieces:
			longs++
			// Over secrets.PieceLen, a token across the cut between pieces.
			long := strings.Repeat("abcdefgh ", 120000)[:1<<20-30]
			b.WriteString("password=s3cr3tP4ssw0rd " + long + " ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ " + long[:50000] + "\n")
		}
	}
	b.WriteString(keyBlock[:len(keyBlock)-1]) // a key block at the very end
	if !noNL {
		b.WriteString("\n")
	}
	return b.String()
}

// grepBoth runs Grep frame by frame and as one stream.
func grepBoth(t *testing.T, reg *Region, re *regexp.Regexp, around, limit int) (par, seq string) {
	t.Helper()
	run := func(minFrames int) string {
		parallelMinFrames = minFrames
		defer func() { parallelMinFrames = 2 }()
		var out bytes.Buffer
		err := Grep(context.Background(), &out, reg, re, around, limit)
		if err != nil && !errors.Is(err, ErrNoMatch) {
			t.Fatalf("grep %q: %v", re, err)
		}
		return out.String()
	}
	if !reg.parallel() {
		t.Fatalf("%s is not read frame by frame", reg.Describe())
	}
	return run(2), run(1 << 30)
}

// TestParallelGrepSameBytes: grep frame by frame prints exactly what one
// stream prints — matches, context, redaction of key blocks and data blocks
// that cross frames, lines that cross frames, cut lines, the limits — over
// real captured output with secrets planted in it.
func TestParallelGrepSameBytes(t *testing.T) {
	for _, noNL := range []bool{false, true} {
		content := mixedOutput(t, 1, noNL)
		st, tg := stored(t, content, "")
		whole, err := Open(st, tg, store.Range{})
		if err != nil {
			t.Fatal(err)
		}
		checkCrossings(t, whole, content, noNL)
		mid, err := Open(st, tg, store.Range{Unit: 'L', From: whole.lineN / 3, To: whole.lineN - 1000})
		if err != nil {
			t.Fatal(err)
		}
		before, sparseBefore := redone.Load(), sparse.Load()
		for _, c := range []struct {
			re            string
			around, limit int
		}{
			{`MII|REDACTED`, 0, 1 << 30}, // every key and cert line
			{`REDACTED`, 2, 1 << 30},     // the markers, with context
			{`password|token|Bearer`, 1, 1 << 30},
			{`^\s+(password|token):`, 3, 1 << 30}, // the data block
			{`error`, 2, 240},                     // stops at the limit
			{`(?i)ERROR.*failed$`, 0, 1 << 30},
			{`progress`, 1, 1 << 30}, // carriage returns
			{`xxxxxxxx`, 0, 1 << 30}, // lines over lines.Max
			{`abcdefgh`, 1, 1 << 30}, // the 1.2 MiB line
			{`^$`, 0, 1 << 30},
			{`.`, 0, 100},
			{`nothing matches this`, 3, 1 << 30},
			// Literals that are secrets, or beside them: a line holding one
			// is redacted before it is matched, across frames too.
			{`ghp_\w+`, 1, 1 << 30},
			{`wJalrXUtnFEMI`, 0, 1 << 30},
			{`Bearer eyJ`, 2, 1 << 30},
			{`lorem ipsum lorem`, 0, 1 << 30}, // the line across frames
			{`password=\S+`, 1, 1 << 30},
			{`AKIAZ7RQ`, 0, 1 << 30},
			{`c3VwZXJzZWNyZXRwYXNzd29yZDEyMw`, 3, 1 << 30}, // a data block's value
		} {
			if (testing.Short() || raceEnabled) && c.re != `REDACTED` && c.re != `password=\S+` {
				continue // -short (and -race): a case of each path
			}
			if noNL && c.re != `abcdefgh` && c.re != `REDACTED` && c.re != `password=\S+` {
				continue // the ending and the long line are what this round tests
			}
			re := regexp.MustCompile(c.re)
			for _, reg := range []*Region{whole, mid} {
				for _, reveal := range []bool{false, true} {
					// Each grep of this content redacts for seconds: the
					// middle and revealed secrets are read for a few.
					few := c.around == 2 || c.re == `MII|REDACTED` || c.re == `.`
					if (noNL || !few || raceEnabled) && (reveal || reg == mid) {
						continue // under -race: the whole region, unrevealed (the goroutines are the same)
					}
					reg.Reveal = reveal
					par, seq := grepBoth(t, reg, re, c.around, c.limit)
					if par != seq {
						t.Errorf("%s --grep %q --around %d reveal=%v: frame by frame md5 %x (%d B), one stream %x (%d B)\n%s",
							reg.Describe(), c.re, c.around, reveal, md5.Sum([]byte(par)), len(par), md5.Sum([]byte(seq)), len(seq), firstDiff(par, seq))
					}
					if !reveal {
						noSecretShown(t, c.re, par)
					}
				}
				reg.Reveal = false
			}
		}
		if sparse.Load() == sparseBefore {
			t.Errorf("no frame was redacted only where the pattern's literal is: that path was not tested")
		}
		if redone.Load() == before {
			t.Errorf("no frame was redone from the true Redactor state: the key blocks crossing frames were not tested")
		}
	}
}

// noSecretShown fails when a line grep printed (not its last word, which
// quotes the pattern) holds a planted secret.
func noSecretShown(t *testing.T, re, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if !shownLine.MatchString(l) {
			continue
		}
		for _, v := range secretValues {
			if strings.Contains(l, v) {
				t.Errorf("--grep %q printed the secret %s", re, v)
				return
			}
		}
	}
}

var shownLine = regexp.MustCompile(`^[0-9]+[:-]`)

// checkCrossings makes sure the content tests what it is meant to: a key
// block and a line cut by a frame boundary.
func checkCrossings(t *testing.T, reg *Region, content string, wantLineCut bool) {
	t.Helper()
	keyCut, lineCut := false, false
	for i := 0; i+1 < reg.blob.Frames(); i++ {
		_, end := reg.blob.FrameSpan(i)
		if content[end-1] != '\n' {
			lineCut = true
		}
		start := strings.LastIndex(content[:end], "-----BEGIN RSA")
		if start >= 0 && !strings.Contains(content[start:end], "-----END") {
			keyCut = true
		}
	}
	if !keyCut || wantLineCut && !lineCut {
		t.Fatalf("the content has no key block (%v) or no line (%v) crossing frames", keyCut, lineCut)
	}
	secretCut := false
	for i := 0; i+1 < reg.blob.Frames(); i++ {
		_, end := reg.blob.FrameSpan(i)
		for _, v := range straddlers {
			lo := max(0, int(end)-len(v)+1)
			if k := strings.Index(content[lo:min(len(content), int(end)+len(v)-1)], v); k >= 0 {
				secretCut = true
			}
		}
	}
	if !secretCut {
		t.Fatalf("no one-line secret crosses a frame boundary")
	}
}

func firstDiff(a, b string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			lo := max(0, i-200)
			return fmt.Sprintf("at byte %d:\n%q\nvs\n%q", i, a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
		}
	}
	return fmt.Sprintf("one is a prefix of the other (%d, %d)", len(a), len(b))
}

// TestParallelGrepDense: a literal on every line of quiet frames (shown
// without redacting once QuietText passes the frame) and of frames with
// secrets (each line redacted) prints what one stream prints.
func TestParallelGrepDense(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "2026-11-30T10:%02d:%02d INFO worker %d request %07d\n", i/60%60, i%60, i%16, i*7919%10000000)
		if i > 12000 && i < 14000 && i%50 == 0 {
			b.WriteString(oneLiners + orphanKey)
		}
	}
	st, tg := stored(t, b.String(), "")
	reg, err := Open(st, tg, store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	before := sparse.Load()
	for _, c := range []struct {
		re     string
		around int
	}{{`request\s0\d*7$`, 1}, {`worker 3 request 1`, 0}, {`request 00`, 2}} {
		par, seq := grepBoth(t, reg, regexp.MustCompile(c.re), c.around, 1<<30)
		if par != seq {
			t.Errorf("--grep %q: frame by frame %d B, one stream %d B\n%s", c.re, len(par), len(seq), firstDiff(par, seq))
		}
		noSecretShown(t, c.re, par)
	}
	if sparse.Load() == before {
		t.Errorf("no frame was redacted only where the literal is")
	}
}
