package taskcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/ledger"
)

type stewardOptions struct {
	task string
	act  bool
	json bool
}

func newStewardCmd(ios *cli.IO) *cobra.Command {
	o := &stewardOptions{}
	var codes strings.Builder
	for _, r := range ledger.Reasons {
		fmt.Fprintf(&codes, "  %-21s %-19s %s\n", r.Code, r.Classification, actionList(r.Actions))
	}
	c := &cobra.Command{
		Use:   "steward task:ID [--act]",
		Short: "Classify why a task's node stopped and record the decision (deterministic, not a model)",
		Long: `The steward reads a task's rows (and nothing else: the clock only decides
which recorded leases have expired) and concludes a classification, a reason
code and the only recovery actions that exist for it. It records that
decision as a ledger row before anything else; --act then takes the first
action when it is one the steward takes itself (requeue, raise_budget,
request_approval, send_input) and records it. raise_budget needs an approval
recorded after the last handback (ctx task approve), checked in code. The
same rows give the same decision bytes (--json prints them), recorded once:
run again with nothing changed, it adds no row and prints the decision row
(and action) already recorded.

Reason codes (closed list; docs/ledger.md):
` + codes.String() + `
Exit status: 0 the decision (and action) was recorded; 1 refused (no such
task, an action without its approval); 2 usage; 125 the store failed.`,
		Example: `  ctx steward task:3f2a9c01b7e4
  ctx steward task:3f2a9c01b7e4 --act --json`,
		Args: cli.ExactArgs(1, "ctx steward task:ID [--act]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.task = args[0]
			return runSteward(ios, o)
		},
	}
	c.Flags().BoolVar(&o.act, "act", false, "after recording the decision, take its first action if the steward takes it")
	c.Flags().BoolVar(&o.json, "json", false, "print the decision's canonical JSON (and the action row)")
	return c
}

func runSteward(ios *cli.IO, o *stewardOptions) error {
	id, err := parseTask(o.task)
	if err != nil {
		return err
	}
	return withLedger(ios, false, func(l *ledger.Ledger) error {
		d, row, act, err := l.Steward(id, o.act)
		if err != nil {
			return err
		}
		if o.json {
			// One line, the decision's canonical bytes verbatim: same rows, same bytes.
			a, err := json.Marshal(act)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(ios.Out, "{\"decision\":%s,\"row\":%d,\"action\":%s}\n", d.Bytes(), row.Seq, a)
			return err
		}
		fmt.Fprintf(ios.Out, "task:%s %s (%s); actions: %s; decision row %d\n", id, d.Classification, d.Reason, actionList(d.Actions), row.Seq)
		if act != nil {
			fmt.Fprintf(ios.Out, "acted: %s (row %d)\n", act.Action, act.Seq)
		}
		return nil
	})
}

// ---- MCP

type taskToolInput struct {
	Task string `json:"task" jsonschema:"the task handle, task:ID"`
}

type claimToolInput struct {
	Task  string `json:"task" jsonschema:"the task handle, task:ID"`
	By    string `json:"by" jsonschema:"who claims it (your agent name)"`
	Lease string `json:"lease,omitempty" jsonschema:"how long the claim lasts, like 30m (default 30m, at most 24h)"`
}

type handbackToolInput struct {
	Task        string   `json:"task" jsonschema:"the task handle, task:ID"`
	Kind        string   `json:"kind" jsonschema:"done, failed, blocked, over_budget, over_turns or low_confidence"`
	FailureKind string   `json:"failure_kind,omitempty" jsonschema:"why it stopped (required unless kind is done)"`
	Checkpoint  string   `json:"checkpoint,omitempty" jsonschema:"where the work stands: a handle, a commit, a branch"`
	Turns       int64    `json:"turns,omitempty" jsonschema:"turns spent in this claim"`
	Cost        float64  `json:"cost,omitempty" jsonschema:"cost spent in this claim"`
	Evidence    []string `json:"evidence,omitempty" jsonschema:"stored handles (run:ID, blob:ID) backing the handback"`
}

type verdictToolInput struct {
	Task string `json:"task" jsonschema:"the task handle, task:ID"`
	Pass bool   `json:"pass" jsonschema:"true when the acceptance run passed"`
	Run  string `json:"run" jsonschema:"the run:ID of the acceptance command"`
}

type stewardToolInput struct {
	Task string `json:"task" jsonschema:"the task handle, task:ID"`
	Act  bool   `json:"act,omitempty" jsonschema:"take the decision's first action if the steward takes it"`
}

// addLedgerTools registers the task ledger's MCP tools. Each calls the same
// run function as its command, so a tool and a command cannot disagree.
func addLedgerTools(s *mcp.Server, ios *cli.IO) {
	call := func(fn func(*cli.IO) error) (*mcp.CallToolResult, any, error) {
		var out, errb bytes.Buffer
		if err := fn(cli.Buffered(ios, &out, &errb)); err != nil {
			return hostsmcp.Error(err, errb.String()), nil, nil
		}
		return hostsmcp.Text(out.String()), nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "ctx_task_show", Description: `Show a task (by its task:ID handle) as JSON: state (derived
from its rows: done only with a passing verdict after the last change), acceptance commands,
budgets, lease holder, checkpoint, claims, handbacks, verdicts, decisions, inbox.`},
		func(ctx context.Context, req *mcp.CallToolRequest, in taskToolInput) (*mcp.CallToolResult, any, error) {
			return call(func(io *cli.IO) error { return runTaskShow(io, &taskShowOptions{task: in.Task, json: true}) })
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ctx_task_claim", Description: `Claim a task (by its task:ID handle) until a lease expires. Refused
while another live lease holds it. Renew long work with ctx task renew; hand back with
ctx_task_handback before the lease runs out, or the task reads as abandoned.`},
		func(ctx context.Context, req *mcp.CallToolRequest, in claimToolInput) (*mcp.CallToolResult, any, error) {
			lease := in.Lease
			if lease == "" {
				lease = "30m"
			}
			return call(func(io *cli.IO) error {
				return runTaskClaim(io, &taskClaimOptions{task: in.Task, by: in.By, lease: lease, json: true}, false)
			})
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ctx_task_handback", Description: `Hand a claimed task back with a typed exit
(kind: done, failed, blocked, over_budget, over_turns, low_confidence; failure_kind unless
done), the checkpoint to resume from, turns, cost and evidence handles (run:ID, blob:ID). done is not
completion: the task stays unverified until ctx_task_verdict records a passing acceptance run.`},
		func(ctx context.Context, req *mcp.CallToolRequest, in handbackToolInput) (*mcp.CallToolResult, any, error) {
			return call(func(io *cli.IO) error {
				return runTaskHandback(io, &taskHandbackOptions{task: in.Task, json: true, in: ledger.HandbackInput{Kind: in.Kind,
					FailureKind: in.FailureKind, Checkpoint: in.Checkpoint, Turns: in.Turns, Cost: in.Cost, Evidence: in.Evidence}})
			})
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ctx_task_verdict", Description: `Record whether a task's acceptance command
passed, with the run:ID handle from ctx_run. Checked in the store: the run must exist, be a run of
an acceptance command, have started after the task's last handback, and agree (pass needs exit 0).`},
		func(ctx context.Context, req *mcp.CallToolRequest, in verdictToolInput) (*mcp.CallToolResult, any, error) {
			return call(func(io *cli.IO) error {
				return runTaskVerdict(io, &taskVerdictOptions{task: in.Task, run: in.Run, pass: in.Pass, fail: !in.Pass, json: true})
			})
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ctx_task_resume", Description: `What you need to pick a task (task:ID handle) up: state,
the checkpoint to resume from, the last handback, the steward's last decision and the next action.`},
		func(ctx context.Context, req *mcp.CallToolRequest, in taskToolInput) (*mcp.CallToolResult, any, error) {
			return call(func(io *cli.IO) error { return runTaskResume(io, &taskShowOptions{task: in.Task, json: true}) })
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ctx_steward", Description: `Classify why a task's worker stopped
(deterministically, from the ledger; the task by its task:ID handle) and record the decision: classification, reason code,
the actions that exist. act takes the first action when the steward takes it itself.`},
		func(ctx context.Context, req *mcp.CallToolRequest, in stewardToolInput) (*mcp.CallToolResult, any, error) {
			return call(func(io *cli.IO) error { return runSteward(io, &stewardOptions{task: in.Task, act: in.Act, json: true}) })
		})
}
