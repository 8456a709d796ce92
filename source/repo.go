package source

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
)

// Root returns the top of the git work tree holding dir, or dir itself
// when it is in none (or git is missing): repo: paths are relative to it.
func Root(ctx context.Context, dir string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return dir
	}
	if r := strings.TrimSpace(string(out)); r != "" {
		return filepath.FromSlash(r)
	}
	return dir
}
