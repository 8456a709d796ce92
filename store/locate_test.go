package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxhq/ctx/internal/testenv"
)

func mkdir(t *testing.T, p string, perm os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLocate: which store a directory gets. Real directories, real modes
// and owners; a sticky world-writable directory stands in for /tmp.
func TestLocate(t *testing.T) {
	base := mkdir(t, filepath.Join(t.TempDir(), "home"), 0o755)
	state := filepath.Join(base, "state")
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv(EnvStore, "")
	user := filepath.Join(state, "ctx", "store")
	if got := UserStoreDir(); got != user {
		t.Fatalf("UserStoreDir = %s, want %s", got, user)
	}
	check := func(name, cwd, wantDir, wantRoot string) {
		t.Helper()
		loc, err := Locate(cwd)
		if err != nil {
			t.Fatal(err)
		}
		if loc.Dir != wantDir || loc.Root != wantRoot {
			t.Errorf("%s: Locate(%s) = %+v, want store %s, root %s", name, cwd, loc, wantDir, wantRoot)
		}
	}
	// A directory in no workspace: the per-user store; cwd is the root.
	scratch := mkdir(t, filepath.Join(base, "scratch", "a"), 0o755)
	check("no workspace", scratch, user, scratch)

	// A git repository: its top's .ctx, made or not, from any depth.
	repo := mkdir(t, filepath.Join(base, "repo"), 0o755)
	mkdir(t, filepath.Join(repo, ".git"), 0o755)
	deep := mkdir(t, filepath.Join(repo, "x", "y"), 0o755)
	check("git, no store yet", deep, filepath.Join(repo, DirName), repo)

	// An existing .ctx of one's own, in a private directory: adopted from below.
	ws := mkdir(t, filepath.Join(base, "ws"), 0o755)
	mkdir(t, filepath.Join(ws, DirName), 0o700)
	sub := mkdir(t, filepath.Join(ws, "sub"), 0o755)
	check("own .ctx", sub, filepath.Join(ws, DirName), ws)

	// A .ctx in a world-writable directory (as /tmp/.ctx): never adopted,
	// even one's own; the walk goes on past it.
	tmp := mkdir(t, filepath.Join(base, "tmp"), 0o1777)
	mkdir(t, filepath.Join(tmp, DirName), 0o700)
	inTmp := mkdir(t, filepath.Join(tmp, "job"), 0o755)
	check("a .ctx in a world-writable directory", inTmp, user, inTmp)
	// ... but a repository under /tmp keeps its own store.
	mkdir(t, filepath.Join(inTmp, ".git"), 0o755)
	check("a repository in /tmp", inTmp, filepath.Join(inTmp, DirName), inTmp)

	// A .ctx writable by others is not adopted.
	loose := mkdir(t, filepath.Join(base, "loose"), 0o755)
	mkdir(t, filepath.Join(loose, DirName), 0o777)
	check("a group/world-writable .ctx", loose, user, loose)

	// CTX_STORE wins everywhere; the root is still the workspace's.
	t.Setenv(EnvStore, filepath.Join(base, "elsewhere"))
	check("CTX_STORE in a repo", deep, filepath.Join(base, "elsewhere"), repo)
	check("CTX_STORE outside", scratch, filepath.Join(base, "elsewhere"), scratch)
	t.Setenv(EnvStore, "")

	// With no home and no XDG_STATE_HOME, the old way: cwd/.ctx.
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	check("no home", scratch, filepath.Join(scratch, DirName), scratch)
}

// TestLocateForeignStore: a .ctx owned by another user is never adopted in
// a plain directory, and in a repository it is named and refused by Open.
func TestLocateForeignStore(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Missing(t, "root, to give a directory to another user")
		return
	}
	base := mkdir(t, filepath.Join(t.TempDir(), "home"), 0o755)
	t.Setenv("XDG_STATE_HOME", filepath.Join(base, "state"))
	t.Setenv(EnvStore, "")
	plain := mkdir(t, filepath.Join(base, "plain"), 0o755)
	foreign := mkdir(t, filepath.Join(plain, DirName), 0o700)
	if err := os.Chown(foreign, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	loc, err := Locate(plain)
	if err != nil || loc.Dir != UserStoreDir() {
		t.Fatalf("a foreign .ctx in a plain directory: %+v %v", loc, err)
	}
	mkdir(t, filepath.Join(plain, ".git"), 0o755)
	loc, err = Locate(plain)
	if err != nil || loc.Dir != foreign {
		t.Fatalf("a repository's foreign .ctx: %+v %v", loc, err)
	}
	if _, err := Open(loc, true); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("Open of a foreign store: %v", err)
	}
}

// TestLocateLinkedStore: a .ctx that is a symbolic link, even to a directory
// of this user's own, is never adopted while walking up and is refused in a
// repository, so a cloned repository cannot send its runs into another
// directory; $CTX_STORE naming the link is the user's choice and works.
func TestLocateLinkedStore(t *testing.T) {
	base := mkdir(t, filepath.Join(t.TempDir(), "home"), 0o755)
	t.Setenv("XDG_STATE_HOME", filepath.Join(base, "state"))
	t.Setenv(EnvStore, "")
	elsewhere := mkdir(t, filepath.Join(base, "elsewhere"), 0o700)
	plain := mkdir(t, filepath.Join(base, "plain"), 0o755)
	link := filepath.Join(plain, DirName)
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	loc, err := Locate(plain)
	if err != nil || loc.Dir != UserStoreDir() {
		t.Fatalf("a linked .ctx in a plain directory: %+v %v, want the user store", loc, err)
	}
	mkdir(t, filepath.Join(plain, ".git"), 0o755)
	loc, err = Locate(plain)
	if err != nil || loc.Dir != link {
		t.Fatalf("a repository's linked .ctx: %+v %v", loc, err)
	}
	if _, err := Open(loc, true); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("Open of a linked workspace store: %v, want ErrUnsafe", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("the link's target was written to: %v", ents)
	}
	t.Setenv(EnvStore, link)
	loc, err = Locate(plain)
	if err != nil || !loc.Named {
		t.Fatalf("$CTX_STORE naming the link: %+v %v", loc, err)
	}
	st, err := Open(loc, true)
	if err != nil {
		t.Fatalf("Open of the store $CTX_STORE names: %v", err)
	}
	st.Close()
}
