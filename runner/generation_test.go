package runner

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// TestLateGenerationHandedOff: with the wait forced to 0 and git slower
// than the command, git status is late; the capture hands it to Env.Defer with the key the
// execution record is committed under, the work tree's top and the end of
// the command, records no generation itself, and when Defer declines, the
// execution's note says why (the capture's own note, shown to the agent,
// stays empty).
func TestLateGenerationHandedOff(t *testing.T) {
	env, dir := gitEnv(t)
	slowGit(t)
	env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=0")
	for _, decline := range []bool{false, true} {
		var got []Deferral
		env.Defer = func(d Deferral) error {
			got = append(got, d)
			if decline {
				return errors.New("busy")
			}
			return nil
		}
		res, err := Capture(context.Background(), env, &Request{Argv: []string{"true"}, Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		execs, err := env.Store.Execs(1, func(x *store.Exec) bool { return x.Run == res.Run.ID })
		if err != nil || len(execs) != 1 {
			t.Fatalf("execs %v %v", execs, err)
		}
		ex := execs[0]
		if len(got) != 1 {
			t.Fatalf("decline %v: Defer called %d times", decline, len(got))
		}
		d := got[0]
		top, _ := filepath.EvalSymlinks(dir)
		root, _ := filepath.EvalSymlinks(d.Root)
		if d.Exec != ex.Key || root != top {
			t.Errorf("deferral %+v for execution %s in %s", d, ex.Key, top)
		}
		if ex.Generation != nil {
			t.Errorf("a late generation recorded on the execution itself: %+v", ex.Generation)
		}
		if want := "no generation: busy"; decline != strings.Contains(ex.Note, want) || res.Note != "" {
			t.Errorf("decline %v: execution note %q, capture note %q", decline, ex.Note, res.Note)
		}
	}
}

// TestDeferAtStart: a work tree whose generation was late before is handed
// off as the command starts, even with all the time in the world to wait:
// no git status runs in the capture and the execution records none itself.
func TestDeferAtStart(t *testing.T) {
	env, dir := gitEnv(t)
	for _, big := range []bool{false, true} {
		var got []Deferral
		env.Defer = func(d Deferral) error { got = append(got, d); return nil }
		env.DeferAtStart = func(string) bool { return big }
		res, err := Capture(context.Background(), env, &Request{Argv: []string{"sleep", "0.2"}, Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		execs, err := env.Store.Execs(1, func(x *store.Exec) bool { return x.Run == res.Run.ID })
		if err != nil || len(execs) != 1 {
			t.Fatalf("execs %v %v", execs, err)
		}
		if ex := execs[0]; big != (len(got) == 1) || big == (ex.Generation != nil) || len(got) == 1 && got[0].Exec != ex.Key {
			t.Errorf("marked %v: deferrals %+v, execution %s generation %+v", big, got, ex.Key, ex.Generation)
		}
	}
}

// gitEnv is a runner environment in a fresh git work tree, its clock a
// second further at each reading (so executions sort as they ran).
func gitEnv(t *testing.T) (*Env, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	env, dir := newEnv(t)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	env.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	return env, dir
}

// slowGit puts a git first on PATH that waits half a second and then runs
// the real one: a large tree's git status, in a small one.
func slowGit(t *testing.T) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin := t.TempDir()
	script := "#!/bin/sh\nsleep 0.5\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestDeferredStartsNoGit: in a work tree marked late, neither a capture
// nor the steps of a sequence sharing generations start a git process of
// their own (a git first on PATH logs each start), and each is handed off.
func TestDeferredStartsNoGit(t *testing.T) {
	env, dir := gitEnv(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "git.log")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var got []Deferral
	env.Defer = func(d Deferral) error { got = append(got, d); return nil }
	env.DeferAtStart = func(string) bool { return true }
	gens := NewGenerations(env.Store)
	defer gens.Close()
	for i, g := range []*Generations{nil, gens, gens, gens} {
		if _, err := Capture(context.Background(), env, &Request{Argv: []string{"true"}, Dir: dir, Pipe: true, Generations: g}); err != nil {
			t.Fatal(err)
		}
		if len(got) != i+1 {
			t.Fatalf("capture %d: %d deferrals, want %d", i, len(got), i+1)
		}
	}
	time.Sleep(100 * time.Millisecond) // a git started and stopped would have logged by now
	if b, err := os.ReadFile(log); err == nil {
		t.Errorf("git ran in a marked tree:\n%s", b)
	}
}

// TestDeferredSequenceKeys: in a work tree whose generation is handed off
// at the start, a sequence hands off its first step's to Env.Defer with a
// pipe, and each later step's execution key arrives on it, in order, so
// the helper records a generation for every step (before, the helper of
// the first held the tree's late lock and every later step recorded
// none); the pipe ends when the sequence does. A helper that is gone (the
// pipe's reader closed) gets the next step handed off anew.
func TestDeferredSequenceKeys(t *testing.T) {
	env, dir := gitEnv(t)
	env.DeferAtStart = func(string) bool { return true }
	got, lines := pipeReader(t, env)
	gens := NewGenerations(env.Store)
	keys := sequenceKeys(t, env, dir, gens, 3)
	gens.Close()
	checkKeys(t, *got, lines, keys)

	// The helper gone: the next step is handed off anew.
	*got = nil
	env.Defer = func(d Deferral) error { *got = append(*got, d); return nil } // keeps no reader
	gens = NewGenerations(env.Store)
	defer gens.Close()
	sequenceKeys(t, env, dir, gens, 2)
	if len(*got) != 2 {
		t.Errorf("%d deferrals with the helper gone, want 2", len(*got))
	}
}

// TestLateSequenceKeys: a sequence whose first step's git status is late
// (the tree gets marked then) hands it off with the pipe too, so the
// later steps, handed off at their start, reach the same helper instead of
// being declined while it holds the tree's lock.
func TestLateSequenceKeys(t *testing.T) {
	env, dir := gitEnv(t)
	slowGit(t)
	env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=0")
	got, lines := pipeReader(t, env)
	env.DeferAtStart = func(string) bool { return len(*got) > 0 } // marked by the first hand-off
	gens := NewGenerations(env.Store)
	keys := sequenceKeys(t, env, dir, gens, 3)
	gens.Close()
	checkKeys(t, *got, lines, keys)
}

// pipeReader sets env.Defer to a fake helper that records each deferral
// and reads the keys arriving on its pipe, sent whole on lines once it
// ends.
func pipeReader(t *testing.T, env *Env) (*[]Deferral, chan []string) {
	t.Helper()
	var got []Deferral
	lines := make(chan []string, 4)
	env.Defer = func(d Deferral) error {
		got = append(got, d)
		if d.More == nil {
			t.Error("a sequence's step handed off with no pipe for the later steps")
			return nil
		}
		fd, err := syscall.Dup(int(d.More.Fd())) // the helper's own copy: the sequence closes its
		if err != nil {
			t.Fatal(err)
		}
		r := os.NewFile(uintptr(fd), "more")
		go func() {
			b, _ := io.ReadAll(r)
			r.Close()
			lines <- strings.Fields(string(b))
		}()
		return nil
	}
	return &got, lines
}

// sequenceKeys captures n steps sharing gens and returns their execution
// keys, checking that none says it has no generation.
func sequenceKeys(t *testing.T, env *Env, dir string, gens *Generations, n int) []string {
	t.Helper()
	var keys []string
	for range n {
		if _, err := Capture(context.Background(), env, &Request{Argv: []string{"true"}, Dir: dir, Pipe: true, Generations: gens}); err != nil {
			t.Fatal(err)
		}
		execs, err := env.Store.Execs(1, func(*store.Exec) bool { return true })
		if err != nil || len(execs) != 1 {
			t.Fatalf("execs %v %v", execs, err)
		}
		keys = append(keys, execs[0].Key)
		if execs[0].Note != "" {
			t.Errorf("step %d's note %q", len(keys), execs[0].Note)
		}
	}
	return keys
}

// checkKeys checks that the first step alone was handed to Defer and the
// later steps' keys arrived on its pipe, in order, which ended.
func checkKeys(t *testing.T, got []Deferral, lines chan []string, keys []string) {
	t.Helper()
	if len(got) != 1 || got[0].Exec != keys[0] {
		t.Fatalf("deferrals %+v for steps %v: want the first step's only", got, keys)
	}
	select {
	case more := <-lines:
		if !slices.Equal(more, keys[1:]) {
			t.Errorf("keys on the pipe %v, want the later steps' %v", more, keys[1:])
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the pipe did not end with the sequence")
	}
}

// TestFinalSetsUpNothing: a sequence's last capture, with no earlier one
// in its tree, takes no stamp in a small tree and sets up no watch in a
// large one; the same capture not last does, for the steps after it.
func TestFinalSetsUpNothing(t *testing.T) {
	for _, files := range []int{2, 600} {
		env, dir := gitEnv(t)
		for i := range files {
			if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, final := range []bool{false, true} {
			g := NewGenerations(env.Store)
			if final {
				g.Final()
			}
			if _, err := Capture(context.Background(), env, &Request{Argv: []string{"true"}, Dir: dir, Pipe: true, Generations: g}); err != nil {
				t.Fatal(err)
			}
			set := g.stamp != nil || g.watch != nil
			g.Close()
			if set == final {
				t.Errorf("%d files, last %v: stamp or watch set up %v", files, final, set)
			}
		}
	}
}
