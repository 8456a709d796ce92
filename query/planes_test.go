package query

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesOutsideGitSaysWhy: the files source in a directory that is no git
// work tree names git's reason and what to do, not "exit status 128".
func TestFilesOutsideGitSaysWhy(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped, missing: git")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	_, err := (&Planes{Root: dir}).list(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not a git repository") || !strings.Contains(err.Error(), "run ctx q inside one") {
		t.Errorf("files outside git: err = %v", err)
	}
}
