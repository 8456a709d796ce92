package runcmd

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/query"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store/storetest"
)

// TestLateBounded: while one late generation of a work tree is being
// computed (its lock held), another is declined with the reason instead
// of starting a second git; once the lock is released one is taken again.
func TestLateBounded(t *testing.T) {
	st, dir := storetest.Open(t)
	held, err := lockLate(st, dir)
	if err != nil {
		t.Fatal(err)
	}
	err = deferLate(st)(runner.Deferral{Exec: "k", Root: dir})
	if err == nil || !strings.Contains(err.Error(), "still being computed") {
		t.Errorf("a second late generation of one work tree: %v", err)
	}
	other, err := lockLate(st, dir+"/elsewhere")
	if err != nil {
		t.Errorf("another work tree's lock: %v", err)
	} else {
		other.Close()
	}
	held.Close()
	again, err := lockLate(st, dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Close()
}

// TestFinishLate computes a real work tree's generation and records it for
// the execution with the moment it was observed; a quick tree loses its
// mark (its next executions run git status themselves again), a slow one
// keeps it. The clock is the test's: it read the time before finishLate's
// own first reading and judged the tree by a longer span than finishLate
// did, so a git status that took just under quickTree failed the test.
func TestFinishLate(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, c := range []struct {
		name string
		took time.Duration // between the clock's two readings
		kept bool          // the mark after the generation
	}{
		{"quick", quickTree - time.Nanosecond, false},
		{"slow", quickTree, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, dir := storetest.Open(t)
			if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			if err := os.WriteFile(lateFile(st.Dir(), dir, "big"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if !lateBefore(st)(dir) {
				t.Fatal("a marked tree is not seen as marked")
			}
			began := time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)
			readings := []time.Time{began, began.Add(c.took)}
			clock := func() time.Time {
				if len(readings) == 0 {
					t.Fatal("finishLate read the clock more than twice")
				}
				now := readings[0]
				readings = readings[1:]
				return now
			}
			if err := finishLate(context.Background(), st.Dir(), "exec-1", dir, clock); err != nil {
				t.Fatal(err)
			}
			late, err := query.LateGenerations(st)
			if err != nil {
				t.Fatal(err)
			}
			l, ok := late["exec-1"]
			if !ok || len(l.Generation.ID) != 16 || !l.Observed.Equal(began.Add(c.took)) {
				t.Errorf("late generations %+v, want one observed at %v", late, began.Add(c.took))
			}
			if got := lateBefore(st)(dir); got != c.kept {
				t.Errorf("mark after a late generation that took %v: %v, want %v", c.took, got, c.kept)
			}
		})
	}
	st, dir := storetest.Open(t)
	if err := finishLate(context.Background(), st.Dir(), "", dir, time.Now); err == nil {
		t.Error("no --exec: no error")
	}
}

// TestMain lets the crash test run finishLate in a child process: this
// binary with LATE_CHILD set is that child.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LATE_CHILD_STORE"); dir != "" {
		if err := finishLate(context.Background(), dir, "exec-1", os.Getenv("LATE_CHILD_ROOT"), time.Now); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestFinishLateKilled: a late generation killed before it ends (here in
// the middle of a slow git status) records nothing, and the work tree's
// lock it held is free again.
func TestFinishLateKilled(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	st, dir := storetest.Open(t)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	bin := t.TempDir()
	if err := os.WriteFile(bin+"/git", []byte("#!/bin/sh\nsleep 5\nexec "+realGit+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := lockLate(st, dir)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(self, "-test.run", "^$")
	child.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"),
		"LATE_CHILD_STORE="+st.Dir(), "LATE_CHILD_ROOT="+dir)
	child.ExtraFiles = []*os.File{lock}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	lock.Close() // the child holds the lock now
	time.Sleep(300 * time.Millisecond)
	if _, err := lockLate(st, dir); err == nil {
		t.Error("the lock was free while the late generation ran")
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	late, err := query.LateGenerations(st)
	if err != nil || len(late) != 0 {
		t.Errorf("after a kill: late generations %+v, %v", late, err)
	}
	again, err := lockLate(st, dir)
	if err != nil {
		t.Errorf("the lock after the kill: %v", err)
	} else {
		again.Close()
	}
}

// TestFinishMore: the helper of a sequence's late generations records one
// for each key that arrives, each computed after its key arrived: a file
// written between two keys is in the second's generation, not the first's.
func TestFinishMore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	st, dir := storetest.Open(t)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	lock, err := lockLate(st, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	go func() { done <- finishMore(context.Background(), st.Dir(), dir, r, lock, time.Now) }()
	wait := func(key string) query.Late {
		t.Helper()
		for range 500 {
			late, err := query.LateGenerations(st)
			if err != nil {
				t.Fatal(err)
			}
			if l, ok := late[key]; ok {
				return l
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("no late generation recorded for %s", key)
		return query.Late{}
	}
	w.WriteString("step-2\n")
	first := wait("step-2")
	// Waiting for the next key, the helper holds no lock: another
	// command's late generation of the tree may start.
	var other *os.File
	for range 500 {
		if other, err = lockLate(st, dir); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if other == nil {
		t.Fatal("the helper kept the tree's late lock while waiting for a key")
	}
	other.Close()
	if err := os.WriteFile(dir+"/made-by-step-2.txt", []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.WriteString("step-3\nstep-4\n")
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	third, fourth := wait("step-3"), wait("step-4")
	if first.Generation.ID == third.Generation.ID {
		t.Errorf("a file written between two steps: the same generation %s", first.Generation.ID)
	}
	changed := func(l query.Late) bool {
		for _, c := range l.Generation.Changed {
			if c.Path == "made-by-step-2.txt" {
				return true
			}
		}
		return false
	}
	if changed(first) || !changed(third) || !changed(fourth) {
		t.Errorf("the file in step 2's generation %v, step 3's %v, step 4's %v: want only the later ones", changed(first), changed(third), changed(fourth))
	}
}
