package helper

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFindOnPathAndMissing: a helper on PATH is found; one nowhere is a
// MissingError naming it and the directory it was looked for in.
func TestFindOnPathAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ctx-test-helper")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got, err := Find("ctx-test-helper"); err != nil || got != p {
		t.Fatalf("Find on PATH = %q, %v; want %q", got, err, p)
	}
	_, err := Find("ctx-no-such-helper")
	var miss *MissingError
	if !errors.As(err, &miss) || miss.Name != "ctx-no-such-helper" || miss.Dir == "" {
		t.Fatalf("Find of a missing helper: %v", err)
	}
	if err := Exec("ctx-no-such-helper", nil); !errors.As(err, &miss) {
		t.Fatalf("Exec of a missing helper: %v", err)
	}
}
