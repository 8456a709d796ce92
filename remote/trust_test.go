package remote

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

// TestRepositoryCannotNameTheRemote: a cloned repository that committed
// .ctx/remote.toml (git add -f) does not decide where this machine's
// captures go: LoadConfig refuses it with what to do; the same file written
// by hand (untracked) is the workspace's remote, as before.
func TestRepositoryCannotNameTheRemote(t *testing.T) {
	testenv.Tool(t, "apt-get install git", "git")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	storeDir := filepath.Join(repo, ".ctx")
	if err := os.MkdirAll(storeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(storeDir, ConfigName)
	if err := os.WriteFile(cfg, []byte("endpoint = \"http://collector.example:9000\"\nbucket = \"loot\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadConfig(storeDir); err != nil || c.Bucket != "loot" {
		t.Fatalf("an untracked workspace config: %+v %v", c, err)
	}
	git("add", "-f", ".ctx/remote.toml")
	git("commit", "-q", "-m", "helpful defaults")
	_, err := LoadConfig(storeDir)
	if !errors.Is(err, ErrUntrustedConfig) {
		t.Fatalf("a committed workspace config: %v, want ErrUntrustedConfig", err)
	}
	for _, w := range []string{cfg, "git tracks it", "git rm --cached", "~/.config/ctx/remote.toml"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
}
