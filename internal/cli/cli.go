// Package cli is what ctx's command packages share: the I/O a command reads
// and writes (tests replace it with buffers), the exit statuses and the
// errors that carry them, the --json encoder, argument checks, and opening the
// workspace's store (recovering interrupted captures as it does). It holds no
// command; internal/app wires the commands, internal/cmd/<name> and the owning
// packages hold their behaviour.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/jsonout"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// Version is the ctx release.
const Version = "0.1.0"

// IO is where commands read and write; tests replace it with buffers.
type IO struct {
	In    io.Reader
	Out   io.Writer
	Err   io.Writer
	IsTTY bool
	// ErrTTY: Err is a terminal, so a person is watching (live progress).
	ErrTTY bool
	Getwd  func() (string, error)
	Getenv func(string) string
}

// SystemIO is the process's own stdio, working directory and environment.
func SystemIO() *IO {
	return &IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, IsTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Getwd:  os.Getwd, Getenv: os.Getenv}
}

// Buffered is ios with out and errb for a command's output and no input (a
// tool call runs a command into buffers).
func Buffered(ios *IO, out, errb io.Writer) *IO {
	return &IO{In: strings.NewReader(""), Out: out, Err: errb, Getwd: ios.Getwd, Getenv: ios.Getenv}
}

// Exit statuses of ctx's own commands (ctx run and ctx ingest pass the
// command's status through instead; see their help).
const (
	ExitOK     = 0
	ExitBad    = 1 // the thing asked for does not exist, or the input is bad
	ExitUsage  = 2 // the command line is wrong
	ExitFailed = 125
)

// ExitError carries an exit status out of a command. A nil Err means the
// status was already explained (ctx run passes the child's status through).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// WithCode gives err the exit status code unless it carries one already.
func WithCode(code int, err error) error {
	if err == nil {
		return nil
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return err
	}
	return &ExitError{Code: code, Err: err}
}

// ExitOf reads a command's outcome: its exit code, and whether ctx itself
// failed.
func ExitOf(err error) (int, bool) {
	if err == nil {
		return 0, false
	}
	var ee *ExitError
	if errors.As(err, &ee) && ee.Err == nil {
		return ee.Code, false
	}
	return ExitFailed, true
}

// UsageError marks an error in the command line.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef is a usage error.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// NonNegative is a usage error naming the first of flags (names and values
// in pairs: "--timeout", d, ...) whose duration is negative, or nil. A
// negative --timeout would otherwise mean no limit at all.
func NonNegative(flags ...any) error {
	for i := 0; i+1 < len(flags); i += 2 {
		if d, ok := flags[i+1].(time.Duration); ok && d < 0 {
			return Usagef("%s %v: want a duration of 0 or more", flags[i], d)
		}
	}
	return nil
}

// ReadAllMax reads r to its end, refusing more than max bytes (what is
// read is never cut short silently: a cut script or step list would run
// something else). what names the input in the error.
func ReadAllMax(r io.Reader, max int64, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if int64(len(b)) > max {
		return nil, Usagef("%s: more than %d bytes; give a smaller one", what, max)
	}
	return b, nil
}

// ExactArgs is cobra.ExactArgs with a usage error that shows the form.
func ExactArgs(n int, form string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return Usagef("want %s (got %d arguments)", form, len(args))
		}
		return nil
	}
}

// WriteJSON prints v as indented JSON with secrets redacted: every JSON form
// ctx prints reaches agents as much as its text does.
func WriteJSON(w io.Writer, v any) error { return jsonout.Write(w, v) }

// QuoteArgs is argv as a shell would read it back (the one quoting rule,
// cmdline.Quote: the digest header, ctx ls and the hook agree).
func QuoteArgs(argv []string) string { return cmdline.Quote(argv) }

// OpenStore finds the workspace's store (create makes it if missing) and
// recovers interrupted captures, saying so on ios.Err.
func OpenStore(ios *IO, create bool) (*store.Store, error) {
	cwd, err := ios.Getwd()
	if err != nil {
		return nil, err
	}
	loc, err := store.Locate(cwd)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(loc, create)
	if err != nil {
		return nil, err
	}
	if create {
		_ = st.Register() // best effort: the index only helps find the store from elsewhere
	}
	for _, r := range st.Recover() {
		switch {
		case r.Run != nil && r.Run.Manifest.Status == store.StatusRecovered:
			fmt.Fprintf(ios.Err, "ctx: recovered the output of an interrupted capture (%s) as %s\n", cmdline.Display(secrets.Argv(r.Argv)), r.Run.Handle())
		case r.Run != nil:
			fmt.Fprintf(ios.Err, "ctx: stored a finished capture that could not be stored earlier (%s) as %s\n", cmdline.Display(secrets.Argv(r.Argv)), r.Run.Handle())
		case r.Quarantined != "":
			fmt.Fprintf(ios.Err, "ctx: %v\n", r.Err)
			printHint(ios, r.Err)
		case r.Err != nil:
			fmt.Fprintf(ios.Err, "ctx: could not recover the interrupted capture in %s (it is kept, and the next ctx command tries again): %v\n", r.Spool, r.Err)
			if diskFull(r.Err) {
				fmt.Fprintln(ios.Err, "  hint: free disk space (or run `ctx gc`); the next ctx command then stores it")
			} else {
				printHint(ios, r.Err)
			}
		}
	}
	return st, nil
}

// diskFull reports whether err says a disk, quota or file-size limit is
// full. bbolt formats the error of its file resize with %s, so the errno is
// found by its text there.
func diskFull(err error) bool {
	for _, e := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG} {
		if errors.Is(err, e) || strings.Contains(err.Error(), e.Error()) {
			return true
		}
	}
	return false
}

// printHint prints err's hint, if it has one.
func printHint(ios *IO, err error) {
	var se *store.Error
	if errors.As(err, &se) && se.Hint != "" {
		fmt.Fprintf(ios.Err, "  hint: %s\n", secrets.String(se.Hint))
	}
}

// Report prints an error with its hint and returns the exit status.
func Report(ios *IO, err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	code := ExitBad
	if errors.As(err, &ee) {
		code = ee.Code
		if ee.Err == nil {
			return code
		}
	} else {
		code = Classify(err)
	}
	// An error may quote the command line (a command not found, a --cwd
	// that is not a directory): the agent reads ctx's stderr, so it is
	// redacted like every other text ctx shows it.
	fmt.Fprintf(ios.Err, "ctx: %s\n", secrets.String(err.Error()))
	printHint(ios, err)
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintln(ios.Err, "  run `ctx help` or `ctx COMMAND --help` for usage")
	}
	return code
}

// Classify maps an error to ctx's exit statuses.
func Classify(err error) int {
	var ue *UsageError
	switch {
	case errors.As(err, &ue):
		return ExitUsage
	case errors.Is(err, store.ErrLocked), errors.Is(err, store.ErrCorrupt), errors.Is(err, store.ErrUnsafe), errors.Is(err, store.ErrBusy):
		return ExitFailed
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrAmbiguous), errors.Is(err, store.ErrBadHandle), errors.Is(err, store.ErrRange):
		return ExitBad
	}
	return ExitBad
}

// ParseSize reads "1G", "512M", "64k", "1000".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, optionally with K, M or G", s)
	}
	return n * mult, nil
}

// Pressure is the context pressure a digest is made under: the --pressure
// flag when given, else $CTX_PRESSURE, checked before anything runs. A bad
// value names where it came from: with no flag given, "pressure junk"
// alone leaves the user looking for a flag they never passed.
func Pressure(ios *IO, flag string) (string, error) {
	if flag != "" {
		if _, err := plan.ParsePressure(flag); err != nil {
			return "", Usagef("--pressure: %v", err)
		}
		return flag, nil
	}
	p := ios.Getenv("CTX_PRESSURE")
	if _, err := plan.ParsePressure(p); err != nil {
		return "", Usagef("$CTX_PRESSURE: %v; fix or unset CTX_PRESSURE, or pass --pressure", err)
	}
	return p, nil
}
