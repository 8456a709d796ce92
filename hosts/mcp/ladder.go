package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/script"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
)

// The capture ladder's tools: a declared sequence (ctx_seq), background
// jobs (ctx_job_*), and bounded Starlark (ctx_py). Each calls the package
// that owns the behaviour and returns a bounded, redacted digest.
func (d *Deps) addLadder(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_seq", Description: seqDescription}, d.seq)
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_job_start", Description: "Start a command in the background (as ctx run --bg) and return its job: handle at once; read it with ctx_job_tail, ctx_job_wait, ctx_job_kill."}, d.jobStart)
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_job_tail", Description: "Return the last lines a background job (by its job: handle) printed so far (numbered as in its streams, so the same lines of the run it commits), with its state."}, d.jobTail)
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_job_wait", Description: "Wait (up to timeout, default 60s, at most 10m) for a background job, by its job: handle, to end and return its run's digest and exit status."}, d.jobWait)
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_job_kill", Description: "Stop a background job's command, by its job: handle (TERM, grace, KILL), keep what it captured, and return its digest."}, d.jobKill)
	sdk.AddTool(s, &sdk.Tool{Name: "ctx_py", Description: pyDescription}, d.py)
}

const seqDescription = `Run a sequence of steps (build, then test, then lint), each captured as its
own run, and return one digest: a line per step with its run handle, the
failing steps' findings, one coverage line. Stops at the first failing step
unless it has continue_on_failure; later steps are listed as skipped. The
exit status is the first failing step's. The sequence's handle is seq:ID;
ctx_get {"handle": "seq:ID#2"} reads step 2's run (seq:ID#2#stderr:L1-20
as for any run).`

const pyDescription = `Run a Starlark (Python dialect) script that composes captures: run(cmd) returns
a result with exit, ok, handle, headline, counts and items; get(handle),
items(handle, kind=...), emit(...) adds a line to the digest, fail(msg) stops.
No files, network or load; bounded by steps, runs and wall time. Returns one
digest of everything it ran.`

type seqStep struct {
	Name              string            `json:"name,omitempty"`
	Argv              []string          `json:"argv,omitempty" jsonschema:"the command and its arguments; give argv or shell"`
	Shell             string            `json:"shell,omitempty" jsonschema:"a shell command line (sh -c); give argv or shell"`
	Cwd               string            `json:"cwd,omitempty"`
	Env               map[string]string `json:"env,omitempty"`
	Timeout           string            `json:"timeout,omitempty" jsonschema:"e.g. 90s or 5m (default 10m)"`
	ContinueOnFailure bool              `json:"continue_on_failure,omitempty"`
}

type seqInput struct {
	Steps     []seqStep `json:"steps" jsonschema:"the steps, in order (at most 20)"`
	KeepGoing bool      `json:"keep_going,omitempty" jsonschema:"run every step even after one fails"`
	Budget    int       `json:"budget,omitempty" jsonschema:"token budget the failing steps' findings share"`
}

// ladderOutput is the structured result of ctx_seq, ctx_py and the job
// tools: no handle when nothing was recorded, and no exit status until the
// command ended.
type ladderOutput struct {
	Handle string `json:"handle,omitempty" jsonschema:"seq:, py: or job: handle (absent when nothing was recorded)"`
	Exit   *int   `json:"exit,omitempty" jsonschema:"the exit status (absent while a job runs or when nothing ran)"`
}

// maxSteps bounds one ctx_seq call.
const maxSteps = 20

func (d *Deps) seq(ctx context.Context, _ *sdk.CallToolRequest, in seqInput) (*sdk.CallToolResult, ladderOutput, error) {
	if len(in.Steps) > maxSteps {
		return Error(fmt.Errorf("%d steps: at most %d in one call", len(in.Steps), maxSteps), ""), ladderOutput{}, nil
	}
	steps := make([]seq.Step, len(in.Steps))
	for i, s := range in.Steps {
		steps[i] = seq.Step{Name: s.Name, Argv: s.Argv, Shell: s.Shell, Cwd: s.Cwd, Env: s.Env, Timeout: s.Timeout, ContinueOnFailure: s.ContinueOnFailure}
	}
	if err := seq.Check(steps); errors.Is(err, seq.ErrEmpty) {
		return Error(fmt.Errorf(`%w: give steps as {"steps": [{"shell": "go build ./..."}, {"argv": ["go", "test", "./..."]}]}`, err), ""), ladderOutput{}, nil
	} else if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	st, dir, dopts, err := d.ladderStore(in.Budget)
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	defer st.Close()
	rec, err := seq.Run(ctx, d.Env(st), steps, seq.Options{Dir: dir, Session: d.Session, Digest: dopts,
		Timeout: 10 * time.Minute, Grace: 2 * time.Second, KeepGoing: in.KeepGoing})
	if err == nil {
		_, err = seq.Save(st, rec)
	}
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	return Text(rec.Digest), ladderOutput{Handle: rec.Handle(), Exit: exitStatus(rec.Exit)}, nil
}

// ladderStore opens the workspace store with the server's directory and
// digest options.
func (d *Deps) ladderStore(budget int) (*store.Store, string, digest.Options, error) {
	cwd, err := d.Getwd()
	if err != nil {
		return nil, "", digest.Options{}, err
	}
	st, err := d.Open(true)
	if err != nil {
		return nil, "", digest.Options{}, fmt.Errorf("cannot capture: %w", err)
	}
	dopts, err := d.digestOptions(st, budget)
	if err != nil {
		st.Close()
		return nil, "", digest.Options{}, err
	}
	return st, cwd, dopts, nil
}

type pyInput struct {
	Code     string `json:"code" jsonschema:"the Starlark script"`
	MaxSteps uint64 `json:"max_steps,omitempty" jsonschema:"Starlark execution steps (default and most 10000000)"`
	MaxRuns  int    `json:"max_runs,omitempty" jsonschema:"commands the script may run (default and most 50)"`
	Wall     string `json:"wall,omitempty" jsonschema:"how long the whole script may take (default and most 30m)"`
}

func (d *Deps) py(ctx context.Context, _ *sdk.CallToolRequest, in pyInput) (*sdk.CallToolResult, ladderOutput, error) {
	lim := script.Defaults
	if in.MaxSteps > 0 {
		lim.Steps = min(in.MaxSteps, lim.Steps)
	}
	if in.MaxRuns > 0 {
		lim.Runs = min(in.MaxRuns, lim.Runs)
	}
	if in.Wall != "" {
		w, err := parseTimeout("wall", in.Wall)
		if err != nil {
			return Error(err, ""), ladderOutput{}, nil
		}
		lim.Wall = min(w, lim.Wall)
	}
	st, dir, dopts, err := d.ladderStore(0)
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	defer st.Close()
	x, err := script.Run(ctx, d.Env(st), []byte(in.Code), script.Options{Name: "code", Dir: dir, Session: d.Session,
		Digest: dopts, Timeout: 10 * time.Minute, Grace: 2 * time.Second, Limits: lim})
	if errors.Is(err, script.ErrEmpty) {
		err = fmt.Errorf(`%w: give the script as {"code": "r = run(\"go test ./...\"); emit(r.headline)"}`, err)
	} else if err == nil {
		_, err = script.Save(st, x)
	}
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	res := Text(x.Digest)
	res.IsError = x.Exit != 0
	return res, ladderOutput{Handle: x.Handle(), Exit: exitStatus(x.Exit)}, nil
}

type jobStartInput struct {
	Argv    []string `json:"argv,omitempty" jsonschema:"the command and its arguments; give argv or shell"`
	Shell   string   `json:"shell,omitempty" jsonschema:"a shell command line (sh -c); give argv or shell"`
	Cwd     string   `json:"cwd,omitempty"`
	Timeout string   `json:"timeout,omitempty" jsonschema:"stop the command after this long (default 10m)"`
}

func (d *Deps) jobStart(_ context.Context, _ *sdk.CallToolRequest, in jobStartInput) (*sdk.CallToolResult, ladderOutput, error) {
	req, err := d.request(runInput{Argv: in.Argv, Shell: in.Shell, Timeout: in.Timeout})
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	st, cwd, dopts, err := d.ladderStore(0)
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	defer st.Close()
	dir, err := resolveCwd(cwd, in.Cwd)
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	j, err := job.Start(st, job.Spec{Argv: req.Argv, Dir: dir, Timeout: req.Timeout, Grace: req.Grace,
		Budget: dopts.Budget, Pressure: d.Getenv("CTX_PRESSURE"), Session: d.Session})
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	return Text(job.Summary(j) + "\n"), ladderOutput{Handle: j.Handle()}, nil
}

// Each job tool takes only the arguments it reads: the schema refuses any
// other, so none is accepted and then ignored.
type (
	jobTailInput struct {
		Job   string `json:"job" jsonschema:"the job: handle"`
		Lines int    `json:"lines,omitempty" jsonschema:"lines per stream (default 20, at most 200)"`
		Grep  string `json:"grep,omitempty" jsonschema:"only lines matching this RE2 expression"`
	}
	jobWaitInput struct {
		Job     string `json:"job" jsonschema:"the job: handle"`
		Timeout string `json:"timeout,omitempty" jsonschema:"how long to wait (default 60s, at most 10m)"`
	}
	jobKillInput struct {
		Job string `json:"job" jsonschema:"the job: handle"`
	}
)

func (d *Deps) openJob(handle string) (*job.Job, error) {
	id, err := job.ParseID(handle)
	if err != nil {
		return nil, err
	}
	st, err := d.Open(false)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("job:%s: %w", id, job.ErrNoJob)
		}
		return nil, err
	}
	defer st.Close()
	return job.Open(st, id)
}

func (d *Deps) jobTail(_ context.Context, _ *sdk.CallToolRequest, in jobTailInput) (*sdk.CallToolResult, any, error) {
	n := in.Lines
	if n <= 0 {
		n = 20
	}
	n = min(n, 200)
	var re *regexp.Regexp
	if in.Grep != "" {
		var err error
		if re, err = regexp.Compile(in.Grep); err != nil {
			return Error(fmt.Errorf("grep: %w", err), ""), nil, nil
		}
	}
	j, err := d.openJob(in.Job)
	if err != nil {
		return Error(err, ""), nil, nil
	}
	var b bytes.Buffer
	if err := job.WriteTail(&b, j, n, re); err != nil {
		return Error(err, ""), nil, nil
	}
	return Text(b.String()), nil, nil
}

func (d *Deps) jobWait(ctx context.Context, _ *sdk.CallToolRequest, in jobWaitInput) (*sdk.CallToolResult, ladderOutput, error) {
	timeout := time.Minute
	if in.Timeout != "" {
		t, err := parseTimeout("timeout", in.Timeout)
		if err == nil && t == 0 {
			// job.Wait reads 0 as until it ends: past the cap, with no end.
			err = fmt.Errorf("timeout %q: want a positive duration, at most 10m (ctx_job_tail shows a job without waiting)", in.Timeout)
		}
		if err != nil {
			return Error(err, ""), ladderOutput{}, nil
		}
		timeout = min(t, 10*time.Minute)
	}
	j, err := d.openJob(in.Job)
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	return waitResult(ctx, j, timeout)
}

func (d *Deps) jobKill(ctx context.Context, _ *sdk.CallToolRequest, in jobKillInput) (*sdk.CallToolResult, ladderOutput, error) {
	j, err := d.openJob(in.Job)
	if err == nil {
		err = job.Kill(j, 2*time.Second)
	}
	if err != nil {
		return Error(err, ""), ladderOutput{}, nil
	}
	return waitResult(ctx, j, 40*time.Second)
}

// waitResult waits for j and returns its digest, or says why there is none.
func waitResult(ctx context.Context, j *job.Job, timeout time.Duration) (*sdk.CallToolResult, ladderOutput, error) {
	cur, err := job.Wait(ctx, j, timeout)
	out := ladderOutput{Handle: j.Handle()}
	switch {
	case errors.Is(err, job.ErrTimeout):
		return Text(fmt.Sprintf("%s is still running after %s; ctx_job_tail shows its output so far\n", j.Handle(), timeout)), out, nil
	case err != nil:
		return Error(err, ""), out, nil
	case cur.State == job.StateDead:
		return Error(errors.New(job.Summary(cur)), ""), out, nil
	case cur.Result.Error != "":
		out.Exit = exitStatus(cur.Result.Exit)
		return Error(fmt.Errorf("%s: %s", cur.Handle(), cur.Result.Error), ""), out, nil
	}
	out.Exit = exitStatus(cur.Result.Exit)
	return Text(cur.Result.Digest), out, nil
}
