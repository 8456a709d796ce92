package seq

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// TestStepsShareTheGeneration: a sequence of steps that change nothing in
// the work tree runs one git status, not one per step, and every step's
// execution records that generation; a step that writes a file makes the
// next step run its own git status, and that step records the file.
func TestStepsShareTheGeneration(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	env, dir := newEnv(t)
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(real, append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.go")
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
	// A git that counts its statuses, then runs the real one.
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	script := "#!/bin/sh\ncase \" $* \" in *\" status \"*) echo status >>" + log + ";; esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HOME", t.TempDir())      // no user configuration to refuse
	time.Sleep(100 * time.Millisecond) // past the racy window of the files just written
	statuses := func() int {
		data, _ := os.ReadFile(log)
		os.Remove(log)
		return strings.Count(string(data), "status\n")
	}
	env.Environ = append(env.Environ, "CTX_GENERATION_WAIT=10s")
	// Each step's run is its own (no two print the same), so its one
	// execution is that step's.
	gens := func(rec *Record) []string {
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
