package ctxremote

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/remote"
)

// TestConfiguredAgrees: ctx (which does not link the remote tier) and the
// remote package agree on whether a remote is configured, for each place a
// configuration can be.
func TestConfiguredAgrees(t *testing.T) {
	home, xdg, storeDir := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	write := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("endpoint = \"127.0.0.1:1\"\nbucket = \"b\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, want bool) {
		t.Helper()
		for _, dir := range []string{storeDir, ""} {
			got, ref := helper.RemoteConfigured(dir), remote.Configured(dir)
			if got != ref {
				t.Errorf("%s (store %q): ctx says %v, the remote package %v", what, dir, got, ref)
			}
		}
		if got := helper.RemoteConfigured(storeDir); got != want {
			t.Errorf("%s: configured %v, want %v", what, got, want)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	check("nothing", false)
	write(filepath.Join(home, ".config", "ctx", remote.ConfigName))
	check("the user's ~/.config", true)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	check("XDG_CONFIG_HOME set, empty", false)
	write(filepath.Join(xdg, "ctx", remote.ConfigName))
	check("XDG_CONFIG_HOME's", true)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	write(filepath.Join(storeDir, remote.ConfigName))
	check("the store's own", true)
}
