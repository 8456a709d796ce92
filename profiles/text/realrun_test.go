package text

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNoAnomaliesInOrdinaryText holds issue 10's false alarms to zero on real
// runs (testdata/realrun/gen.sh): a gofmt -d of three files, a Go source
// file, a list of paths named *err*, and grep hits for `err != nil` mention
// errors only as words in code and paths.
func TestNoAnomaliesInOrdinaryText(t *testing.T) {
	for _, name := range []string{"gofmt-d", "cat-go", "find-error", "grep-err", "ls-long"} {
		b, err := os.ReadFile(filepath.Join("testdata", "realrun", name, "stdout"))
		if err != nil {
			t.Fatal(err)
		}
		if got := anomalies(parse(t, b)); len(got) > 0 {
			t.Errorf("%s: %d anomalies, want 0; first %q", name, len(got), got[0])
		}
	}
}

// TestErrorLevel checks where a marker must stand for a line to report an
// error.
func TestErrorLevel(t *testing.T) {
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
		if got := errorLevel([]byte(line)); got != want {
			t.Errorf("errorLevel(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestRareLine finds the one line unlike the others in a repetitive real
// output (testdata/realrun/loop-odd), though it holds no error word.
func TestRareLine(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "realrun", "loop-odd", "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	g := parse(t, b)
	var got []string
	for _, it := range g.Items {
		if it.Why == "rare-line" {
			got = append(got, it.Text)
		}
	}
	// The odd line, and the closing "done" (each shape seen once).
	if len(got) != 2 || got[0] != "checksum differs at block 257, block re-read" || got[1] != "done" {
		t.Errorf("rare lines %q", got)
	}
}
