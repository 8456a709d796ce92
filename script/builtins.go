package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/retrieve"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
)

// Bounds on what builtins hand back or keep.
const (
	maxEmits    = 200
	maxEmitLen  = 500
	maxGetLines = 2000
	maxGetBytes = 256 << 10
)

// failError is fail(msg) stopping the script.
type failError struct{ msg string }

func (e *failError) Error() string { return "fail: " + e.msg }

// predeclared are the only names a script sees besides Starlark's own.
func (x *Execution) predeclared() starlark.StringDict {
	if x.names == nil {
		x.names = starlark.StringDict{
			"run":   starlark.NewBuiltin("run", x.run),
			"get":   starlark.NewBuiltin("get", x.get),
			"items": starlark.NewBuiltin("items", x.items),
			"emit":  starlark.NewBuiltin("emit", x.emitBuiltin),
			"fail":  starlark.NewBuiltin("fail", x.fail),
		}
	}
	return x.names
}

// run(cmd, cwd=None, timeout=None, env=None): cmd is an argv list or a shell
// string; the result has exit, ok, status, handle, headline, counts, items
// and digest. A failing command is a result, not an error.
func (x *Execution) run(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cmd starlark.Value
	var cwd, timeout string
	var envd *starlark.Dict
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "cmd", &cmd, "cwd?", &cwd, "timeout?", &timeout, "env?", &envd); err != nil {
		return nil, err
	}
	if len(x.Runs) >= x.opts.Limits.Runs {
		return nil, &LimitError{"run", fmt.Sprintf("the script may run %d commands", x.opts.Limits.Runs)}
	}
	step := seq.Step{Cwd: cwd, Timeout: timeout}
	switch c := cmd.(type) {
	case starlark.String:
		step.Shell = string(c)
	case *starlark.List:
		for i := 0; i < c.Len(); i++ {
			s, ok := starlark.AsString(c.Index(i))
			if !ok {
				return nil, fmt.Errorf("run: argv[%d] is a %s, want a string", i, c.Index(i).Type())
			}
			step.Argv = append(step.Argv, s)
		}
	default:
		return nil, fmt.Errorf("run: cmd is a %s; want a list of strings (an argv) or a string (a shell command line)", cmd.Type())
	}
	if envd != nil {
		step.Env = map[string]string{}
		for _, kv := range envd.Items() {
			k, ok1 := starlark.AsString(kv[0])
			v, ok2 := starlark.AsString(kv[1])
			if !ok1 || !ok2 {
				return nil, errors.New("run: env wants string keys and values")
			}
			step.Env[k] = v
		}
	}
	if len(step.Argv) == 0 && strings.TrimSpace(step.Shell) == "" {
		return nil, errors.New(`run: cmd is empty: give an argv list, run(["go", "test", "./..."]), or a shell command line, run("go test ./...")`)
	}
	steps := []seq.Step{step}
	if err := seq.Check(steps); err != nil {
		// A run is no numbered step of a sequence: its argument is named.
		var se *seq.StepError
		if errors.As(err, &se) {
			err = se.Err
		}
		return nil, fmt.Errorf("run: %w", err)
	}
	return x.capture(&steps[0])
}

// capture runs one command and records it.
func (x *Execution) capture(s *seq.Step) (starlark.Value, error) {
	rec := RunRecord{N: len(x.Runs) + 1, Argv: secrets.Argv(s.Command())}
	dir, err := runner.ResolveDir(x.opts.Dir, s.Cwd)
	if err != nil {
		return nil, fmt.Errorf("run: cwd %q is not a directory: give one relative to the directory the script runs in (ctx py --cwd), or absolute, or make it in an earlier run()", s.Cwd)
	}
	rec.Dir = runner.RelDir(x.env.Store.Root(), dir)
	env := *x.env
	env.Environ = append(slices.Clone(x.env.Environ), s.EnvList()...)
	res, err := runner.Capture(x.ctx, &env, &runner.Request{Argv: s.Command(), Dir: dir, Session: x.opts.Session,
		Digest: x.opts.Digest, Timeout: s.Deadline(x.opts.Timeout), Grace: x.opts.Grace, Pipe: x.opts.Pipe})
	var se *capture.StartError
	switch {
	case errors.As(err, &se):
		rec.Exit, rec.Status, rec.Error = se.Exit, "not-started", validText(se.Error())
	case err != nil:
		return nil, fmt.Errorf("run %s: %w", s.Name, err)
	default:
		rec.Exit, rec.Status, rec.Run, rec.Headline = res.Exit, string(res.Status), res.Run.ID.String(), validText(seq.Headline(res))
		x.results[rec.Run] = res
	}
	x.Runs = append(x.Runs, rec)
	return x.resultValue(&rec, res)
}

// resultValue is run()'s result object.
func (x *Execution) resultValue(rec *RunRecord, res *runner.Result) (starlark.Value, error) {
	fields := starlark.StringDict{
		"exit": starlark.MakeInt(rec.Exit), "ok": starlark.Bool(rec.Exit == 0), "status": starlark.String(rec.Status),
		"handle": starlark.None, "headline": starlark.String(rec.Headline), "digest": starlark.String(""),
		"error": starlark.String(rec.Error), "items": starlark.NewList(nil), "counts": starlark.NewDict(0),
	}
	if res != nil {
		items, err := itemValues(res.Items(), "")
		if err != nil {
			return nil, err
		}
		fields["handle"], fields["digest"], fields["items"] = starlark.String(res.Handle()), starlark.String(res.Text()), items
		fields["counts"] = countValues(res.Items())
	}
	return starlarkstruct.FromStringDict(starlarkstruct.Default, fields), nil
}

// get(handle, grep=None, limit=200): the text a handle names, as ctx get
// prints it (plain), bounded: a region over the limit is its zoom view.
func (x *Execution) get(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var handle, grep string
	limit := retrieve.LineLimit
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "handle", &handle, "grep?", &grep, "limit?", &limit); err != nil {
		return nil, err
	}
	if limit <= 0 || limit > maxGetLines {
		return nil, fmt.Errorf("get: limit %d: want 1 to %d lines", limit, maxGetLines)
	}
	h, err := x.parseHandle(handle)
	if err != nil {
		return nil, fmt.Errorf("get: %w", err)
	}
	st := x.env.Store
	t, err := st.Resolve(h)
	if err != nil {
		return nil, fmt.Errorf("get: %w", err)
	}
	ro := retrieve.Options{Limit: limit, Form: retrieve.Form("plain")}
	if grep != "" {
		if ro.Grep, err = regexp.Compile(grep); err != nil {
			return nil, fmt.Errorf("get: grep: %w", err)
		}
	}
	reg, err := retrieve.Open(st, t, ro.RangeOf(t))
	if err != nil {
		return nil, fmt.Errorf("get: %w", err)
	}
	var buf bytes.Buffer
	_, err = retrieve.Print(x.ctx, st, t, reg, &limited{w: &buf, n: maxGetBytes}, ro)
	if err != nil && !errors.Is(err, retrieve.ErrZoomed) && !errors.Is(err, retrieve.ErrNoMatch) {
		return nil, fmt.Errorf("get: %w", err)
	}
	return starlark.String(buf.String()), nil
}

// kindList is the evidence kinds items() takes, for its error.
func kindList() string {
	names := make([]string, len(evidence.Kinds))
	for i, k := range evidence.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// items(handle, kind=None): the evidence items of a run, as dicts.
func (x *Execution) items(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var handle, kind string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "handle", &handle, "kind?", &kind); err != nil {
		return nil, err
	}
	if kind != "" && !slices.Contains(evidence.Kinds, evidence.Kind(kind)) {
		return nil, fmt.Errorf("items: kind %q: want one of %s", kind, kindList())
	}
	h, err := x.parseHandle(handle)
	if err != nil {
		return nil, fmt.Errorf("items: %w", err)
	}
	t, err := x.env.Store.Resolve(h)
	if err != nil {
		return nil, fmt.Errorf("items: %w", err)
	}
	if t.Run == nil {
		return nil, fmt.Errorf("items: %s is a %s; items takes a run handle", handle, t.Kind)
	}
	if res, ok := x.results[t.Run.ID.String()]; ok {
		return itemValues(res.Items(), kind)
	}
	d, err := digest.Make(x.ctx, x.env.Store, t.Run, x.opts.Digest)
	if err != nil {
		return nil, fmt.Errorf("items: %w", err)
	}
	return itemValues(d.Graph.Items, kind)
}

// kindRE is what an emitted line's kind may be: a word, so it cannot
// break the digest's lines.
var kindRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// emit(*parts, kind="finding"): a line for the execution's digest.
func (x *Execution) emitBuiltin(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	kind := "finding"
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "kind?", &kind); err != nil {
		return nil, err
	}
	if !kindRE.MatchString(kind) {
		return nil, fmt.Errorf("kind %q: want a word of letters, digits, - or _ (at most 32), e.g. kind=\"warning\"", kind)
	}
	parts := make([]string, len(args))
	for i, a := range args {
		if s, ok := starlark.AsString(a); ok {
			parts[i] = s
		} else {
			parts[i] = a.String()
		}
	}
	x.emit(kind, strings.Join(parts, " "))
	return starlark.None, nil
}

func (x *Execution) emit(kind, text string) {
	if len(x.Emits) >= maxEmits {
		x.Dropped++
		return
	}
	text = validText(text)
	if r := []rune(text); len(r) > maxEmitLen {
		text = string(r[:maxEmitLen-1]) + "…"
	}
	x.Emits = append(x.Emits, Emit{Kind: kind, Text: text})
}

// validText is s as valid UTF-8: a script's strings may hold any bytes
// (a command's output read with get), but the record is JSON and the
// digest text, so each run of invalid bytes becomes U+FFFD, the same way
// every time.
func validText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// fail(msg): stop the script; the digest still lists what ran.
func (x *Execution) fail(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		if s, ok := starlark.AsString(a); ok {
			parts[i] = s
		} else {
			parts[i] = a.String()
		}
	}
	return nil, &failError{msg: strings.Join(parts, " ")}
}

// itemValues converts items (of kind, when given) to Starlark dicts through
// their JSON form, redacted.
func itemValues(items []evidence.Item, kind string) (starlark.Value, error) {
	var picked []evidence.Item
	for _, it := range items {
		if kind == "" || string(it.Kind) == kind {
			picked = append(picked, it)
		}
	}
	data, err := json.Marshal(picked)
	if err != nil {
		return nil, err
	}
	data, _ = secrets.Text(data)
	var v []any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("items: %w", err)
	}
	return toValue(v), nil
}

func countValues(items []evidence.Item) starlark.Value {
	d := starlark.NewDict(4)
	counts := map[string]int{}
	var kinds []string
	for _, it := range items {
		if counts[string(it.Kind)] == 0 {
			kinds = append(kinds, string(it.Kind))
		}
		counts[string(it.Kind)]++
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		_ = d.SetKey(starlark.String(k), starlark.MakeInt(counts[k]))
	}
	return d
}

// toValue converts decoded JSON to Starlark values (sorted dict keys).
func toValue(v any) starlark.Value {
	switch t := v.(type) {
	case nil:
		return starlark.None
	case bool:
		return starlark.Bool(t)
	case float64:
		if t == float64(int64(t)) {
			return starlark.MakeInt64(int64(t))
		}
		return starlark.Float(t)
	case string:
		return starlark.String(t)
	case []any:
		l := make([]starlark.Value, len(t))
		for i, e := range t {
			l[i] = toValue(e)
		}
		return starlark.NewList(l)
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := starlark.NewDict(len(t))
		for _, k := range keys {
			_ = d.SetKey(starlark.String(k), toValue(t[k]))
		}
		return d
	}
	return starlark.String(fmt.Sprint(v))
}

// limited writes at most n bytes to w and drops the rest.
type limited struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	k := min(len(p), l.n)
	if k > 0 {
		if _, err := l.w.Write(p[:k]); err != nil {
			return 0, err
		}
		l.n -= k
	}
	return len(p), nil
}

// parseHandle parses a handle as ctx get reads it: seq:ID#N and py:ID#N
// (with a stream and range after N) stand for step N's run, job:ID (with a
// stream and range) for the run an ended job committed.
func (x *Execution) parseHandle(handle string) (store.Handle, error) {
	scheme, _, _ := strings.Cut(handle, ":")
	if scheme == "job" {
		return x.jobHandle(handle)
	}
	if scheme != "seq" && scheme != "py" {
		return store.ParseHandle(handle)
	}
	ref, err := seq.ParseRefOf(scheme, handle)
	if err != nil {
		return store.Handle{}, err
	}
	if ref.Step == 0 {
		return store.Handle{}, fmt.Errorf("%s names a whole record; give %s#N for step N's output", handle, handle)
	}
	var run string
	if scheme == "seq" {
		var rec *seq.Record
		if rec, err = seq.Load(x.env.Store, ref); err == nil {
			run, err = rec.StepHandle(ref)
		}
	} else {
		var rec *Execution
		if rec, err = Load(x.env.Store, ref); err == nil {
			run, err = rec.StepHandle(ref)
		}
	}
	if err != nil {
		return store.Handle{}, err
	}
	return store.ParseHandle(run)
}

// jobHandle is the run an ended job committed, with the stream and range
// the job: handle gives; a job still running has none yet.
func (x *Execution) jobHandle(handle string) (store.Handle, error) {
	id, rest, _ := strings.Cut(handle, "#")
	jid, err := job.ParseID(id)
	if err != nil {
		return store.Handle{}, err
	}
	j, err := job.Open(x.env.Store, jid)
	if err != nil {
		return store.Handle{}, err
	}
	run, err := j.Committed()
	if err != nil {
		return store.Handle{}, err
	}
	if run == "" {
		return store.Handle{}, fmt.Errorf("%s is still %s: it has a run once it ends (ctx job wait %s)", j.Handle(), j.State, j.Handle())
	}
	if rest != "" {
		run += "#" + rest
	}
	return store.ParseHandle(run)
}
