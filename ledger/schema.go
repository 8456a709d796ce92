package ledger

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ctxhq/ctx/continuity"
)

// Version is the schema version every row carries in "v".
const Version = 1

// Log is the chained log the ledger's rows live in.
var Log = continuity.Log{Bucket: "ledger.log"}

// Row kinds.
const (
	KindTask     = "task"     // a unit of work and what proves it done
	KindClaim    = "claim"    // a worker takes the task until its lease expires
	KindRenew    = "renew"    // the holder extends its lease (optionally saving a checkpoint)
	KindHandback = "handback" // a worker's typed exit
	KindVerdict  = "verdict"  // an acceptance run's outcome, checked against the store
	KindApproval = "approval" // a person approves one action on a task
	KindDecision = "decision" // the steward's classification, recorded before it acts
	KindAction   = "action"   // an action the steward took
	KindInbox    = "inbox"    // a message addressed to a task, not to a harness
)

// HandbackKinds is the closed list of a handback's kinds.
var HandbackKinds = []string{"done", "failed", "blocked", "over_budget", "over_turns", "low_confidence"}

// FailureKinds is the closed list of why a node stopped. "none" is for a
// handback of done.
var FailureKinds = []string{"none", "test_failure", "build_failure", "tool_error", "flaky", "too_large",
	"wrong_approach", "missing_input", "needs_permission", "budget", "unknown"}

// Actions is the closed list of recovery actions the steward can offer.
var Actions = []string{"claim", "wait", "verify", "reclaim", "split", "raise_budget", "request_approval",
	"send_input", "requeue"}

// ApprovalActions are the actions that need an approval row before anyone takes them.
var ApprovalActions = []string{"raise_budget"}

// field types of the schema.
const (
	tString   = "string"     // a non-empty string
	tText     = "text"       // a string, possibly empty
	tInt      = "int"        // an integer ≥ 0
	tNumber   = "number"     // a number ≥ 0
	tBool     = "bool"       // true or false
	tStrings  = "strings"    // a non-empty list of non-empty strings
	tStrings0 = "strings?"   // a list of non-empty strings, possibly empty
	tTime     = "time"       // RFC 3339 with nanoseconds, UTC
	tTaskID   = "task"       // 12 lower-case hex digits
	tDuration = "duration"   // a Go duration ("0s" for none)
	tHandback = "handback"   // one of HandbackKinds
	tFailure  = "failure"    // one of FailureKinds
	tAction   = "action"     // one of Actions
	tClass    = "class"      // one of Classifications
	tReason   = "reason"     // one of the reason codes
	tApproval = "approvable" // one of ApprovalActions
)

type field struct{ name, typ string }

// schema lists, per kind, every field a reader needs. A row must have each,
// of its type; it may have no other field.
var schema = map[string][]field{
	KindTask:     {{"at", tTime}, {"title", tString}, {"dir", tString}, {"accept", tStrings}, {"turns", tInt}, {"cost", tNumber}, {"wall", tDuration}},
	KindClaim:    {{"by", tString}, {"at", tTime}, {"lease_until", tTime}},
	KindRenew:    {{"by", tString}, {"at", tTime}, {"lease_until", tTime}, {"checkpoint", tText}},
	KindHandback: {{"by", tString}, {"at", tTime}, {"handback", tHandback}, {"failure_kind", tFailure}, {"checkpoint", tText}, {"turns", tInt}, {"cost", tNumber}, {"evidence", tStrings0}},
	KindVerdict:  {{"at", tTime}, {"pass", tBool}, {"run", tString}, {"exec", tString}, {"run_start", tTime}, {"argv", tStrings}, {"proves", tString}, {"exit", tInt}},
	KindApproval: {{"by", tString}, {"at", tTime}, {"action", tApproval}},
	KindDecision: {{"classification", tClass}, {"reason", tReason}, {"actions", tStrings0}, {"basis", tInt}, {"approval", tInt}, {"expired_lease", tText}},
	KindAction:   {{"action", tAction}, {"at", tTime}, {"decision", tInt}, {"approval", tInt}},
	KindInbox:    {{"from", tString}, {"at", tTime}, {"text", tString}},
}

// common fields of every stored row (the log stamps seq, ts and chain).
var common = []field{{"v", tInt}, {"kind", tString}, {"task", tTaskID}}
var stamped = []field{{"seq", tInt}, {"ts", tString}, {"chain", tString}}

// ErrMalformed: a row breaks the schema or the chain. The ledger is not
// repaired: reads and writes stop at it.
var ErrMalformed = errors.New("malformed ledger")

// SchemaError names the row and the field that break the schema.
type SchemaError struct {
	Kind  string // the row's kind
	Field string // the field at fault
	Msg   string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s row: field %q %s", e.Kind, e.Field, e.Msg)
}

// validate checks a row (as the continuity parser reads it: integers as
// continuity.Int) against the schema. stored says whether seq, ts and chain
// must be there (a read) or must not yet be (a write).
func validate(m map[string]any, stored bool) error {
	kind, _ := m["kind"].(string)
	fields, ok := schema[kind]
	if !ok {
		return &SchemaError{Kind: kind, Field: "kind", Msg: fmt.Sprintf("is %q, not one of %s", kind, strings.Join(kinds(), ", "))}
	}
	want := slices.Concat(common, fields)
	if stored {
		want = append(want, stamped...)
	}
	for _, f := range want {
		v, ok := m[f.name]
		if !ok {
			return &SchemaError{Kind: kind, Field: f.name, Msg: "is missing; every reader of " + kind + " rows needs it"}
		}
		if msg := check(f.typ, v); msg != "" {
			return &SchemaError{Kind: kind, Field: f.name, Msg: msg}
		}
	}
	if v := m["v"]; fmt.Sprint(v) != fmt.Sprint(Version) {
		return &SchemaError{Kind: kind, Field: "v", Msg: fmt.Sprintf("is %v; this ctx reads ledger schema %d", v, Version)}
	}
	for k := range m {
		if !slices.ContainsFunc(want, func(f field) bool { return f.name == k }) {
			return &SchemaError{Kind: kind, Field: k, Msg: "is not in schema " + fmt.Sprint(Version)}
		}
	}
	if kind == KindHandback {
		hk, fk := m["handback"], m["failure_kind"]
		if hk == "done" && fk != "none" {
			return &SchemaError{Kind: kind, Field: "failure_kind", Msg: "must be none for a handback of done"}
		}
		if hk != "done" && fk == "none" {
			return &SchemaError{Kind: kind, Field: "failure_kind", Msg: fmt.Sprintf("must say why a %v handback stopped: one of %s", hk, strings.Join(FailureKinds[1:], ", "))}
		}
	}
	return nil
}

func kinds() []string {
	var out []string
	for k := range schema {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// check returns "" when v has type typ, or what is wrong with it.
func check(typ string, v any) string {
	oneOf := func(list []string) string {
		s, _ := v.(string)
		if !slices.Contains(list, s) {
			return fmt.Sprintf("is %q, not one of %s", s, strings.Join(list, ", "))
		}
		return ""
	}
	switch typ {
	case tString, tText:
		s, ok := v.(string)
		if !ok {
			return "is not a string"
		}
		if typ == tString && strings.TrimSpace(s) == "" {
			return "is empty"
		}
	case tInt:
		if !isInt(v) {
			return "is not an integer ≥ 0"
		}
	case tNumber:
		f, ok := v.(float64)
		if !isInt(v) && (!ok || f < 0) {
			return "is not a number ≥ 0"
		}
	case tBool:
		if _, ok := v.(bool); !ok {
			return "is not true or false"
		}
	case tStrings, tStrings0:
		list, ok := asStrings(v)
		if !ok {
			return "is not a list of non-empty strings"
		}
		if typ == tStrings && len(list) == 0 {
			return "is an empty list"
		}
	case tTime:
		s, _ := v.(string)
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil || !strings.HasSuffix(s, "Z") {
			return "is not a UTC RFC 3339 time"
		}
	case tTaskID:
		s, _ := v.(string)
		if !validID(s) {
			return "is not a task id (12 hex digits)"
		}
	case tDuration:
		s, _ := v.(string)
		if d, err := time.ParseDuration(s); err != nil || d < 0 {
			return "is not a duration like 30m"
		}
	case tHandback:
		return oneOf(HandbackKinds)
	case tFailure:
		return oneOf(FailureKinds)
	case tAction:
		return oneOf(Actions)
	case tClass:
		return oneOf(Classifications)
	case tReason:
		return oneOf(reasonCodes())
	case tApproval:
		return oneOf(ApprovalActions)
	}
	return ""
}

func isInt(v any) bool {
	switch n := v.(type) {
	case continuity.Int:
		return !strings.HasPrefix(string(n), "-")
	case int:
		return n >= 0
	case int64:
		return n >= 0
	}
	return false
}

func asStrings(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, !slices.Contains(l, "")
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok || s == "" {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func validID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
