package lines

import "testing"

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
