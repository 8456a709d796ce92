// Package testenv decides what a test does when something it needs from the
// machine is missing — a tool such as pytest or git, or the shared corpus of
// real outputs beside the repository. On a developer's machine the test is
// skipped, saying what is missing and how to get it; in CI (CI=true) it
// fails, so a green CI run means every test ran.
//
// It is imported only by tests.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// InCI reports whether the tests run in CI, where nothing may be skipped for
// a missing tool or corpus.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing skips the test, or fails it in CI, naming what is missing.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI=true and a test prerequisite is missing: "+format, args...)
		return
	}
	t.Skipf("skipped, missing: "+format, args...)
}

// Tool returns the path of the first of names found on PATH, or skips (fails
// in CI) with the install hint.
func Tool(t testing.TB, hint string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	Missing(t, "%s not on PATH (%s)", names[0], hint)
	return ""
}

// Corpus returns the directory shared/corpus/sub beside the repository root
// (the directory holding go.mod), or skips (fails in CI).
func Corpus(t testing.TB, sub string) string {
	t.Helper()
	root := RepoRoot(t)
	dir := filepath.Join(root, "..", "shared", "corpus", sub)
	if _, err := os.Stat(dir); err != nil {
		Missing(t, "the shared corpus %s (clone it beside the repository as ../shared/corpus): %v", sub, err)
	}
	return dir
}

// RepoRoot returns the directory holding the module's go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	for dir := filepath.Dir(file); ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (go.mod) not found above " + file)
		}
		dir = parent
	}
}

// IsolateState points XDG_STATE_HOME (where ctx keeps its per-user index of
// stores and the per-user store) at a fresh directory for the whole test
// binary and the ctx processes it starts, so a test run never registers its
// temporary stores in the developer's own index. Call it from TestMain; the
// returned function removes the directory.
func IsolateState() func() {
	dir, err := os.MkdirTemp("", "ctx-test-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	return func() { os.RemoveAll(dir) }
}
