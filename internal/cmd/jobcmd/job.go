package jobcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capture"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/store"
)

// ExitWaitTimeout is ctx job wait's status when --timeout passed first.
const ExitWaitTimeout = capture.ExitTimeout

// NewCmd is the ctx job command group.
func NewCmd(ios *cli.IO, env EnvFunc) *cobra.Command {
	c := &cobra.Command{
		Use:   "job",
		Short: "List, tail, wait for and stop background jobs (ctx run --bg)",
		Long: `A background job is a capture started with ctx run --bg: a detached ctx process
(its own session and process group, so it survives the shell that started it)
runs the command, spools its output as ctx run does and commits a normal run
when it ends.

Exit status of ctx job wait: the command's own once it ended; 124 if --timeout
passed first (the job keeps running); 125 if the job's supervisor died before
the command ended (what it captured is kept and stored by the next ctx command).
Other subcommands: 0, 1 no such job, 2 usage.`,
	}
	c.AddCommand(newLsCmd(ios), newShowCmd(ios), newTailCmd(ios), newWaitCmd(ios), newKillCmd(ios),
		&cobra.Command{Use: "supervise DIR", Hidden: true, Args: cli.ExactArgs(1, "ctx job supervise DIR"),
			RunE: func(cmd *cobra.Command, args []string) error { return supervise(cmd.Context(), ios, env, args[0]) }})
	return c
}

func newLsCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "ls",
		Short:   "List this store's jobs, newest first",
		Example: "  ctx job ls\n  ctx job ls --json",
		Args:    cli.ExactArgs(0, "ctx job ls"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := cli.OpenStore(ios, false)
			if errors.Is(err, store.ErrNotFound) {
				fmt.Fprintln(ios.Out, "no jobs: start one with ctx run --bg -- CMD")
				return nil
			} else if err != nil {
				return err
			}
			defer st.Close()
			jobs := job.List(st)
			if asJSON {
				return cli.WriteJSON(ios.Out, jsonJobs(jobs))
			}
			if len(jobs) == 0 {
				fmt.Fprintln(ios.Out, "no jobs: start one with ctx run --bg -- CMD")
				return nil
			}
			tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "JOB\tSTATE\tAGE\tRUN\tEXIT\tCOMMAND")
			for _, j := range jobs {
				run, exit := "-", "-"
				if j.Result != nil {
					run, exit = j.Result.Run, fmt.Sprint(j.Result.Exit)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", j.Handle(), j.State, job.Age(time.Since(j.Spec.Created)), run, exit, job.Command(j))
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the jobs as JSON")
	return c
}

func newShowCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "show job:ID",
		Short:   "Print a job's state, and its run once it ended",
		Example: "  ctx job show job:4766931c5f21\n  ctx job show --json job:4766931c5f21",
		Args:    cli.ExactArgs(1, "ctx job show job:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			j, err := open(ios, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return cli.WriteJSON(ios.Out, jsonJob(j))
			}
			fmt.Fprintln(ios.Out, job.Summary(j))
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the job as JSON")
	return c
}

func newTailCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	var n int
	var grep string
	c := &cobra.Command{
		Use:   "tail job:ID",
		Short: "Print the last lines a job printed so far",
		Long: `Print the last lines of each stream a job printed so far (--lines per stream,
default 20; --grep keeps matching lines only), from the last 64 KiB of each
stream. Lines are numbered as in the stream, so they are the same lines of the
run the job commits: once it ended, its run handle reads any of them.`,
		Example: "  ctx job tail job:4766931c5f21\n  ctx job tail --lines 50 --grep 'FAIL|error' job:4766931c5f21",
		Args:    cli.ExactArgs(1, "ctx job tail job:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var re *regexp.Regexp
			if grep != "" {
				var err error
				if re, err = regexp.Compile(grep); err != nil {
					return cli.Usagef("--grep: %v", err)
				}
			}
			if n <= 0 || n > 1000 {
				return cli.Usagef("--lines %d: want 1 to 1000", n)
			}
			j, err := open(ios, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				snap, lines, err := job.Tail(j, n, re)
				if err != nil {
					return err
				}
				return cli.WriteJSON(ios.Out, map[string]any{"job": jsonJob(j), "stdout_bytes": snap.Stdout.Bytes,
					"stdout_lines": snap.Stdout.Lines, "stderr_bytes": snap.Stderr.Bytes, "stderr_lines": snap.Stderr.Lines, "lines": lines})
			}
			return job.WriteTail(ios.Out, j, n, re)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the job and the lines as JSON")
	c.Flags().IntVar(&n, "lines", 20, "lines per stream (1 to 1000)")
	c.Flags().StringVar(&grep, "grep", "", "print only lines matching this regular expression (RE2)")
	return c
}

func newWaitCmd(ios *cli.IO) *cobra.Command {
	var timeout time.Duration
	var asJSON bool
	c := &cobra.Command{
		Use:     "wait job:ID",
		Short:   "Wait for a job to end, print its run's digest, exit with its status",
		Example: "  ctx job wait job:4766931c5f21\n  ctx job wait --timeout 2m job:4766931c5f21",
		Args:    cli.ExactArgs(1, "ctx job wait job:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.NonNegative("--timeout", timeout); err != nil {
				return err
			}
			j, err := open(ios, args[0])
			if err != nil {
				return err
			}
			return wait(cmd.Context(), ios, j, timeout, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the job with its result (run, exit, digest) as JSON")
	c.Flags().DurationVar(&timeout, "timeout", 0, "stop waiting after this long (0: until it ends); the job keeps running")
	return c
}

// wait waits for j and prints its digest; the status is the command's.
func wait(ctx context.Context, ios *cli.IO, j *job.Job, timeout time.Duration, asJSON bool) error {
	cur, err := job.Wait(ctx, j, timeout)
	switch {
	case errors.Is(err, job.ErrTimeout):
		fmt.Fprintf(ios.Err, "ctx: %s is still running after %s (ctx job tail %s shows its output so far)\n", j.Handle(), timeout, j.Handle())
		return &cli.ExitError{Code: ExitWaitTimeout}
	case err != nil:
		return err
	case cur.State == job.StateDead:
		return &cli.ExitError{Code: cli.ExitFailed, Err: fmt.Errorf("%s: %s", cur.Handle(), job.DeadNote(cur))}
	case cur.Result.Error != "":
		return &cli.ExitError{Code: cur.Result.Exit, Err: fmt.Errorf("%s: %s", cur.Handle(), cur.Result.Error)}
	}
	if cur.Result.Note != "" {
		fmt.Fprintf(ios.Err, "ctx: note: %s\n", cur.Result.Note)
	}
	if asJSON {
		if err := cli.WriteJSON(ios.Out, jsonJob(cur)); err != nil {
			return err
		}
	} else if _, err := io.WriteString(ios.Out, cur.Result.Digest); err != nil {
		return err
	}
	return &cli.ExitError{Code: cur.Result.Exit}
}

func newKillCmd(ios *cli.IO) *cobra.Command {
	var grace time.Duration
	var asJSON bool
	c := &cobra.Command{
		Use:     "kill job:ID",
		Short:   "Stop a job's command (TERM, grace, KILL), keep what it captured, print its digest",
		Example: "  ctx job kill job:4766931c5f21",
		Args:    cli.ExactArgs(1, "ctx job kill job:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			j, err := open(ios, args[0])
			if err != nil {
				return err
			}
			if err := job.Kill(j, grace); err != nil {
				return err
			}
			if j.State == job.StateDead {
				fmt.Fprintf(ios.Out, "%s: stopped what was left of it; %s\n", j.Handle(), job.DeadNote(j))
				return nil
			}
			return wait(cmd.Context(), ios, j, grace+30*time.Second, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the job with its result as JSON")
	c.Flags().DurationVar(&grace, "grace", 2*time.Second, "for a job whose supervisor died: time between SIGTERM and SIGKILL")
	return c
}

type jobJSON struct {
	Job    string      `json:"job"`
	State  string      `json:"state"`
	Argv   []string    `json:"argv"`
	Dir    string      `json:"dir"`
	Start  time.Time   `json:"created"`
	Result *job.Result `json:"result,omitempty"`
}

func jsonJob(j *job.Job) jobJSON {
	return jobJSON{Job: j.Handle(), State: j.State, Argv: j.Spec.Argv, Dir: j.Spec.Dir, Start: j.Spec.Created, Result: j.Result}
}

func jsonJobs(js []*job.Job) []jobJSON {
	out := []jobJSON{}
	for _, j := range js {
		out = append(out, jsonJob(j))
	}
	return out
}
