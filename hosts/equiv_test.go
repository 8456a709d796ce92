package hosts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// The equivalence test runs every rewritten command of testdata/commands.tsv
// twice in identical scratch directories — the original and the rewrite —
// and requires the same stdout bytes and the same exit status. It needs a
// real ctx binary, named by CTX_BIN; without one it skips.
//
// What it assumes of ctx (the contract the CLI must honour):
//
//   - `ctx run --json -- CMD...` runs CMD with the inherited environment and
//     working directory, exits with CMD's status (DESIGN §3), and prints a
//     JSON object whose "run" field is the run handle ("run:ba3d1020ee8f");
//   - `ctx get --raw --full HANDLE#stdout` and `... HANDLE#stderr` print the exact
//     stored bytes of that stream (nothing, successfully, when it is empty);
//   - `ctx ls --json` prints a JSON array of objects with "run" and "argv";
//   - CTX_STORE selects the store directory.
//
// Each rewritten command runs in two forms:
//
//  1. shim: the rewrite names a shim instead of ctx (this test binary, see
//     shimMain). The shim runs `ctx run --json -- CMD...`, then prints the
//     stored stdout between two marker lines (and the stored stderr to
//     stderr) retrieved with `ctx get`, and exits with ctx's status. Every
//     byte the original would have shown travels through ctx's capture and
//     store. The whole command's stdout must hold one intact marked block per
//     shim invocation — proof that each wrapped command's stdout reached the
//     transcript directly, where a digest may replace it — and, with the
//     markers removed, equal the original's stdout byte for byte.
//  2. literal: the rewrite as an agent would run it, with `ctx` on PATH.
//     Its stdout holds digests, so only the exit status must match; when the
//     whole command is one wrapped simple command, the run found with
//     `ctx ls --json` must also hold the original's stdout.
//
// Both run under sh (dash here) and bash. Programs that are not safe or not
// deterministic offline are replaced by stubs on a sealed PATH; the
// environment pins terminal-dependent defaults (TERM=dumb, git colour,
// decoration and pager) on both sides, so the comparison checks the rewrite,
// not the difference between ctx's pty and a pipe (see docs/hosts.md).

// safeTools are real programs the sandbox may run: deterministic, offline,
// and harmless inside the scratch directory.
var safeTools = []string{
	"sh", "bash", "cat", "grep", "egrep", "fgrep", "find", "tail", "head", "git", "env", "nice",
	"timeout", "stdbuf", "make", "sed", "wc", "tee", "sort", "ls", "mkdir", "rm", "cp", "mv", "true", "false",
	"test", "dirname", "basename", "sleep", "tr", "cut", "diff", "nproc", "uname", "printf", "echo", "xargs",
}

// equivSkip lists rewritten rows the sandbox cannot make deterministic.
var equivSkip = map[string]string{
	"find / -name libssl.so 2>/dev/null": "walks the whole host filesystem, including /proc",
}

// stubScript prints its name and arguments, forty lines, one stderr line
// last (so 2>&1 order does not depend on scheduling), and exits 0, 1 or 2
// depending on its arguments.
const stubScript = `#!/bin/sh
n=${0##*/}
printf '%s' "$n"
for a in "$@"; do printf ' [%s]' "$a"; done
printf '\n'
i=1
while [ $i -le 40 ]; do echo "$n output line $i"; i=$((i+1)); done
echo "$n: diagnostic on stderr" >&2
exit $(( $(printf '%s' "$n$*" | wc -c) % 3 ))
`

func TestEquivalence(t *testing.T) {
	ctxBin := os.Getenv("CTX_BIN")
	if ctxBin == "" {
		ctxBin = buildCtx(t)
	}
	ctxBin, err := filepath.Abs(ctxBin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ctxBin); err != nil {
		t.Fatalf("CTX_BIN: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rows := loadTable(t)
	sb := newSandbox(t, rows, ctxBin, self)
	shells := []string{"sh", "bash"}
	covered := 0
	for _, r := range rows {
		if r.expected == r.command {
			continue
		}
		if why, ok := equivSkip[r.command]; ok {
			t.Logf("commands.tsv:%d: skipped: %s", r.line, why)
			continue
		}
		covered++
		t.Run(fmt.Sprintf("line%d", r.line), func(t *testing.T) {
			t.Parallel()
			for _, sh := range shells {
				sb.compare(t, sh, r)
			}
		})
	}
	t.Logf("equivalence covers %d rewritten commands under %v", covered, shells)
}

type sandbox struct {
	root     string // holds bin/, shim/, home/, template/
	template string // the scratch project, copied for every run
	bin      string // the sealed PATH: stubs and links to safe tools
	home     string
	shim     string // directory whose "ctx" is the shim
	ctxBin   string
	stubs    []string // relative paths to create as stubs in each workdir
}

func newSandbox(t *testing.T, rows []tableRow, ctxBin, self string) *sandbox {
	t.Helper()
	root := t.TempDir()
	sb := &sandbox{root: root, bin: filepath.Join(root, "bin"), home: filepath.Join(root, "home"), shim: filepath.Join(root, "shim"), ctxBin: ctxBin}
	for _, d := range []string{sb.bin, sb.home, sb.shim} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	safe := map[string]bool{}
	for _, name := range safeTools {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if err := os.Symlink(p, filepath.Join(sb.bin, name)); err != nil {
			t.Fatal(err)
		}
		safe[name] = true
	}
	must(t, os.Symlink(ctxBin, filepath.Join(sb.bin, "ctx")))
	must(t, os.Symlink(self, filepath.Join(sb.shim, "ctx")))
	// Stubs for every other program the rewritten rows name.
	relStubs := map[string]bool{}
	for _, r := range rows {
		if r.expected == r.command {
			continue
		}
		for _, name := range commandWords(r.command) {
			switch {
			case strings.Contains(name, "/"):
				if !filepath.IsAbs(name) && !strings.HasSuffix(name, "activate") {
					relStubs[filepath.Clean(name)] = true
				}
			case safe[name] || syntax.IsKeyword(name) || isBuiltin(name):
			default:
				must(t, os.WriteFile(filepath.Join(sb.bin, name), []byte(stubScript), 0o755))
				safe[name] = true
			}
		}
	}
	for p := range relStubs {
		sb.stubs = append(sb.stubs, p)
	}
	slices.Sort(sb.stubs)
	must(t, os.WriteFile(filepath.Join(sb.home, ".gitconfig"), []byte(
		"[user]\n\tname = Test\n\temail = test@example.com\n[color]\n\tui = never\n[log]\n\tdecorate = short\n"+
			"[core]\n\tpager = cat\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644))
	sb.template = filepath.Join(root, "template")
	sb.buildTemplate(t, sb.template)
	projDir := filepath.Join(sb.home, "src", "my project")
	must(t, os.MkdirAll(projDir, 0o755))
	must(t, os.WriteFile(filepath.Join(projDir, "Makefile"), []byte("test:\n\t@echo project tests pass\n"), 0o644))
	return sb
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func isBuiltin(name string) bool {
	switch name {
	case "cd", "source", ".", "eval", "exec", "set", "export", "alias", "echo", "printf", "test", "[", "!",
		"true", "false", "exit", "return", "shift", "unset", "read", "wait", "trap", "type", "command":
		return true
	}
	return false
}

// commandWords returns the static command words of every simple command.
func commandWords(cmd string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if v, ok := staticWord(c.Args[0]); ok && v != "" {
				out = append(out, v)
			}
		}
		return true
	})
	return out
}

// makeWorkdir replaces dir with a fresh copy of the scratch project.
func (sb *sandbox) makeWorkdir(t *testing.T, dir string) {
	t.Helper()
	must(t, os.RemoveAll(dir))
	must(t, os.CopyFS(dir, os.DirFS(sb.template)))
}

// buildTemplate builds the scratch project every command runs in.
func (sb *sandbox) buildTemplate(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{"api", "web", "backend", "services/api", "src/utils", "tests", "spec/models",
		"out/Default", "parser", "internal", "cmd/app", "pkg", "logs", "app", "mypackage", ".venv/bin", "venv/bin"} {
		must(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	lines := func(prefix string, n int) []byte {
		var b bytes.Buffer
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%s %d level=%s msg=\"request handled\"\n", prefix, i, []string{"INFO", "WARN", "ERROR"}[i%3])
		}
		return b.Bytes()
	}
	files := map[string][]byte{
		"build.log":          lines("build", 120),
		"server.log":         lines("server", 1500),
		"server.out":         lines("out", 80),
		"logs/app.log":       lines("app", 700),
		"data.jsonl":         lines(`{"n":`, 1300),
		"README.md":          []byte("# scratch\nTODO: write docs\n"),
		"main.go":            []byte("package main\n\n// TODO: flags\nfunc main() {}\n"),
		"src/server.go":      []byte("package src\n\n// TODO: timeouts\nfunc Serve() {}\n"),
		"src/app.tsx":        []byte("import React from 'react'\n"),
		"Makefile":           []byte("all:\n\t@echo building all\n\t@for i in 1 2 3; do echo \"cc -c file$$i.c\"; done\ntest:\n\t@echo running tests\n\t@echo 'FAIL: TestSomething' >&2\n\t@exit 1\ninstall:\n\t@echo installing\n.PHONY: all test install\n"),
		".venv/bin/activate": []byte(":\n"),
		"venv/bin/activate":  []byte(":\n"),
	}
	for name, data := range files {
		must(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	for _, s := range sb.stubs {
		p := filepath.Join(dir, s)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(stubScript), 0o755))
	}
	// A small history for git log, show, diff, blame and describe.
	env := sb.env(filepath.Join(sb.root, "unused-store"), false)
	git := func(args ...string) {
		c := exec.Command(filepath.Join(sb.bin, "git"), args...)
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "initial import")
	must(t, os.WriteFile(filepath.Join(dir, "src/server.go"), []byte("package src\n\n// TODO: timeouts\nfunc Serve() { listen() }\n\nfunc listen() {}\n"), 0o644))
	git("commit", "-q", "-am", "serve: listen")
	git("tag", "v0.1.0")
	must(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\n// TODO: flags\nfunc main() { println(1) }\n"), 0o644))
}

// env is the sealed environment both sides run with.
func (sb *sandbox) env(store string, shim bool) []string {
	e := []string{
		"PATH=" + sb.bin, "HOME=" + sb.home, "TERM=dumb", "LC_ALL=C", "LANG=C", "TZ=UTC",
		"PAGER=cat", "GIT_PAGER=cat", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
		"CTX_STORE=" + store,
		// No background compaction outliving the test's temporary store.
		"CTX_NO_COMPACT=1",
	}
	if shim {
		e = append(e, shimEnv+"="+sb.ctxBin, shimLogEnv+"="+store+".shimlog")
	}
	return e
}

// Marker lines framing each shim invocation's stdout.
const (
	shimBegin  = "<<ctx-shim-begin>>\n"
	shimEnd    = "<<ctx-shim-end>>\n"
	shimLogEnv = "CTX_HOSTS_TEST_SHIMLOG"
)

// unframe checks that out consists of ordinary bytes and exactly n intact
// marked blocks, and returns out with the markers removed.
func unframe(out []byte, n int) ([]byte, error) {
	var plain []byte
	blocks := 0
	rest := out
	for {
		b := bytes.Index(rest, []byte(shimBegin))
		e := bytes.Index(rest, []byte(shimEnd))
		if b < 0 {
			if e >= 0 {
				return nil, errors.New("end marker without begin marker")
			}
			plain = append(plain, rest...)
			break
		}
		if e < b {
			return nil, errors.New("end marker before begin marker")
		}
		inner := rest[b+len(shimBegin) : e]
		if bytes.Contains(inner, []byte(shimBegin)) {
			return nil, errors.New("nested begin marker")
		}
		plain = append(plain, rest[:b]...)
		plain = append(plain, inner...)
		rest = rest[e+len(shimEnd):]
		blocks++
	}
	if blocks != n {
		return nil, fmt.Errorf("%d intact marked blocks for %d wrapped invocations: a wrapped command's stdout did not reach the transcript directly", blocks, n)
	}
	return plain, nil
}

type runResult struct {
	stdout, stderr []byte
	code           int
}

func (sb *sandbox) run(t *testing.T, shell, dir, cmd string, env []string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, filepath.Join(sb.bin, shell), "-c", cmd)
	c.Dir, c.Env = dir, env
	var so, se bytes.Buffer
	c.Stdout, c.Stderr = &so, &se
	c.Stdin = nil // /dev/null on both sides, like ctx's child
	err := c.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%s -c %q: %v", shell, cmd, err)
		}
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		t.Fatalf("%s -c %q: timed out", shell, cmd)
	}
	return runResult{so.Bytes(), se.Bytes(), code}
}

func (sb *sandbox) compare(t *testing.T, shell string, r tableRow) {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "work")

	sb.makeWorkdir(t, dir)
	orig := sb.run(t, shell, dir, r.command, sb.env(filepath.Join(base, "store-orig"), false))

	// 1. Through the shim: full stdout equality.
	d := RewriteWith(r.command, Options{Program: filepath.Join(sb.shim, "ctx")})
	if !d.Rewrite {
		t.Fatalf("row no longer rewrites: %s", d.Reason)
	}
	sb.makeWorkdir(t, dir)
	shimStore := filepath.Join(base, "store-shim")
	viaShim := sb.run(t, shell, dir, d.Command, sb.env(shimStore, true))
	if viaShim.code != orig.code {
		t.Errorf("%s: exit status %d, original %d\n  original:  %q\n  rewritten: %q\n  stderr: %s", shell, viaShim.code, orig.code, r.command, d.Command, viaShim.stderr)
	}
	log, _ := os.ReadFile(shimStore + ".shimlog")
	if plain, err := unframe(viaShim.stdout, bytes.Count(log, []byte("\n"))); err != nil {
		t.Errorf("%s: %v\n  rewritten: %q\n  stdout: %q", shell, err, d.Command, viaShim.stdout)
	} else if !bytes.Equal(plain, orig.stdout) {
		t.Errorf("%s: stdout differs\n  original:  %q\n  rewritten: %q\n%s\n  stderr: %s", shell, r.command, d.Command, firstDiff(orig.stdout, plain), viaShim.stderr)
	}

	// 2. Literally, as the agent would run it.
	store := filepath.Join(base, "store-literal")
	sb.makeWorkdir(t, dir)
	lit := sb.run(t, shell, dir, r.expected, sb.env(store, false))
	if lit.code != orig.code {
		t.Errorf("%s: literal rewrite exit status %d, original %d (%q)\n  stderr: %s", shell, lit.code, orig.code, r.expected, lit.stderr)
	}
	if len(d.Chains) > 0 {
		// Which steps ran: the literal rewrite stored as many runs as the
		// shim replayed, and the shim's replay equals the original's stdout.
		if runs := sb.listRuns(t, dir, store); len(runs) != bytes.Count(log, []byte("\n")) {
			t.Errorf("%s: %q stored %d runs, the shim replayed %d", shell, r.expected, len(runs), bytes.Count(log, []byte("\n")))
		}
	}
	if !wholeCommand(r, d) {
		return
	}
	runs := sb.listRuns(t, dir, store)
	if len(runs) != 1 {
		t.Errorf("%s: ctx ls --json lists %d runs after %q, want 1", shell, len(runs), r.expected)
		return
	}
	got := sb.get(t, dir, store, runs[0].Run+"#stdout")
	if strings.Contains(r.command, "2>&1") {
		got = append(got, sb.get(t, dir, store, runs[0].Run+"#stderr")...)
	}
	if !bytes.Equal(got, orig.stdout) {
		t.Errorf("%s: stored stdout of %s differs from the original's stdout\n%s", shell, runs[0].Run, firstDiff(orig.stdout, got))
	}
}

// wholeCommand reports whether the rewrite is a single wrapped simple
// command at the start, so that its stored stream is the whole output.
func wholeCommand(r tableRow, d Decision) bool {
	if len(d.Sites) != 1 || d.Sites[0].Offset != 0 {
		return false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(r.command), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	_, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	return ok
}

type lsRun struct {
	Run  string   `json:"run"`
	Argv []string `json:"argv"`
}

func (sb *sandbox) listRuns(t *testing.T, dir, store string) []lsRun {
	t.Helper()
	c := exec.Command(sb.ctxBin, "ls", "--json")
	c.Dir, c.Env = dir, sb.env(store, false)
	out, err := c.Output()
	if err != nil {
		t.Fatalf("ctx ls --json: %v", err)
	}
	var runs []lsRun
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("ctx ls --json: %v\n%s", err, out)
	}
	return runs
}

func (sb *sandbox) get(t *testing.T, dir, store, handle string) []byte {
	t.Helper()
	c := exec.Command(sb.ctxBin, "get", "--raw", "--full", handle)
	c.Dir, c.Env = dir, sb.env(store, false)
	out, err := c.Output()
	if err != nil {
		t.Fatalf("ctx get %s: %v", handle, err)
	}
	return out
}

func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-60)
	return fmt.Sprintf("  first difference at byte %d (want %d bytes, got %d)\n  want …%q\n  got  …%q",
		i, len(want), len(got), want[lo:min(len(want), i+60)], got[lo:min(len(got), i+60)])
}

// shimMain is the shim's main: args are what the rewrite passed to "ctx",
// i.e. "run" [options] "--" CMD... or "seq" [options] "--" STEP "--" STEP... .
func shimMain(ctxBin string, args []string) int {
	i := slices.Index(args, "--")
	if len(args) < 3 || (args[0] != "run" && args[0] != "seq") || i < 0 || i == len(args)-1 {
		fmt.Fprintf(os.Stderr, "shim: unexpected arguments %q\n", args)
		return 125
	}
	run := exec.Command(ctxBin, append([]string{args[0], "--json"}, args[i:]...)...)
	var js bytes.Buffer
	run.Stdout, run.Stderr = &js, os.Stderr
	code := 0
	if err := run.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			fmt.Fprintf(os.Stderr, "shim: %v\n", err)
			return 125
		}
		code = ee.ExitCode()
	}
	runs, err := shimRuns(args[0], js.Bytes())
	if err != nil {
		fmt.Fprintf(os.Stderr, "shim: ctx %s --json printed %q: %v\n", args[0], js.String(), err)
		return 125
	}
	for _, r := range runs {
		if err := shimReplay(ctxBin, r); err != nil {
			fmt.Fprintf(os.Stderr, "shim: %v\n", err)
			return 125
		}
	}
	return code
}

// shimRuns returns the run handles ctx run --json or ctx seq --json
// reports: the one run, or each step's that ran, in order.
func shimRuns(verb string, js []byte) ([]string, error) {
	var rec struct {
		Run    string `json:"run"`
		Record struct {
			Steps []struct {
				Run string `json:"run"`
			} `json:"steps"`
		} `json:"record"`
	}
	if err := json.Unmarshal(js, &rec); err != nil {
		return nil, err
	}
	if verb == "run" {
		if !strings.HasPrefix(rec.Run, "run:") {
			return nil, errors.New("no run handle")
		}
		return []string{rec.Run}, nil
	}
	var runs []string
	for _, s := range rec.Record.Steps {
		if s.Run != "" {
			runs = append(runs, "run:"+s.Run)
		}
	}
	return runs, nil
}

// shimReplay logs run and prints its stored stdout between the markers and
// its stored stderr to stderr.
func shimReplay(ctxBin, run string) error {
	if lf, err := os.OpenFile(os.Getenv(shimLogEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(lf, run)
		lf.Close()
	}
	get := func(stream string) ([]byte, error) {
		c := exec.Command(ctxBin, "get", "--raw", "--full", run+"#"+stream)
		c.Stderr = os.Stderr
		out, err := c.Output()
		if err != nil {
			return nil, fmt.Errorf("ctx get %s#%s: %w", run, stream, err)
		}
		return out, nil
	}
	stdout, err := get("stdout")
	if err != nil {
		return err
	}
	stderr, err := get("stderr")
	if err != nil {
		return err
	}
	os.Stdout.WriteString(shimBegin)
	os.Stdout.Write(stdout)
	os.Stdout.WriteString(shimEnd)
	os.Stderr.Write(stderr)
	return nil
}

// buildCtx builds the real ctx binary from this module (the go tool is at hand
// wherever these tests run) so the equivalence test always meets the real CLI.
func buildCtx(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the build of ctx; set CTX_BIN to use a built one")
	}
	out := filepath.Join(t.TempDir(), "ctx")
	cmd := exec.Command("go", "build", "-o", out, "github.com/ctxhq/ctx/cmd/ctx")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build ctx: %v\n%s", err, b)
	}
	return out
}
