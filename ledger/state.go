package ledger

import (
	"fmt"
	"slices"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Task states, derived from the rows on every read and never stored.
const (
	StateOpen               = "open"                // never claimed, or handed back and awaiting the steward
	StateClaimed            = "claimed"             // a live lease holds it
	StateAbandoned          = "abandoned"           // the last claim's lease expired without a handback
	StateUnverified         = "unverified"          // handed back done, but no passing verdict after its last change
	StateDone               = "done"                // every acceptance command has a passing verdict after the last change
	StateVerificationFailed = "verification_failed" // an acceptance run after the last change failed
)

// States lists every state a task can be in: the handback kinds other than
// done name the state of a task handed back that way.
var States = []string{StateOpen, StateClaimed, StateAbandoned, StateUnverified, StateDone, StateVerificationFailed,
	"failed", "blocked", "over_budget", "over_turns", "low_confidence"}

// Task is a task's record and its state as derived from the ledger.
type Task struct {
	ID     string   `json:"task"`
	Title  string   `json:"title"`
	Accept []string `json:"accept"`
	Dir    string   `json:"dir"` // where the acceptance commands run, relative to the workspace root
	Budget Budget   `json:"budget"`
	State  string   `json:"state"`
	// Holder and LeaseUntil describe the current claim (the last one with no
	// handback after it), live or expired.
	Holder     string `json:"holder,omitempty"`
	LeaseUntil string `json:"lease_until,omitempty"`
	// Checkpoint is the newest checkpoint saved by a handback or a renew.
	Checkpoint string `json:"checkpoint,omitempty"`
	// Turns and Cost are summed over handbacks: the one unit every count uses.
	Turns int64   `json:"turns"`
	Cost  float64 `json:"cost"`
	// LastChange is the seq of the row that last changed the work (the task
	// row or a handback); only verdicts after it count.
	LastChange int64 `json:"last_change"`

	Claims    []Row `json:"claims"`
	Handbacks []Row `json:"handbacks"`
	Verdicts  []Row `json:"verdicts"`
	Approvals []Row `json:"approvals"`
	Decisions []Row `json:"decisions"`
	Inbox     []Row `json:"inbox"`
	Actions   []Row `json:"actions"`

	lastChangeAt time.Time
	rows         []Row // every row of the task, in order
}

// Budget is what a task may spend; zero means no limit.
type Budget struct {
	Turns int64   `json:"turns"`
	Cost  float64 `json:"cost"`
	Wall  string  `json:"wall"`
}

// LastHandback is the newest handback, or nil.
func (t *Task) LastHandback() *Row {
	if len(t.Handbacks) == 0 {
		return nil
	}
	return &t.Handbacks[len(t.Handbacks)-1]
}

// Derive reads one task's state from the ledger's rows. now is compared with
// recorded lease expiries and with nothing else.
func Derive(rows []Row, id string, now time.Time) (*Task, error) {
	t := &Task{ID: id, Claims: []Row{}, Handbacks: []Row{}, Verdicts: []Row{}, Approvals: []Row{}, Decisions: []Row{},
		Inbox: []Row{}, Actions: []Row{}}
	found := false
	var claim *Row // the current claim: no handback after it
	for _, r := range rows {
		if r.Task != id {
			continue
		}
		t.rows = append(t.rows, r)
		switch r.Kind {
		case KindTask:
			found = true
			t.Title, t.Accept, t.Dir = r.Title, r.Accept, r.Dir
			t.Budget = Budget{Turns: r.Turns, Cost: r.Cost, Wall: r.Wall}
			t.LastChange, t.lastChangeAt = r.Seq, r.time(r.At)
		case KindClaim:
			t.Claims = append(t.Claims, r)
			claim = &t.Claims[len(t.Claims)-1]
			t.Holder, t.LeaseUntil = r.By, r.LeaseUntil
		case KindRenew:
			if claim != nil && claim.By == r.By {
				t.LeaseUntil = r.LeaseUntil
			}
			if r.Checkpoint != "" {
				t.Checkpoint = r.Checkpoint
			}
		case KindHandback:
			t.Handbacks = append(t.Handbacks, r)
			claim = nil
			t.Holder, t.LeaseUntil = "", ""
			if r.Checkpoint != "" {
				t.Checkpoint = r.Checkpoint
			}
			t.Turns += r.Turns
			t.Cost += r.Cost
			t.LastChange, t.lastChangeAt = r.Seq, r.time(r.At)
		case KindVerdict:
			t.Verdicts = append(t.Verdicts, r)
		case KindApproval:
			t.Approvals = append(t.Approvals, r)
		case KindDecision:
			t.Decisions = append(t.Decisions, r)
		case KindAction:
			t.Actions = append(t.Actions, r)
		case KindInbox:
			t.Inbox = append(t.Inbox, r)
		}
	}
	if !found {
		return nil, fmt.Errorf("task:%s: %w", id, store.ErrNotFound)
	}
	t.State = t.derive(claim != nil, now)
	return t, nil
}

func (t *Task) derive(claimed bool, now time.Time) string {
	if claimed {
		until, _ := time.Parse(time.RFC3339Nano, t.LeaseUntil)
		if now.Before(until) {
			return StateClaimed
		}
		return StateAbandoned
	}
	switch t.verified() {
	case true:
		return StateDone
	case false:
		if t.anyVerdictAfterChange() {
			return StateVerificationFailed
		}
	}
	hb := t.LastHandback()
	switch {
	case hb == nil:
		return StateOpen
	case hb.Handback == "done":
		return StateUnverified
	}
	return hb.Handback
}

// verified: every acceptance command's newest verdict after the last change
// passed. A verdict's run was checked against the store when it was written.
func (t *Task) verified() bool {
	if len(t.Accept) == 0 {
		return false
	}
	for _, cmd := range t.Accept {
		v := t.lastVerdict(cmd)
		if v == nil || !v.Pass || v.Exit != 0 {
			return false
		}
	}
	return true
}

func (t *Task) lastVerdict(cmd string) *Row {
	var last *Row
	for i := range t.Verdicts {
		v := &t.Verdicts[i]
		if v.Seq > t.LastChange && v.Proves == cmd && slices.Contains(t.Accept, cmd) {
			last = v
		}
	}
	return last
}

func (t *Task) anyVerdictAfterChange() bool {
	for _, cmd := range t.Accept {
		if v := t.lastVerdict(cmd); v != nil && !v.Pass {
			return true
		}
	}
	return false
}

// TaskIDs lists the ids of every task, in the order they were created.
func TaskIDs(rows []Row) []string {
	var ids []string
	for _, r := range rows {
		if r.Kind == KindTask {
			ids = append(ids, r.Task)
		}
	}
	return ids
}

// Count returns how many tasks are in each state: the one count of "done"
// (a derived state), never a count of iterations or handbacks.
func Count(tasks []*Task) map[string]int {
	out := map[string]int{}
	for _, t := range tasks {
		out[t.State]++
	}
	return out
}

// Resumption is what a worker needs to pick a task up: its checkpoint, the
// last handback, the steward's last recorded decision and what to do next.
type Resumption struct {
	Task         *Task    `json:"-"`
	State        string   `json:"state"`
	Checkpoint   string   `json:"checkpoint"`
	LastHandback *Row     `json:"last_handback"`
	LastDecision *Row     `json:"last_decision"`
	Next         Decision `json:"next"` // the steward's reading now (not recorded)
}

// Resume reads a task's resumption from the rows.
func Resume(rows []Row, id string, now time.Time) (*Resumption, error) {
	t, err := Derive(rows, id, now)
	if err != nil {
		return nil, err
	}
	next, err := Steward(rows, id, now)
	if err != nil {
		return nil, err
	}
	r := &Resumption{Task: t, State: t.State, Checkpoint: t.Checkpoint, LastHandback: t.LastHandback(), Next: next}
	if n := len(t.Decisions); n > 0 {
		r.LastDecision = &t.Decisions[n-1]
	}
	return r, nil
}
