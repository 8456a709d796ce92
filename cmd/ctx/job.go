package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/job"
)

// ctx job lives in internal/cmd/jobcmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "job")
	commands["job"] = func(ios *IO) *cobra.Command { return jobcmd.NewCmd(ios, runEnv) }
}

// startJob is ctx run --bg: the capture continues in a detached supervisor.
func startJob(ios *IO, o *runOptions, argv []string, dir string, capBytes int64) error {
	if o.stdin != "" {
		return usagef("--bg takes no --stdin: a background job's stdin is /dev/null")
	}
	if o.json {
		return usagef("--bg prints the job handle; ctx job wait job:ID prints the digest (ctx job show --json the record)")
	}
	p := o.pressure
	if p == "" {
		p = ios.Getenv("CTX_PRESSURE")
	}
	return jobcmd.Start(ios, job.Spec{Argv: argv, Dir: dir, Timeout: o.timeout, Grace: o.grace, Pipe: o.pipe, Cap: capBytes,
		Budget: o.budget, Pressure: p, Profile: o.profile, Session: ios.Getenv("CTX_SESSION")})
}

// runningLabel is how ctx ls names an in-flight capture: its job: handle
// when a background job's supervisor runs it, else "running".
func runningLabel(jobs []*job.Job, pid int) string {
	for _, j := range jobs {
		if j.State == job.StateRunning && j.Supervisor != nil && j.Supervisor.PID == pid {
			return j.Handle()
		}
	}
	return "running"
}
