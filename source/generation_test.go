package source

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestGeneration(t *testing.T) {
	requireGit(t)
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	writeFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "one")
	var cache HashCache
	clean, err := Current(ctx, dir, &cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(clean.Changed) != 0 || len(clean.Head) != 40 {
		t.Fatalf("clean tree: %+v", clean)
	}
	again, _ := Current(ctx, dir, &cache)
	if again.ID != clean.ID {
		t.Errorf("same tree, different generations: %s %s", clean.ID, again.ID)
	}

	writeFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 3\n}\n")
	writeFile(t, dir, "new.txt", "n\n")
	edited, err := Current(ctx, dir, &cache)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range edited.Changed {
		paths = append(paths, c.Status+" "+c.Path)
	}
	if edited.ID == clean.ID || !slices.Equal(paths, []string{" M a.go", "?? new.txt"}) {
		t.Errorf("edited tree: %s %v", edited.ID, paths)
	}
	// A second edit of the same file is a new generation (content, not
	// status, counts), and reverting it returns the old one.
	writeFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 4\n}\n")
	edited2, _ := Current(ctx, dir, &cache)
	if edited2.ID == edited.ID {
		t.Error("a different edit of the same file kept the generation")
	}
	if err := os.Remove(filepath.Join(dir, "new.txt")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n")
	back, _ := Current(ctx, dir, &cache)
	if back.ID != clean.ID {
		t.Errorf("reverted tree: generation %s, want %s", back.ID, clean.ID)
	}

	writeFile(t, dir, "a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 5\n}\n")
	ranges, all, err := ChangedLines(ctx, dir, "a.go")
	if err != nil || all || !slices.Equal(ranges, []LineRange{{8, 8}}) {
		t.Errorf("changed lines: %v %v %v", ranges, all, err)
	}
	if !Overlaps(ranges, 7, 9) || Overlaps(ranges, 3, 5) {
		t.Error("B (7-9) should overlap the change and A (3-5) should not")
	}
	writeFile(t, dir, "u.go", "package a\n")
	if _, all, _ := ChangedLines(ctx, dir, "u.go"); !all {
		t.Error("an untracked file is not wholly changed")
	}
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git missing in CI")
		}
		t.Skip("git not installed")
	}
}

// BenchmarkGeneration measures a generation of a work tree of 20,000
// tracked 8 KiB files with 200 modified, warm hash cache: the cost ctx
// pays per execution (run with -cpu 1; the git child's CPU time is
// reported as cpu-ms/op).
func BenchmarkGeneration(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	dir := b.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	body := make([]byte, 8<<10)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	for i := range 20000 {
		p := filepath.Join(dir, "d"+strconv.Itoa(i%100), "f"+strconv.Itoa(i)+".go")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	run("add", ".")
	run("commit", "-qm", "base")
	// Settle the index as a work tree's is: entries written in the same
	// second as the index are "racily clean" and git re-reads them on every
	// status until a status (with its optional index refresh) runs later.
	time.Sleep(1100 * time.Millisecond)
	run("status", "--porcelain")
	for i := 0; i < 20000; i += 100 {
		p := filepath.Join(dir, "d"+strconv.Itoa(i%100), "f"+strconv.Itoa(i)+".go")
		if err := os.WriteFile(p, append(body, 'x'), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	// warm: the hash cache holds every changed file (one process that
	// computes many generations); cold: none (each ctx run is a new
	// process), so every changed file is read and hashed again.
	for _, warm := range []bool{true, false} {
		b.Run(map[bool]string{true: "warm", false: "cold"}[warm], func(b *testing.B) {
			var cache *HashCache
			if warm {
				cache = &HashCache{}
				if _, err := Current(ctx, dir, cache); err != nil {
					b.Fatal(err)
				}
			}
			before, self := childCPU(), selfCPU()
			n := 0
			for b.Loop() {
				g, err := Current(ctx, dir, cache)
				if err != nil || len(g.Changed) != 200 {
					b.Fatalf("%v %d", err, len(g.Changed))
				}
				n++
			}
			b.ReportMetric(float64(childCPU()-before)/float64(time.Millisecond)/float64(n), "child-cpu-ms/op")
			b.ReportMetric(float64(selfCPU()-self)/float64(time.Millisecond)/float64(n), "self-cpu-ms/op")
		})
	}
}

func TestParseStatusV2(t *testing.T) {
	out := "# branch.oid (initial)\x00# branch.head main\x00" +
		"1 .M N... 100644 100644 100644 aaaa bbbb a b.go\x00" +
		"1 A. N... 000000 100644 100644 0000 cccc new.go\x00" +
		"1 D. N... 100644 000000 000000 dddd 0000 gone.go\x00" +
		"u UU N... 100644 100644 100644 100644 e1 e2 e3 both.go\x00" +
		"? untracked dir/x.txt\x00"
	g, err := parseStatus([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range g.Changed {
		got = append(got, c.Status+"|"+c.Path)
	}
	want := []string{" M|a b.go", "A |new.go", "D |gone.go", "UU|both.go", "??|untracked dir/x.txt"}
	if g.Head != "" || !slices.Equal(got, want) {
		t.Errorf("head %q, changes %q, want %q", g.Head, got, want)
	}
	g, _ = parseStatus([]byte("# branch.oid 0123456789abcdef0123456789abcdef01234567\x00"))
	if g.Head != "0123456789abcdef0123456789abcdef01234567" || len(g.Changed) != 0 {
		t.Errorf("clean: %+v", g)
	}
	if _, err := parseStatus([]byte("2 R. N... 100644 100644 100644 a b R100 new\x00old\x00")); err == nil {
		t.Error("a rename entry (renames are off) was accepted")
	}
}

func TestStartInAndOutsideAWorkTree(t *testing.T) {
	requireGit(t)
	dir := t.TempDir()
	if p := Start(context.Background(), dir); p != nil {
		t.Fatalf("outside a work tree Start gave %v", p)
	}
	git(t, dir, "init", "-q")
	writeFile(t, dir, "sub/a.txt", "a\n")
	top, ok := Top(filepath.Join(dir, "sub"))
	if !ok || top != dir {
		t.Errorf("Top = %q %v, want %q", top, ok, dir)
	}
	g, err := Start(context.Background(), filepath.Join(dir, "sub")).Wait(time.Minute)
	if err != nil || len(g.Changed) != 1 || g.Changed[0].Path != "sub/a.txt" {
		t.Errorf("generation from a subdirectory: %+v %v", g, err)
	}
	if _, err := Start(context.Background(), dir).Wait(0); err == nil {
		t.Error("a zero wait returned a generation")
	}
}

// childCPU is the CPU time of this process's waited-for children.
func childCPU() time.Duration { return rusage(syscall.RUSAGE_CHILDREN) }

// selfCPU is this process's CPU time (the hashing, git's output parsed).
func selfCPU() time.Duration { return rusage(syscall.RUSAGE_SELF) }

func rusage(who int) time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(who, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// TestGenerationBehindUpstream: a branch behind its upstream has the
// generation it has with no upstream at all (git status is told not to
// count the commits between them, which can cost more than the status:
// 6 ms of CPU for 146 commits here, and the generation never used it).
func TestGenerationBehindUpstream(t *testing.T) {
	requireGit(t)
	ctx := context.Background()
	up, down := t.TempDir(), t.TempDir()
	git(t, up, "init", "-q")
	for _, n := range []string{"1", "2", "3"} {
		writeFile(t, up, "a.go", "package a // "+n+"\n")
		git(t, up, "add", ".")
		git(t, up, "commit", "-qm", n)
	}
	git(t, down, "clone", "-q", up, ".")
	git(t, down, "reset", "-q", "--hard", "HEAD~2")
	behind, err := Current(ctx, down, nil)
	if err != nil {
		t.Fatal(err)
	}
	git(t, down, "branch", "--unset-upstream")
	alone, err := Current(ctx, down, nil)
	if err != nil {
		t.Fatal(err)
	}
	if behind.ID != alone.ID || len(behind.Changed) != 0 || len(behind.Head) != 40 {
		t.Errorf("behind its upstream %+v, without one %+v", behind, alone)
	}
}
