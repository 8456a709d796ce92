package seq

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/ctxhq/ctx/internal/tomlerr"
	"github.com/ctxhq/ctx/secrets"
)

// Step is one declared step of a sequence: a command (an argv, or a shell
// string run with sh -c), where it runs, what it adds to the environment,
// how long it may take, and whether a failure stops the sequence.
type Step struct {
	Name  string   `toml:"name" json:"name"`
	Argv  []string `toml:"argv" json:"argv,omitempty"`
	Shell string   `toml:"shell" json:"shell,omitempty"`
	Cwd   string   `toml:"cwd" json:"cwd,omitempty"`
	// Env is added to ctx's own environment for this step only.
	Env map[string]string `toml:"env" json:"env,omitempty"`
	// Timeout is a Go duration ("2m"); "" is the sequence's default.
	Timeout           string `toml:"timeout" json:"timeout,omitempty"`
	ContinueOnFailure bool   `toml:"continue_on_failure" json:"continue_on_failure,omitempty"`
}

// ErrEmpty is returned for a sequence with no steps.
var ErrEmpty = errors.New("the sequence has no steps")

// StepError is a step declaration that cannot run; Step is 1-based (0 when
// the problem is not in one step), and Line/Col locate it in a file when
// known.
type StepError struct {
	Step      int
	Line, Col int
	Err       error
}

func (e *StepError) Error() string {
	var where []string
	if e.Line > 0 {
		where = append(where, fmt.Sprintf("line %d column %d", e.Line, e.Col))
	}
	if e.Step > 0 {
		where = append(where, fmt.Sprintf("step %d", e.Step))
	}
	if len(where) == 0 {
		return e.Err.Error()
	}
	return strings.Join(where, ", ") + ": " + e.Err.Error()
}

func (e *StepError) Unwrap() error { return e.Err }

// Command is what the step runs: its argv, or sh -c with its shell string.
func (s *Step) Command() []string {
	if s.Shell != "" {
		return []string{"sh", "-c", s.Shell}
	}
	return s.Argv
}

// Deadline is the step's timeout, def when it gives none.
func (s *Step) Deadline(def time.Duration) time.Duration {
	if s.Timeout == "" {
		return def
	}
	d, _ := time.ParseDuration(s.Timeout) // checked by Check
	return d
}

// EnvList is the step's environment additions as sorted KEY=VALUE pairs.
func (s *Step) EnvList() []string {
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+s.Env[k])
	}
	return out
}

// Check validates the steps and fills in default names (the command, cut
// to 40 characters).
func Check(steps []Step) error {
	if len(steps) == 0 {
		return ErrEmpty
	}
	for i := range steps {
		s := &steps[i]
		bad := func(format string, args ...any) error {
			return &StepError{Step: i + 1, Err: fmt.Errorf(format, args...)}
		}
		switch {
		case len(s.Argv) > 0 && s.Shell != "":
			return bad("give argv or shell, not both")
		case len(s.Argv) == 0 && strings.TrimSpace(s.Shell) == "":
			return bad("no command: give argv = [\"go\", \"test\", \"./...\"] or shell = \"go test ./...\"")
		case len(s.Argv) > 0 && s.Argv[0] == "":
			return bad("argv[0] is empty")
		}
		if s.Timeout != "" {
			if d, err := time.ParseDuration(s.Timeout); err != nil || d < 0 {
				return bad("timeout %q: want a duration like 90s or 2m", s.Timeout)
			}
		}
		for k := range s.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return bad("env key %q: want a variable name", k)
			}
		}
		if s.Name == "" {
			s.Name = defaultName(s)
		}
	}
	return nil
}

// defaultName is a step's name when the steps file gives none: its command,
// redacted before it is cut to 40 characters (the name is printed and
// stored, and a credential cut in two would no longer match its rule).
func defaultName(s *Step) string {
	argv := secrets.Argv(s.Command())
	name := strings.Join(argv, " ")
	if s.Shell != "" {
		name = argv[len(argv)-1]
	}
	return cutName(strings.Join(strings.Fields(name), " "))
}

// FromArgs reads steps from command-line groups separated by "--": a group
// of one word is a shell string (ctx seq -- 'go build ./...' -- 'go vet
// ./...'), a longer group an argv (ctx seq -- go build ./... -- go vet ./...).
func FromArgs(args []string) ([]Step, error) {
	var steps []Step
	var group []string
	flush := func() {
		switch len(group) {
		case 0:
		case 1:
			steps = append(steps, Step{Shell: group[0]})
		default:
			steps = append(steps, Step{Argv: group})
		}
		group = nil
	}
	for _, a := range args {
		if a == "--" {
			flush()
			continue
		}
		group = append(group, a)
	}
	flush()
	return steps, Check(steps)
}

// FromLines reads one shell step per line; blank lines and lines starting
// with # are skipped.
func FromLines(r io.Reader) ([]Step, error) {
	var steps []Step
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		steps = append(steps, Step{Shell: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read steps: %w", err)
	}
	return steps, Check(steps)
}

// file is a steps file: [[step]] tables.
type file struct {
	Step []Step `toml:"step"`
}

// FromTOML reads a steps file ([[step]] tables with name, argv or shell,
// cwd, env, timeout, continue_on_failure). An unknown field is an error
// naming it and where it is, never ignored.
func FromTOML(data []byte) ([]Step, error) {
	var f file
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		line, col, key, ok := tomlerr.Locate(err)
		switch {
		case !ok:
			return nil, fmt.Errorf("read steps file: %w", err)
		case key != "":
			err = fmt.Errorf("unknown field %q (a step has name, argv, shell, cwd, env, timeout, continue_on_failure)", key)
		default:
			err = tomlerr.Explain(err)
		}
		return nil, &StepError{Line: line, Col: col, Err: err}
	}
	return f.Step, Check(f.Step)
}
