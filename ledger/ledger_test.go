package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
	bolt "go.etcd.io/bbolt"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newLedger(t *testing.T) (*Ledger, *clock) {
	t.Helper()
	st, err := store.Open(store.Location{Dir: t.TempDir()}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: t0}
	return &Ledger{St: st, Now: c.now}, c
}

// addRun stores a run of argv that ended with exit and status, started at start.
func addRun(t *testing.T, st *store.Store, argv []string, exit int, status store.Status, start time.Time) string {
	t.Helper()
	return addRunIn(t, st, ".", argv, exit, status, start)
}

func addRunIn(t *testing.T, st *store.Store, dir string, argv []string, exit int, status store.Status, start time.Time) string {
	t.Helper()
	sp, err := st.NewSpool(store.SpoolMeta{Argv: argv, Dir: dir, Mode: "pipe", Started: start})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sp.Stream("stdout")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "%s exit %d at %s\n", strings.Join(argv, " "), exit, start)
	run, err := st.CommitSpool(sp, store.Manifest{Argv: argv, Dir: dir, Mode: "pipe", Exit: exit, Status: status},
		store.Exec{Argv: argv, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	return run.Handle()
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func state(t *testing.T, l *Ledger, id string) string {
	t.Helper()
	return must[*Task](t)(l.Task(id)).State
}

func wantRefused(t *testing.T, err error, mention string) {
	t.Helper()
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("want a refusal mentioning %q, got %v", mention, err)
	}
	if !strings.Contains(err.Error(), mention) {
		t.Fatalf("refusal %q does not mention %q", err, mention)
	}
}

func rowCount(t *testing.T, l *Ledger) int {
	t.Helper()
	return len(must[[][]byte](t)(RawRows(l.St)))
}

// 003: a producer wrote entries without the fields the consumer filters on,
// so they were never selected. Here such a row is refused when written.
func TestRowMissingConsumerFieldIsRefusedAtWrite(t *testing.T) {
	l, _ := newLedger(t)
	_, err := l.New("no acceptance", nil, Budget{})
	wantRefused(t, err, `"accept" is an empty list`)
	id := must[string](t)(l.New("fix it", []string{"go test ./..."}, Budget{}))
	must[Row](t)(l.Claim(id, "w1", time.Hour))
	n := rowCount(t, l)
	_, err = l.Handback(id, HandbackInput{Kind: "failed"})
	wantRefused(t, err, `"failure_kind"`)
	_, err = l.appendRow(KindHandback, id, func([]Row, uint64, time.Time) (map[string]any, error) {
		return map[string]any{"by": "w1", "at": stamp(t0), "handback": "failed", "checkpoint": "", "turns": int64(1),
			"cost": 0.0, "evidence": []string{}}, nil
	})
	wantRefused(t, err, `field "failure_kind" is missing`)
	_, err = l.Handback(id, HandbackInput{Kind: "finished"})
	wantRefused(t, err, `"handback" is "finished", not one of`)
	if got := rowCount(t, l); got != n {
		t.Fatalf("refused rows were written: %d rows, want %d", got, n)
	}
}

// 003: "done" was not proof of verification. A handback of done without a
// verdict is unverified; a verdict is checked against the store.
func TestDoneWithoutVerdictIsNotDone(t *testing.T) {
	l, c := newLedger(t)
	id := must[string](t)(l.New("fix it", []string{"go test ./..."}, Budget{}))
	early := addRun(t, l.St, []string{"go", "test", "./..."}, 0, store.StatusExited, t0.Add(time.Second))
	c.add(time.Minute)
	must[Row](t)(l.Claim(id, "w1", time.Hour))
	c.add(time.Minute)
	must[Row](t)(l.Handback(id, HandbackInput{Kind: "done", Turns: 3}))
	if s := state(t, l, id); s != StateUnverified {
		t.Fatalf("state after a done handback with no verdict = %s, want unverified", s)
	}
	d := must[Decision](t)(Steward(must[[]Row](t)(l.Rows()), id, c.now()))
	if d.Classification != "needs_verification" {
		t.Fatalf("steward: %s", d.Bytes())
	}
	_, err := l.Verdict(id, true, early)
	wantRefused(t, err, "not after the task's last change")
	other := addRun(t, l.St, []string{"true"}, 0, store.StatusExited, c.now().Add(time.Second))
	_, err = l.Verdict(id, true, other)
	wantRefused(t, err, "none of the acceptance commands")
	_, err = l.Verdict(id, true, "run:0123456789ab")
	wantRefused(t, err, "run:0123456789ab")
	sub := addRunIn(t, l.St, "store", []string{"go", "test", "./..."}, 0, store.StatusExited, c.now().Add(time.Second))
	_, err = l.Verdict(id, true, sub)
	wantRefused(t, err, "ran in store, but the task's acceptance commands run in .")
	failing := addRun(t, l.St, []string{"go", "test", "./..."}, 1, store.StatusExited, c.now().Add(2*time.Second))
	_, err = l.Verdict(id, true, failing)
	wantRefused(t, err, "only a run that exited 0 passes")
	passing := addRun(t, l.St, []string{"sh", "-c", "go test ./..."}, 0, store.StatusExited, c.now().Add(3*time.Second))
	must[Row](t)(l.Verdict(id, true, passing))
	if s := state(t, l, id); s != StateDone {
		t.Fatalf("state after a passing verdict = %s, want done", s)
	}
	_, err = l.Claim(id, "w2", time.Hour)
	wantRefused(t, err, "done")
}

// 003: returned errors satisfied the completion barrier. Here a failed or
// timed-out run never passes, a failed handback is not done, and a claim
// that expired with no handback is abandoned, not done.
func TestErrorsNeverCountAsCompletion(t *testing.T) {
	l, c := newLedger(t)
	id := must[string](t)(l.New("fix it", []string{"make check"}, Budget{}))
	must[Row](t)(l.Claim(id, "w1", 10*time.Minute))
	c.add(time.Hour)
	if s := state(t, l, id); s != StateAbandoned {
		t.Fatalf("expired claim without handback: state %s, want abandoned", s)
	}
	_, err := l.Handback(id, HandbackInput{Kind: "done"})
	wantRefused(t, err, "no live claim")
	must[Row](t)(l.Claim(id, "w2", time.Hour))
	c.add(time.Minute)
	must[Row](t)(l.Handback(id, HandbackInput{Kind: "failed", FailureKind: "tool_error"}))
	if s := state(t, l, id); s != "failed" {
		t.Fatalf("state %s, want failed", s)
	}
	timeout := addRun(t, l.St, []string{"make", "check"}, 124, store.StatusTimeout, c.now().Add(time.Second))
	_, err = l.Verdict(id, true, timeout)
	wantRefused(t, err, "only a run that exited 0 passes")
	must[Row](t)(l.Verdict(id, false, timeout))
	if s := state(t, l, id); s != StateVerificationFailed {
		t.Fatalf("state %s, want verification_failed", s)
	}
}

// 003: a wrapper counted iterations while the engine counted phases, so "N
// done" meant neither. Here done is a derived state and turns one unit.
func TestDoneCountIsDerivedNotCounted(t *testing.T) {
	l, c := newLedger(t)
	a := must[string](t)(l.New("a", []string{"true"}, Budget{}))
	b := must[string](t)(l.New("b", []string{"true"}, Budget{}))
	x := must[string](t)(l.New("x", []string{"true"}, Budget{}))
	for i := 0; i < 4; i++ {
		must[Row](t)(l.Claim(x, "w", time.Hour))
		c.add(time.Second)
		must[Row](t)(l.Handback(x, HandbackInput{Kind: "failed", FailureKind: "test_failure", Turns: 2}))
	}
	for _, id := range []string{a, b} {
		must[Row](t)(l.Claim(id, "w", time.Hour))
		c.add(time.Second)
		must[Row](t)(l.Handback(id, HandbackInput{Kind: "done", Turns: 5}))
	}
	must[Row](t)(l.Verdict(b, true, addRun(t, l.St, []string{"true"}, 0, store.StatusExited, c.now().Add(time.Second))))
	tasks := must[[]*Task](t)(l.Tasks())
	counts := Count(tasks)
	if counts[StateDone] != 1 || counts[StateUnverified] != 1 || counts["failed"] != 1 {
		t.Fatalf("counts %v: want 1 done (b), 1 unverified (a), 1 failed (x)", counts)
	}
	if tx := tasks[2]; tx.Turns != 8 || len(tx.Handbacks) != 4 {
		t.Fatalf("x: turns %d over %d handbacks, want 8 over 4", tx.Turns, len(tx.Handbacks))
	}
	if d := must[Decision](t)(Steward(must[[]Row](t)(l.Rows()), x, c.now())); d.Reason != "repeated_failure" {
		t.Fatalf("four failures in a row: %s", d.Bytes())
	}
}

// 003: approval was enforced only by instructions. Here the action that
// needs one checks the approval row in code.
func TestApprovalIsCheckedInCode(t *testing.T) {
	l, c := newLedger(t)
	id := must[string](t)(l.New("big", []string{"true"}, Budget{Turns: 10}))
	must[Row](t)(l.Approve(id, "lead", "raise_budget")) // before the handback: does not cover it
	must[Row](t)(l.Claim(id, "w", time.Hour))
	c.add(time.Second)
	must[Row](t)(l.Handback(id, HandbackInput{Kind: "over_turns", FailureKind: "budget", Turns: 10, Checkpoint: "git:abc"}))
	d, dec, act, err := l.Steward(id, true)
	if err != nil || d.Classification != "needs_approval" || act == nil || act.Action != "request_approval" {
		t.Fatalf("steward without approval: %s %v %v", d.Bytes(), act, err)
	}
	_, err = l.Act(id, dec.Seq, "raise_budget")
	wantRefused(t, err, "needs an approval")
	_, err = l.Approve(id, "lead", "delete_everything")
	wantRefused(t, err, `"action"`)
	ap := must[Row](t)(l.Approve(id, "lead", "raise_budget"))
	d, _, act, err = l.Steward(id, true)
	if err != nil || d.Classification != "escalate_budget" || d.Approval != ap.Seq || act == nil || act.Approval != ap.Seq {
		t.Fatalf("steward with approval: %s %v %v", d.Bytes(), act, err)
	}
	if d := must[Decision](t)(Steward(must[[]Row](t)(l.Rows()), id, c.now())); d.Reason != "budget_raised" {
		t.Fatalf("after raising: %s", d.Bytes())
	}
}

// 003: asynchronous writes whose failure was silently tolerated. Here a write
// that cannot reach the store returns its error and writes nothing.
func TestFailedWriteIsReported(t *testing.T) {
	t.Setenv(store.EnvTimeout, "200ms")
	l, _ := newLedger(t)
	id := must[string](t)(l.New("t", []string{"true"}, Budget{}))
	db, err := bolt.Open(filepath.Join(l.St.Dir(), "store.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Claim(id, "w", time.Hour)
	db.Close()
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("claim while the store is locked: %v, want ErrLocked", err)
	}
	if s := state(t, l, id); s != StateOpen {
		t.Fatalf("state %s after a failed claim, want open", s)
	}
}

// 003: a session record was overwritten before it was read as "the previous
// session". Here every handback stays, in order, and resume reads the newest.
func TestPreviousSessionIsNeverOverwritten(t *testing.T) {
	l, c := newLedger(t)
	id := must[string](t)(l.New("t", []string{"true"}, Budget{}))
	must[Row](t)(l.Claim(id, "w1", time.Hour))
	must[Row](t)(l.Handback(id, HandbackInput{Kind: "over_turns", FailureKind: "budget", Checkpoint: "git:first"}))
	c.add(time.Second)
	must[Row](t)(l.Claim(id, "w2", time.Hour))
	must[Row](t)(l.Handback(id, HandbackInput{Kind: "failed", FailureKind: "flaky", Checkpoint: "git:second"}))
	tk := must[*Task](t)(l.Task(id))
	if len(tk.Handbacks) != 2 || tk.Handbacks[0].Checkpoint != "git:first" || tk.Handbacks[0].By != "w1" {
		t.Fatalf("handbacks %+v", tk.Handbacks)
	}
	r := must[*Resumption](t)(Resume(must[[]Row](t)(l.Rows()), id, c.now()))
	if r.Checkpoint != "git:second" || r.LastHandback.By != "w2" || r.Next.Reason != "failed" {
		t.Fatalf("resume %+v", r)
	}
}

// 003: the queue file was looked up in several places and a malformed one
// "repaired". Here a malformed row stops every read and write, and stays.
func TestMalformedLedgerIsReportedNotRepaired(t *testing.T) {
	l, _ := newLedger(t)
	id := must[string](t)(l.New("t", []string{"true"}, Budget{}))
	// A writer that skips the schema (chained correctly, but with no failure_kind).
	_, err := Log.Append(l.St, KindHandback, map[string]any{"v": 1, "task": id, "by": "w", "at": stamp(t0),
		"handback": "failed", "checkpoint": "", "turns": 1, "cost": 0, "evidence": []string{}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Check(l.St)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), "failure_kind") {
		t.Fatalf("check: %v", err)
	}
	if _, err := l.Claim(id, "w2", time.Hour); !errors.Is(err, ErrMalformed) {
		t.Fatalf("claim on a malformed ledger: %v", err)
	}
	if _, err := l.Tasks(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("read of a malformed ledger: %v", err)
	}
	if got := rowCount(t, l); got != n || n != 2 {
		t.Fatalf("rows %d (check saw %d), want the 2 rows untouched", got, n)
	}
}

// The chain names an edited or a deleted row.
func TestChainDetectsEditedOrDeletedRow(t *testing.T) {
	for _, edit := range []string{"edit", "delete"} {
		t.Run(edit, func(t *testing.T) {
			l, _ := newLedger(t)
			id := must[string](t)(l.New("t", []string{"true"}, Budget{}))
			must[Row](t)(l.Claim(id, "w", time.Hour))
			must[Row](t)(l.Handback(id, HandbackInput{Kind: "done"}))
			l.St.Close()
			db, err := bolt.Open(filepath.Join(l.St.Dir(), "store.db"), 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket([]byte(Log.Bucket))
				k := []byte{0, 0, 0, 0, 0, 0, 0, 2}
				if edit == "delete" {
					return b.Delete(k)
				}
				return b.Put(k, []byte(strings.Replace(string(b.Get(k)), `"by": "w"`, `"by": "x"`, 1)))
			})
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			_, err = Check(l.St)
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "row 2") {
				t.Fatalf("check after %s: %v", edit, err)
			}
		})
	}
}

// 003: parallel workers shared queue state with no lock protocol. Here 32
// processes claim one task at once (exactly one wins), and each creates,
// claims, hands back and verdicts a task of its own: no row is lost.
func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv("LEDGER_WORKER") != "" {
		return
	}
	l, _ := newLedger(t)
	l.Now = nil
	shared := must[string](t)(l.New("shared", []string{"true"}, Budget{}))
	l.St.Close()
	const n = 32
	// A start line: every worker waits for it, so the claims race for real
	// (a check made before the write transaction loses this race).
	gate := t.TempDir()
	go func() {
		for {
			if m, _ := filepath.Glob(filepath.Join(gate, "ready-*")); len(m) == n {
				_ = os.WriteFile(filepath.Join(gate, "go"), nil, 0o600)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var wg sync.WaitGroup
	outs := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestWorker$")
			cmd.Env = append(os.Environ(), "LEDGER_WORKER="+fmt.Sprint(i), "LEDGER_STORE="+l.St.Dir(),
				"LEDGER_TASK="+shared, "LEDGER_GATE="+gate, store.EnvTimeout+"=120s")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("worker %d: %v\n%s", i, err, out)
			}
			outs[i] = string(out)
		}()
	}
	wg.Wait()
	rows := must[[]Row](t)(l.Rows())
	claims, won := 0, 0
	for _, r := range rows {
		if r.Kind == KindClaim && r.Task == shared {
			claims++
		}
	}
	for _, o := range outs {
		won += strings.Count(o, "WON")
	}
	if claims != 1 || won != 1 {
		t.Fatalf("%d claims of the shared task stored, %d workers say they won; want exactly 1", claims, won)
	}
	if want := 2 + n*4; len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	tasks := must[[]*Task](t)(l.Tasks())
	if c := Count(tasks); c[StateDone] != n || c[StateClaimed] != 1 {
		t.Fatalf("states %v: want %d done and the shared one claimed", c, n)
	}
}

// TestWorker is one process of TestConcurrentProcesses.
func TestWorker(t *testing.T) {
	w := os.Getenv("LEDGER_WORKER")
	if w == "" {
		t.Skip("run by TestConcurrentProcesses")
	}
	st, err := store.Open(store.Location{Dir: os.Getenv("LEDGER_STORE")}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l := &Ledger{St: st}
	name := "worker-" + w
	gate := os.Getenv("LEDGER_GATE")
	if err := os.WriteFile(filepath.Join(gate, "ready-"+w), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(gate, "go")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no start signal")
		}
	}
	if _, err := l.Claim(os.Getenv("LEDGER_TASK"), name, time.Hour); err == nil {
		fmt.Println("WON")
	} else if !errors.Is(err, ErrRefused) {
		t.Fatal(err)
	}
	id := must[string](t)(l.New("own "+w, []string{"echo " + w}, Budget{}))
	must[Row](t)(l.Claim(id, name, time.Hour))
	must[Row](t)(l.Handback(id, HandbackInput{Kind: "done", Turns: 1}))
	run := addRun(t, st, []string{"echo", w}, 0, store.StatusExited, time.Now())
	must[Row](t)(l.Verdict(id, true, run))
}

// A killed worker's task is resumed from its checkpoint by another.
func TestKilledWorkerResumesFromCheckpoint(t *testing.T) {
	if os.Getenv("LEDGER_KILLED") != "" {
		st, err := store.Open(store.Location{Dir: os.Getenv("LEDGER_STORE")}, false)
		if err != nil {
			t.Fatal(err)
		}
		l := &Ledger{St: st}
		id := os.Getenv("LEDGER_KILLED")
		must[Row](t)(l.Claim(id, "doomed", time.Minute))
		must[Row](t)(l.Renew(id, "doomed", time.Minute, "git:half-way"))
		fmt.Println("READY")
		time.Sleep(time.Hour)
		return
	}
	l, c := newLedger(t)
	l.Now = time.Now
	id := must[string](t)(l.New("long", []string{"true"}, Budget{}))
	l.St.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWorkerResumesFromCheckpoint$")
	cmd.Env = append(os.Environ(), "LEDGER_KILLED="+id, "LEDGER_STORE="+l.St.Dir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	k, _ := out.Read(buf)
	if !strings.Contains(string(buf[:k]), "READY") {
		t.Fatalf("worker said %q", buf[:k])
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if _, err := l.Claim(id, "rescuer", time.Hour); !errors.Is(err, ErrRefused) {
		t.Fatalf("claim while the killed worker's lease is live: %v", err)
	}
	c.t = time.Now().Add(2 * time.Minute)
	l.Now = c.now
	r := must[*Resumption](t)(Resume(must[[]Row](t)(l.Rows()), id, c.now()))
	if r.State != StateAbandoned || r.Checkpoint != "git:half-way" || r.Next.Reason != "lease_expired" || r.Next.Actions[0] != "requeue" {
		t.Fatalf("resume: %+v", r)
	}
	must[Row](t)(l.Claim(id, "rescuer", time.Hour))
	if s := state(t, l, id); s != StateClaimed {
		t.Fatalf("after the rescue claim: %s", s)
	}
}

// A row prints as stored: a failing verdict says "pass": false rather than
// dropping the field a reader filters on.
func TestRowJSONKeepsFalseAndZero(t *testing.T) {
	l, c := newLedger(t)
	id := must[string](t)(l.New("t", []string{"false"}, Budget{}))
	run := addRun(t, l.St, []string{"false"}, 1, store.StatusExited, c.now().Add(time.Second))
	appended := must[Row](t)(l.Verdict(id, false, run))
	read := must[*Task](t)(l.Task(id)).Verdicts[0]
	for _, r := range []Row{appended, read} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"pass":false`) && !strings.Contains(string(b), `"pass": false`) {
			t.Fatalf("verdict row prints as %s", b)
		}
	}
}

// TestProvesQuotedAcceptance: an acceptance command with quotes is proved
// by the argv sh would run it as (before, only its white-space split was,
// which keeps the quotes, so ctx run -- could never prove it); one whose
// words depend on expansion is proved only through sh -c.
func TestProvesQuotedAcceptance(t *testing.T) {
	cases := []struct {
		cmd  string
		argv []string
		want bool
	}{
		{"go test -run 'TestA|TestB' ./...", []string{"go", "test", "-run", "TestA|TestB", "./..."}, true},
		{`sh -c 'exit 0'`, []string{"sh", "-c", "exit 0"}, true},
		{`pytest -k "not slow"`, []string{"pytest", "-k", "not slow"}, true},
		{"go test ./store/...", []string{"go", "test", "./store/..."}, true},
		{"go test ./store/...", []string{"sh", "-c", "go test ./store/..."}, true},
		{"go test -run 'TestA|TestB' ./...", []string{"go", "test", "-run", "TestA", "./..."}, false},
		{"echo $HOME", []string{"echo"}, false},
		{"echo $HOME", []string{"sh", "-c", "echo $HOME"}, true},
		{"ls *.go", []string{"ls"}, false},
		{"ls 'unterminated", []string{"ls", "unterminated"}, false},
	}
	for _, c := range cases {
		if got := Proves(c.cmd, c.argv); got != c.want {
			t.Errorf("Proves(%q, %q) = %v, want %v", c.cmd, c.argv, got, c.want)
		}
	}
}
