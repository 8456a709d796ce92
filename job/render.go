package job

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"time"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/secrets"
)

// Summary is a job's one-line state.
func Summary(j *Job) string {
	s := fmt.Sprintf("%s · %s · %s", j.Handle(), j.State, Command(j))
	switch {
	case j.Result != nil && j.Result.Error != "":
		s += fmt.Sprintf(" · exit %d · ctx: %s", j.Result.Exit, secrets.String(j.Result.Error))
	case j.Result != nil:
		s += fmt.Sprintf(" · exit %d · %s", j.Result.Exit, j.Result.Run)
	case j.State == StateDead:
		s += " · " + DeadNote(j)
	default:
		s += " · running for " + Age(time.Since(j.Spec.Created))
	}
	return s
}

// Command is the job's command line as an agent may read it: redacted.
func Command(j *Job) string { return cmdline.Display(secrets.Argv(j.Spec.Argv)) }

// Committed is the run handle a job committed: "" while it runs, an error
// when it ended without one (ctx failed, or its supervisor died).
func (j *Job) Committed() (string, error) {
	switch {
	case j.Result != nil && j.Result.Error != "":
		return "", fmt.Errorf("%s ended without a run: ctx: %s", j.Handle(), j.Result.Error)
	case j.Result != nil && j.Result.Run != "":
		return j.Result.Run, nil
	case j.State == StateDead:
		return "", fmt.Errorf("%s: %s", j.Handle(), DeadNote(j))
	}
	return "", nil
}

// DeadNote says what became of a job whose supervisor died. One that never
// recorded itself (no supervisor.json) died before it ran the command: there
// is no pid to name and nothing was captured.
func DeadNote(j *Job) string {
	if j.Supervisor == nil {
		return fmt.Sprintf("its supervisor never started (it recorded no pid; %s says why): the command did not run and nothing was captured", filepath.Join(j.Dir, "supervisor.log"))
	}
	return fmt.Sprintf("its supervisor (pid %d) died before the command ended; what it captured is kept in its spool and stored as a recovered run by the next ctx command (ctx ls)", j.Supervisor.PID)
}

// WriteTail writes the last n lines per stream of what a job printed so
// far (matching re), numbered as in its streams, with its state.
func WriteTail(w io.Writer, j *Job, n int, re *regexp.Regexp) error {
	snap, lines, err := Tail(j, n, re)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s · %s · stdout %s/%d lines · stderr %s/%d lines\n", j.Handle(), j.State,
		contract.Size(snap.Stdout.Bytes), snap.Stdout.Lines, contract.Size(snap.Stderr.Bytes), snap.Stderr.Lines)
	for _, l := range lines {
		fmt.Fprintf(w, "%s:L%d  %s\n", l.Stream, l.N, l.Text)
	}
	switch {
	case j.Result != nil && j.Result.Run != "":
		fmt.Fprintf(w, "ended: exit %d · ctx get %s#stdout:L1-%d for the whole output · ctx job wait %s for its digest\n", j.Result.Exit, j.Result.Run, max(1, snap.Stdout.Lines), j.Handle())
	case j.State == StateDead:
		fmt.Fprintln(w, DeadNote(j))
	default:
		fmt.Fprintf(w, "running for %s · ctx get %s#stdout:L1-%d reads lines so far (the same lines of the run it commits)\n", Age(time.Since(j.Spec.Created)), j.Handle(), max(1, snap.Stdout.Lines))
	}
	return nil
}

// Age is a coarse elapsed time (12s, 3m, 2h).
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}
