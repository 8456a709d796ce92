// Package lscmd holds ctx ls: recent executions of this workspace's store, or of
// every store ctx knows (--all), and the captures still running.
package lscmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/retrieve"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

type lsOptions struct {
	n       int
	json    bool
	session string
	failed  bool
	cmd     string
	since   string
	running bool
	all     bool
}

// NewCmd is ctx ls.
func NewCmd(ios *cli.IO) *cobra.Command {
	o := &lsOptions{}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List recent executions",
		Long: `List recent executions, newest first: the run handle, exit status, output size,
age, and the command. The same run appears once per execution.

--failed keeps executions that did not succeed (a non-zero exit, a timeout, a
signal, an interruption); --cmd keeps those whose command line contains the
text; --since keeps those started within a duration (90m, 2h, 3d) or since a
date (2026-11-30, or RFC 3339). -n counts what is left after the filters.

--all lists every workspace's store that ctx has used (the per-user index
under $XDG_STATE_HOME/ctx), newest first across them, with a WORKSPACE column.

Captures still running are listed first (RUN "running", with the output so
far); --running lists only them (with --json: their argv, start, pid and
bytes so far).

Exit status: 0 listed (an empty store lists nothing); 2 usage error; 125 the
store is locked or damaged.`,
		Example: `  ctx ls
  ctx ls -n 50
  ctx ls --failed --since 2h
  ctx ls --cmd 'go test'
  ctx ls --json | jq -r '.[0].run'`,
		Args: cli.ExactArgs(0, "ctx ls"),
		RunE: func(cmd *cobra.Command, args []string) error { return runLs(ios, o) },
	}
	c.Flags().IntVarP(&o.n, "number", "n", 20, "how many executions to list (0 for all)")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	c.Flags().StringVar(&o.session, "session", "", "only executions of this agent session")
	c.Flags().BoolVar(&o.all, "all", false, "list the executions of every store in the per-user index, not only this workspace's")
	c.Flags().BoolVar(&o.running, "running", false, "only the captures running now")
	c.Flags().BoolVar(&o.failed, "failed", false, "only executions that failed (non-zero exit, timeout, signal)")
	c.Flags().StringVar(&o.cmd, "cmd", "", "only executions whose command line contains this `TEXT`")
	c.Flags().StringVar(&o.since, "since", "", "only executions started within this `AGE` (90m, 2h, 3d) or since a date (2026-11-30)")
	return c
}

// Row is one execution as ctx ls --json prints it.
type Row struct {
	Run      string    `json:"run"`
	Argv     []string  `json:"argv"`
	Exit     int       `json:"exit"`
	Status   string    `json:"status"`
	Stdout   int64     `json:"stdout_bytes"`
	Stderr   int64     `json:"stderr_bytes"`
	Lines    int64     `json:"lines"`
	Start    time.Time `json:"start"`
	Duration string    `json:"duration"`
	Receipt  string    `json:"receipt,omitempty"`
	Session  string    `json:"session,omitempty"`
	Cwd      string    `json:"cwd"`
	Note     string    `json:"note,omitempty"`
	Store    string    `json:"store,omitempty"` // with --all: the store directory
}

// parseSince reads --since: a duration back from now (Go syntax, or N with a
// d suffix for days), a date, or an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(s, "d")); err == nil && strings.HasSuffix(s, "d") && n >= 0 {
		return now.AddDate(0, 0, -n), nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, cli.Usagef("--since %q: want an age like 90m, 2h or 3d, a date like 2026-11-30, or an RFC 3339 time", s)
}

// failed reports whether a run did not succeed.
func failed(m store.Manifest) bool {
	return m.Exit != 0 || m.Status != store.StatusExited && m.Status != store.StatusIngested
}

func runLs(ios *cli.IO, o *lsOptions) error {
	if o.n < 0 {
		return cli.Usagef("-n %d: want how many executions to list, 0 for all", o.n)
	}
	var since time.Time
	if o.since != "" {
		var err error
		if since, err = parseSince(o.since, time.Now()); err != nil {
			return err
		}
	}
	st, err := cli.OpenStore(ios, false)
	if o.all && (err == nil || notFound(err)) {
		if err == nil {
			st.Close()
		}
		return listAll(ios, o, since)
	}
	if err != nil {
		if !notFound(err) {
			return err
		}
		if o.json {
			return cli.WriteJSON(ios.Out, []Row{})
		}
		fmt.Fprintln(ios.Out, "no executions yet: run one with `ctx run -- CMD`")
		return nil
	}
	defer st.Close()
	var live []store.InFlight
	if !o.failed && o.cmd == "" && o.session == "" && o.since == "" {
		live = st.InFlight()
	}
	if o.running {
		return listRunning(ios, o, live)
	}
	rows, err := lsRows(st, o, since)
	if err != nil {
		return err
	}
	if o.json {
		return cli.WriteJSON(ios.Out, rows)
	}
	if len(rows) == 0 && len(live) == 0 {
		if o.failed || o.cmd != "" || o.since != "" || o.session != "" {
			fmt.Fprintln(ios.Out, "no executions match")
			return nil
		}
		fmt.Fprintln(ios.Out, "no executions yet: run one with `ctx run -- CMD`")
		return nil
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tEXIT\tOUTPUT\tAGE\tCOMMAND")
	now := time.Now()
	jobs := job.List(st)
	for i := len(live) - 1; i >= 0; i-- { // newest first, like the rest
		r := live[i]
		fmt.Fprintf(tw, "%s\t…\t%s\t%s\t%s\n", runningLabel(jobs, r.PID), contract.Size(r.Stdout+r.Stderr), Age(now.Sub(r.Started)), retrieve.ClipLine([]byte(cmdline.Display(secrets.Argv(r.Argv))), 80))
	}
	for _, r := range rows {
		exit := fmt.Sprint(r.Exit)
		if store.Status(r.Status) != store.StatusExited && store.Status(r.Status) != store.StatusIngested {
			exit += " " + r.Status
		}
		if store.Status(r.Status) == store.StatusRecovered {
			exit = "? recovered"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Run, exit, contract.Size(r.Stdout+r.Stderr), Age(now.Sub(r.Start)), retrieve.ClipLine([]byte(cmdline.Display(r.Argv)), 80))
	}
	return tw.Flush()
}

// lsRows reads one store's executions, newest first, filtered.
func lsRows(st *store.Store, o *lsOptions, since time.Time) ([]Row, error) {
	limit := o.n
	if o.failed {
		limit = 0 // the run record decides; count after reading it
	}
	execs, err := st.Execs(limit, func(e *store.Exec) bool {
		return (o.session == "" || e.Session == o.session) && (since.IsZero() || !e.Start.Before(since)) &&
			// --cmd matches the command line as ls shows it, redacted: matching
			// the raw one would let a guess confirm a secret.
			(o.cmd == "" || strings.Contains(cli.QuoteArgs(secrets.Argv(e.Argv)), o.cmd))
	})
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(execs))
	for _, ex := range execs {
		if o.n > 0 && len(rows) == o.n {
			break
		}
		run, err := st.GetRun(ex.Run)
		if err != nil || o.failed && !failed(run.Manifest) {
			continue
		}
		row := Row{Run: ex.Handle(), Argv: secrets.Argv(run.Manifest.Argv), Exit: run.Manifest.Exit, Status: string(run.Manifest.Status),
			Stdout: run.Manifest.Stdout.Size, Stderr: run.Manifest.Stderr.Size,
			Lines: run.Manifest.Stdout.Lines + run.Manifest.Stderr.Lines,
			Start: ex.Start, Duration: ex.Duration.Round(time.Millisecond).String(), Session: ex.Session, Cwd: secrets.String(ex.Cwd), Note: secrets.String(ex.Note)}
		if !ex.Receipt.IsZero() {
			row.Receipt = "receipt:" + ex.Receipt.Short()
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// listAll lists the executions of this workspace's store and of every store
// in the per-user index, newest first across them. A store that cannot be
// read is named on stderr and skipped.
func listAll(ios *cli.IO, o *lsOptions, since time.Time) error {
	dirs := store.Indexed()
	if cwd, err := ios.Getwd(); err == nil {
		if loc, err := store.Locate(cwd); err == nil && !slices.Contains(dirs, loc.Dir) {
			if st, err := store.Open(loc, false); err == nil {
				st.Close()
				dirs = append([]string{loc.Dir}, dirs...)
			}
		}
	}
	var rows []Row
	for _, dir := range dirs {
		st, err := store.OpenDir(dir)
		if err != nil {
			fmt.Fprintf(ios.Err, "ctx: skipping the store %s: %v\n", dir, err)
			continue
		}
		rs, err := lsRows(st, o, since)
		st.Close()
		if err != nil {
			fmt.Fprintf(ios.Err, "ctx: skipping the store %s: %v\n", dir, err)
			continue
		}
		for i := range rs {
			rs[i].Store = dir
		}
		rows = append(rows, rs...)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Start.After(rows[j].Start) })
	if o.n > 0 && len(rows) > o.n {
		rows = rows[:o.n]
	}
	if o.json {
		if rows == nil {
			rows = []Row{}
		}
		return cli.WriteJSON(ios.Out, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(ios.Out, "no executions in any known store")
		return nil
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tEXIT\tOUTPUT\tAGE\tWORKSPACE\tCOMMAND")
	now := time.Now()
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", r.Run, r.Exit, contract.Size(r.Stdout+r.Stderr), Age(now.Sub(r.Start)),
			filepath.Dir(r.Store), retrieve.ClipLine([]byte(cmdline.Display(r.Argv)), 60))
	}
	return tw.Flush()
}

// listRunning prints the captures running now, newest first.
func listRunning(ios *cli.IO, o *lsOptions, live []store.InFlight) error {
	slices.Reverse(live)
	if o.json {
		if live == nil {
			live = []store.InFlight{}
		}
		return cli.WriteJSON(ios.Out, live)
	}
	if len(live) == 0 {
		fmt.Fprintln(ios.Out, "nothing running")
		return nil
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PID\tOUTPUT\tAGE\tCOMMAND")
	for _, r := range live {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", r.PID, contract.Size(r.Stdout+r.Stderr), Age(time.Since(r.Started)), retrieve.ClipLine([]byte(cmdline.Display(secrets.Argv(r.Argv))), 80))
	}
	return tw.Flush()
}

// Age is how ctx ls prints how long ago something started.
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func notFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

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

// List prints the n most recent executions as ctx ls does (the MCP server's
// ctx_ls).
func List(ios *cli.IO, n int) error { return runLs(ios, &lsOptions{n: n}) }

// ListJSON prints them as ctx ls --json does (ctx ui's run list).
func ListJSON(ios *cli.IO, n int) error { return runLs(ios, &lsOptions{n: n, json: true}) }
