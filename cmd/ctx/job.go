package main

import (
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/internal/cmd/runcmd"
	"github.com/ctxhq/ctx/job"
)

// ctx job lives in internal/cmd/jobcmd; it registers here, so root.go's
// command list stays untouched by it.
func init() {
	commandOrder = append(commandOrder, "job")
	commands["job"] = func(ios *IO) *cobra.Command { return jobcmd.NewCmd(ios, runcmd.Env) }
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
