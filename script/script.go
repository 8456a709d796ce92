package script

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

// Limits bound a script. Zero fields take the defaults.
type Limits struct {
	Steps uint64        // Starlark execution steps (default 10,000,000)
	Runs  int           // commands run (default 50)
	Wall  time.Duration // the whole script, commands included (default 30 minutes)
}

// Defaults are the limits a script gets unless it is given others.
var Defaults = Limits{Steps: 10_000_000, Runs: 50, Wall: 30 * time.Minute}

func (l Limits) orDefaults() Limits {
	if l.Steps == 0 {
		l.Steps = Defaults.Steps
	}
	if l.Runs == 0 {
		l.Runs = Defaults.Runs
	}
	if l.Wall == 0 {
		l.Wall = Defaults.Wall
	}
	return l
}

// Options shape a script's execution.
type Options struct {
	Name    string // the script's file name in messages ("-c" for inline)
	Dir     string // absolute directory commands run in
	Session string
	Digest  digest.Options
	Timeout time.Duration // a command's default timeout
	Grace   time.Duration
	Pipe    bool
	Limits  Limits
}

// SyntaxError is a script that does not parse: nothing ran.
type SyntaxError struct {
	Name      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: syntax error: %s", e.Name, e.Line, e.Col, e.Msg)
}

// ErrEmpty is a script with nothing in it but white space: nothing to run.
var ErrEmpty = errors.New("the script is empty")

// LimitError says which bound stopped the script.
type LimitError struct{ Limit, Detail string }

func (e *LimitError) Error() string { return e.Limit + " limit reached: " + e.Detail }

// Run executes src. A script error (fail(), a runtime error, a limit) is
// not returned: it is in the execution (Error), whose digest lists what ran
// before it. Errors are ErrEmpty or a *SyntaxError (nothing ran) or ctx's
// own.
func Run(ctx context.Context, env *runner.Env, src []byte, o Options) (*Execution, error) {
	o.Limits = o.Limits.orDefaults()
	if o.Name == "" {
		o.Name = "script.star"
	}
	if err := Check(o.Name, src); err != nil {
		return nil, err
	}
	fopts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	f, err := fopts.Parse(o.Name, src, 0)
	if err != nil {
		var se syntax.Error
		if errors.As(err, &se) {
			return nil, &SyntaxError{Name: o.Name, Line: int(se.Pos.Line), Col: int(se.Pos.Col), Msg: se.Msg}
		}
		return nil, err
	}
	prog, err := starlark.FileProgram(f, isBuiltin)
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		return nil, &SyntaxError{Name: o.Name, Line: int(rl[0].Pos.Line), Col: int(rl[0].Pos.Col), Msg: rl[0].Msg}
	} else if err != nil {
		return nil, err
	}
	blob, err := env.Store.PutBlob(src)
	if err != nil {
		return nil, fmt.Errorf("store script: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, o.Limits.Wall)
	defer cancel()
	x := &Execution{Kind: "py", Version: Version, Script: blob.String(), Runs: []RunRecord{}, Emits: []Emit{},
		ctx: ctx, env: env, opts: o, results: map[string]*runner.Result{}}
	thread := &starlark.Thread{Name: o.Name, Print: func(_ *starlark.Thread, msg string) { x.emit("print", msg) }, Load: noLoad}
	thread.SetMaxExecutionSteps(o.Limits.Steps)
	stopWatch := context.AfterFunc(ctx, func() { thread.Cancel("wall-clock limit") })
	defer stopWatch()
	_, err = prog.Init(thread, x.predeclared())
	x.Steps = thread.ExecutionSteps()
	x.finish(err, o.Limits)
	x.render()
	return x, nil
}

// Check refuses a script with nothing to run (ErrEmpty), before anything
// is opened for it.
func Check(name string, src []byte) error {
	if len(bytes.TrimSpace(src)) == 0 {
		return fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	return nil
}

// builtins are the names a script sees besides Starlark's own.
var builtins = []string{"run", "get", "items", "emit", "fail"}

func isBuiltin(name string) bool { return slices.Contains(builtins, name) }

// finish records how the script ended.
func (x *Execution) finish(err error, l Limits) {
	var fe *failError
	var le *LimitError
	var ee *starlark.EvalError
	switch {
	case err == nil:
		return
	case errors.As(err, &fe):
		x.Error = "fail: " + fe.msg
	case errors.As(err, &le):
		x.Error = le.Error()
	case x.ctx.Err() != nil && errors.Is(x.ctx.Err(), context.DeadlineExceeded):
		x.Error = (&LimitError{"wall-clock", fmt.Sprintf("the script ran past %s", l.Wall)}).Error()
	case strings.Contains(err.Error(), "too many steps"):
		x.Error = (&LimitError{"step", fmt.Sprintf("more than %d Starlark execution steps (an endless loop?)", l.Steps)}).Error()
	case errors.As(err, &ee):
		x.Error = lastLines(ee.Backtrace(), 6)
	default:
		x.Error = err.Error()
	}
	x.Error = validText(x.Error)
	x.Exit = 1
}

// lastLines is s's last n lines.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ScriptBlob is the stored script's handle.
func (x *Execution) ScriptBlob() string {
	id, _ := store.ParseID(x.Script)
	return "blob:" + id.Short()
}
