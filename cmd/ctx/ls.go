package main

import (
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/secrets"
	"github.com/ctxhq/ctx/store"
)

type lsOptions struct {
	n       int
	json    bool
	session string
}

func newLsCmd(ios *IO) *cobra.Command {
	o := &lsOptions{}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List recent executions",
		Long: `List recent executions, newest first: the run handle, exit status, output size,
age, and the command. The same run appears once per execution.

Exit status: 0 listed (an empty store lists nothing); 125 the store is locked
or damaged.`,
		Example: `  ctx ls
  ctx ls -n 50
  ctx ls --json | jq -r '.[0].run'`,
		Args: exactArgs(0, "ctx ls"),
		RunE: func(cmd *cobra.Command, args []string) error { return runLs(ios, o) },
	}
	c.Flags().IntVarP(&o.n, "number", "n", 20, "how many executions to list (0 for all)")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	c.Flags().StringVar(&o.session, "session", "", "only executions of this agent session")
	return c
}

type lsRow struct {
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
}

func runLs(ios *IO, o *lsOptions) error {
	st, err := openStore(ios, false)
	if err != nil {
		if !isNotFound(err) {
			return err
		}
		if o.json {
			return writeJSON(ios.Out, []lsRow{})
		}
		fmt.Fprintln(ios.Out, "no executions yet: run one with `ctx run -- CMD`")
		return nil
	}
	defer st.Close()
	execs, err := st.Execs(o.n, func(e *store.Exec) bool { return o.session == "" || e.Session == o.session })
	if err != nil {
		return err
	}
	rows := make([]lsRow, 0, len(execs))
	for _, ex := range execs {
		run, err := st.GetRun(ex.Run)
		if err != nil {
			continue
		}
		row := lsRow{Run: ex.Handle(), Argv: secrets.Argv(run.Manifest.Argv), Exit: run.Manifest.Exit, Status: run.Manifest.Status,
			Stdout: run.Manifest.Stdout.Size, Stderr: run.Manifest.Stderr.Size,
			Lines: run.Manifest.Stdout.Lines + run.Manifest.Stderr.Lines,
			Start: ex.Start, Duration: ex.Duration.Round(time.Millisecond).String(), Session: ex.Session, Cwd: secrets.String(ex.Cwd), Note: secrets.String(ex.Note)}
		if !ex.Receipt.IsZero() {
			row.Receipt = "receipt:" + ex.Receipt.Short()
		}
		rows = append(rows, row)
	}
	if o.json {
		return writeJSON(ios.Out, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(ios.Out, "no executions yet: run one with `ctx run -- CMD`")
		return nil
	}
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tEXIT\tOUTPUT\tAGE\tCOMMAND")
	now := time.Now()
	for _, r := range rows {
		exit := fmt.Sprint(r.Exit)
		if r.Status != store.StatusExited && r.Status != store.StatusIngested {
			exit += " " + r.Status
		}
		if r.Status == store.StatusRecovered {
			exit = "? recovered"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Run, exit, contract.Size(r.Stdout+r.Stderr), age(now.Sub(r.Start)), clipLine([]byte(quoteArgs(r.Argv)), 80))
	}
	return tw.Flush()
}

func age(d time.Duration) string {
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

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
