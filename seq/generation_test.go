package seq

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

// TestStepsShareTheGeneration: a sequence of steps that change nothing in
// the work tree runs one git status, not one per step, and every step's
// execution records that generation; a step that writes a file makes the
// next step run its own git status, and that step records the file.
func TestStepsShareTheGeneration(t *testing.T) {
	env, dir := newEnv(t)
	git, statuses := countingGit(t, dir)
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.go")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
	time.Sleep(100 * time.Millisecond) // past the racy window of the files just written
	env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=10s")
	// Each step's run is its own (no two print the same), so its one
	// execution is that step's.
	gens := func(rec *Record) []string { return stepGenerations(t, env, rec) }
	steps, err := FromArgs([]string{"echo 1", "--", "echo 2", "--", "echo 3"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := statuses(); n != 1 {
		t.Errorf("three steps that change nothing ran %d git statuses, want 1", n)
	}
	if g := gens(rec); g[0] != g[1] || g[1] != g[2] || strings.Contains(g[0], "??") {
		t.Errorf("generations %q, want one clean one", g)
	}

	// Step 2 writes a file: step 3 sees it in a git status of its own.
	steps, err = FromArgs([]string{"echo 4", "--", "echo x > new.txt", "--", "echo 5"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err = Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := statuses(); n != 2 {
		t.Errorf("a step writing a file then one more: %d git statuses, want 2", n)
	}
	g := gens(rec)
	if g[0] != g[1] || strings.Contains(g[1], "new.txt") || !strings.HasSuffix(g[2], " ??new.txt") {
		t.Errorf("generations %q: want steps 1 and 2 clean, step 3 with new.txt", g)
	}

	// A tree a stamp cannot vouch for (a nested repository) runs a git
	// status per step, as ctx run would.
	if err := os.MkdirAll(filepath.Join(dir, "vendor", "x", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	steps, err = FromArgs([]string{"echo 6", "--", "echo 7", "--", "echo 8"})
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true}); err != nil {
		t.Fatal(err)
	}
	if n := statuses(); n != 3 {
		t.Errorf("a tree with a nested repository: %d git statuses for 3 steps, want 3", n)
	}
	gens(rec) // each recorded one
}

// countingGit puts a git that counts its statuses, then runs the real
// one, first on PATH (with a HOME of no configuration), and returns a git
// runner in dir and the count of statuses since the last call.
func countingGit(t *testing.T, dir string) (git func(args ...string), statuses func() int) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	git = func(args ...string) {
		t.Helper()
		if out, err := exec.Command(real, append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	script := "#!/bin/sh\ncase \" $* \" in *\" status \"*) echo status >>" + log + ";; esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HOME", t.TempDir()) // no user configuration to refuse
	statuses = func() int {
		data, _ := os.ReadFile(log)
		os.Remove(log)
		return strings.Count(string(data), "status\n")
	}
	return git, statuses
}

// stepGenerations are the generations the steps' executions recorded: id
// and changed entries.
func stepGenerations(t *testing.T, env *runner.Env, rec *Record) []string {
	t.Helper()

	var out []string
	for _, r := range rec.Steps {
		execs, err := env.Store.Execs(1, func(x *store.Exec) bool { return x.Run.String() == r.Run })
		if err != nil || len(execs) != 1 {
			t.Fatalf("step %d: execs %v %v", r.N, execs, err)
		}
		g := execs[0].Generation
		if g == nil {
			t.Fatalf("step %d recorded no generation (note %q)", r.N, execs[0].Note)
		}
		var changed []string
		for _, c := range g.Changed {
			changed = append(changed, c.Status+c.Path)
		}
		out = append(out, g.ID+" "+strings.Join(changed, ","))
	}
	return out
}

// TestLargeTreeStepsShareTheGeneration: in a tree too large for a stamp
// (600 files), steps that change nothing run one git status, shared
// through the watch of the tree; a step that writes a tracked file, an
// untracked one, an ignored one, one in a new directory, or renames one,
// makes the next step run a git status of its own, which records it.
func TestLargeTreeStepsShareTheGeneration(t *testing.T) {
	env, dir := newEnv(t)
	git, statuses := countingGit(t, dir)
	git("init", "-q")
	packages(t, dir, 600)
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".gitignore", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p1*")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "big")
	env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=10s")
	run := stepRunner(t, env, dir)
	g := run("echo 1", "--", "echo 2", "--", "echo 3", "--", "echo 4")
	if n := statuses(); n != 1 {
		t.Errorf("four steps that change nothing in a large tree ran %d git statuses, want 1", n)
	}
	if g[0] != g[1] || g[1] != g[3] || strings.Contains(g[0], "??") {
		t.Errorf("generations %q, want one clean one", g)
	}
	// The watch is set up while the first step runs: what that step
	// writes before the set-up ends is in its git status, which starts
	// after; what it writes later is an event. Either way the next step's
	// generation has it.
	g = run("echo x > p8/first.txt; mkdir p9/sub; echo y > p9/sub/z.txt", "--", "echo b", "--", "echo c")
	if n := statuses(); n < 1 || n > 2 || g[1] != g[2] || !strings.Contains(g[1], "??p8/first.txt") || !strings.Contains(g[1], "??p9/sub/z.txt") {
		t.Errorf("a first step writing while the watch is set up: %d git statuses, generations %q", n, g)
	}
	git("add", "-A")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first")
	statuses()
	writes := []struct{ name, step, recorded string }{
		{"tracked", "echo y >> p3/f3.go", " M" + "p3/f3.go"},
		{"untracked", "echo x > p4/new.txt", "??p4/new.txt"},
		{"ignored", "echo x > p5/x.o", ""},
		{"new directory", "mkdir -p p6/d/e && echo x > p6/d/e/n.txt", "??p6/d/e/n.txt"},
		{"rename", "mv p7/f7.go p7/g7.go", "??p7/g7.go"},
	}
	for _, w := range writes {
		g := run("echo a", "--", w.step, "--", "echo b", "--", "echo c")
		if n := statuses(); n != 2 {
			t.Errorf("%s: a step writing then two more: %d git statuses, want 2", w.name, n)
		}
		if g[2] != g[3] || g[1] != g[0] {
			t.Errorf("%s: generations %q: want steps 1-2 and 3-4 to share", w.name, g)
		}
		if w.recorded != "" && !strings.Contains(g[2], w.recorded) {
			t.Errorf("%s: step 3's generation %q does not record %s", w.name, g[2], w.recorded)
		}
		if w.recorded == "" && g[2] != g[0] {
			t.Errorf("%s: an ignored file changed the generation: %q", w.name, g)
		}
		git("add", "-A")
		git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", w.name)
		statuses()
	}
}

// TestHeldStepKeptWhileTheNextRuns: a finished step not yet stored (the
// linger is long) has its exit status saved in its spool before the next
// step starts, so a ctx that died during that step would leave it
// recoverable: the next step reads it there. After the sequence, the
// record is stored already, with the runs.
func TestHeldStepKeptWhileTheNextRuns(t *testing.T) {
	env, dir := newEnv(t)
	spools := filepath.Join(env.Store.Dir(), "spool")
	steps, err := FromArgs([]string{"echo one; exit 3", "--", "grep -h '\"exit\":3' " + spools + "/*/result.json"})
	if err != nil {
		t.Fatal(err)
	}
	steps[0].ContinueOnFailure = true
	rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true, Linger: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Steps[0].Exit != 3 || rec.Steps[1].State != StateOK {
		t.Fatalf("steps %+v", rec.Steps)
	}
	if !strings.Contains(rec.Steps[1].Headline, `"exit":3`) {
		t.Errorf("the second step did not find the first's exit status in its spool: %q", rec.Steps[1].Headline)
	}
	loaded, err := Load(env.Store, Ref{Prefix: rec.ID().String()})
	if err != nil || loaded.Digest != rec.Digest {
		t.Fatalf("the record was not stored by Run: %v", err)
	}
	if _, err := Save(env.Store, rec); err != nil {
		t.Fatal(err)
	}
}

// TestLastStepSeesTheChange: the last step of a sequence sets up no stamp
// or watch of its own (Generations.Final) but still checks the earlier
// one: after a step that writes a file, in a small tree (stamps) and a
// large one (the watch), the last step runs its own git status and
// records the file; after a step that writes nothing it takes the shared
// generation; a sequence of one step runs one git status.
func TestLastStepSeesTheChange(t *testing.T) {
	for _, files := range []int{3, 600} {
		t.Run(fmt.Sprint(files, " files"), func(t *testing.T) {
			env, dir := newEnv(t)
			git, statuses := countingGit(t, dir)
			git("init", "-q")
			packages(t, dir, files)
			git("add", ".")
			git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tree")
			time.Sleep(100 * time.Millisecond) // past the racy window of the files just written
			env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=10s")
			run := stepRunner(t, env, dir)
			if g := run("echo 1"); len(g) != 1 || statuses() != 1 {
				t.Fatalf("one step: generations %q", g)
			}
			g := run("echo 1", "--", "echo 2")
			if n := statuses(); n != 1 || g[0] != g[1] {
				t.Errorf("two steps that change nothing: %d git statuses, generations %q", n, g)
			}
			g = run("echo 1", "--", "echo x > p1/made.txt", "--", "echo 3")
			if n := statuses(); n != 2 || g[0] != g[1] || g[2] == g[1] || !strings.Contains(g[2], "??p1/made.txt") {
				t.Errorf("a step writing a file, then the last: %d git statuses, generations %q", n, g)
			}
		})
	}
}

// packages writes n Go files into 20 package directories of dir.
func packages(t *testing.T, dir string, n int) {
	t.Helper()
	for i := range n {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprint("p", i%20)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d/f%d.go", i%20, i)), []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// stepRunner runs the steps given as arguments in dir and returns the
// generations their executions recorded.
func stepRunner(t *testing.T, env *runner.Env, dir string) func(args ...string) []string {
	return func(args ...string) []string {
		t.Helper()
		steps, err := FromArgs(args)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Run(context.Background(), env, steps, Options{Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		return stepGenerations(t, env, rec)
	}
}
