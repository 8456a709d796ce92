package script

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
	"github.com/ctxhq/ctx/store/storetest"
)

func newEnv(t *testing.T) (*runner.Env, string) {
	t.Helper()
	st, dir := storetest.Open(t)
	return &runner.Env{Store: st, Environ: os.Environ(), Host: "testhost", Version: "test"}, dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoopOverPackages: a script runs real go test in each package of a
// module, reads the failures' items, and emits one line per failing
// package; the digest lists every run and the emitted findings.
func TestLoopOverPackages(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	env, dir := newEnv(t)
	mod := filepath.Join(dir, "mod")
	write(t, filepath.Join(mod, "go.mod"), "module example.com/m\n\ngo 1.21\n")
	write(t, filepath.Join(mod, "a", "a_test.go"), "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n")
	write(t, filepath.Join(mod, "b", "b_test.go"), "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { t.Fatal(\"b is broken\") }\n")
	src := `
failed = []
for pkg in ["./a", "./b"]:
    r = run(["go", "test", "-count=1", "-vet=off", pkg], cwd="mod")
    if not r.ok:
        names = [it.get("name", "") for it in items(r.handle, kind="test") if it.get("outcome") == "fail"]
        failed.append(pkg)
        emit(pkg, "failed:", ", ".join(names), r.handle)
if failed:
    fail("%d of 2 packages failed" % len(failed))
`
	x, err := Run(context.Background(), env, []byte(src), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Runs) != 2 || x.Runs[0].Exit != 0 || x.Runs[1].Exit != 1 {
		t.Fatalf("runs %+v", x.Runs)
	}
	if x.Exit != 1 || x.Error != "fail: 1 of 2 packages failed" {
		t.Errorf("exit %d error %q", x.Exit, x.Error)
	}
	if len(x.Emits) != 1 || !strings.Contains(x.Emits[0].Text, "./b failed: TestB run:") {
		t.Errorf("emits %+v", x.Emits)
	}
	for _, want := range []string{x.Handle() + " · script blob:", "2 runs (1 failed)", "emitted:\n  finding: ./b failed: TestB"} {
		if !strings.Contains(x.Digest, want) {
			t.Errorf("digest lacks %q:\n%s", want, x.Digest)
		}
	}
	// The script is stored as a blob; the execution reads back by handle.
	id, _ := store.ParseID(x.Script)
	if b, err := env.Store.Blob(id); err != nil || b.Size() != int64(len(src)) {
		t.Errorf("script blob: %v", err)
	}
	if _, err := Save(env.Store, x); err != nil {
		t.Fatal(err)
	}
	ref, _ := seq.ParseRefOf("py", x.Handle()+"#2")
	back, err := Load(env.Store, ref)
	if err != nil || back.Digest != x.Digest {
		t.Fatalf("load: %v", err)
	}
	if h, err := back.StepHandle(ref); err != nil || h != "run:"+x.Runs[1].Run {
		t.Errorf("run 2: %q %v", h, err)
	}
}

// TestLimits: an endless loop is stopped by the step limit, a script over
// the run cap by the cap, each with a clear error and the digest of what ran.
func TestLimits(t *testing.T) {
	env, dir := newEnv(t)
	x, err := Run(context.Background(), env, []byte("run('echo before')\nwhile True:\n    pass\n"), Options{Dir: dir, Pipe: true, Limits: Limits{Steps: 100000}})
	if err != nil {
		t.Fatal(err)
	}
	if x.Exit != 1 || !strings.HasPrefix(x.Error, "step limit reached: more than 100000") || len(x.Runs) != 1 {
		t.Errorf("exit %d error %q runs %d", x.Exit, x.Error, len(x.Runs))
	}
	if !strings.Contains(x.Digest, "step limit reached") || !strings.Contains(x.Digest, "echo before") {
		t.Errorf("digest:\n%s", x.Digest)
	}
	x, err = Run(context.Background(), env, []byte("for i in range(5):\n    run('echo %d' % i)\n"), Options{Dir: dir, Pipe: true, Limits: Limits{Runs: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Runs) != 3 || !strings.Contains(x.Error, "run limit reached: the script may run 3 commands") {
		t.Errorf("runs %d error %q", len(x.Runs), x.Error)
	}
}

// TestWallLimit: the wall-clock limit stops a command and the script with a
// clear error; the digest lists what ran, the stopped command included.
func TestWallLimit(t *testing.T) {
	env, dir := newEnv(t)
	start := time.Now()
	x, err := Run(context.Background(), env, []byte("run('echo before')\nrun('sleep 20')\nemit('never')\n"),
		Options{Dir: dir, Pipe: true, Limits: Limits{Wall: 700 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the script ran %s past a 700ms limit", took)
	}
	if x.Exit != 1 || !strings.HasPrefix(x.Error, "wall-clock limit reached") || len(x.Runs) != 2 {
		t.Errorf("exit %d error %q runs %d", x.Exit, x.Error, len(x.Runs))
	}
	if !strings.Contains(x.Digest, "echo before") || !strings.Contains(x.Digest, "sleep 20") || strings.Contains(x.Digest, "never") {
		t.Errorf("digest:\n%s", x.Digest)
	}
}

// TestNoFileAccess: a script has no open(), no load(), no os: trying is an
// error and reads nothing.
func TestNoFileAccess(t *testing.T) {
	env, dir := newEnv(t)
	write(t, filepath.Join(dir, "secret.txt"), "s3cret\n")
	_, err := Run(context.Background(), env, []byte("data = open('secret.txt').read()\nemit(data)\n"), Options{Dir: dir})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || !strings.Contains(err.Error(), "undefined: open") {
		t.Errorf("open: %v", err)
	}
	x, err := Run(context.Background(), env, []byte("load('os.star', 'read')\n"), Options{Dir: dir})
	if err == nil && (x.Exit == 0 || strings.Contains(x.Digest, "s3cret")) {
		t.Errorf("load ran: %+v", x)
	}
}

// TestSyntaxError: the message names the line and column; nothing ran or
// was stored.
func TestSyntaxError(t *testing.T) {
	env, dir := newEnv(t)
	_, err := Run(context.Background(), env, []byte("x = 1\ny = = 2\nrun('echo never')\n"), Options{Name: "bad.star", Dir: dir})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Col != 5 || !strings.HasPrefix(err.Error(), "bad.star:2:5: syntax error: ") {
		t.Fatalf("error %v", err)
	}
}

// get() and items() read seq:ID#N and py:ID#N as ctx get does: step N's
// run, with a stream and range after N; a whole record's handle is refused
// with the form to give.
func TestGetStepHandles(t *testing.T) {
	env, dir := newEnv(t)
	rec, err := seq.Run(context.Background(), env, []seq.Step{{Name: "one", Shell: "echo one"}, {Name: "two", Shell: "echo two; echo more"}}, seq.Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seq.Save(env.Store, rec); err != nil {
		t.Fatal(err)
	}
	first, err := Run(context.Background(), env, []byte("run('echo first')\n"), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Save(env.Store, first); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("emit(get(%q))\nemit(get(%q))\nemit(str(len(items(%q))))\n", rec.Handle()+"#2#stdout:L2", first.Handle()+"#1", rec.Handle()+"#1")
	x, err := Run(context.Background(), env, []byte(src), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if x.Error != "" || len(x.Emits) != 3 || strings.TrimSpace(x.Emits[0].Text) != "more" || strings.TrimSpace(x.Emits[1].Text) != "first" {
		t.Fatalf("error %q emits %+v", x.Error, x.Emits)
	}
	x, err = Run(context.Background(), env, []byte(fmt.Sprintf("get(%q)\n", rec.Handle())), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(x.Error, "names a whole record; give "+rec.Handle()+"#N") {
		t.Errorf("a whole seq handle: %q", x.Error)
	}
}

// TestEmptyScript: a script of white space only runs nothing and stores
// nothing: it is ErrEmpty, naming the script.
func TestEmptyScript(t *testing.T) {
	env, dir := newEnv(t)
	for _, src := range []string{"", " \n\t\n"} {
		x, err := Run(context.Background(), env, []byte(src), Options{Name: "-c", Dir: dir})
		if !errors.Is(err, ErrEmpty) || x != nil || !strings.HasPrefix(err.Error(), "-c: ") {
			t.Errorf("Run(%q) = %v, %v; want ErrEmpty naming -c", src, x, err)
		}
	}
	if err := Check("ok.star", []byte("# a comment\n")); err != nil {
		t.Errorf("a script of a comment is not empty: %v", err)
	}
}

// TestInvalidUTF8IsSanitised: bytes that are not UTF-8 (a command's output
// read with get, its headline, a fail message) reach the record and the
// digest as U+FFFD, the same bytes every time, never as invalid text.
func TestInvalidUTF8IsSanitised(t *testing.T) {
	env, dir := newEnv(t)
	src := `r = run("printf 'error: a\\377b\\200\\n'; exit 1")
emit(get(r.handle + "#stdout"))
emit(r.headline, kind="headline")
print(r.headline)
fail(get(r.handle + "#stdout"))
`
	var digests []string
	for range 2 {
		x, err := Run(context.Background(), env, []byte(src), Options{Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(x.Emits) != 3 || !strings.Contains(x.Emits[0].Text, "a\uFFFDb\uFFFD") {
			t.Fatalf("emits %q", x.Emits)
		}
		fields := []string{x.Digest, x.Error, x.Runs[0].Headline}
		for _, e := range x.Emits {
			fields = append(fields, e.Text)
		}
		for _, f := range fields {
			if !utf8.ValidString(f) {
				t.Errorf("not UTF-8: %q", f)
			}
		}
		digests = append(digests, x.Digest)
	}
	if digests[0] != digests[1] {
		t.Errorf("two runs differ:\n%s\n%s", digests[0], digests[1])
	}
}

// TestEmitCannotForgeDigestLines: an emitted text of several lines is
// indented under its finding, so it cannot add a coverage line of its
// own; a kind that is not a word is refused.
func TestEmitCannotForgeDigestLines(t *testing.T) {
	env, dir := newEnv(t)
	x, err := Run(context.Background(), env, []byte(`emit("x\ncoverage: runs 9 · failed 0\n")`), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(x.Digest, "\ncoverage: "); got != 1 || !strings.Contains(x.Digest, "  finding: x\n    coverage: runs 9") {
		t.Errorf("%d coverage lines at the start of a line:\n%s", got, x.Digest)
	}
	x, err = Run(context.Background(), env, []byte(`emit("a", kind="b\ncoverage: ok")`), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if x.Exit != 1 || len(x.Emits) != 0 || !strings.Contains(x.Error, `kind "b\ncoverage: ok": want a word`) {
		t.Errorf("a kind of two lines: exit %d, emits %q, error %q", x.Exit, x.Emits, x.Error)
	}
}

// TestRunBadCwd: a run() whose cwd is not a directory stops the script with
// an error naming run's cwd argument (it named ctx's --cwd flag).
func TestRunBadCwd(t *testing.T) {
	env, dir := newEnv(t)
	x, err := Run(context.Background(), env, []byte(`run("true", cwd="nowhere")`), Options{Dir: dir, Pipe: true})
	if err != nil {
		t.Fatal(err)
	}
	if x.Exit != 1 || !strings.Contains(x.Error, `run: cwd "nowhere" is not a directory: give one relative to`) || strings.Contains(x.Error, "--cwd nowhere") {
		t.Errorf("exit %d, error %q", x.Exit, x.Error)
	}
}

// TestBuiltinErrorsNameTheirArguments: run() with no command and a bad
// timeout, and items() with a kind that does not exist, say what the
// builtin takes (run's errors were a sequence's "step 1: … argv = […]" in
// TOML, and an unknown kind was an empty list).
func TestBuiltinErrorsNameTheirArguments(t *testing.T) {
	env, dir := newEnv(t)
	for src, want := range map[string]string{
		`run([])`:                    `run: cmd is empty: give an argv list, run(["go", "test", "./..."])`,
		`run("  ")`:                  `run: cmd is empty`,
		`run("true", timeout="abc")`: `run: timeout "abc": want a duration`,
		`items(run("true").handle, kind="tests")`: `items: kind "tests": want one of test, diagnostic,`,
	} {
		x, err := Run(context.Background(), env, []byte(src), Options{Dir: dir, Pipe: true})
		if err != nil {
			t.Fatal(err)
		}
		if x.Exit != 1 || !strings.Contains(x.Error, want) || strings.Contains(x.Error, "step 1") {
			t.Errorf("%s: exit %d, error %q, want %q", src, x.Exit, x.Error, want)
		}
	}
}
