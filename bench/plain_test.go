package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/internal/lines"
)

// TestMeasurePlain answers which gives an agent what a pipe would have given
// it: a pty capture cleaned on retrieval (lines.Plain, ctx get's default for
// agents), or a child environment that asks programs for no colour
// (NO_COLOR=1 and CLICOLOR=0, then also TERM=dumb). Real commands run here three ways —
// through pipes (the reference), through a pty, and through a pty with that
// environment — and the test prints, per command, whether each form equals
// the pipe's bytes, the share of the pipe's lines it reproduces, and its
// o200k_base tokens. It measures; it asserts only that the commands ran.
//
//	CTX_MEASURE_PLAIN=1 go test ./bench -run TestMeasurePlain -v
func TestMeasurePlain(t *testing.T) {
	if os.Getenv("CTX_MEASURE_PLAIN") == "" {
		t.Skip("a measurement: set CTX_MEASURE_PLAIN=1 to run it")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	sh := func(script string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh(`git init -q repo && cd repo && git config user.email m@example.com && git config user.name m &&
		for i in $(seq 1 40); do echo "func f$i() error { return nil } // line $i" ; done > a.go &&
		printf 'x\r\ny\r\n' > crlf.txt && git add . && git commit -q -m base &&
		sed -i 's/return nil/return errFail/; s/line 7$/line 7   /' a.go && printf 'x\r\nz\r\n' > crlf.txt &&
		printf 'int main(void) { return undefined_thing; }\n' > bad.c`)
	cmds := []struct {
		name string
		argv []string
	}{
		{"git diff", []string{"git", "diff"}},
		{"git log -p", []string{"git", "log", "-p", "-1"}},
		{"git status", []string{"git", "status"}},
		{"grep --color=auto", []string{"grep", "--color=auto", "-n", "errFail", "a.go"}},
		{"ls --color=auto", []string{"ls", "--color=auto", "-la", "/usr/share/java"}},
		{"gcc error", []string{"gcc", "-c", "bad.c", "-o", "/dev/null"}},
		{"go vet", []string{"go", "vet", "a.go"}},
	}
	// Gradle draws a progress display on a terminal: the case where cleaning
	// after the fact and asking for no colour differ most.
	if _, err := exec.LookPath("gradle"); err == nil {
		sh(`mkdir -p repo/g/src/main/java/demo && cd repo/g && echo "apply plugin: 'java'" > build.gradle &&
			echo "rootProject.name = 'g'" > settings.gradle &&
			echo 'package demo; class A { int f() { return 1 } }' > src/main/java/demo/A.java`)
		cmds = append(cmds, struct {
			name string
			argv []string
		}{"gradle build error", []string{"gradle", "-p", "g", "--offline", "compileJava"}}) // "BUILD FAILED in Ns" varies run to run
	}
	base := append(os.Environ(), "HOME="+dir, "PAGER=cat", "GIT_PAGER=cat", "TERM=xterm-256color")
	run := func(argv []string, pipe bool, env []string) []byte {
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := capture.Run(ctx, capture.Options{Argv: argv, Dir: repo, Env: env, Pipe: pipe,
			Stdout: &out, Stderr: &out, Cols: 200, Rows: 50, Grace: time.Second, Drain: time.Second})
		if err != nil {
			t.Fatalf("%q: %v", argv, err)
		}
		return out.Bytes()
	}
	plain := func(b []byte) []byte {
		var out bytes.Buffer
		if _, err := lines.Plain(&out, bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	noColor := append(append([]string{}, base...), "NO_COLOR=1", "CLICOLOR=0")
	dumb := append(append([]string{}, noColor...), "TERM=dumb")
	type form struct {
		name string
		get  func(argv []string) []byte
	}
	forms := []form{
		{"pty raw", func(a []string) []byte { return run(a, false, base) }},
		{"pty + plain", func(a []string) []byte { return plain(run(a, false, base)) }},
		{"pty NO_COLOR/CLICOLOR=0", func(a []string) []byte { return run(a, false, noColor) }},
		{"pty same + TERM=dumb", func(a []string) []byte { return run(a, false, dumb) }},
		{"pty TERM=dumb + plain", func(a []string) []byte { return plain(run(a, false, dumb)) }},
	}
	exact := make([]int, len(forms))
	share := make([]float64, len(forms))
	tokens := make([]int, len(forms))
	refTokens := 0
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-18s %-26s %6s %7s %7s\n", "command", "form", "exact", "lines", "tokens")
	for _, c := range cmds {
		ref := run(c.argv, true, base)
		rt, _ := Tokens(ref)
		refTokens += rt
		fmt.Fprintf(&b, "%-18s %-26s %6s %7s %7d\n", c.name, "pipe (reference)", "yes", "100%", rt)
		for i, f := range forms {
			got := f.get(c.argv)
			tk, _ := Tokens(got)
			sh := lineShare(ref, got)
			same := bytes.Equal(got, ref)
			if same {
				exact[i]++
			}
			share[i] += sh
			tokens[i] += tk
			fmt.Fprintf(&b, "%-18s %-26s %6v %6.0f%% %7d\n", "", f.name, same, 100*sh, tk)
		}
	}
	fmt.Fprintf(&b, "\ntotals over %d commands (pipe: %d tokens)\n", len(cmds), refTokens)
	for i, f := range forms {
		fmt.Fprintf(&b, "%-26s exact %d/%d · mean line share %.1f%% · tokens %d (%.2f× pipe)\n",
			f.name, exact[i], len(cmds), 100*share[i]/float64(len(cmds)), tokens[i], float64(tokens[i])/float64(refTokens))
	}
	t.Log(b.String())
}

// lineShare is the share of ref's lines that got reproduces exactly, counted
// as a multiset (order ignored: pty and pipe may interleave streams
// differently).
func lineShare(ref, got []byte) float64 {
	want := strings.Split(string(ref), "\n")
	have := map[string]int{}
	for _, l := range strings.Split(string(got), "\n") {
		have[l]++
	}
	hit := 0
	for _, l := range want {
		if have[l] > 0 {
			have[l]--
			hit++
		}
	}
	return float64(hit) / float64(len(want))
}
