package seqcmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

func workspace(t *testing.T) (string, func(args []string, stdin string) (int, string, string)) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(ios *cli.IO, st *store.Store) *runner.Env {
		return &runner.Env{Store: st, Environ: []string{"PATH=" + os.Getenv("PATH")}, Host: "h", Version: "test"}
	}
	return dir, func(args []string, stdin string) (int, string, string) {
		var out, errb bytes.Buffer
		ios := &cli.IO{In: strings.NewReader(stdin), Out: &out, Err: &errb,
			Getwd: func() (string, error) { return dir, nil }, Getenv: func(string) string { return "" }}
		c := NewCmd(ios, env)
		c.SetArgs(args)
		c.SetOut(&out)
		c.SetErr(&errb)
		c.SilenceErrors, c.SilenceUsage = true, true
		err := c.ExecuteContext(context.Background())
		return cli.Report(ios, err), out.String(), errb.String()
	}
}

// TestCommand: ctx seq prints the sequence digest and exits with the failing
// step's status; ctx show seq:ID replays it byte for byte; seq:ID#1 is step
// 1's run.
func TestCommand(t *testing.T) {
	dir, run := workspace(t)
	code, out, errs := run([]string{"--pipe", "--", "echo one", "--", "sh", "-c", "echo two >&2; exit 5", "--", "echo three"}, "")
	if code != 5 || !strings.Contains(out, "skipped") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	handle := strings.Fields(out)[0]
	var shown bytes.Buffer
	ios := &cli.IO{In: strings.NewReader(""), Out: &shown, Err: &shown, Getwd: func() (string, error) { return dir, nil }, Getenv: func(string) string { return "" }}
	if err := Sequences.Show(ios, handle, false); err != nil || shown.String() != out {
		t.Fatalf("show: %v\n%q\nwant\n%q", err, shown.String(), out)
	}
	h, done, err := Sequences.Get(ios, handle+"#1")
	if err != nil || done || !strings.HasPrefix(h, "run:") || len(h) != 4+64 {
		t.Errorf("step 1: %q %v", h, err)
	}
}

// TestBadInput: an unknown step field and an empty sequence are usage errors
// naming the problem; a steps file from stdin works like one on disk.
func TestBadInput(t *testing.T) {
	dir, run := workspace(t)
	path := filepath.Join(dir, "steps.toml")
	if err := os.WriteFile(path, []byte("[[step]]\nshell = \"true\"\nretry = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run([]string{"-f", path}, "")
	if code != cli.ExitUsage || !strings.Contains(errs, `unknown field "step.retry"`) || !strings.Contains(errs, "line 3") {
		t.Errorf("unknown field: exit %d: %s", code, errs)
	}
	code, _, errs = run(nil, "\n# nothing\n")
	if code != cli.ExitUsage || !strings.Contains(errs, "no steps") {
		t.Errorf("empty: exit %d: %s", code, errs)
	}
	code, out, errs := run([]string{"--pipe", "-f", "-"}, "[[step]]\nname = \"hello\"\nshell = \"echo hi\"\n")
	if code != 0 || !strings.Contains(out, "hello") || !strings.Contains(out, " [#N] · whole output\n") {
		t.Errorf("stdin file: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestCtxOwnLinesNotShown: a step that cannot start and a step whose cwd
// is not a directory print ctx's own error under their rows; the coverage
// counts none of it as the steps' output shown (nothing was captured), and
// the cwd error names the file, the step, its cwd field and the fix.
func TestCtxOwnLinesNotShown(t *testing.T) {
	dir, run := workspace(t)
	code, out, errs := run([]string{"--pipe", "--", "true", "--", "nosuchcmd-ctx-test", "x"}, "")
	if code != 127 || !strings.Contains(out, "ctx: nosuchcmd-ctx-test") || !strings.Contains(out, " · shown 0 B of 0 B\n") {
		t.Errorf("not started: exit %d\n%s\n%s", code, out, errs)
	}
	path := filepath.Join(dir, "steps.toml")
	if err := os.WriteFile(path, []byte("[[step]]\nshell = \"true\"\n\n[[step]]\nname = \"build\"\nshell = \"true\"\ncwd = \"nope\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run([]string{"--pipe", "-f", path}, "")
	for _, want := range []string{"step 2 (build) in steps.toml", `its cwd field "nope" is not a directory`, "fix the step's cwd", " · shown 0 B of 0 B\n"} {
		if code != 125 || !strings.Contains(out, want) {
			t.Errorf("bad cwd: exit %d, no %q:\n%s\n%s", code, want, out, errs)
		}
	}
	if strings.Contains(out, "--cwd") || strings.Contains(out, dir) {
		t.Errorf("bad cwd: the error names the flag or an absolute directory:\n%s", out)
	}
	// The same steps file elsewhere, with its step's error, is the same
	// sequence: the record's id names no directory.
	other := filepath.Join(t.TempDir(), "steps.toml")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(other, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, again, _ := run([]string{"--pipe", "-f", other}, ""); strings.Fields(again)[0] != strings.Fields(out)[0] {
		t.Errorf("the record's id depends on where the steps file is: %s against %s", strings.Fields(again)[0], strings.Fields(out)[0])
	}
}
