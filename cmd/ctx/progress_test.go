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

	"github.com/creack/pty"
)

// TestProgressOnTerminal runs the real ctx with its stderr on a pty: a status
// line is drawn while the command runs and erased at the end; stdout (the
// digest) and the stored output carry none of it. With stderr on a pipe, as
// for an agent, nothing is drawn.
func TestProgressOnTerminal(t *testing.T) {
	bin := ctxBinary(t)
	work := t.TempDir()
	script := `for i in 1 2 3 4 5 6 7 8; do echo "step $i of the build"; sleep 0.15; done`
	env := append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "CTX_PROGRESS=", "XDG_STATE_HOME="+filepath.Join(work, ".state"))

	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--pipe", "--shell", "--", script)
	cmd.Dir, cmd.Env = work, env
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, pts
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	var term bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&term, ptm); close(copied) }() // ends with EIO once ctx exits
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ctx run: %v\n%s", err, stdout.String())
	}
	<-copied
	drawn := term.String()
	if !strings.Contains(drawn, "\r\x1b[Kctx ") || !strings.Contains(drawn, " lines │ step ") {
		t.Fatalf("no status line on the terminal:\n%q", drawn)
	}
	if !strings.HasSuffix(drawn, "\r\x1b[K") {
		t.Errorf("the status line was not erased at the end:\n%q", drawn)
	}
	for _, l := range strings.Split(drawn, "\r\x1b[K") {
		if n := len([]rune(l)); n >= 60 {
			t.Errorf("status line of %d runes on a 60-column terminal: %q", n, l)
		}
	}
	if strings.Contains(stdout.String(), "\x1b") || !strings.Contains(stdout.String(), "step 8 of the build") {
		t.Errorf("digest on stdout:\n%q", stdout.String())
	}

	// The stored output is the command's alone.
	handle := regexp.MustCompile(`run:[0-9a-f]+`).FindString(stdout.String())
	get := exec.Command(bin, "get", handle)
	get.Dir, get.Env = work, env
	stored, err := get.Output()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte("\x1b")) || bytes.Count(stored, []byte("\n")) != 8 {
		t.Errorf("stored output:\n%q", stored)
	}

	// stderr on a pipe: no status line.
	cmd = exec.Command(bin, "run", "--pipe", "--shell", "--", script)
	cmd.Dir, cmd.Env = work, env
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errb
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr not a terminal, yet ctx wrote to it: %q", errb.String())
	}
}
