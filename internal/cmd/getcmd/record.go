package getcmd

import (
	"fmt"
	"strings"

	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/job"
	"github.com/ctxhq/ctx/seq"
	"github.com/ctxhq/ctx/store"
)

// RecordRun reads a record's handle (seq:, py:, job:) from an open store,
// for the layers that cite evidence (capsules, the ledger): run is the run
// it stands for (a step, an ended job), else about is a line saying what
// the record is, free of anything time-dependent. ok is false for a handle
// of any other scheme; err says why a record's handle names nothing.
func RecordRun(st *store.Store, handle string) (run, about string, ok bool, err error) {
	scheme, _, _ := strings.Cut(handle, ":")
	var kind seqcmd.Kind
	switch scheme {
	case "job":
		run, about, err := jobRun(st, handle)
		return run, about, true, err
	case "seq":
		kind = seqcmd.Sequences
	case "py":
		if Py == nil {
			return "", "", true, helper.Need(helper.MCP, "reading a py: handle")
		}
		kind = *Py
	default:
		return "", "", false, nil
	}
	ref, err := seq.ParseRefOf(scheme, handle)
	if err != nil {
		return "", "", true, err
	}
	rec, err := kind.Load(st, ref)
	if err != nil {
		return "", "", true, err
	}
	if ref.Step > 0 {
		run, err := rec.StepHandle(ref)
		return run, "", true, err
	}
	head, _, _ := strings.Cut(rec.Text(), "\n")
	return "", head, true, nil
}

// jobRun is RecordRun of a job: handle.
func jobRun(st *store.Store, handle string) (run, about string, err error) {
	id, rest, _ := strings.Cut(handle, "#")
	jid, err := job.ParseID(id)
	if err != nil {
		return "", "", err
	}
	j, err := job.Open(st, jid)
	if err != nil {
		return "", "", err
	}
	if run, err = j.Committed(); run != "" && rest != "" {
		run += "#" + rest
	}
	if run == "" && err == nil {
		about = fmt.Sprintf("background job, still %s when this was read", j.State)
	}
	return run, about, err
}

// EvidenceExists checks that an evidence handle names something in st: a
// record (seq:, py:, job:) as RecordRun reads it, or what the handle names
// (capsules and ledger handbacks cite evidence).
func EvidenceExists(st *store.Store, e string) error {
	run, _, ok, err := RecordRun(st, e)
	switch {
	case err != nil:
		return err
	case ok && run == "":
		return nil // the record itself
	case ok:
		e = run
	}
	h, err := store.ParseHandle(e)
	if err == nil {
		_, err = st.Resolve(h)
	}
	return err
}
