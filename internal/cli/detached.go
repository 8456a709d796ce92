package cli

import (
	"os"
	"os/exec"
	"slices"
	"syscall"

	"golang.org/x/term"

	"github.com/ctxhq/ctx/display"
)

// StartCompaction starts `ctx compact` in the background, detached, at low
// priority: a flood outran the compressor and some frames were stored raw.
// The agent reads its digest meanwhile; nothing waits for it.
// CTX_NO_COMPACT=1 turns it off (benchmarks that time runs back to back).
func StartCompaction(ios *IO) {
	if ios.Getenv("CTX_NO_COMPACT") != "" {
		return
	}
	StartDetached(ios, "compact")
}

// StartDetached starts ctx with args in a session of its own, not waited
// for: it outlives this command.
func StartDetached(ios *IO, args ...string) {
	self, err := exec.LookPath(os.Args[0])
	if err != nil {
		return
	}
	StartDetachedProgram(ios, self, args...)
}

// StartDetachedProgram starts the program at path with args in a session of
// its own, not waited for.
func StartDetachedProgram(ios *IO, path string, args ...string) {
	cmd := exec.Command(path, args...)
	cmd.Env = os.Environ()
	if cwd, err := ios.Getwd(); err == nil {
		cmd.Dir = cwd
	}
	_ = Detach(cmd)
}

// Detach starts cmd in a session of its own (no terminal signal from this
// one reaches it) and does not wait for it: it outlives this process.
func Detach(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// DisplaySettings reads the terminal facts for ios.
func DisplaySettings(ios *IO, noPager bool) display.Settings {
	s := display.Settings{OutTTY: ios.IsTTY, NoPager: noPager, Getenv: ios.Getenv}
	if f, ok := ios.In.(*os.File); ok {
		s.InTTY = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := ios.Out.(*os.File); ok && s.OutTTY {
		if _, rows, err := term.GetSize(int(f.Fd())); err == nil {
			s.Rows = rows
		}
	}
	return s
}

// ColourDigest colours a digest's own lines when stdout is a terminal and
// NO_COLOR is unset; otherwise it returns text unchanged.
func ColourDigest(ios *IO, text []byte) []byte {
	if !DisplaySettings(ios, true).Colour() {
		return text
	}
	var out []byte
	for len(text) > 0 {
		line := text
		if i := slices.Index(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		out = append(out, display.Digest(line)...)
		text = text[len(line):]
	}
	return out
}
