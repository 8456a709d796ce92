package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// stampRepo is a committed git work tree with a ctx store inside it, its
// files past the racy window.
func stampRepo(t *testing.T) (root, store string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	root = t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	write(t, root, "a.go", "package a\n")
	write(t, root, "sub/b.go", "package sub\n")
	write(t, root, ".ctx/.gitignore", "*\n")
	write(t, root, ".ctx/store.db", "x")
	run("add", "a.go", "sub/b.go")
	run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
	time.Sleep(racyWindow + 20*time.Millisecond)
	return root, filepath.Join(root, ".ctx")
}

func write(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStampSeesEveryChange: a stamp of an unchanged tree vouches for it,
// even with the ctx store changing inside it; every kind of change git
// status could see (content of the same size, a new or removed file, a
// chmod, a new .gitignore, the index, HEAD's ref, the configuration)
// makes the next stamp differ; and a stamp taken just after a change
// vouches for nothing (the racy window).
func TestStampSeesEveryChange(t *testing.T) {
	changes := map[string]func(root string){
		"same-size content": func(r string) { write(t, r, "a.go", "package b\n") },
		"new untracked":     func(r string) { write(t, r, "sub/deep/c.txt", "c") },
		"removed":           func(r string) { os.Remove(filepath.Join(r, "sub/b.go")) },
		"chmod":             func(r string) { os.Chmod(filepath.Join(r, "a.go"), 0o755) },
		"gitignore":         func(r string) { write(t, r, "sub/.gitignore", "b.go\n") },
		"index":             func(r string) { exec.Command("git", "-C", r, "rm", "-q", "--cached", "a.go").Run() },
		"ref": func(r string) {
			exec.Command("git", "-C", r, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "two").Run()
		},
		"config":      func(r string) { exec.Command("git", "-C", r, "config", "core.fileMode", "false").Run() },
		"user config": func(r string) { write(t, os.Getenv("HOME"), ".gitconfig", "[core]\n\tautocrlf = true\n") },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			root, store := stampRepo(t)
			s := TakeStamp(root, store)
			if s == nil {
				t.Fatal("no stamp of a small work tree")
			}
			write(t, root, ".ctx/store.db", "changed")
			write(t, root, ".ctx/spool/x/meta.json", "{}")
			if again := TakeStamp(root, store); !s.Same(again) {
				t.Fatal("the store's own changes, which git ignores, changed the stamp")
			}
			change(root)
			after := TakeStamp(root, store)
			if s.Same(after) {
				t.Fatalf("%s: the stamp did not change", name)
			}
			if after != nil && after.Same(TakeStamp(root, store)) {
				t.Errorf("%s: a stamp within the racy window vouched for the tree", name)
			}
		})
	}
}

// TestStampRefused: trees a stamp cannot vouch for get none.
func TestStampRefused(t *testing.T) {
	cases := map[string]func(root string){
		"nested repository": func(r string) { os.MkdirAll(filepath.Join(r, "vendor/x/.git"), 0o755) },
		"submodules":        func(r string) { write(t, r, ".gitmodules", "") },
		"too many entries": func(r string) {
			for i := range maxStampEntries {
				write(t, r, filepath.Join("many", string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))), "")
			}
		},
		"excludesFile": func(r string) { write(t, os.Getenv("HOME"), ".gitconfig", "[core]\n\texcludesFile = ~/ign\n") },
		"include":      func(r string) { write(t, r, ".git/config", "[include]\n\tpath = /elsewhere\n") },
		"tracked store": func(r string) {
			exec.Command("git", "-C", r, "add", "-f", ".ctx/store.db").Run()
		},
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			root, store := stampRepo(t)
			make(root)
			if s := TakeStamp(root, store); s != nil {
				t.Errorf("%s: got a stamp", name)
			}
		})
	}
}
