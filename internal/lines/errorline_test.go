package lines

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCleanLooksLikeError checks where a marker must stand for a line to report an
// error.
func TestCleanLooksLikeError(t *testing.T) {
	for line, want := range map[string]bool{
		"error: connection refused":                             true,
		"main.c:3:5: error: expected ';' before '}' token":      true,
		"cc1: fatal error: nosuch.c: No such file or directory": true,
		"make: *** [Makefile:3: all] Error 1":                   true,
		"2026-11-29T10:00:00Z ERROR [db] pool exhausted":        true,
		"Nov 29 10:00:00 host app[12]: ERROR disk full":         true,
		`time=10:00 level=error msg="write failed"`:             true,
		"FAILED tests/test_a.py::test_x - assert 1 == 2":        true,
		"panic: runtime error: index out of range":              true,
		"Traceback (most recent call last):":                    true,
		"error[E0308]: mismatched types":                        true,
		"SyntaxError: invalid syntax":                           true,
		"ModuleNotFoundError: No module named 'yaml'":           true,
		"java.lang.IllegalStateException: connection closed":    true,
		"type PathError struct {":                               false,
		"	return &PathError{Op: \"open\", Err: err}":            false,
		"var ErrNotExist = errors.New(\"file does not exist\")": false,
		"./src/internal/oserror/errors.go":                      false,
		"-	if err != nil {":                                     false,
		"		return fmt.Errorf(\"open %s: %w\", name, err)":       false,
		"	Error: err,":                    false,
		"	panic(\"unreachable\")":         false,
		"os/file.go:120:	if err != nil {": false,
		"all good, 0 errors":              false,
		"// ErrUnsupported indicates that a requested operation failed": false,
	} {
		if got := CleanLooksLikeError([]byte(line)); got != want {
			t.Errorf("CleanLooksLikeError(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestLooksLikeError checks the raw-line form: escapes are cleaned first, and
// lines with no marker letter are rejected by the fast path.
func TestLooksLikeError(t *testing.T) {
	for line, want := range map[string]bool{
		"\x1b[31merror:\x1b[0m build failed": true,
		"12345 67890 0x1f":                   false,
		"./src/error_test.go":                false,
		"":                                   false,
	} {
		if got := LooksLikeError([]byte(line)); got != want {
			t.Errorf("LooksLikeError(%q) = %v, want %v", line, got, want)
		}
		if got := MayLookLikeError([]byte(line)); want && !got {
			t.Errorf("MayLookLikeError(%q) = false for an error line", line)
		}
	}
}

// TestMarkerPrefilterIsExact: skipping the patterns for a line without a
// marker word changes no answer, over every distinct line of the
// repository's captured outputs and the shared corpus (escapes, non-ASCII;
// a quarter of them also upper- and lower-cased).
func TestMarkerPrefilterIsExact(t *testing.T) {
	var files []string
	for _, root := range []string{"../../profiles", "../../../shared/corpus"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && !strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			return nil
		})
	}
	n, hits := 0, 0
	seen := map[string]bool{}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if seen[string(line)] {
				continue
			}
			seen[string(line)] = true
			variants := [][]byte{line}
			if len(seen)%4 == 0 { // every fourth distinct line in both cases too
				variants = append(variants, bytes.ToUpper(line), bytes.ToLower(line))
			}
			for _, l := range variants {
				clean := Clean(l)
				if len(clean) > maxErrorLine {
					clean = clean[:maxErrorLine]
				}
				want := matchesErrorPatterns(clean)
				if got := CleanLooksLikeError(clean); got != want {
					t.Fatalf("%s: %q: %v with the prefilter, %v by the patterns", p, clean, got, want)
				}
				n++
				if want {
					hits++
				}
			}
		}
	}
	if n < 50000 || hits < 1000 {
		t.Fatalf("only %d lines (%d error lines) checked", n, hits)
	}
	t.Logf("%d lines, %d of them error lines, agree", n, hits)
}

// FuzzMarkerPrefilter: the prefilter never changes CleanLooksLikeError.
func FuzzMarkerPrefilter(f *testing.F) {
	for _, s := range []string{"error: x", "ſevere: disk", "TRACEBAC\u212a (most recent call last)", "a b c", "level=CRIT x", "0 errors",
		"make: *** [all] Error 2", `{"level": "Error"}`, "FAILURES: 0", "Segmentation Fault (core dumped)", "x ALERT: y", "ERRORK",
		"x.rs:3:1: error[E0308]: mismatched", "[12:00:01] FAILED_x", "java.lang.IllegalStateException: closed", "SyntaxError:", "panic!", "abort[x]y"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if CleanLooksLikeError(b) != matchesErrorPatterns(b) {
			t.Fatalf("%q: the prefilter changes the answer", b)
		}
	})
}

// TestMarkersByFirst: the table lists every marker word under its first
// letter, and nothing else.
func TestMarkersByFirst(t *testing.T) {
	n := 0
	for c, ws := range markersByFirst {
		for _, w := range ws {
			n++
			if w[0] != byte(c) {
				t.Errorf("%q listed under %q", w, rune(c))
			}
			if len(w) < 2 || w[1] < 'a' || w[1] > 'z' {
				t.Errorf("%q: hasMarkerWord needs a lower-case second letter", w)
			}
		}
	}
	for _, w := range markerWords {
		found := false
		for _, x := range markersByFirst[w[0]] {
			found = found || x == w
		}
		if !found {
			t.Errorf("%q missing from the table", w)
		}
	}
	if n != len(markerWords) {
		t.Errorf("%d words in the table, %d marker words", n, len(markerWords))
	}
}
