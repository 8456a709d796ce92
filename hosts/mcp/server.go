// Package mcp serves ctx's tools over the Model Context Protocol: ctx_run,
// ctx_get, ctx_ls and ctx_show, each a thin adapter over the runner and
// retrieve packages (no CLI is run into a buffer), with every result bounded
// and redacted once more. Tools of front ends that still live in cmd/ctx are
// added by the caller through Deps.Extra.
//
// Everything the server reads from its surroundings arrives in Deps: the
// store, the environment, the agent session — it never reads globals.
package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/internal/jsonout"
	"github.com/ctxhq/ctx/plan"
	"github.com/ctxhq/ctx/retrieve"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// ResultLimit bounds any tool result: no call can flood the agent.
const ResultLimit = 64 << 10

// Deps are the server's dependencies.
type Deps struct {
	Version string
	// Session is this server's agent session: an equivalent rerun in it
	// shows more (NewSession makes one).
	Session string
	// Getwd and Getenv read the server's working directory and
	// environment (CTX_PRESSURE).
	Getwd  func() (string, error)
	Getenv func(string) string
	// Open opens the workspace store, creating it when create.
	Open func(create bool) (*store.Store, error)
	// Resolve finds the store holding a handle (this workspace's or
	// another known one); the caller closes the store.
	Resolve func(h store.Handle, raw string) (*store.Store, *store.Target, error)
	// Env is the runner's environment for a store.
	Env func(st *store.Store) *runner.Env
	// List prints the n most recent runs (ctx_ls).
	List func(w io.Writer, n int) error
	// Record, when set, prints what ctx_get (show false) or ctx_show (show
	// true) returns for a record that is not a run (seq:, py:, job:) and
	// reports done; a handle that stands for a run (seq:ID#2, an ended
	// job) comes back as run, for the tool to read as any run handle, as
	// does every other handle, unchanged.
	Record func(w io.Writer, handle string, show bool) (run string, done bool, err error)
	// Repo, when set, prints what a repo: address names (ctx_get).
	Repo func(ctx context.Context, w io.Writer, handle string) error
	// Compact, when set, is called after a run stored some frames raw.
	Compact func()
	// Extra registers further tools.
	Extra func(s *sdk.Server)
}

// NewSession is a fresh MCP agent session name.
func NewSession() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "mcp-" + hex.EncodeToString(b[:])
}

// New builds the server with ctx's tools.
func New(d *Deps) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "ctx", Version: d.Version}, &sdk.ServerOptions{
		Instructions: `ctx runs commands and keeps every byte of their output. A tool result is a
short digest: what ran, the findings that matter, a coverage line saying what
was shown and what was left out, and handles (run:ID#stdout:L40-52) that return
any omitted part exactly. Prefer ctx_run for commands that can print a lot
(tests, builds, linters, logs, searches); read more with ctx_get on a handle
from the digest instead of rerunning the command.`,
	})
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_run", Description: runDescription}, d.run)
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_get", Description: getDescription}, d.get)
	sdk.AddTool(s, &sdk.Tool{
		Name:        "ctx_ls",
		Description: "List recent runs, newest first: handle, exit status, output size, age and command.",
	}, d.ls)
	sdk.AddTool(s, &sdk.Tool{
		Name:        "ctx_show",
		Description: "Return a digest again (byte for byte what the tool returned), by its handle: run:, receipt:, seq: (ctx_seq), py: (ctx_py) or job: (ctx_job_start, once the job ended).",
	}, d.show)
	d.addLadder(s)
	if d.Extra != nil {
		d.Extra(s)
	}
	return s
}

const runDescription = `Run a command and return its digest instead of its raw output. The digest names
what ran, the exit status, the findings that matter (failing tests with their
locations, compiler errors, error lines, rare log lines), a coverage line, and
handles: "[L40-63]" next to a finding means lines 40-63 of the run's stdout —
fetch them with ctx_get {"handle": "run:ID#stdout:L40-63"}. Nothing is lost:
every byte stays retrievable.`

const getDescription = `Return exact bytes that a handle names: a run's stream (run:ID#stdout,
run:ID#stderr, run:ID#merged), a line range (run:ID#stdout:L40-52), a byte
range (:B0-4096), a blob (blob:ID) or a span (span:ID); seq:ID#2 or py:ID#2
is step 2's run (seq:ID alone its record), job:ID an ended job's run (a
running job's lines so far). A region over 240 lines
or 64 KiB comes back as a zoom view — its first and last lines, the
error-looking lines inside, and handles to its two halves — so ask again with
a narrower range, or use grep to find lines. Text comes back plain (escape
sequences removed, carriage-return overwrites folded; a second block says
when that changed anything); raw: true returns the exact stored bytes.`

type runInput struct {
	Argv    []string `json:"argv,omitempty" jsonschema:"the command and its arguments, run directly (no shell); give argv or shell"`
	Shell   string   `json:"shell,omitempty" jsonschema:"a shell command line run with sh -c (pipelines, redirections); give argv or shell"`
	Cwd     string   `json:"cwd,omitempty" jsonschema:"directory to run in (default: the server's working directory)"`
	Timeout string   `json:"timeout,omitempty" jsonschema:"stop the command after this long, e.g. 90s or 5m (default 10m)"`
	Budget  int      `json:"budget,omitempty" jsonschema:"token budget for the digest (default: chosen by the evidence contract)"`
	Stdin   string   `json:"stdin,omitempty" jsonschema:"a file to feed to the command's stdin (default: none)"`
}

// runOutput is ctx_run's structured result. A call that ran nothing has no
// run and, unless the command could not start (126, 127, as ctx run exits),
// no exit status: ctx's own failure (a bad cwd, budget or stdin, no store) is
// not the command's.
type runOutput struct {
	Run     string `json:"run,omitempty" jsonschema:"the run's handle: pass it, with #stdout:L40-52 style ranges, to ctx_get (absent when nothing ran)"`
	Exit    *int   `json:"exit,omitempty" jsonschema:"the command's exit status (124 timed out, 126 not executable, 127 not found, 128+N killed by signal N); absent when ctx failed before running it"`
	Receipt string `json:"receipt,omitempty"`
}

// exitStatus is an exit status for a structured result.
func exitStatus(n int) *int { return &n }

// request turns a ctx_run call into a runner request (without its store-
// dependent parts).
func (d *Deps) request(in runInput) (*runner.Request, error) {
	req := &runner.Request{Argv: in.Argv, Session: d.Session, Timeout: 10 * time.Minute, Grace: 2 * time.Second}
	switch {
	case in.Shell != "" && len(in.Argv) > 0:
		return nil, errors.New("give argv or shell, not both")
	case in.Shell != "":
		req.Argv = []string{"sh", "-c", in.Shell}
	case len(in.Argv) == 0:
		return nil, errors.New("give the command as argv (a list of words) or shell (a command line)")
	}
	if in.Timeout != "" {
		t, err := parseTimeout("timeout", in.Timeout)
		if err != nil {
			return nil, err
		}
		req.Timeout = t
	}
	return req, nil
}

func (d *Deps) run(ctx context.Context, _ *sdk.CallToolRequest, in runInput) (*sdk.CallToolResult, runOutput, error) {
	req, err := d.request(in)
	if err != nil {
		return nil, runOutput{}, err
	}
	cwd, err := d.Getwd()
	if err == nil {
		req.Dir, err = resolveCwd(cwd, in.Cwd)
	}
	if err != nil {
		return Error(err, ""), runOutput{}, nil
	}
	st, err := d.Open(true)
	if err == nil {
		if err = st.CheckDB(); err != nil {
			st.Close()
		}
	}
	if err != nil {
		return Error(fmt.Errorf("cannot capture: %w", err), ""), runOutput{}, nil
	}
	defer st.Close()
	if req.Digest, err = d.digestOptions(st, in.Budget); err != nil {
		return Error(err, ""), runOutput{}, nil
	}
	if in.Stdin != "" {
		f, err := os.Open(in.Stdin)
		if err != nil {
			return Error(fmt.Errorf("stdin: %w", err), ""), runOutput{}, nil
		}
		defer f.Close()
		req.Stdin = runner.Input{R: f, Whole: true}
	}
	res, err := runner.Capture(ctx, d.Env(st), req)
	var se *capture.StartError
	if errors.As(err, &se) {
		return Error(fmt.Errorf("exit %d", se.Exit), fmt.Sprintf("ctx: %v\n  hint: %s", se, startHint(se))), runOutput{Exit: exitStatus(se.Exit)}, nil
	}
	if err != nil {
		return Error(err, ""), runOutput{}, nil
	}
	if res.Raw && d.Compact != nil {
		d.Compact()
	}
	if res.DigestErr != nil {
		h := res.Handle()
		hint := "read it with ctx_get " + h
		if fix := contract.FixHint(res.DigestErr); fix != "" {
			hint = fix + "; " + hint
		}
		return Error(fmt.Errorf("exit %d", res.Exit), fmt.Sprintf("ctx: the output is stored as %s, but no digest could be made: %v\n  hint: %s", h, res.DigestErr, hint)),
			runOutput{Run: h, Exit: exitStatus(res.Exit)}, nil
	}
	text := string(res.Text())
	if res.Note != "" {
		text += "ctx: note: " + res.Note + "\n"
	}
	return Text(text), runOutput{Run: res.Handle(), Exit: exitStatus(res.Exit), Receipt: res.Receipt()}, nil
}

type getInput struct {
	Handle string `json:"handle" jsonschema:"a handle from a digest: run:ID, run:ID#stderr, run:ID#stdout:L40-52, blob:ID, span:ID, seq:ID#2, py:ID#2, job:ID"`
	Lines  string `json:"lines,omitempty" jsonschema:"lines A:B (1-based, inclusive)"`
	Bytes  string `json:"bytes,omitempty" jsonschema:"bytes A:B (0-based, end excluded)"`
	Grep   string `json:"grep,omitempty" jsonschema:"only lines matching this regular expression, numbered like grep -n"`
	Around int    `json:"around,omitempty" jsonschema:"with grep: lines of context around each match"`
	Raw    bool   `json:"raw,omitempty" jsonschema:"the exact stored bytes, terminal escape sequences and carriage-return overwrites included (default: plain text, as a pipe would have carried it)"`
}

func (d *Deps) get(ctx context.Context, _ *sdk.CallToolRequest, in getInput) (*sdk.CallToolResult, any, error) {
	var out strings.Builder
	note, err := d.retrieve(ctx, &out, in)
	// A zoom view or no match is an answer, not a failure.
	if err != nil && !errors.Is(err, retrieve.ErrZoomed) && !errors.Is(err, retrieve.ErrNoMatch) {
		return Error(err, ""), nil, nil
	}
	res := Text(out.String())
	if note != "" {
		res.Content = append(res.Content, &sdk.TextContent{Text: "[ctx: " + note + "]"})
	}
	return res, nil, nil
}

// retrieve prints what a ctx_get call names and returns the plain-text note.
func (d *Deps) retrieve(ctx context.Context, w io.Writer, in getInput) (string, error) {
	if strings.HasPrefix(in.Handle, "repo:") && d.Repo != nil {
		return "", d.Repo(ctx, w, in.Handle)
	}
	if d.Record != nil {
		run, done, err := d.Record(w, in.Handle, false)
		if done {
			return "", err
		}
		in.Handle = run
	}
	h, err := store.ParseHandle(in.Handle)
	if err != nil {
		return "", err
	}
	if in.Around < 0 || in.Around > 0 && in.Grep == "" {
		return "", fmt.Errorf("around %d: want the lines of context (0 or more) around grep matches, with grep", in.Around)
	}
	o := retrieve.Options{Around: in.Around, Form: retrieve.Plain, RefuseBinary: true}
	if in.Raw {
		o.Form = retrieve.Raw
	}
	if o.Range, err = retrieve.ParseRange(h, in.Lines, in.Bytes); err != nil {
		return "", err
	}
	if in.Grep != "" {
		if o.Grep, err = regexp.Compile(in.Grep); err != nil {
			return "", fmt.Errorf("grep: %w", err)
		}
	}
	st, t, err := d.Resolve(h, in.Handle)
	if err != nil {
		return "", err
	}
	defer st.Close()
	if t.Kind == "receipt" {
		return "", jsonout.Write(w, json.RawMessage(t.Receipt))
	}
	res, err := retrieve.Get(ctx, st, t, w, o)
	var be *retrieve.BinaryError
	if errors.As(err, &be) {
		read := "ctx get " + in.Handle + " --hex"
		if be.UTF16() {
			read = "ctx get " + in.Handle + " --raw | iconv -f UTF-16 -t UTF-8"
		}
		err = &store.Error{Err: err, Hint: "a tool result carries text only: read it in a shell with " + read}
	}
	if res == nil {
		return "", err
	}
	return res.Note, err
}

type lsInput struct {
	N int `json:"n,omitempty" jsonschema:"how many recent runs (default 20)"`
}

func (d *Deps) ls(_ context.Context, _ *sdk.CallToolRequest, in lsInput) (*sdk.CallToolResult, any, error) {
	n := in.N
	if n <= 0 || n > 200 {
		n = 20
	}
	var out strings.Builder
	if err := d.List(&out, n); err != nil {
		return Error(err, ""), nil, nil
	}
	return Text(out.String()), nil, nil
}

type showInput struct {
	Handle string `json:"handle" jsonschema:"a run, receipt, seq:, py: or job: handle"`
}

func (d *Deps) show(ctx context.Context, _ *sdk.CallToolRequest, in showInput) (*sdk.CallToolResult, any, error) {
	if d.Record != nil {
		var out strings.Builder
		run, done, err := d.Record(&out, in.Handle, true)
		if done && err != nil {
			return Error(err, ""), nil, nil
		} else if done {
			return Text(out.String()), nil, nil
		}
		in.Handle = run
	}
	h, err := store.ParseHandle(in.Handle)
	if err != nil {
		return Error(err, ""), nil, nil
	}
	st, t, err := d.Resolve(h, in.Handle)
	if err != nil {
		return Error(err, ""), nil, nil
	}
	defer st.Close()
	sh, err := runner.Show(ctx, st, t, func() (digest.Options, error) {
		return d.digestOptions(st, 0)
	})
	if errors.Is(err, runner.ErrNotShowable) {
		err = fmt.Errorf("%s is a %s; show takes a run or receipt handle (use ctx_get for blobs)", in.Handle, t.Kind)
	}
	if err != nil {
		return Error(err, ""), nil, nil
	}
	return Text(string(sh.Text)), nil, nil
}

// Text is a tool result: bounded, and redacted once more whatever path made
// it (the paths redact already; a tool result is where text leaves ctx).
func Text(s string) *sdk.CallToolResult {
	if red, counts := secrets.Text([]byte(s)); counts != nil {
		s = string(red)
	}
	if len(s) > ResultLimit {
		s = s[:ResultLimit] + "\n… (cut at the result limit; ask for a narrower range)\n"
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// Error is a failed tool result: what ctx said on stderr, then the error.
func Error(err error, stderr string) *sdk.CallToolResult {
	msg := "ctx: " + err.Error()
	if se := strings.TrimSpace(stderr); se != "" && !strings.Contains(se, err.Error()) {
		msg = se + "\n" + msg
	}
	// The fix travels with the problem, as on the command line.
	var hinted *store.Error
	if errors.As(err, &hinted) && hinted.Hint != "" && !strings.Contains(msg, hinted.Hint) {
		msg += "\n  hint: " + hinted.Hint
	}
	r := Text(msg)
	r.IsError = true
	return r
}

// digestOptions are the digest options for budget under $CTX_PRESSURE; a bad
// value names the variable, which the agent's host set and the agent never
// sees.
func (d *Deps) digestOptions(st *store.Store, budget int) (digest.Options, error) {
	if budget < 0 {
		return digest.Options{}, fmt.Errorf("budget %d: want a positive number of tokens, or leave budget out for the evidence contract's choice", budget)
	}
	p := d.Getenv("CTX_PRESSURE")
	if _, err := plan.ParsePressure(p); err != nil {
		return digest.Options{}, fmt.Errorf("the server's $CTX_PRESSURE: %v; fix or unset CTX_PRESSURE where ctx mcp is configured", err)
	}
	return runner.DigestOptions(st, budget, p, "")
}

// resolveCwd is the directory a tool's cwd argument names, relative to the
// server's working directory; the error names the argument, not the
// command line's --cwd.
func resolveCwd(cwd, dir string) (string, error) {
	abs, err := runner.ResolveDir(cwd, dir)
	if err != nil {
		return "", fmt.Errorf("cwd %q is not a directory: give an existing one, absolute or relative to the server's working directory", dir)
	}
	return abs, nil
}

// toolWords are the tool arguments that stand for the command line's flags
// in the runner's hints.
var toolWords = strings.NewReplacer("--shell", "shell (a command line) instead of argv", "--cwd", "cwd")

// startHint is the runner's hint for a command that did not start, in the
// tool's words.
func startHint(se *capture.StartError) string { return toolWords.Replace(runner.StartHint(se)) }

// parseTimeout parses the duration argument name ("timeout", "wall"): a
// number of seconds or a Go duration, 0 or more.
func parseTimeout(name, s string) (time.Duration, error) {
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s %q: want a duration like 90s or 5m", name, s)
	}
	return d, nil
}

// ResultText is the text of a tool result's text blocks, joined: what an
// agent reads of it.
func ResultText(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
