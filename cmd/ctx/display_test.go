package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/ctxhq/ctx/internal/testenv"
)

// onPty runs ctx with stdin, stdout and stderr on one pty of the given
// height, typing keys once it has started, and returns what the terminal
// showed. A non-zero exit fails the test unless it is ctx run passing the
// command's status through.
func onPty(t *testing.T, bin, dir string, env []string, rows uint16, keys string, args ...string) string {
	t.Helper()
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: rows, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	var shown bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&shown, ptm); close(copied) }() // ends with EIO once ctx exits
	if keys != "" {
		time.Sleep(500 * time.Millisecond)
		_, _ = ptm.Write([]byte(keys))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil && args[0] != "run" {
			t.Fatalf("ctx %v: %v\n%q", args, err, shown.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("ctx %v did not finish (a pager waiting?)", args)
	}
	<-copied
	return shown.String()
}

// TestDigestPagerAndColourOnPty: on a real terminal a digest is coloured, a
// long one goes through the pager (CTX_PAGER over PAGER, none with
// --no-pager or when it fits), NO_COLOR turns colour off; piped, the bytes
// are exactly ctx's plain digest and no pager starts.
func TestDigestPagerAndColourOnPty(t *testing.T) {
	bin := ctxBinary(t)
	work := t.TempDir()
	marker := filepath.Join(work, "pager-ran")
	pager := filepath.Join(work, "pager.sh")
	if err := os.WriteFile(pager, []byte("#!/bin/sh\necho ran >> "+marker+"\necho PAGER-START\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "CTX_PROGRESS=0", "TERM=xterm",
		"XDG_STATE_HOME="+filepath.Join(work, ".state"), "NO_COLOR=", "CTX_PAGER=", "PAGER=")
	env := func(extra ...string) []string { return append(cloneEnv(base), extra...) }
	ranPager := func() bool {
		_, err := os.Stat(marker)
		os.Remove(marker)
		return err == nil
	}

	long := exec.Command(bin, "run", "--", "sh", "-c", `for i in $(seq 1 300); do echo "line $i error: thing $i failed"; done; exit 2`)
	long.Dir, long.Env = work, env()
	plain, _ := long.Output()
	longRun := regexp.MustCompile(`run:[0-9a-f]{12}`).FindString(string(plain))
	short := exec.Command(bin, "run", "--", "echo", "hello")
	short.Dir, short.Env = work, env()
	out, err := short.Output()
	if err != nil {
		t.Fatal(err)
	}
	shortRun := regexp.MustCompile(`run:[0-9a-f]{12}`).FindString(string(out))

	// Piped: exactly the stored digest, no colour, no pager.
	show := exec.Command(bin, "show", longRun)
	show.Dir, show.Env = work, env("CTX_PAGER="+pager)
	piped, err := show.Output()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(piped, []byte("\x1b")) || ranPager() || !bytes.Contains(piped, []byte("··· L11-280")) {
		t.Fatalf("piped show: pager or colour:\n%q", piped)
	}

	// A long digest on a terminal: the pager from CTX_PAGER, over PAGER.
	shown := onPty(t, bin, work, env("CTX_PAGER="+pager, "PAGER=false"), 12, "", "show", longRun)
	if !ranPager() || !strings.Contains(shown, "PAGER-START") {
		t.Fatalf("long digest on a terminal: no pager\n%q", shown)
	}
	if !strings.Contains(shown, "\x1b[1m\x1b[36m"+longRun+"\x1b[0m\x1b[1m · exit \x1b[31m2\x1b[0m") {
		t.Errorf("the header is not coloured:\n%q", shown)
	}
	if !strings.Contains(shown, "line 300 error: thing 300 failed") || strings.Contains(shown, "\x1b[31mline") {
		t.Errorf("the command's own lines were changed:\n%q", shown)
	}
	// PAGER is used when CTX_PAGER is unset.
	onPty(t, bin, work, env("PAGER="+pager), 12, "", "show", longRun)
	if !ranPager() {
		t.Error("PAGER was not used")
	}
	// --no-pager, or a digest that fits the screen: no pager; still colour.
	shown = onPty(t, bin, work, env("CTX_PAGER="+pager), 12, "", "show", "--no-pager", longRun)
	if ranPager() || !strings.Contains(shown, "line 300 error") || !strings.Contains(shown, "\x1b[") {
		t.Errorf("--no-pager: pager ran or output missing\n%q", shown)
	}
	shown = onPty(t, bin, work, env("CTX_PAGER="+pager), 40, "", "show", shortRun)
	if ranPager() || !strings.Contains(shown, "\x1b[32m0\x1b[0m") {
		t.Errorf("a short digest: pager ran, or exit 0 not green\n%q", shown)
	}
	// NO_COLOR: no escape sequences from ctx at all.
	shown = onPty(t, bin, work, env("NO_COLOR=1"), 40, "", "show", shortRun)
	if strings.Contains(shown, "\x1b") {
		t.Errorf("NO_COLOR set, yet colour:\n%q", shown)
	}
	// ctx run colours its digest on a terminal and never pages.
	shown = onPty(t, bin, work, env("CTX_PAGER="+pager), 12, "", "run", "--", "sh", "-c", `seq 1 300; exit 3`)
	if ranPager() || !strings.Contains(shown, "\x1b[31m3\x1b[0m") {
		t.Errorf("ctx run on a terminal: pager %v\n%q", ranPager(), shown)
	}
	// ctx get of a long span goes through the pager, bytes uncoloured.
	shown = onPty(t, bin, work, env("CTX_PAGER="+pager), 12, "", "get", longRun+"#stdout:L1-200")
	if !ranPager() || strings.Contains(shown, "\x1b[") || !strings.Contains(shown, "line 150 error") {
		t.Errorf("ctx get on a terminal:\n%q", shown)
	}

	// The real less, as most people have it: it shows the first screen and
	// waits; q quits and ctx exits 0.
	less := testenv.Tool(t, "apt-get install less", "less")
	shown = onPty(t, bin, work, env("PAGER="+less), 12, "q", "show", longRun)
	if !strings.Contains(shown, "line 1 error") || strings.Contains(shown, "line 300 error") {
		t.Errorf("less did not hold the rest back for scrolling:\n%q", shown)
	}
}

func cloneEnv(s []string) []string { return append([]string(nil), s...) }
