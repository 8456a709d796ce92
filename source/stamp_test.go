package source

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// stampRepo is a committed git work tree with a ctx store inside it, its
// files past the racy window.
func stampRepo(t *testing.T) (root, store string) {
	t.Helper()
	requireGit(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	root = t.TempDir()
	git(t, root, "init", "-q")
	writeFile(t, root, "a.go", "package a\n")
	writeFile(t, root, "sub/b.go", "package sub\n")
	writeFile(t, root, ".ctx/.gitignore", "*\n")
	writeFile(t, root, ".ctx/store.db", "x")
	git(t, root, "add", "a.go", "sub/b.go")
	git(t, root, "commit", "-qm", "one")
	time.Sleep(racyWindow + 20*time.Millisecond)
	return root, filepath.Join(root, ".ctx")
}

// TestStampSeesEveryChange: a stamp of an unchanged tree vouches for it,
// even with the ctx store changing inside it; every kind of change git
// status could see (content of the same size, a new or removed file, a
// chmod, a new .gitignore, the index, HEAD's ref, the configuration)
// makes the next stamp differ; and a stamp taken just after a change
// vouches for nothing (the racy window).
func TestStampSeesEveryChange(t *testing.T) {
	changes := treeChanges()
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			root, store := stampRepo(t)
			s := TakeStamp(root, store)
			if s == nil {
				t.Fatal("no stamp of a small work tree")
			}
			writeFile(t, root, ".ctx/store.db", "changed")
			writeFile(t, root, ".ctx/spool/x/meta.json", "{}")
			again := TakeStamp(root, store)
			if !s.Same(again) || !s.Same(Restamp(s, root, store)) {
				t.Fatal("the store's own changes, which git ignores, changed the stamp")
			}
			if d := Restamp(s, root, store).dirs["sub"]; len(d.names) == 0 || &d.names[0] != &s.dirs["sub"].names[0] {
				t.Error("an unchanged directory was read again")
			}
			changed := time.Now()
			change(t, root)
			// A stamp taken after one of the tree before the change (as a
			// sequence's next step takes it) sees it as a fresh one does.
			if s.Same(Restamp(s, root, store)) || s.Same(Restamp(again, root, store)) {
				t.Fatalf("%s: the stamp taken after the last did not change", name)
			}
			after := TakeStamp(root, store)
			if s.Same(after) {
				t.Fatalf("%s: the stamp did not change", name)
			}
			// Within the window (less a clock tick of the file system's
			// coarse timestamps) the stamp must vouch for nothing; a loaded
			// machine may take longer than that to get here.
			if time.Since(changed) < racyWindow-15*time.Millisecond && after != nil && after.Same(TakeStamp(root, store)) {
				t.Errorf("%s: a stamp within the racy window vouched for the tree", name)
			}
		})
	}
}

// treeChanges are changes git status sees in stampRepo's tree, by name.
func treeChanges() map[string]func(t *testing.T, root string) {
	return map[string]func(t *testing.T, root string){
		"same-size content": func(t *testing.T, r string) { writeFile(t, r, "a.go", "package b\n") },
		"new untracked":     func(t *testing.T, r string) { writeFile(t, r, "sub/deep/c.txt", "c") },
		"removed":           func(t *testing.T, r string) { os.Remove(filepath.Join(r, "sub/b.go")) },
		"chmod":             func(t *testing.T, r string) { os.Chmod(filepath.Join(r, "a.go"), 0o755) },
		"gitignore":         func(t *testing.T, r string) { writeFile(t, r, "sub/.gitignore", "b.go\n") },
		"index":             func(t *testing.T, r string) { git(t, r, "rm", "-q", "--cached", "a.go") },
		"ref":               func(t *testing.T, r string) { git(t, r, "commit", "-q", "--allow-empty", "-m", "two") },
		"config":            func(t *testing.T, r string) { git(t, r, "config", "core.fileMode", "false") },
		"store not ignored": func(t *testing.T, r string) { writeFile(t, r, ".ctx/.gitignore", "store.db\n") },
		"user config": func(t *testing.T, r string) {
			writeFile(t, os.Getenv("HOME"), ".gitconfig", "[core]\n\tautocrlf = true\n")
		},
	}
}

// TestStampRefused: trees a stamp cannot vouch for get none.
func TestStampRefused(t *testing.T) {
	cases := map[string]func(t *testing.T, root string){
		"nested repository": func(t *testing.T, r string) { os.MkdirAll(filepath.Join(r, "vendor/x/.git"), 0o755) },
		"submodules":        func(t *testing.T, r string) { writeFile(t, r, ".gitmodules", "") },
		"too many entries": func(t *testing.T, r string) {
			for i := range maxStampEntries {
				writeFile(t, r, filepath.Join("many", string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))), "")
			}
		},
		"too many tracked": func(t *testing.T, r string) {
			for i := range maxStampEntries + 1 {
				writeFile(t, r, filepath.Join("tracked", fmt.Sprint(i)), "")
			}
			git(t, r, "add", "tracked")
			os.RemoveAll(filepath.Join(r, "tracked")) // refused by the index alone
		},
		"excludesFile": func(t *testing.T, r string) {
			writeFile(t, os.Getenv("HOME"), ".gitconfig", "[core]\n\texcludesFile = ~/ign\n")
		},
		"include": func(t *testing.T, r string) { writeFile(t, r, ".git/config", "[include]\n\tpath = /elsewhere\n") },
		"tracked store": func(t *testing.T, r string) {
			git(t, r, "add", "-f", ".ctx/store.db")
		},
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			root, store := stampRepo(t)
			before := TakeStamp(root, store)
			make(t, root)
			if s := TakeStamp(root, store); s != nil {
				t.Errorf("%s: got a stamp", name)
			}
			if s := Restamp(before, root, store); s != nil {
				t.Errorf("%s: got a stamp after the one before the change", name)
			}
		})
	}
}

// TestScanFile: a needle is found wherever it lies, across the boundary of
// two reads too, and not found where it is not; head is the file's start.
func TestScanFile(t *testing.T) {
	needle := []byte(".ctx/")
	path := filepath.Join(t.TempDir(), "index")
	for _, at := range []int{0, 100, scanChunk - 3, scanChunk - 5, scanChunk, 3*scanChunk - 1, -1} {
		data := bytes.Repeat([]byte("a"), 3*scanChunk+7)
		copy(data, "DIRC")
		if at >= 0 {
			copy(data[at:], needle)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		head, found, err := scanFile(path, needle)
		if err != nil || found != (at >= 0) || !bytes.HasPrefix(data, head) || len(head) < 12 {
			t.Errorf("needle at %d: found %v, head %d bytes, err %v", at, found, len(head), err)
		}
	}
}
