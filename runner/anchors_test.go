package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/store"
)

// anchoredOnce reports whether a receipt's anchors are one handle, for
// a.c's first line.
func anchoredOnce(anchors map[string]string) bool {
	if len(anchors) != 1 {
		return false
	}
	for _, h := range anchors {
		return regexp.MustCompile(`^repo:a\.c:L1@[0-9a-f]{8}$`).MatchString(h)
	}
	return false
}

// compileError is a compiler's error on a.c's first line.
const compileError = "a.c:1:1: error: expected ';' before '}' token\n"

// TestMintIngestAndRecoveredShow: failure locations get anchored repo:
// handles in every front end's digest, not only ctx run's: an ingest (the
// hook's path), and a run stored without a digest (recovered after a
// crash) that ctx show renders later; a run recorded under another
// directory (a benchmark's fixture copy) gets none.
func TestMintIngestAndRecoveredShow(t *testing.T) {
	env, dir := newEnv(t)
	if err := os.WriteFile(filepath.Join(dir, "a.c"), []byte("int main() { return 0 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := Ingest(ctx, env, &Request{Argv: []string{"make"}, Dir: dir, Exit: 2, Stderr: strings.NewReader(compileError)})
	if err != nil {
		t.Fatal(err)
	}
	if !anchoredOnce(res.Digest.Receipt.Anchors) {
		t.Errorf("ingest: anchors %v, digest:\n%s", res.Digest.Receipt.Anchors, res.Text())
	}

	fixture, err := Ingest(ctx, env, &Request{Argv: []string{"make", "fixture"}, Dir: dir, Where: ".", Exit: 2, Stderr: strings.NewReader(compileError)})
	if err != nil {
		t.Fatal(err)
	}
	if len(fixture.Digest.Receipt.Anchors) != 0 {
		t.Errorf("a run recorded under Where was anchored: %v", fixture.Digest.Receipt.Anchors)
	}

	run := storeUndigested(t, env.Store, []string{"make", "again"}, compileError)
	h, err := store.ParseHandle(run.Handle())
	if err != nil {
		t.Fatal(err)
	}
	tg, err := env.Store.Resolve(h)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Show(ctx, env.Store, tg, func() (digest.Options, error) { return digest.Options{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	if !anchoredOnce(sh.Receipt.Anchors) {
		t.Errorf("show of a recovered run: anchors %v, digest:\n%s", sh.Receipt.Anchors, sh.Text)
	}
}

// storeUndigested stores output as a run with no digest, as the recovery
// of a spool left by a crash does.
func storeUndigested(t *testing.T, st *store.Store, argv []string, stderr string) *store.Run {
	t.Helper()
	sp, err := st.NewSpool(store.SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Cap: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if err := copyInto(sp, "stderr", strings.NewReader(stderr)); err != nil {
		t.Fatal(err)
	}
	p, err := st.Prepare(sp, store.Manifest{Argv: argv, Dir: ".", Mode: "pipe", Exit: 2, Status: store.StatusExited})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit(p, store.Exec{Argv: argv}, nil); err != nil {
		t.Fatal(err)
	}
	return p.Run
}

// TestGenerationForEveryFrontEnd: a capture whose caller started no
// generation (the MCP server, seq, a script) records one when it ran in a
// git work tree, and none with CTX_NO_GENERATION=1 in its environment.
func TestGenerationForEveryFrontEnd(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	env, dir := newEnv(t)
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	ctx := context.Background()
	for i, off := range []bool{false, true} {
		e := *env
		if off {
			e.Environ = append(e.Environ, "CTX_NO_GENERATION=1")
		}
		// Long enough for git status to finish inside the wait.
		res, err := Capture(ctx, &e, &Request{Argv: []string{"sleep", []string{"0.2", "0.21"}[i]}, Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		execs, err := env.Store.Execs(1, func(x *store.Exec) bool { return x.Run == res.Run.ID })
		if err != nil || len(execs) != 1 {
			t.Fatalf("execs %v %v", execs, err)
		}
		if got := execs[0].Generation != nil; got == off {
			t.Errorf("CTX_NO_GENERATION=1 %v: generation recorded %v", off, got)
		}
	}
}
