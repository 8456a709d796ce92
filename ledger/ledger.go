package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/store"
)

// Ledger appends to and reads the task ledger of a store. Every append is one
// store write transaction in which the rows before it are read, verified and
// checked: any number of goroutines and processes may append at once.
type Ledger struct {
	St  *store.Store
	Now func() time.Time // the clock stamped into rows and compared with leases; time.Now when nil
	// Exists, when set, checks that an evidence handle names something in
	// St, records (seq:, py:, job:) included; else only store handles
	// (run:, blob:, span:, receipt:) are evidence.
	Exists func(handle string) error
}

// ErrRefused: the ledger refused a row (a claim while another lease is live,
// a verdict whose run does not prove the task, a row missing a field).
var ErrRefused = errors.New("refused")

// RefusedError says why a row was refused and what to do instead.
type RefusedError struct {
	Task   string
	Reason string
}

func (e *RefusedError) Error() string {
	if e.Task == "" {
		return e.Reason
	}
	return "task:" + e.Task + ": " + e.Reason
}

func (e *RefusedError) Unwrap() error { return ErrRefused }

func refused(task, format string, args ...any) error {
	return &RefusedError{Task: task, Reason: fmt.Sprintf(format, args...)}
}

func (l *Ledger) now() time.Time {
	if l.Now != nil {
		return l.Now().UTC()
	}
	return time.Now().UTC()
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// appendRow appends one row of kind for task. build sees every row before it
// (verified and valid) inside the write transaction and returns the row's
// fields; the schema is checked before anything is written.
func (l *Ledger) appendRow(kind, task string, build func(rows []Row, seq uint64, now time.Time) (map[string]any, error)) (Row, error) {
	now := l.now()
	out, err := Log.AppendChecked(l.St, func(texts [][]byte, seq uint64) (string, map[string]any, error) {
		rows, err := parseRows(texts)
		if err != nil {
			return "", nil, err
		}
		fields, err := build(rows, seq, now)
		if err != nil {
			return "", nil, err
		}
		if msg := checkLimits(kind, fields); msg != "" {
			return "", nil, &RefusedError{Task: task, Reason: msg}
		}
		fields["v"] = Version
		if _, ok := fields["task"]; !ok {
			fields["task"] = task
		}
		m := map[string]any{"kind": kind}
		for k, v := range fields {
			m[k] = v
		}
		if err := validate(m, false); err != nil {
			return "", nil, &RefusedError{Task: task, Reason: err.Error()}
		}
		return kind, fields, nil
	}, now)
	if err != nil {
		return Row{}, err
	}
	return toRow(out)
}

func toRow(m map[string]any) (Row, error) {
	var r Row
	b, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	r.raw = b
	return r, err
}

// Rows returns every row, verified and validated.
func (l *Ledger) Rows() ([]Row, error) { return ReadRows(l.St) }

// Task returns a task with its state derived now.
func (l *Ledger) Task(id string) (*Task, error) {
	rows, err := l.Rows()
	if err != nil {
		return nil, err
	}
	return Derive(rows, id, l.now())
}

// Tasks returns every task with its state, in creation order.
func (l *Ledger) Tasks() ([]*Task, error) {
	rows, err := l.Rows()
	if err != nil {
		return nil, err
	}
	now := l.now()
	var out []*Task
	for _, id := range TaskIDs(rows) {
		t, err := Derive(rows, id, now)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// ParseTaskID reads "task:ID" (or a bare ID).
func ParseTaskID(s string) (string, error) {
	id := strings.TrimPrefix(s, "task:")
	if !validID(id) {
		return "", refused("", "%q is not a task handle: want task: and 12 hex digits, as ctx task new printed", s)
	}
	return id, nil
}

func taskID(seq uint64, title string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "ctx-task-v1\n%d\n%s", seq, title))
	return hex.EncodeToString(sum[:])[:12]
}

// New appends a task whose acceptance commands run at the workspace root.
func (l *Ledger) New(title string, accept []string, b Budget) (string, error) {
	return l.NewIn(".", title, accept, b)
}

// NewIn appends a task and returns its id. accept lists the commands whose
// passing run, in dir (relative to the workspace root, as a run records it),
// proves the task done; zero budgets mean no limit.
func (l *Ledger) NewIn(dir, title string, accept []string, b Budget) (string, error) {
	if b.Wall == "" {
		b.Wall = "0s"
	}
	var id string
	_, err := l.appendRow(KindTask, "", func(rows []Row, seq uint64, now time.Time) (map[string]any, error) {
		id = taskID(seq, title)
		return map[string]any{"task": id, "at": stamp(now), "dir": dir, "title": title, "accept": nonNil(accept), "turns": b.Turns, "cost": b.Cost,
			"wall": b.Wall}, nil
	})
	return id, err
}

// nonNil keeps an absent list a list ([]), as the schema wants.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Claim gives the task to by until now+lease (at most MaxLease). It is
// refused while another live lease holds the task, and once the task is done.
func (l *Ledger) Claim(id, by string, lease time.Duration) (Row, error) {
	if err := checkLease(id, lease); err != nil {
		return Row{}, err
	}
	return l.appendRow(KindClaim, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		t, err := Derive(rows, id, now)
		if err != nil {
			return nil, err
		}
		switch t.State {
		case StateClaimed:
			if t.Holder == by {
				return nil, refused(id, "%s already holds the lease until %s: renew it (ctx task renew)", by, t.LeaseUntil)
			}
			return nil, refused(id, "claimed by %s, whose lease is live until %s: claim it after that, or work on another task", t.Holder, t.LeaseUntil)
		case StateDone:
			return nil, refused(id, "done (a passing verdict proves it): nothing to claim")
		}
		return map[string]any{"by": by, "at": stamp(now), "lease_until": stamp(now.Add(lease))}, nil
	})
}

// Renew extends the live lease of its holder to now+lease (at most
// MaxLease) and may save a checkpoint.
func (l *Ledger) Renew(id, by string, lease time.Duration, checkpoint string) (Row, error) {
	if err := checkLease(id, lease); err != nil {
		return Row{}, err
	}
	return l.appendRow(KindRenew, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		t, err := Derive(rows, id, now)
		if err != nil {
			return nil, err
		}
		if t.State != StateClaimed || t.Holder != by {
			return nil, refused(id, "%s holds no live lease on it (state %s%s): claim it first", by, t.State, holderNote(t))
		}
		return map[string]any{"by": by, "at": stamp(now), "lease_until": stamp(now.Add(lease)), "checkpoint": checkpoint}, nil
	})
}

func holderNote(t *Task) string {
	if t.Holder == "" {
		return ""
	}
	return ", last claimed by " + t.Holder + " until " + t.LeaseUntil
}

// HandbackInput is a node's typed exit.
type HandbackInput struct {
	By          string // optional: must be the lease holder when given
	Kind        string // one of HandbackKinds
	FailureKind string // one of FailureKinds; required unless Kind is done
	Checkpoint  string
	Turns       int64
	Cost        float64
	Evidence    []string
}

// Handback records the holder's exit. It needs a live lease: a worker whose
// lease expired has abandoned the task and must claim it again.
func (l *Ledger) Handback(id string, in HandbackInput) (Row, error) {
	if in.FailureKind == "" && in.Kind == "done" {
		in.FailureKind = "none"
	}
	for _, h := range in.Evidence {
		if err := l.resolves(h); err != nil {
			return Row{}, refused(id, "evidence %s: %v", h, err)
		}
	}
	return l.appendRow(KindHandback, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		t, err := Derive(rows, id, now)
		if err != nil {
			return nil, err
		}
		if t.State != StateClaimed {
			return nil, refused(id, "no live claim to hand back (state %s%s): claim it first", t.State, holderNote(t))
		}
		if in.By != "" && in.By != t.Holder {
			return nil, refused(id, "held by %s, not %s", t.Holder, in.By)
		}
		return map[string]any{"by": t.Holder, "at": stamp(now), "handback": in.Kind, "failure_kind": in.FailureKind,
			"checkpoint": in.Checkpoint, "turns": in.Turns, "cost": in.Cost, "evidence": nonNil(in.Evidence)}, nil
	})
}

// resolves checks that a ctx handle names something stored.
func (l *Ledger) resolves(handle string) error {
	if l.Exists != nil {
		return l.Exists(handle)
	}
	h, err := store.ParseHandle(handle)
	if err != nil {
		return err
	}
	_, err = l.St.Resolve(h)
	return err
}

// Verdict records an acceptance run's outcome. It is checked against the
// store: the run must exist, must have run one of the task's acceptance
// commands in the task's directory, must have started after the task's last change, and its exit
// must agree (a pass needs exit 0; an error, a timeout or an ingested output
// never passes).
func (l *Ledger) Verdict(id string, pass bool, runHandle string) (Row, error) {
	h, err := store.ParseHandle(runHandle)
	if err != nil || h.Scheme != "run" {
		return Row{}, refused(id, "%q is not a run handle: give the run:ID that ctx run printed for the acceptance command", runHandle)
	}
	target, err := l.St.Resolve(h)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrAmbiguous) {
			return Row{}, refused(id, "%s: %v", runHandle, err)
		}
		return Row{}, err
	}
	run := target.Run
	execs, err := l.St.Execs(0, func(e *store.Exec) bool { return e.Run == run.ID })
	if err != nil {
		return Row{}, err
	}
	if len(execs) == 0 {
		return Row{}, refused(id, "%s has no execution record, so when it ran is unknown: rerun the acceptance command with ctx run", run.Handle())
	}
	ex := execs[0] // newest first
	m := run.Manifest
	ok := m.Status == store.StatusExited && m.Exit == 0
	if pass && !ok {
		return Row{}, refused(id, "%s ended %s with exit %d: only a run that exited 0 passes", run.Handle(), m.Status, m.Exit)
	}
	if !pass && ok {
		return Row{}, refused(id, "%s exited 0: record it with --pass, or give the failing run", run.Handle())
	}
	return l.appendRow(KindVerdict, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		t, err := Derive(rows, id, now)
		if err != nil {
			return nil, err
		}
		cmd := ""
		for _, a := range t.Accept {
			if Proves(a, m.Argv) {
				cmd = a
				break
			}
		}
		if cmd == "" {
			return nil, refused(id, "%s ran %q, which is none of the acceptance commands (%s)", run.Handle(), cmdline.Display(m.Argv), strings.Join(t.Accept, "; "))
		}
		if m.Dir != t.Dir {
			return nil, refused(id, "%s ran in %s, but the task's acceptance commands run in %s", run.Handle(), m.Dir, t.Dir)
		}
		if !ex.Start.After(t.lastChangeAt) {
			return nil, refused(id, "%s last ran at %s, not after the task's last change (row %d at %s): rerun the acceptance command", run.Handle(), stamp(ex.Start), t.LastChange, stamp(t.lastChangeAt))
		}
		return map[string]any{"at": stamp(now), "pass": pass, "run": run.ID.String(), "exec": ex.Key,
			"run_start": stamp(ex.Start), "argv": m.Argv, "proves": cmd, "exit": int64(max(m.Exit, 0))}, nil
	})
}

// Proves reports whether a run of argv is a run of the acceptance command
// cmd: the words sh splits cmd into (quotes removed, so go test -run
// 'TestA|TestB' is proved by ctx run -- go test -run 'TestA|TestB'), cmd
// split at white space (as rows recorded before), or cmd given to sh -c
// (ctx run --shell).
func Proves(cmd string, argv []string) bool {
	if len(argv) == 3 && argv[0] == "sh" && argv[1] == "-c" && argv[2] == cmd {
		return true
	}
	// Expansions and patterns depend on the shell that would run them:
	// such a command is proved only through sh -c.
	if !strings.ContainsAny(cmd, "$`*?[~") {
		if words, err := cmdline.Split(cmd); err == nil && slices.Equal(words, argv) {
			return true
		}
	}
	return slices.Equal(strings.Fields(cmd), argv)
}

// Approve records that by approves action on the task (an action in
// ApprovalActions); it covers the task's current handback only.
func (l *Ledger) Approve(id, by, action string) (Row, error) {
	return l.appendRow(KindApproval, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		if _, err := Derive(rows, id, now); err != nil {
			return nil, err
		}
		return map[string]any{"by": by, "at": stamp(now), "action": action}, nil
	})
}

// Send appends a message addressed to the task (read by whoever works on it).
func (l *Ledger) Send(id, from, text string) (Row, error) {
	return l.appendRow(KindInbox, id, func(rows []Row, _ uint64, now time.Time) (map[string]any, error) {
		if _, err := Derive(rows, id, now); err != nil {
			return nil, err
		}
		return map[string]any{"from": from, "at": stamp(now), "text": text}, nil
	})
}
