package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// genLedger appends a random history of n operations over three tasks;
// refused operations are part of the history (they append nothing).
func genLedger(t *testing.T, seed uint64, n int, seen map[string]bool) (*Ledger, *clock, []string) {
	t.Helper()
	l, c := newLedger(t)
	r := rand.New(rand.NewPCG(seed, seed^0x9e37))
	var ids []string
	for i := range 3 {
		ids = append(ids, must[string](t)(l.New(fmt.Sprint("task ", i), []string{"make test"}, Budget{Turns: 10})))
	}
	workers := []string{"a", "b", "c"}
	for range n {
		id := ids[r.IntN(len(ids))]
		var err error
		switch r.IntN(8) {
		case 0, 1:
			_, err = l.Claim(id, workers[r.IntN(3)], time.Duration(1+r.IntN(20))*time.Minute)
		case 2:
			hk := HandbackKinds[r.IntN(len(HandbackKinds))]
			fk := "none"
			if hk != "done" {
				fk = FailureKinds[1+r.IntN(len(FailureKinds)-1)]
			}
			_, err = l.Handback(id, HandbackInput{Kind: hk, FailureKind: fk, Turns: int64(r.IntN(5)),
				Checkpoint: fmt.Sprint("git:", r.IntN(100))})
		case 3:
			exit := r.IntN(2)
			run := addRun(t, l.St, []string{"make", "test"}, exit, store.StatusExited, c.now().Add(time.Duration(1+r.IntN(3))*time.Second))
			_, err = l.Verdict(id, exit == 0, run)
		case 4:
			_, err = l.Approve(id, "lead", "raise_budget")
		case 5:
			_, err = l.Send(id, "lead", "here is the input")
		case 6:
			_, _, _, err = l.Steward(id, r.IntN(2) == 0)
		case 7:
			_, err = l.Renew(id, workers[r.IntN(3)], 10*time.Minute, "")
		}
		if err != nil && !errors.Is(err, ErrRefused) {
			t.Fatal(err)
		}
		c.add(time.Duration(r.IntN(150)) * time.Second)
		// Every intermediate ledger is one more case of the property.
		rows := must[[]Row](t)(l.Rows())
		d1 := must[Decision](t)(Steward(rows, id, c.now()))
		d2 := must[Decision](t)(Steward(slices.Clone(rows), id, c.now()))
		if !bytes.Equal(d1.Bytes(), d2.Bytes()) {
			t.Fatalf("seed %d: %s then %s", seed, d1.Bytes(), d2.Bytes())
		}
		seen[d1.Reason] = true
	}
	return l, c, ids
}

// Same ledger, same decision bytes; the steward's own rows do not change
// its reading; the clock matters only through recorded lease expiries.
func TestStewardIsDeterministic(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(12) {
		l, c, ids := genLedger(t, seed, 40, seen)
		rows := must[[]Row](t)(l.Rows())
		again, err := parseRows(must[[][]byte](t)(RawRows(l.St)))
		if err != nil {
			t.Fatal(err)
		}
		now := c.now()
		for _, id := range ids {
			d := must[Decision](t)(Steward(rows, id, now))
			seen[d.Reason] = true
			if b := must[Decision](t)(Steward(again, id, now)).Bytes(); !bytes.Equal(b, d.Bytes()) {
				t.Fatalf("seed %d: %s then %s", seed, d.Bytes(), b)
			}
			if later := now.Add(time.Second); !leaseBetween(rows, id, now, later) {
				if b := must[Decision](t)(Steward(rows, id, later)).Bytes(); !bytes.Equal(b, d.Bytes()) {
					t.Fatalf("seed %d: a second later with no lease expiring: %s then %s", seed, d.Bytes(), b)
				}
			}
			r := reasonOf(d.Reason)
			if r.Classification != d.Classification || !slices.Equal(r.Actions, d.Actions) || !slices.Contains(Classifications, d.Classification) {
				t.Fatalf("seed %d: decision %s does not follow the reason table", seed, d.Bytes())
			}
			// Recording the decision and reading again gives the same bytes.
			rec, row, _, err := l.Steward(id, false)
			if err != nil {
				t.Fatal(err)
			}
			fromRow := Decision{Task: row.Task, Basis: row.Basis, Classification: row.Classification, Reason: row.Reason,
				Actions: row.Actions, Approval: row.Approval, ExpiredLease: row.ExpiredLease}
			if fromRow.Actions == nil {
				fromRow.Actions = []string{}
			}
			if !bytes.Equal(rec.Bytes(), d.Bytes()) || !bytes.Equal(fromRow.Bytes(), d.Bytes()) {
				t.Fatalf("seed %d: recorded %s / row %s, computed %s", seed, rec.Bytes(), fromRow.Bytes(), d.Bytes())
			}
			if b := must[Decision](t)(Steward(must[[]Row](t)(l.Rows()), id, now)).Bytes(); !bytes.Equal(b, d.Bytes()) {
				t.Fatalf("seed %d: its own decision row changed the steward's reading: %s then %s", seed, d.Bytes(), b)
			}
		}
		checkInvariants(t, seed, must[[]Row](t)(l.Rows()), ids, now)
	}
	// The generated ledgers must reach most of the table, or the property is vacuous.
	if len(seen) < 8 {
		t.Fatalf("generated ledgers reached only %d reason codes: %v", len(seen), seen)
	}
	t.Logf("reason codes reached: %d of %d", len(seen), len(Reasons))
}

func leaseBetween(rows []Row, id string, a, b time.Time) bool {
	for _, r := range rows {
		if u := r.time(r.LeaseUntil); r.Task == id && !u.IsZero() && u.After(a) && !u.After(b) {
			return true
		}
	}
	return false
}

// checkInvariants: no claim starts while another is live, and a done task
// has a passing verdict after its last change.
func checkInvariants(t *testing.T, seed uint64, rows []Row, ids []string, now time.Time) {
	t.Helper()
	for _, id := range ids {
		var live *Row
		for i := range rows {
			r := &rows[i]
			if r.Task != id {
				continue
			}
			switch r.Kind {
			case KindClaim:
				if live != nil && r.time(r.At).Before(r.time(live.LeaseUntil)) {
					t.Fatalf("seed %d: claim %d by %s while %s's lease (row %d) was live", seed, r.Seq, r.By, live.By, live.Seq)
				}
				live = r
			case KindRenew:
				if live != nil {
					live = &Row{By: live.By, LeaseUntil: r.LeaseUntil, Seq: r.Seq}
				}
			case KindHandback:
				live = nil
			}
		}
		tk := must[*Task](t)(Derive(rows, id, now))
		if tk.State == StateDone {
			v := tk.lastVerdict("make test")
			if v == nil || !v.Pass || v.Seq <= tk.LastChange {
				t.Fatalf("seed %d: task %s done without a passing verdict after its last change", seed, id)
			}
		}
	}
}

// docs/ledger.md lists exactly the reason codes of the code, with the same
// classification and actions: the closed list lives in one documented place.
func TestReasonCodesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/ledger.md")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(doc), "\n") {
		if m := docRow.FindStringSubmatch(line); m != nil {
			got = append(got, m[1]+" "+m[2]+" "+m[3])
		}
	}
	var want []string
	for _, r := range Reasons {
		a := strings.Join(r.Actions, ", ")
		if a == "" {
			a = "none"
		}
		want = append(want, r.Code+" "+r.Classification+" "+a)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("docs/ledger.md reason table:\n%s\nthe code's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range Classifications {
		if !strings.Contains(string(doc), c) {
			t.Errorf("classification %s is not in docs/ledger.md", c)
		}
	}
}

var docRow = regexp.MustCompile("^\\| `(\\w+)` \\| `(\\w+)` \\| ([a-z_, ]+) \\| ")

// The steward run again on unchanged rows adds no row: it returns the
// decision row (and action) it recorded. A change it reads, or a lease
// expiring, is a new decision and a new row.
func TestStewardRecordsADecisionOnce(t *testing.T) {
	l, c := newLedger(t)
	id := must[string](t)(l.New("once", []string{"true"}, Budget{}))
	_, first, _, err := l.Steward(id, false)
	if err != nil {
		t.Fatal(err)
	}
	n := rowCount(t, l)
	for _, act := range []bool{false, true} { // unclaimed: claim is a worker's action
		d, again, a, err := l.Steward(id, act)
		if err != nil || again.Seq != first.Seq || a != nil || rowCount(t, l) != n || d.Reason != "unclaimed" {
			t.Fatalf("steward again (act %v): %s row %d (first %d) action %v, %d rows (was %d), %v", act, d.Bytes(), again.Seq, first.Seq, a, rowCount(t, l), n, err)
		}
	}
	must[Row](t)(l.Claim(id, "w", time.Minute))
	c.add(2 * time.Minute) // the lease expired: abandoned, requeue
	d, dec, a, err := l.Steward(id, true)
	if err != nil || d.Reason != "lease_expired" || dec.Seq == first.Seq || a == nil || a.Action != "requeue" {
		t.Fatalf("after the lease expired: %s row %d action %v %v", d.Bytes(), dec.Seq, a, err)
	}
	n = rowCount(t, l)
	for _, act := range []bool{true, false} {
		_, again, a2, err := l.Steward(id, act)
		if err != nil || again.Seq != dec.Seq || rowCount(t, l) != n || act && (a2 == nil || a2.Seq != a.Seq) {
			t.Fatalf("steward again (act %v): row %d (want %d) action %v (want row %d), %d rows (was %d), %v", act, again.Seq, dec.Seq, a2, a.Seq, rowCount(t, l), n, err)
		}
	}
}
