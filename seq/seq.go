package seq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

// Options shape a sequence run.
type Options struct {
	// Dir is the absolute directory the steps run in; a step's cwd is
	// relative to it.
	Dir     string
	Session string
	// Digest shapes each step's digest; its Budget is the one budget the
	// failing steps' findings share (0: the largest contract ceiling among
	// them).
	Digest  digest.Options
	Timeout time.Duration // a step's default timeout (0: none)
	Grace   time.Duration
	Pipe    bool
	// KeepGoing runs every step whatever fails, as if each had
	// continue_on_failure.
	KeepGoing bool
	// From names where the steps were declared (a steps file's name; ""
	// for arguments), for errors about a step's fields.
	From string
	// Linger is how long a step may run before the finished steps before
	// it are stored (0: DefaultLinger). Steps that end sooner share one
	// transaction.
	Linger time.Duration
}

// DefaultLinger is Options.Linger's default: short enough that another
// agent sees a finished step while a long one runs after it, long enough
// that a sequence of quick steps pays one commit.
const DefaultLinger = 100 * time.Millisecond

// States of a step.
const (
	StateOK      = "ok"
	StateFailed  = "failed"
	StateSkipped = "skipped"
)

// StepResult is how one step of a sequence went. It holds no raw time: the
// duration is a bucket (<1s, <10s, <1m, <10m, >10m).
type StepResult struct {
	N        int          `json:"n"`
	Name     string       `json:"name"`
	Argv     []string     `json:"argv"`
	Dir      string       `json:"dir,omitempty"`
	State    string       `json:"state"`
	Exit     int          `json:"exit"`
	Status   store.Status `json:"status,omitempty"`
	Duration string       `json:"duration,omitempty"`
	Run      string       `json:"run,omitempty"` // the full run id
	Receipt  string       `json:"receipt,omitempty"`
	Headline string       `json:"headline,omitempty"`
	Error    string       `json:"error,omitempty"` // ctx's own problem starting or storing the step
	Allowed  bool         `json:"continue_on_failure,omitempty"`

	res *runner.Result
}

// Failed reports whether the step ran and failed.
func (r *StepResult) Failed() bool { return r.State == StateFailed }

// Bucket is the coarse duration bucket d falls in.
func Bucket(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1s"
	case d < 10*time.Second:
		return "<10s"
	case d < time.Minute:
		return "<1m"
	case d < 10*time.Minute:
		return "<10m"
	}
	return ">10m"
}

// Run runs the steps in order, each captured as its own run, and returns the
// sequence's record with its digest. It stops at the first failing step
// unless that step has continue_on_failure (or o.KeepGoing); the steps after
// it are recorded as skipped. An interrupt (ctx cancelled) keeps what the
// running step captured and skips the rest. The record is not stored: Save
// does that.
func Run(ctx context.Context, env *runner.Env, steps []Step, o Options) (*Record, error) {
	if err := Check(steps); err != nil {
		return nil, err
	}
	now := env.Now
	if now == nil {
		now = time.Now
	}
	rec := &Record{Kind: "seq", Version: Version, Exit: 0}
	// Finished steps' runs are stored together, one transaction for many,
	// once the last step has run or once a step has run longer than the
	// linger. Until then each finished step's spool holds its output and
	// exit status, so a ctx that dies mid-sequence loses none of them (the
	// next ctx command recovers them).
	batch := runner.NewBatch(env.Store)
	gens := runner.NewGenerations(env.Store)
	defer gens.Close()
	linger := o.Linger
	if linger <= 0 {
		linger = DefaultLinger
	}
	stop := false
	for i := range steps {
		s := &steps[i]
		r := StepResult{N: i + 1, Name: secrets.String(s.Name), Argv: secrets.Argv(s.Command()), Allowed: s.ContinueOnFailure}
		if stop || ctx.Err() != nil {
			r.State = StateSkipped
			rec.Steps = append(rec.Steps, r)
			continue
		}
		start := now()
		if err := keep(batch); err != nil {
			return nil, err
		}
		if i == len(steps)-1 {
			gens.Final()
		}
		wait := batch.FlushAfter(linger)
		runStep(ctx, env, s, &r, &o, batch, gens)
		r.Duration = Bucket(now().Sub(start))
		if err := wait(); err != nil {
			return nil, err
		}
		if r.Failed() {
			if rec.Exit == 0 {
				rec.Exit = r.Exit
			}
			stop = r.Error != "" || !(s.ContinueOnFailure || o.KeepGoing)
		}
		rec.Steps = append(rec.Steps, r)
	}
	// After an interrupt the record is still finished and stored: what ran
	// is kept.
	if err := finishRecord(context.WithoutCancel(ctx), env, rec, o.Digest, batch); err != nil {
		return nil, err
	}
	return rec, nil
}

// keep saves the results of the steps the batch holds in their spools
// before the next step runs (so a ctx that dies during it leaves them
// recoverable with their exit status), or, if that fails, stores them now.
func keep(batch *runner.Batch) error {
	if err := batch.Keep(); err != nil {
		return batch.Commit()
	}
	return nil
}

// finishRecord renders the record and stores it with the last steps' runs
// in one transaction. When more than one step failed, their digests are
// first redone at a shared budget, which reads their stored runs: then the
// runs are stored first and the record after, by Save.
func finishRecord(ctx context.Context, env *runner.Env, rec *Record, opts digest.Options, batch *runner.Batch) error {
	if len(failingDigests(rec)) > 1 {
		if err := batch.Commit(); err != nil {
			return err
		}
		if err := shareBudget(ctx, env, rec, opts); err != nil {
			return err
		}
		rec.render()
		return nil
	}
	rec.render()
	put, err := rec.layerPut()
	if err != nil {
		return err
	}
	rec.saved, err = batch.CommitWith(put)
	return err
}

// failingDigests are the failing steps that have a digest.
func failingDigests(rec *Record) []*StepResult {
	var failing []*StepResult
	for i := range rec.Steps {
		if r := &rec.Steps[i]; r.Failed() && r.res != nil && r.res.Digest != nil {
			failing = append(failing, r)
		}
	}
	return failing
}

// runStep captures one step into r.
// stepWords are a step's fields that stand for the command line's flags in
// the runner's hints: a step has no --shell or --cwd.
var stepWords = strings.NewReplacer("use --shell", `give the step as shell = "…"`, "--cwd", "the step's cwd")

func runStep(ctx context.Context, env *runner.Env, s *Step, r *StepResult, o *Options, batch *runner.Batch, gens *runner.Generations) {
	r.State = StateFailed
	dir, err := stepDir(o, s, r.N)
	if err != nil {
		r.Exit, r.Error = capture.ExitFailed, err.Error()
		return
	}
	r.Dir = runner.RelDir(env.Store.Root(), dir)
	stepEnv := *env
	stepEnv.Environ = append(slices.Clone(env.Environ), s.EnvList()...)
	res, err := runner.Capture(ctx, &stepEnv, &runner.Request{Argv: s.Command(), Dir: dir, Session: o.Session,
		Digest: o.Digest, Timeout: s.Deadline(o.Timeout), Grace: o.Grace, Pipe: o.Pipe, Batch: batch, Generations: gens})
	var se *capture.StartError
	switch {
	case errors.As(err, &se):
		r.Exit, r.Status, r.Error = se.Exit, "not-started", se.Error()+" ("+stepWords.Replace(runner.StartHint(se))+")"
		return
	case err != nil:
		// ctx's own failure (no spool, a full disk): what the step
		// printed is kept in its spool and recovered by the next command.
		r.Exit, r.Error = capture.ExitFailed, err.Error()
		return
	}
	r.res = res
	r.Exit, r.Status, r.Run, r.Receipt = res.Exit, res.Status, res.Run.ID.String(), res.Receipt()
	if res.Exit == 0 {
		r.State = StateOK
	}
	r.Headline = Headline(res)
}

// stepDir is the directory step n runs in: its cwd field, relative to the
// sequence's directory unless absolute, which must be a directory by the
// time the step starts (an earlier step may make it). The error names no
// absolute directory: it is part of the record, whose id it must not tie
// to where the work tree is.
func stepDir(o *Options, s *Step, n int) (string, error) {
	dir, err := runner.ResolveDir(o.Dir, s.Cwd)
	if err == nil {
		return dir, nil
	}
	where := ""
	if o.From != "" {
		where = " in " + o.From
	}
	return "", fmt.Errorf("step %d (%s)%s: its cwd field %q is not a directory: fix the step's cwd (relative to the directory ctx seq runs in, or absolute), or make the directory in an earlier step", n, s.Name, where, s.Cwd)
}

// shareBudget re-renders the failing steps' digests when more than one
// failed, each at its share of the one budget, so the sequence's findings
// fit the budget one digest would have had.
func shareBudget(ctx context.Context, env *runner.Env, rec *Record, opts digest.Options) error {
	failing := failingDigests(rec)
	if len(failing) < 2 {
		return nil
	}
	total := opts.Budget
	if total == 0 {
		for _, r := range failing {
			total = max(total, r.res.Digest.Contract.Ceiling)
		}
	}
	opts.Budget = max(1, total/len(failing))
	for _, r := range failing {
		d, err := runner.Redigest(ctx, env.Store, r.res.Run, opts)
		if err != nil {
			return err
		}
		r.res.Digest = d
		r.Receipt = d.Handle()
	}
	return nil
}
