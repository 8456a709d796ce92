package lines

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// realLine is a cleaned line of a real output, cut as the callers cut it.
type realLine struct {
	file  string
	clean []byte
}

var (
	realOnce  sync.Once
	realCache []realLine
	realErr   error
)

// realLines returns every distinct line of the repository's captured
// outputs and the shared corpus, cleaned and cut to maxErrorLine, every
// fourth also upper- and lower-cased.
func realLines(t *testing.T) []realLine {
	t.Helper()
	realOnce.Do(func() {
		var files []string
		for _, root := range []string{"../../profiles", "../../../shared/corpus"} {
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && !strings.HasSuffix(p, ".go") {
					files = append(files, p)
				}
				return nil
			})
		}
		seen := map[string]bool{}
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				realErr = err
				return
			}
			for _, line := range bytes.Split(b, []byte("\n")) {
				if seen[string(line)] {
					continue
				}
				seen[string(line)] = true
				variants := [][]byte{line}
				if len(seen)%4 == 0 {
					variants = append(variants, bytes.ToUpper(line), bytes.ToLower(line))
				}
				for _, l := range variants {
					clean := Clean(l)
					if len(clean) > maxErrorLine {
						clean = clean[:maxErrorLine]
					}
					realCache = append(realCache, realLine{p, clean})
				}
			}
		}
	})
	if realErr != nil {
		t.Fatal(realErr)
	}
	return realCache
}

// checkMatchers fails t where a hand-written matcher and its pattern
// disagree on b, which must be a line the matchers are for. It returns
// whether the start pattern matched (for the callers' counts).
func checkMatchers(t *testing.T, where string, b []byte) bool {
	t.Helper()
	m, exact := markersIn(b)
	if !exact || len(b) > maxErrorLine {
		t.Fatalf("%s: %q is not a line for the matchers", where, b)
	}
	for _, c := range []struct {
		name      string
		got, want bool
	}{
		{"calm", m&(markErr|markFail) != 0 && matchCalm(b), errCalmRE.Match(b)},
		{"phrase", matchPhrase(b, m), errPhraseRE.Match(b)},
		{"level", matchLevel(b, m), errLevelRE.Match(b)},
		{"upper", matchUpper(b), errUpperRE.Match(b)},
		{"start", matchStart(b), errStartRE.Match(b)},
	} {
		if c.got != c.want {
			t.Fatalf("%s: %q: the %s matcher says %v, its pattern %v", where, b, c.name, c.got, c.want)
		}
	}
	if m == 0 && matchesErrorPatterns(b) {
		t.Fatalf("%s: %q: no marker word, yet the patterns match", where, b)
	}
	return errStartRE.Match(b)
}

// TestMatchersAgree holds each hand-written matcher to its pattern on every
// real line they are used on: one without ſ or the Kelvin sign, holding a
// marker word (that no pattern matches a line without one,
// TestMarkerPrefilterIsExact shows).
func TestMatchersAgree(t *testing.T) {
	n, starts := 0, 0
	for i, s := range realLines(t) {
		if i%raceStride != 0 {
			continue
		}
		if m, exact := markersIn(s.clean); !exact || m == 0 {
			continue
		}
		n++
		if checkMatchers(t, s.file, s.clean) {
			starts++
		}
	}
	if n < 5000/raceStride || starts < 500/raceStride {
		t.Fatalf("only %d lines (%d starting as errors) checked", n, starts)
	}
	t.Logf("%d lines, %d of them starting as errors, agree", n, starts)
}

// pieces are what generated lines are made of: the patterns' literals,
// near misses, separators, digits, and bytes beyond ASCII.
var pieces = []string{"error", "Error", "ERROR", "errors", "err", "Err", "fail", "FAIL", "failed", "failure", "FAILURES",
	"fatal", "fatal error", "FATAL", "panic", "PANIC", "crit", "critical", "CRITICAL", "emerg", "EMERG", "alert", "ALERT",
	"severe", "SEVERE", "exception", "Exception", "abort", "aborted", "Traceback (most recent call last)", "traceback",
	"segmentation fault", "core dumped", "undefined reference to", "exception in thread", "no such file or directory",
	"permission denied", "command not found", "out of memory", "*** ", "**", "level=", `"level":`, `"`, "0", "no", "zero",
	"without", " ", "  ", "\t", "\n", "\f", "\r", "\v", ":", "::", "=", "!", "[", "]", "[x]", "(", ")", ",", ";", "{", "|", "<", ">",
	".", "$", "_", "-", "T", "Z", "1", "12", "2026", "2026-12-02", "2026-12-02T10:11:12.5Z", "10:11:12", "10:11:12,345",
	"main.go:12:", "a.c:3:4:", "x", "ab", "java.lang.", "IllegalState", "Syntax", "é", "\xff", "\xe2\x9c\x93", "k", "s"}

// TestMatchersAgreeOnGenerated: the same on 100,000 lines put together
// from pieces at random (a fixed seed), where the corner cases are dense.
func TestMatchersAgreeOnGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	counts := map[bool]int{}
	for i := 0; i < 100000/raceStride; i++ {
		var b []byte
		for k := rng.IntN(12); k >= 0; k-- {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		counts[checkMatchers(t, "generated", b)]++
	}
	if counts[true] < 3000/raceStride || counts[false] < 3000/raceStride {
		t.Fatalf("generated lines too one-sided: %v", counts)
	}
}

// FuzzMatchers: each hand-written matcher answers as its pattern on any
// line they are for, and CleanLooksLikeError as the patterns on any line.
func FuzzMatchers(f *testing.F) {
	for _, s := range []string{"error: x", "x.go:1:2: error: y", "[a] 2026-01-02T03:04:05Z FAIL", "10:11:12.3 panic[x]: y",
		"java.lang.IllegalStateException: closed", "fooError:", "aError", "0 errors", "errors: 0", "*** [all] Error 2",
		"*** x\nError 2", `{"level": "error"}`, "level=crit", "<ERROR>", "a:1:2:3: fatal error", "[[x]] error"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > maxErrorLine {
			b = b[:maxErrorLine]
		}
		if CleanLooksLikeError(b) != matchesErrorPatterns(b) {
			t.Fatalf("%q: CleanLooksLikeError differs from the patterns", b)
		}
		if _, exact := markersIn(b); exact {
			checkMatchers(t, "fuzz", b)
		}
	})
}
