package lines

import (
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

// TestMarkerPrefilterIsExact: the marker prefilter and the hand-written
// matchers change no answer, over every distinct line of the repository's
// captured outputs and the shared corpus (escapes, non-ASCII; a quarter of
// them also upper- and lower-cased).
func TestMarkerPrefilterIsExact(t *testing.T) {
	n, hits := 0, 0
	for i, s := range realLines(t) {
		if i%raceStride != 0 {
			continue
		}
		want := matchesErrorPatterns(s.clean)
		if got := CleanLooksLikeError(s.clean); got != want {
			t.Fatalf("%s: %q: %v with the prefilter, %v by the patterns", s.file, s.clean, got, want)
		}
		n++
		if want {
			hits++
		}
	}
	if n < 50000/raceStride || hits < 1000/raceStride {
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

// TestMarkerTable: the scan's table starts every marker word at its first
// three bytes (none of them a byte coded 0, which would also match the
// window before a line's third byte) and lists each word once under its
// first letter.
func TestMarkerTable(t *testing.T) {
	n := 0
	for c, ws := range markers().byFirst {
		for _, w := range ws {
			n++
			if word := markerWords[w]; triCode(word[0]) != uint32(c) {
				t.Errorf("%q listed under code %d", word, c)
			}
		}
	}
	if n != len(markerWords) {
		t.Errorf("%d words in the table, %d marker words", n, len(markerWords))
	}
	for i, w := range markerWords {
		if w != strings.ToLower(w) || len(w) < 3 {
			t.Errorf("%q: marker words are lower case, three bytes or more", w)
		}
		for _, c := range []byte(w[:3]) {
			if triCode(c) == 0 {
				t.Errorf("%q: byte %q has no code", w, c)
			}
		}
		for _, v := range []string{w, strings.ToUpper(w), "x " + w + " y"} {
			if m, exact := markersIn([]byte(v)); !exact || m != 1<<i {
				t.Errorf("markersIn(%q) = %b, %v; want bit %d", v, m, exact, i)
			}
		}
	}
	if m, _ := markersIn([]byte("er rr ERR_or fa tal no_such file")); m != markErr {
		t.Errorf("markersIn: %b, want only err", m)
	}
	if _, exact := markersIn([]byte("\u017fevere")); exact {
		t.Error("markersIn: ſ read as exact")
	}
	if m, exact := markersIn([]byte("é fatal \xff")); !exact || m != markFatal {
		t.Errorf("markersIn on non-ASCII: %b %v", m, exact)
	}
}
