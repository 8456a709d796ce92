//go:build linux

package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// watchRepo is stampRepo's tree grown past what a stamp takes (600 files
// in 30 directories), so only a watch can vouch for it.
func watchRepo(t *testing.T) (root, store string) {
	t.Helper()
	root, store = stampRepo(t)
	for i := range 600 {
		writeFile(t, root, fmt.Sprintf("pkg%d/f%d.go", i%30, i), "package p\n")
	}
	writeFile(t, root, ".gitignore", "*.o\n")
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "big")
	if TakeStamp(root, store) != nil {
		t.Fatal("a stamp of 600 files: the test needs a tree only a watch vouches for")
	}
	return root, store
}

// TestWatchSeesEveryChange: a watch of an unchanged tree vouches for it,
// through git status and the store's own writes; every kind of change git
// status could see (content, a new file untracked or ignored, in a new
// directory, a rename, a removal, a chmod, a .gitignore, the index, a
// commit, the configuration inside and outside the tree) is reported;
// after a report the watch vouches for the tree again, new directories
// included.
func TestWatchSeesEveryChange(t *testing.T) {
	changes := treeChanges()
	for name, change := range map[string]func(t *testing.T, root string){
		"tracked content": func(t *testing.T, r string) { writeFile(t, r, "pkg3/f3.go", "package q\n") },
		"new ignored":     func(t *testing.T, r string) { writeFile(t, r, "pkg1/x.o", "c") },
		"new directory":   func(t *testing.T, r string) { writeFile(t, r, "pkg2/deep/er/c.txt", "c") },
		"rename": func(t *testing.T, r string) {
			os.Rename(filepath.Join(r, "pkg4/f4.go"), filepath.Join(r, "pkg4/g.go"))
		},
		"directory renamed": func(t *testing.T, r string) { os.Rename(filepath.Join(r, "pkg5"), filepath.Join(r, "pkg55")) },
		"info made": func(t *testing.T, r string) {
			os.RemoveAll(filepath.Join(r, ".git", "info"))
			writeFile(t, r, ".git/info/attributes", "")
		},
	} {
		changes[name] = change
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			root, store := watchRepo(t)
			w := WatchTree(root, store)
			if w == nil {
				t.Fatal("no watch of a local work tree")
			}
			defer w.Close()
			if _, err := Current(context.Background(), root, nil); err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, ".ctx/store.db", "changed")
			writeFile(t, root, ".ctx/spool/x/meta.json", "{}")
			if w.Changed() {
				t.Fatal("git status and the store's own writes, which git ignores, counted as a change")
			}
			change(t, root)
			time.Sleep(racyWindow) // past it, a change outside the tree is reported once
			if !w.Changed() {
				t.Fatalf("%s: no change seen", name)
			}
			if w.Dead() {
				t.Fatalf("%s: the watch gave up", name)
			}
			if w.Changed() {
				t.Fatalf("%s: a change reported twice", name)
			}
			// The watch covers the tree as it is now, new directories too.
			for _, rel := range []string{"pkg2/deep/er/d.txt", "pkg55/e.txt", "pkg0/e.txt", ".git/info/exclude"} {
				if _, err := os.Stat(filepath.Dir(filepath.Join(root, rel))); err != nil {
					continue
				}
				writeFile(t, root, rel, "d")
				if !w.Changed() {
					t.Fatalf("%s: then %s not seen", name, rel)
				}
			}
		})
	}
}

// TestWatchOverflow: more events than the kernel queues (an overflow)
// count as a change, and the watch, set up again, still sees the next one.
func TestWatchOverflow(t *testing.T) {
	root, store := watchRepo(t)
	w := WatchTree(root, store)
	if w == nil {
		t.Fatal("no watch")
	}
	defer w.Close()
	limit := 16384
	if data, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		fmt.Sscan(string(data), &limit)
	}
	f := filepath.Join(root, "a.go")
	for i := range limit + 100 {
		if err := os.Chmod(f, os.FileMode(0o644|i&1*0o100)); err != nil {
			t.Fatal(err)
		}
	}
	if !w.Changed() || w.Dead() {
		t.Fatalf("after an overflow: changed must be reported and the watch set up again (dead %v)", w.Dead())
	}
	if w.Changed() {
		t.Fatal("the rebuilt watch reported a change that did not happen")
	}
	writeFile(t, root, "pkg7/new.txt", "n")
	if !w.Changed() {
		t.Fatal("the rebuilt watch missed a new file")
	}
}

// TestWatchRefused: trees a watch cannot vouch for get none, and a change
// that makes the tree one stops the watch.
func TestWatchRefused(t *testing.T) {
	cases := map[string]func(t *testing.T, root string){
		"nested repository": func(t *testing.T, r string) { git(t, filepath.Join(r, "pkg1"), "init", "-q") },
		"submodule":         func(t *testing.T, r string) { writeFile(t, r, ".gitmodules", "") },
		"include":           func(t *testing.T, r string) { git(t, r, "config", "include.path", "/elsewhere") },
		"user excludesFile": func(t *testing.T, r string) {
			writeFile(t, os.Getenv("HOME"), ".gitconfig", "[core]\n\texcludesFile = /x\n")
		},
		"too many directories": func(t *testing.T, r string) {
			for i := range maxWatchDirs {
				if err := os.MkdirAll(filepath.Join(r, "many", fmt.Sprint(i)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			root, store := watchRepo(t)
			make(t, root)
			if w := WatchTree(root, store); w != nil {
				w.Close()
				t.Fatalf("%s: watched", name)
			}
		})
		t.Run(name+" later", func(t *testing.T) {
			root, store := watchRepo(t)
			w := WatchTree(root, store)
			if w == nil {
				t.Fatal("no watch")
			}
			defer w.Close()
			make(t, root)
			if !w.Changed() || !w.Dead() {
				t.Fatalf("%s made during the watch: it must report a change and stop (dead %v)", name, w.Dead())
			}
		})
	}
}

// TestWatchSeesMounts: a mount made under the tree after the watch began
// (which inotify does not report) ends the watch, a mount elsewhere does
// not, and an unchanged mount table is not read again (it is polled).
func TestWatchSeesMounts(t *testing.T) {
	root, store := watchRepo(t)
	w := WatchTree(root, store)
	if w == nil {
		t.Fatal("no watch of a local work tree")
	}
	defer w.Close()
	if w.Changed() || w.remounted() {
		t.Fatal("an unchanged tree and mount table reported")
	}
	mount := func(dir string) {
		if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
			t.Skipf("cannot mount here: %v", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	}
	mount(t.TempDir())
	if w.Changed() || w.Dead() {
		t.Fatal("a mount outside the tree ended the watch")
	}
	mount(filepath.Join(root, "pkg7"))
	if !w.Changed() || !w.Dead() {
		t.Fatal("a mount under the tree not seen")
	}
	if WatchTree(root, store) != nil {
		t.Error("a tree with a mount under it watched")
	}
}

// TestWatchDeepTree: directories nested deep before the watch began,
// reached through their parents' descriptors, are each watched, leaves
// (link count 2) and directories with subdirectories alike, and one that
// is a symbolic link to a directory is not followed.
func TestWatchDeepTree(t *testing.T) {
	deep := []string{"a/b/c/d/e/f.txt", "a/b/c2/g.txt", "a/b2/h.txt", "z/y/x/w.txt"}
	for _, rel := range deep {
		t.Run(rel, func(t *testing.T) {
			root, store := watchRepo(t)
			for _, r := range deep {
				writeFile(t, root, r, "x")
			}
			os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "link"))
			git(t, root, "add", ".")
			git(t, root, "commit", "-qm", "deep")
			w := WatchTree(root, store)
			if w == nil {
				t.Fatal("no watch of a local work tree")
			}
			defer w.Close()
			if w.Changed() {
				t.Fatal("an unchanged tree reported changed")
			}
			if n := len(w.dirs); n < 1+30+10 {
				t.Fatalf("%d directories watched, want the root, the 30 packages and the 10 nested", n)
			}
			writeFile(t, root, rel, "changed")
			if !w.Changed() {
				t.Fatalf("a change to %s not seen", rel)
			}
		})
	}
}
