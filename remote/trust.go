package remote

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// ErrUntrustedConfig: the workspace's remote.toml is part of the git
// checkout, so the repository chose where this machine's captures go, not
// the person running ctx.
var ErrUntrustedConfig = errors.New("remote config comes from the repository")

// checkTrusted refuses a store's own remote.toml that git tracks. A cloned
// repository can commit .ctx/remote.toml (git add -f passes the store's
// .gitignore); trusted, it would send every capture — raw, with whatever
// secrets the commands printed — to an endpoint the repository's author
// picked, in the background after each ctx run, anonymously if no
// credentials are set. A file git does not track was written on this
// machine. Without git (or outside a repository) nothing is tracked.
func checkTrusted(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dir, name := filepath.Split(path)
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "ls-files", "--error-unmatch", "--", name)
	if cmd.Run() != nil {
		return nil // untracked, not in a repository, or no git
	}
	return fmt.Errorf("%s: %w: git tracks it, so whoever committed it picked where ctx would send this machine's captures; "+
		"ctx does not push to or read from a remote a repository names. If you wrote it, keep it out of git (git rm --cached %s), "+
		"or move it to ~/.config/ctx/remote.toml", path, ErrUntrustedConfig, path)
}
