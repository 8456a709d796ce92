package runcmd

import (
	"context"
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
	err = deferLate(st)(runner.Deferral{Exec: "k", Root: dir, Ended: time.Now()})
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
// the execution: the row carries the generation git status gives now and
// a lag counted from the command's end.
func TestFinishLate(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	st, dir := storetest.Open(t)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	ended := time.Now().Add(-50 * time.Millisecond)
	if err := finishLate(context.Background(), st.Dir(), "exec-1", dir, ended); err != nil {
		t.Fatal(err)
	}
	late, err := query.LateGenerations(st)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := late["exec-1"]
	if !ok || len(l.Generation.ID) != 16 || l.Lag < 50*time.Millisecond || l.Lag > time.Minute {
		t.Errorf("late generations %+v", late)
	}
	if err := finishLate(context.Background(), st.Dir(), "", dir, ended); err == nil {
		t.Error("no --exec: no error")
	}
}
