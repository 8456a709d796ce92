package ledger

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ctxhq/ctx/continuity"
)

// Classifications is the closed list of what the steward can conclude.
var Classifications = []string{"ready", "in_progress", "done", "needs_verification", "retry_same", "retry_smaller",
	"escalate_budget", "blocked_on_input", "needs_approval", "abandoned"}

// Reason is one reason code: why the steward concluded a classification, and
// the only actions that exist for it. docs/ledger.md lists the same table.
type Reason struct {
	Code           string
	Classification string
	Actions        []string
	Doc            string
}

// Reasons is the closed list of reason codes.
var Reasons = []Reason{
	{"unclaimed", "ready", []string{"claim"}, "nobody has claimed the task"},
	{"lease_live", "in_progress", []string{"wait"}, "a live lease holds the task"},
	{"lease_expired", "abandoned", []string{"requeue"}, "the last claim's lease expired without a handback; resume from the checkpoint"},
	{"verdict_passed", "done", []string{}, "every acceptance command passed after the last change"},
	{"done_without_verdict", "needs_verification", []string{"verify"}, "handed back done, but no passing verdict after the last change"},
	{"low_confidence", "needs_verification", []string{"verify"}, "handed back low_confidence"},
	{"verdict_failed", "retry_same", []string{"reclaim"}, "an acceptance run after the last change failed"},
	{"failed", "retry_same", []string{"reclaim"}, "handed back failed (test, build, tool, flaky, approach or unknown)"},
	{"repeated_failure", "retry_smaller", []string{"split"}, "three or more failed handbacks in a row"},
	{"too_large", "retry_smaller", []string{"split"}, "handed back failed with failure kind too_large"},
	{"missing_input", "blocked_on_input", []string{"send_input"}, "handed back failed with failure kind missing_input"},
	{"blocked", "blocked_on_input", []string{"send_input"}, "handed back blocked and no inbox message has arrived since"},
	{"input_arrived", "retry_same", []string{"reclaim"}, "handed back blocked, and an inbox message arrived since"},
	{"needs_permission", "needs_approval", []string{"request_approval"}, "handed back failed with failure kind needs_permission"},
	{"over_budget", "needs_approval", []string{"request_approval"}, "handed back over_budget (or over_turns) and no raise_budget approval since"},
	{"budget_approved", "escalate_budget", []string{"raise_budget"}, "over budget or turns, and an approval for raise_budget was recorded since"},
	{"budget_raised", "retry_same", []string{"reclaim"}, "the steward raised the budget after the approval"},
}

func reasonCodes() []string {
	out := make([]string, len(Reasons))
	for i, r := range Reasons {
		out[i] = r.Code
	}
	return out
}

func reasonOf(code string) Reason {
	for _, r := range Reasons {
		if r.Code == code {
			return r
		}
	}
	panic("ledger: unknown reason code " + code)
}

// Decision is the steward's conclusion about one task.
type Decision struct {
	Task           string   `json:"task"`
	Basis          int64    `json:"basis"` // the task's newest row the decision read (decisions and actions aside)
	Classification string   `json:"classification"`
	Reason         string   `json:"reason"`
	Actions        []string `json:"actions"`
	Approval       int64    `json:"approval"`      // the approval row an action relies on, 0 for none
	ExpiredLease   string   `json:"expired_lease"` // for abandoned: the lease that ran out
}

// Bytes is the decision's canonical JSON (json-c14n:v1): same ledger, same bytes.
func (d Decision) Bytes() []byte {
	b, err := continuity.Canonical(map[string]any{"task": d.Task, "basis": d.Basis, "classification": d.Classification,
		"reason": d.Reason, "actions": d.Actions, "approval": d.Approval, "expired_lease": d.ExpiredLease})
	if err != nil {
		panic(err) // only strings and integers: always canonical
	}
	return b
}

// Steward classifies a task from the ledger's rows. It reads nothing else:
// now is compared with recorded lease expiries and used for nothing more, so
// two calls on the same rows, with now on the same side of every lease,
// return the same decision.
func Steward(rows []Row, id string, now time.Time) (Decision, error) {
	t, err := Derive(rows, id, now)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Task: id}
	for _, r := range t.rows {
		if r.Kind != KindDecision && r.Kind != KindAction {
			d.Basis = r.Seq
		}
	}
	code := classify(t, &d)
	r := reasonOf(code)
	d.Classification, d.Reason, d.Actions = r.Classification, r.Code, slices.Clone(r.Actions)
	return d, nil
}

func classify(t *Task, d *Decision) string {
	hb := t.LastHandback()
	switch t.State {
	case StateDone:
		return "verdict_passed"
	case StateClaimed:
		return "lease_live"
	case StateAbandoned:
		d.ExpiredLease = t.LeaseUntil
		return "lease_expired"
	case StateVerificationFailed:
		return "verdict_failed"
	case StateUnverified:
		return "done_without_verdict"
	case StateOpen:
		return "unclaimed"
	case "low_confidence":
		return "low_confidence"
	case "blocked":
		for _, m := range t.Inbox {
			if m.Seq > hb.Seq {
				return "input_arrived"
			}
		}
		return "blocked"
	case "over_budget", "over_turns":
		for _, a := range t.Actions {
			if a.Action == "raise_budget" && a.Seq > hb.Seq {
				return "budget_raised"
			}
		}
		if ap := approvalSince(t, "raise_budget", hb.Seq); ap != nil {
			d.Approval = ap.Seq
			return "budget_approved"
		}
		return "over_budget"
	}
	// failed
	switch hb.FailureKind {
	case "too_large":
		return "too_large"
	case "missing_input":
		return "missing_input"
	case "needs_permission":
		return "needs_permission"
	}
	n := 0
	for i := len(t.Handbacks) - 1; i >= 0 && t.Handbacks[i].Handback == "failed"; i-- {
		n++
	}
	if n >= 3 {
		return "repeated_failure"
	}
	return "failed"
}

// approvalSince is the newest approval of action recorded after seq, or nil.
func approvalSince(t *Task, action string, seq int64) *Row {
	var out *Row
	for i := range t.Approvals {
		if a := &t.Approvals[i]; a.Action == action && a.Seq > seq {
			out = a
		}
	}
	return out
}

// stewardActs are the actions the steward takes itself; the others (claim,
// reclaim, split, verify, wait) are a worker's.
var stewardActs = []string{"requeue", "raise_budget", "request_approval", "send_input"}

// Steward records the steward's decision on a task (computed inside the
// write transaction, from exactly the rows before it) and, when act is set
// and the decision's first action is one the steward takes, records that
// action after it. It returns the decision row and the action row (nil when
// none was taken). It is idempotent: when the task's newest decision row is
// this same decision (nothing it reads changed), no row is added and that
// row is returned, with the action already taken on it, if any.
func (l *Ledger) Steward(id string, act bool) (Decision, Row, *Row, error) {
	var d Decision
	row, err := l.appendRow(KindDecision, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		var err error
		if d, err = Steward(rows, id, now); err != nil {
			return nil, err
		}
		if r := recorded(rows, d); r != nil {
			return nil, r
		}
		return map[string]any{"classification": d.Classification, "reason": d.Reason, "actions": d.Actions,
			"basis": d.Basis, "approval": d.Approval, "expired_lease": d.ExpiredLease}, nil
	})
	var same *recordedError
	if errors.As(err, &same) {
		row, err = same.decision, nil
	}
	if err != nil || !act || len(d.Actions) == 0 || !slices.Contains(stewardActs, d.Actions[0]) {
		return d, row, nil, err
	}
	if same != nil && same.action != nil {
		return d, row, same.action, nil
	}
	a, err := l.Act(id, row.Seq, d.Actions[0])
	if err != nil {
		return d, row, nil, err
	}
	return d, row, &a, nil
}

// recordedError stops the append of a decision the task's newest decision
// row already records: the same evidence adds no row.
type recordedError struct {
	decision Row
	action   *Row // the steward's action on it, nil when none was taken
}

func (e *recordedError) Error() string {
	return fmt.Sprintf("task:%s: the decision is recorded already, row %d", e.decision.Task, e.decision.Seq)
}

// recorded is the task's newest decision row when it records d (with the
// action taken on it), or nil.
func recorded(rows []Row, d Decision) *recordedError {
	var out *recordedError
	for i := len(rows) - 1; i >= 0 && out == nil; i-- {
		r := rows[i]
		if r.Task != d.Task || r.Kind != KindDecision {
			continue
		}
		if r.Basis != d.Basis || r.Classification != d.Classification || r.Reason != d.Reason ||
			!slices.Equal(r.Actions, d.Actions) || r.Approval != d.Approval || r.ExpiredLease != d.ExpiredLease {
			return nil
		}
		out = &recordedError{decision: r}
	}
	if out == nil {
		return nil
	}
	for i := range rows {
		if r := rows[i]; r.Task == d.Task && r.Kind == KindAction && r.Decision == out.decision.Seq {
			out.action = &r
		}
	}
	return out
}

// Act records that the steward took action on a task, after decision (the
// seq of its decision row). An action in ApprovalActions is refused unless
// an approval of it was recorded after the task's last handback: the check is
// here, in code, not in anybody's instructions.
func (l *Ledger) Act(id string, decision int64, action string) (Row, error) {
	return l.appendRow(KindAction, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		t, err := Derive(rows, id, now)
		if err != nil {
			return nil, err
		}
		var approval int64
		if slices.Contains(ApprovalActions, action) {
			var since int64
			if hb := t.LastHandback(); hb != nil {
				since = hb.Seq
			}
			ap := approvalSince(t, action, since)
			if ap == nil {
				return nil, refused(id, "%s needs an approval recorded after the last handback, and there is none: ctx task approve task:%s --by NAME --action %s", action, id, action)
			}
			approval = ap.Seq
		}
		if !slices.ContainsFunc(t.Decisions, func(r Row) bool { return r.Seq == decision }) {
			return nil, refused(id, "decision row %d is not one of this task's: the steward records its decision before it acts", decision)
		}
		return map[string]any{"action": action, "at": stamp(now), "decision": decision, "approval": approval}, nil
	})
}
