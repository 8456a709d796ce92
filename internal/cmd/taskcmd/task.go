// Package taskcmd is ctx task and ctx steward: tasks with acceptance
// commands and budgets, claims, handbacks, verdicts, and the steward that
// says whether a task is done — as commands and MCP tools. The behaviour is
// package ledger's; this is its command-line face.
package taskcmd

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/continuity"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/continuitycmd"
	"github.com/ctxhq/ctx/internal/cmd/getcmd"
	"github.com/ctxhq/ctx/ledger"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

const taskExits = `Exit status: 0 the row was appended; 1 refused (the reason is printed: a
live lease, a verdict whose run does not prove the task, a field missing,
an unknown task); 2 usage; 125 the store failed (locked, damaged, or a
malformed ledger: run ctx task check).`

func newTaskCmd(ios *cli.IO) *cobra.Command {
	c := &cobra.Command{
		Use:   "task",
		Short: "The task ledger: tasks, claims, typed handbacks, verdicts, approvals, inbox",
		Long: `The task ledger is the record harnesses collaborate over. Harnesses never
address each other: they append rows (a task, a claim with a lease, a typed
handback, a verdict, an approval, an inbox message) and read the task's state,
which is derived from the rows every time and never stored. A task is done
only when a passing run of each acceptance command, newer than the task's last
change, is recorded as a verdict; a handback of done without one is
"unverified". Rows are hash-chained (ctx task log --verify) and checked
against one schema on write and on read; a malformed ledger is reported
(ctx task check), never repaired. docs/ledger.md has the schema and the
steward's reason codes.`,
		Example: `  ctx task new "fix the flaky test" --accept "go test ./store/..." --turns 40
  ctx task claim task:3f2a9c01b7e4 --by worker-1 --lease 30m
  ctx task handback task:3f2a9c01b7e4 --kind done --checkpoint git:1a2b3c --turns 12
  ctx run -- go test ./store/...
  ctx task verdict task:3f2a9c01b7e4 --pass --run run:ba3d1020ee8f
  ctx task show task:3f2a9c01b7e4 --json`,
	}
	for _, sub := range []func(*cli.IO) *cobra.Command{newTaskNewCmd, newTaskClaimCmd, newTaskRenewCmd, newTaskHandbackCmd,
		newTaskVerdictCmd, newTaskApproveCmd, newTaskShowCmd, newTaskLsCmd, newTaskLogCmd, newTaskResumeCmd,
		newTaskInboxCmd, newTaskCheckCmd} {
		c.AddCommand(sub(ios))
	}
	return c
}

// ledgerErr maps a ledger error to the task commands' exit statuses.
func ledgerErr(err error) error {
	var ue *cli.UsageError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return err
	case errors.Is(err, ledger.ErrRefused), errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrAmbiguous),
		errors.Is(err, store.ErrBadHandle):
		return cli.WithCode(cli.ExitBad, err)
	}
	return cli.WithCode(cli.ExitFailed, err)
}

// openLedger opens the store's ledger; create is for commands that append.
func openLedger(ios *cli.IO, create bool) (*ledger.Ledger, func(), error) {
	st, err := cli.OpenStore(ios, create)
	if err != nil {
		return nil, nil, err
	}
	exists := func(handle string) error { return getcmd.EvidenceExists(st, handle) }
	return &ledger.Ledger{St: st, Exists: exists}, func() { st.Close() }, nil
}

// withLedger runs fn on the ledger and maps its error.
func withLedger(ios *cli.IO, create bool, fn func(l *ledger.Ledger) error) error {
	l, done, err := openLedger(ios, create)
	if err != nil {
		return ledgerErr(err)
	}
	defer done()
	return ledgerErr(fn(l))
}

func taskArg(form string) cobra.PositionalArgs { return cli.ExactArgs(1, form) }

func parseTask(s string) (string, error) {
	id, err := ledger.ParseTaskID(s)
	return id, ledgerErr(err)
}

func parseLease(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil || d <= 0:
		return 0, cli.Usagef("--lease %q: want a positive duration like 30m", s)
	case d > ledger.MaxLease:
		return 0, cli.Usagef("--lease %s: at most %dh; renew the lease to keep long work (ctx task renew)", s, ledger.MaxLease/time.Hour)
	}
	return d, nil
}

// printRow prints an appended row: one line of text, or the row as JSON.
func printRow(w io.Writer, asJSON bool, row ledger.Row, line string) error {
	if asJSON {
		return cli.WriteJSON(w, row)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// ---- new

type taskNewOptions struct {
	title  string
	accept []string
	turns  int64
	cost   float64
	wall   string
	json   bool
}

func newTaskNewCmd(ios *cli.IO) *cobra.Command {
	o := &taskNewOptions{}
	c := &cobra.Command{
		Use:   "new TITLE --accept CMD [--accept CMD…] [--turns N] [--cost X] [--wall D]",
		Short: "Add a task and print its handle, task:ID",
		Long: `Add a task. --accept names a command whose passing run proves the task done
(repeat it for several: each must pass); a run proves it when its words are
the command's words (as sh splits them, quotes removed: --accept "go test
-run 'TestA|TestB' ./..." is proved by ctx run -- go test -run 'TestA|TestB'
./...; a command with $, globs or ~ only through --shell), or when it ran
the command with ctx run --shell, in the directory where the task was added (a run in
another directory proves something else). --turns, --cost and --wall are the budgets (0: none).
The id is derived from the title and the row's position, so it is the same
for the same ledger.

` + taskExits,
		Example: `  ctx task new "fix the flaky test" --accept "go test ./store/..." --turns 40 --wall 2h
  ctx task new "build and lint" --accept "make build" --accept "make lint"`,
		Args: taskArg(`ctx task new TITLE --accept CMD`),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.title = args[0]
			return runTaskNew(ios, o)
		},
	}
	c.Flags().StringArrayVar(&o.accept, "accept", nil, "an acceptance command (repeatable; at least one)")
	c.Flags().Int64Var(&o.turns, "turns", 0, "turn budget (0: none)")
	c.Flags().Float64Var(&o.cost, "cost", 0, "cost budget (0: none)")
	c.Flags().StringVar(&o.wall, "wall", "0s", "wall-time budget, like 2h (0s: none)")
	c.Flags().BoolVar(&o.json, "json", false, "print {\"task\": \"task:ID\"}")
	return c
}

func runTaskNew(ios *cli.IO, o *taskNewOptions) error {
	if strings.TrimSpace(o.title) == "" {
		return cli.Usagef("the title is empty: give the task a one-line summary, like ctx task new \"fix the flaky test\" --accept CMD")
	}
	if len(o.accept) == 0 {
		return cli.Usagef("ctx task new needs --accept CMD: the command whose passing run proves the task done")
	}
	if slices.ContainsFunc(o.accept, func(a string) bool { return strings.TrimSpace(a) == "" }) {
		return cli.Usagef("--accept \"\": an acceptance command is empty; give the command whose passing run proves the task done")
	}
	if d, err := time.ParseDuration(o.wall); err != nil || d < 0 {
		return cli.Usagef("--wall %q: want a duration like 2h", o.wall)
	}
	if o.turns < 0 || o.cost < 0 {
		return cli.Usagef("--turns and --cost cannot be negative")
	}
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	return withLedger(ios, true, func(l *ledger.Ledger) error {
		id, err := l.NewIn(runner.RelDir(l.St.Root(), cwd), o.title, o.accept, ledger.Budget{Turns: o.turns, Cost: o.cost, Wall: o.wall})
		if err != nil {
			return err
		}
		if o.json {
			return cli.WriteJSON(ios.Out, map[string]string{"task": "task:" + id})
		}
		_, err = fmt.Fprintf(ios.Out, "task:%s\n", id)
		return err
	})
}

// ---- claim and renew

type taskClaimOptions struct {
	task, by, lease, checkpoint string
	json                        bool
}

func newTaskClaimCmd(ios *cli.IO) *cobra.Command {
	o := &taskClaimOptions{}
	c := &cobra.Command{
		Use:   "claim task:ID --by NAME [--lease D]",
		Short: "Take a task until the lease expires; refused while another live lease holds it",
		Long: `Claim a task for NAME until now + --lease (default 30m, at most 24h: renew
long work). Refused while another claim's lease is live, and once the task
is done. A claim whose lease expires without a handback leaves the task
abandoned (never done): anyone may claim it again and resume from its
checkpoint (ctx task resume).

` + taskExits,
		Example: `  ctx task claim task:3f2a9c01b7e4 --by worker-1 --lease 30m`,
		Args:    taskArg("ctx task claim task:ID --by NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskClaim(ios, o, false)
		},
	}
	c.Flags().StringVar(&o.by, "by", "", "who claims it (required)")
	c.Flags().StringVar(&o.lease, "lease", "30m", "how long the claim lasts without a renew")
	c.Flags().BoolVar(&o.json, "json", false, "print the appended row as JSON")
	return c
}

func newTaskRenewCmd(ios *cli.IO) *cobra.Command {
	o := &taskClaimOptions{}
	c := &cobra.Command{
		Use:   "renew task:ID --by NAME [--lease D] [--checkpoint HANDLE]",
		Short: "Extend your live lease, optionally saving a checkpoint",
		Long: `Extend NAME's live lease to now + --lease (default 30m, at most 24h). --checkpoint saves
where the work stands, so a killed worker's task resumes from it. Refused
when NAME holds no live lease.

` + taskExits,
		Example: `  ctx task renew task:3f2a9c01b7e4 --by worker-1 --checkpoint git:1a2b3c`,
		Args:    taskArg("ctx task renew task:ID --by NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskClaim(ios, o, true)
		},
	}
	c.Flags().StringVar(&o.by, "by", "", "the lease holder (required)")
	c.Flags().StringVar(&o.lease, "lease", "30m", "the new lease, from now")
	c.Flags().StringVar(&o.checkpoint, "checkpoint", "", "where the work stands (a handle, a commit, a branch)")
	c.Flags().BoolVar(&o.json, "json", false, "print the appended row as JSON")
	return c
}

func runTaskClaim(ios *cli.IO, o *taskClaimOptions, renew bool) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	if o.by == "" {
		return cli.Usagef("give --by NAME: who holds the lease")
	}
	lease, err := parseLease(o.lease)
	if err != nil {
		return err
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		var row ledger.Row
		var err error
		if renew {
			row, err = l.Renew(id, o.by, lease, o.checkpoint)
		} else {
			row, err = l.Claim(id, o.by, lease)
		}
		if err != nil {
			return err
		}
		return printRow(ios.Out, o.json, row, fmt.Sprintf("task:%s %s by %s until %s", id, row.Kind+"ed", row.By, row.LeaseUntil))
	})
}

// ---- handback

type taskHandbackOptions struct {
	task string
	in   ledger.HandbackInput
	json bool
}

func newTaskHandbackCmd(ios *cli.IO) *cobra.Command {
	o := &taskHandbackOptions{}
	c := &cobra.Command{
		Use:   "handback task:ID --kind KIND [--failure-kind K] [--checkpoint HANDLE] [--turns N] [--cost X] [--evidence HANDLE…]",
		Short: "Record a worker's typed exit from a task it holds",
		Long: `Record the lease holder's exit. --kind is one of ` + strings.Join(ledger.HandbackKinds, ", ") + `;
--failure-kind (required unless the kind is done) one of
` + strings.Join(ledger.FailureKinds[1:], ", ") + `.
--checkpoint is where the work stands; --evidence names stored handles
(run:ID, blob:ID) that must exist. A handback of done is not completion: the
task stays "unverified" until a verdict records a passing acceptance run made
after this handback. Refused without a live lease (claim it first).

` + taskExits,
		Example: `  ctx task handback task:3f2a9c01b7e4 --kind done --checkpoint git:1a2b3c --turns 12
  ctx task handback task:3f2a9c01b7e4 --kind failed --failure-kind test_failure --evidence run:ba3d1020ee8f`,
		Args: taskArg("ctx task handback task:ID --kind KIND"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskHandback(ios, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.in.Kind, "kind", "", "the exit: "+strings.Join(ledger.HandbackKinds, ", "))
	f.StringVar(&o.in.FailureKind, "failure-kind", "", "why it stopped (required unless --kind done)")
	f.StringVar(&o.in.Checkpoint, "checkpoint", "", "where the work stands (a handle, a commit, a branch)")
	f.Int64Var(&o.in.Turns, "turns", 0, "turns spent in this claim")
	f.Float64Var(&o.in.Cost, "cost", 0, "cost spent in this claim")
	f.StringArrayVar(&o.in.Evidence, "evidence", nil, "a stored handle backing the handback (repeatable)")
	f.StringVar(&o.in.By, "by", "", "the lease holder (checked when given)")
	f.BoolVar(&o.json, "json", false, "print the appended row as JSON")
	return c
}

func runTaskHandback(ios *cli.IO, o *taskHandbackOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	if o.in.Kind == "" {
		return cli.Usagef("give --kind: one of %s", strings.Join(ledger.HandbackKinds, ", "))
	}
	if o.in.Turns < 0 || o.in.Cost < 0 {
		return cli.Usagef("--turns and --cost cannot be negative")
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		row, err := l.Handback(id, o.in)
		if err != nil {
			return err
		}
		t, err := l.Task(id)
		if err != nil {
			return err
		}
		return printRow(ios.Out, o.json, row, fmt.Sprintf("task:%s handed back %s (%s) by %s; state %s", id, row.Handback, row.FailureKind, row.By, t.State))
	})
}

// ---- verdict

type taskVerdictOptions struct {
	task, run  string
	pass, fail bool
	json       bool
}

func newTaskVerdictCmd(ios *cli.IO) *cobra.Command {
	o := &taskVerdictOptions{}
	c := &cobra.Command{
		Use:   "verdict task:ID --pass|--fail --run run:ID",
		Short: "Record an acceptance run's outcome, checked against the store",
		Long: `Record whether the task's acceptance command passed, with the run that shows
it. The run is checked in the store: it must exist, must be a run of one of
the task's acceptance commands, must have started after the task's last
change (its creation or its last handback), and must agree with the verdict:
--pass needs a run that exited 0; a failure, a timeout, a signal or an
ingested output never passes.

` + taskExits,
		Example: `  ctx run -- go test ./store/...
  ctx task verdict task:3f2a9c01b7e4 --pass --run run:ba3d1020ee8f`,
		Args: taskArg("ctx task verdict task:ID --pass|--fail --run run:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskVerdict(ios, o)
		},
	}
	c.Flags().BoolVar(&o.pass, "pass", false, "the acceptance command passed")
	c.Flags().BoolVar(&o.fail, "fail", false, "the acceptance command failed")
	c.Flags().StringVar(&o.run, "run", "", "the run:ID of the acceptance command (required)")
	c.Flags().BoolVar(&o.json, "json", false, "print the appended row as JSON")
	return c
}

func runTaskVerdict(ios *cli.IO, o *taskVerdictOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	if o.pass == o.fail {
		return cli.Usagef("give exactly one of --pass and --fail")
	}
	if o.run == "" {
		return cli.Usagef("give --run run:ID: the acceptance command's run")
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		row, err := l.Verdict(id, o.pass, o.run)
		if err != nil {
			return err
		}
		t, err := l.Task(id)
		if err != nil {
			return err
		}
		word := "fail"
		if row.Pass {
			word = "pass"
		}
		return printRow(ios.Out, o.json, row, fmt.Sprintf("task:%s verdict %s: run:%s ran %q; state %s", id, word, row.Run[:12], row.Proves, t.State))
	})
}

// ---- approve

type taskApproveOptions struct {
	task, by, action string
	json             bool
}

func newTaskApproveCmd(ios *cli.IO) *cobra.Command {
	o := &taskApproveOptions{}
	c := &cobra.Command{
		Use:   "approve task:ID --by NAME --action ACTION",
		Short: "Record an approval of one action on a task",
		Long: `Record that NAME approves ACTION (one of ` + strings.Join(ledger.ApprovalActions, ", ") + `) on the
task. It covers the task's current handback: the steward takes an action
that needs an approval only when it finds one recorded after the last
handback, and checks that in code.

` + taskExits,
		Example: `  ctx task approve task:3f2a9c01b7e4 --by lead --action raise_budget`,
		Args:    taskArg("ctx task approve task:ID --by NAME --action ACTION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskApprove(ios, o)
		},
	}
	c.Flags().StringVar(&o.by, "by", "", "who approves (required)")
	c.Flags().StringVar(&o.action, "action", "", "the approved action: "+strings.Join(ledger.ApprovalActions, ", "))
	c.Flags().BoolVar(&o.json, "json", false, "print the appended row as JSON")
	return c
}

func runTaskApprove(ios *cli.IO, o *taskApproveOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	if o.by == "" || o.action == "" {
		return cli.Usagef("give --by NAME and --action ACTION")
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		row, err := l.Approve(id, o.by, o.action)
		if err != nil {
			return err
		}
		return printRow(ios.Out, o.json, row, fmt.Sprintf("task:%s %s approved by %s (row %d)", id, row.Action, row.By, row.Seq))
	})
}

// ---- show, ls

type taskShowOptions struct {
	task, state string
	json        bool
}

func newTaskShowCmd(ios *cli.IO) *cobra.Command {
	o := &taskShowOptions{}
	c := &cobra.Command{
		Use:   "show task:ID [--json]",
		Short: "Show a task and its state, derived from the ledger",
		Long: `Show a task: its acceptance commands and budgets, its state (derived from the
rows now: ` + strings.Join(ledger.States, ", ") + `), the current lease,
the newest checkpoint, turns and cost summed over handbacks, and every claim,
handback, verdict, approval, decision and inbox message.

Exit status: 0 shown; 1 no such task; 2 usage; 125 the store failed.`,
		Example: `  ctx task show task:3f2a9c01b7e4
  ctx task show task:3f2a9c01b7e4 --json`,
		Args: taskArg("ctx task show task:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskShow(ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the task as JSON")
	return c
}

// taskJSON is a task as ctx task show --json prints it.
func taskJSON(t *ledger.Task) map[string]any {
	return map[string]any{"task": "task:" + t.ID, "title": t.Title, "accept": t.Accept, "budget": t.Budget,
		"state": t.State, "holder": t.Holder, "lease_until": t.LeaseUntil, "checkpoint": t.Checkpoint,
		"turns": t.Turns, "cost": t.Cost, "last_change": t.LastChange, "claims": t.Claims, "handbacks": t.Handbacks,
		"verdicts": t.Verdicts, "approvals": t.Approvals, "decisions": t.Decisions, "actions": t.Actions,
		"inbox": t.Inbox}
}

func runTaskShow(ios *cli.IO, o *taskShowOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		t, err := l.Task(id)
		if err != nil {
			return err
		}
		if o.json {
			return cli.WriteJSON(ios.Out, taskJSON(t))
		}
		w := ios.Out
		fmt.Fprintf(w, "task:%s %s\n  state: %s\n  accept: %s\n", t.ID, cmdline.Escape(t.Title), t.State, cmdline.Escape(strings.Join(t.Accept, "; ")))
		if t.Holder != "" {
			fmt.Fprintf(w, "  lease: %s until %s\n", t.Holder, t.LeaseUntil)
		}
		if t.Checkpoint != "" {
			fmt.Fprintf(w, "  checkpoint: %s\n", cmdline.Escape(t.Checkpoint))
		}
		fmt.Fprintf(w, "  spent: %d turns, cost %g (budget %d turns, cost %g, wall %s)\n", t.Turns, t.Cost, t.Budget.Turns, t.Budget.Cost, t.Budget.Wall)
		fmt.Fprintf(w, "  rows: %d claims, %d handbacks, %d verdicts, %d approvals, %d decisions, %d inbox\n",
			len(t.Claims), len(t.Handbacks), len(t.Verdicts), len(t.Approvals), len(t.Decisions), len(t.Inbox))
		if hb := t.LastHandback(); hb != nil {
			fmt.Fprintf(w, "  last handback: %s (%s) by %s, row %d\n", hb.Handback, hb.FailureKind, cmdline.Escape(hb.By), hb.Seq)
		}
		return nil
	})
}

func newTaskLsCmd(ios *cli.IO) *cobra.Command {
	o := &taskShowOptions{}
	c := &cobra.Command{
		Use:   "ls [--state STATE] [--json]",
		Short: "List tasks with their derived states",
		Long: `List every task, oldest first: handle, state, holder and title. --state keeps
one state (` + strings.Join(ledger.States, ", ") + `); its count is the
number of tasks in that derived state, never a count of iterations.

Exit status: 0 listed; 2 usage; 125 the store failed.`,
		Example: `  ctx task ls
  ctx task ls --state unverified --json`,
		Args: cli.ExactArgs(0, "ctx task ls [--state STATE]"),
		RunE: func(cmd *cobra.Command, args []string) error { return runTaskLs(ios, o) },
	}
	c.Flags().StringVar(&o.state, "state", "", "only tasks in this state")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

func runTaskLs(ios *cli.IO, o *taskShowOptions) error {
	if o.state != "" && !containsStr(ledger.States, o.state) {
		return cli.Usagef("--state %q: want one of %s", o.state, strings.Join(ledger.States, ", "))
	}
	l, done, err := openLedger(ios, false)
	if errors.Is(err, store.ErrNotFound) {
		l, err = nil, nil // no store: no tasks
	}
	if err != nil {
		return ledgerErr(err)
	}
	var tasks []*ledger.Task
	if l != nil {
		defer done()
		if tasks, err = l.Tasks(); err != nil {
			return ledgerErr(err)
		}
	}
	var keep []*ledger.Task
	for _, t := range tasks {
		if o.state == "" || t.State == o.state {
			keep = append(keep, t)
		}
	}
	if o.json {
		out := []map[string]any{}
		for _, t := range keep {
			out = append(out, map[string]any{"task": "task:" + t.ID, "title": t.Title, "state": t.State, "holder": t.Holder})
		}
		return cli.WriteJSON(ios.Out, out)
	}
	for _, t := range keep {
		fmt.Fprintf(ios.Out, "task:%s  %-19s %-12s %s\n", t.ID, t.State, cmdline.Escape(t.Holder), cmdline.Escape(t.Title))
	}
	return nil
}

func containsStr(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// ---- log, check

type taskLogOptions struct {
	task   string
	verify bool
	json   bool
}

func newTaskLogCmd(ios *cli.IO) *cobra.Command {
	o := &taskLogOptions{}
	c := &cobra.Command{
		Use:   "log task:ID [--verify]",
		Short: "Print a task's chained rows, or re-derive the ledger's chain",
		Long: `Print the task's rows as JSON Lines, oldest first, as stored: each carries
"seq" and "chain" (the continuity log's recipe: the first 32 hex digits of
SHA-256(previous chain + json.dumps(row without "chain", ensure_ascii=False,
sort_keys=True)), from "genesis"). The chain runs through every task's rows,
so --verify re-derives the whole ledger's chain and names the first row that
does not match (edited, deleted or reordered).

Exit status: 0 printed, or the chain holds; 1 no such task; 3 the chain is
broken; 125 the store failed.`,
		Example: `  ctx task log task:3f2a9c01b7e4
  ctx task log task:3f2a9c01b7e4 --verify`,
		Args: taskArg("ctx task log task:ID [--verify]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskLog(ios, o)
		},
	}
	c.Flags().BoolVar(&o.verify, "verify", false, "re-derive the chain and name the first row that does not match")
	c.Flags().BoolVar(&o.json, "json", false, "with --verify: print the result as JSON")
	return c
}

func runTaskLog(ios *cli.IO, o *taskLogOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	l, done, err := openLedger(ios, false)
	if err != nil {
		return ledgerErr(err)
	}
	defer done()
	texts, err := ledger.RawRows(l.St)
	if err != nil {
		return ledgerErr(err)
	}
	if o.verify {
		b := continuity.VerifyRows(texts)
		if o.json {
			out := map[string]any{"rows": len(texts), "intact": b == nil, "head": continuitycmd.Head(texts)}
			if b != nil {
				out["break"] = b
			}
			if err := cli.WriteJSON(ios.Out, out); err != nil {
				return err
			}
		} else if b == nil {
			fmt.Fprintf(ios.Out, "chain intact: %d rows re-derive from %q\nhead %s\n", len(texts), continuity.Genesis, continuitycmd.Head(texts))
		} else {
			fmt.Fprintf(ios.Out, "chain broken at row %d of %d: %s\n", b.Row, len(texts), b.Reason)
		}
		if b != nil {
			return &cli.ExitError{Code: continuitycmd.ExitNotFaithful}
		}
		return nil
	}
	found := false
	for _, text := range texts {
		v, err := continuity.ParseJSON(text)
		m, _ := v.(map[string]any)
		if err != nil || m == nil {
			return cli.WithCode(cli.ExitFailed, fmt.Errorf("a ledger row is not JSON: %w (run ctx task check)", ledger.ErrMalformed))
		}
		if m["task"] == id {
			found = true
			fmt.Fprintf(ios.Out, "%s\n", text)
		}
	}
	if !found {
		return cli.WithCode(cli.ExitBad, fmt.Errorf("task:%s: %w", id, store.ErrNotFound))
	}
	return nil
}

func newTaskCheckCmd(ios *cli.IO) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "check",
		Short: "Check every ledger row against the chain and the schema; repair nothing",
		Long: `Re-derive the ledger's chain and check every row against schema version ` + fmt.Sprint(ledger.Version) + `.
The first row that fails is named with the field at fault; nothing is
changed. A malformed ledger stops every task command (exit 125) until the
store is restored from a copy: ctx never "repairs" a ledger.

Exit status: 0 every row holds; 3 a row is malformed; 125 the store failed.`,
		Example: `  ctx task check`,
		Args:    cli.ExactArgs(0, "ctx task check"),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, done, err := openLedger(ios, false)
			if errors.Is(err, store.ErrNotFound) {
				fmt.Fprintln(ios.Out, "ledger intact: 0 rows")
				return nil
			}
			if err != nil {
				return ledgerErr(err)
			}
			defer done()
			n, err := ledger.Check(l.St)
			if err != nil && !errors.Is(err, ledger.ErrMalformed) {
				return ledgerErr(err)
			}
			if asJSON {
				out := map[string]any{"rows": n, "schema": ledger.Version, "intact": err == nil}
				if err != nil {
					out["error"] = err.Error()
				}
				if werr := cli.WriteJSON(ios.Out, out); werr != nil {
					return werr
				}
			} else if err != nil {
				fmt.Fprintf(ios.Out, "ledger malformed: %v\n", err)
			} else {
				fmt.Fprintf(ios.Out, "ledger intact: %d rows, schema %d\n", n, ledger.Version)
			}
			if err != nil {
				return &cli.ExitError{Code: continuitycmd.ExitNotFaithful}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print {rows, schema, intact, error}")
	return c
}

// ---- resume

func newTaskResumeCmd(ios *cli.IO) *cobra.Command {
	o := &taskShowOptions{}
	c := &cobra.Command{
		Use:   "resume task:ID [--json]",
		Short: "What a worker needs to pick a task up: checkpoint, last handback, decisions, next action",
		Long: `Print what a worker resuming the task needs: its state, the newest checkpoint
(from a handback or a renew), the last handback, the steward's last recorded
decision, and the steward's reading now with the next action (not recorded:
run ctx steward to record it).

Exit status: 0 shown; 1 no such task; 2 usage; 125 the store failed.`,
		Example: `  ctx task resume task:3f2a9c01b7e4 --json`,
		Args:    taskArg("ctx task resume task:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskResume(ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

func runTaskResume(ios *cli.IO, o *taskShowOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		rows, err := l.Rows()
		if err != nil {
			return err
		}
		r, err := ledger.Resume(rows, id, time.Now())
		if err != nil {
			return err
		}
		if o.json {
			return cli.WriteJSON(ios.Out, map[string]any{"task": "task:" + id, "state": r.State, "checkpoint": r.Checkpoint,
				"last_handback": r.LastHandback, "last_decision": r.LastDecision, "next": r.Next})
		}
		w := ios.Out
		fmt.Fprintf(w, "task:%s %s\n  state: %s\n", id, cmdline.Escape(r.Task.Title), r.State)
		if r.Checkpoint != "" {
			fmt.Fprintf(w, "  checkpoint: %s\n", cmdline.Escape(r.Checkpoint))
		} else {
			fmt.Fprintf(w, "  checkpoint: none (start from the beginning)\n")
		}
		if hb := r.LastHandback; hb != nil {
			fmt.Fprintf(w, "  last handback: %s (%s) by %s, %d turns\n", hb.Handback, hb.FailureKind, cmdline.Escape(hb.By), hb.Turns)
		}
		if d := r.LastDecision; d != nil {
			fmt.Fprintf(w, "  last decision: %s (%s), row %d\n", d.Classification, d.Reason, d.Seq)
		}
		fmt.Fprintf(w, "  next: %s (%s); actions: %s\n", r.Next.Classification, r.Next.Reason, actionList(r.Next.Actions))
		return nil
	})
}

func actionList(a []string) string {
	if len(a) == 0 {
		return "none"
	}
	return strings.Join(a, ", ")
}

// ---- inbox

type taskInboxOptions struct {
	task, send, from string
	json             bool
}

func newTaskInboxCmd(ios *cli.IO) *cobra.Command {
	o := &taskInboxOptions{}
	c := &cobra.Command{
		Use:   "inbox task:ID [--send TEXT --from NAME] [--json]",
		Short: "Read a task's inbox, or send it a message",
		Long: `A message is addressed to a task, never to a harness: whoever works on the
task reads it here. --send appends one (with --from).

` + taskExits,
		Example: `  ctx task inbox task:3f2a9c01b7e4
  ctx task inbox task:3f2a9c01b7e4 --send "the fixture is in testdata/big.log" --from lead`,
		Args: taskArg("ctx task inbox task:ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runTaskInbox(ios, o)
		},
	}
	c.Flags().StringVar(&o.send, "send", "", "append this message")
	c.Flags().StringVar(&o.from, "from", "", "who sends it (with --send)")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

func runTaskInbox(ios *cli.IO, o *taskInboxOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	if o.send != "" && o.from == "" {
		return cli.Usagef("give --from NAME with --send")
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		if o.send != "" {
			row, err := l.Send(id, o.from, o.send)
			if err != nil {
				return err
			}
			return printRow(ios.Out, o.json, row, fmt.Sprintf("task:%s message from %s (row %d)", id, row.From, row.Seq))
		}
		t, err := l.Task(id)
		if err != nil {
			return err
		}
		if o.json {
			return cli.WriteJSON(ios.Out, t.Inbox)
		}
		for _, m := range t.Inbox {
			fmt.Fprintf(ios.Out, "row %d from %s: %s\n", m.Seq, cmdline.Escape(m.From), cmdline.Escape(m.Text))
		}
		return nil
	})
}
