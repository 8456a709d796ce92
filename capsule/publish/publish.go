package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Layer buckets: the idempotency claims (put-if-absent, written before the
// call) and the delivery receipts (append-only, one row per attempt).
const (
	KeysBucket     = "capsule.publish_keys"
	ReceiptsBucket = "capsule.deliveries"
)

// ErrPriorAmbiguous is a retry of a publication whose earlier attempt may
// have committed.
var ErrPriorAmbiguous = errors.New("an earlier attempt may already have published this")

// Claim is persisted under the idempotency key before the external call.
type Claim struct {
	Key         string `json:"idempotency_key"`
	Capsule     string `json:"capsule"`
	Provider    string `json:"provider"`
	Operation   string `json:"operation"`
	Destination string `json:"destination"`
	// Reference is the external reference known before the call: the
	// issue or thread appended to ("" when the call creates one).
	Reference string `json:"external_reference"`
}

// Receipt is one publication's delivery record: never a token, never the
// body, never a contact card.
type Receipt struct {
	Seq               uint64 `json:"seq"`
	Capsule           string `json:"capsule"`
	Provider          string `json:"provider"`
	Operation         string `json:"operation"`
	Destination       string `json:"destination"`
	ExternalReference string `json:"external_reference"`
	Status            string `json:"status"` // published | ambiguous | failed
	IdempotencyKey    string `json:"idempotency_key"`
	At                string `json:"at"`
	// Replayed is set on the answer (not stored) when the key was already
	// published and no call was made.
	Replayed bool `json:"replayed,omitempty"`
}

// Publish writes v to target through p at most once per idempotency key:
// an earlier published receipt is returned without a call; an earlier
// ambiguous or unfinished attempt refuses unless retryAmbiguous; a failed one
// may be retried. The claim is persisted before the call, the receipt after.
func Publish(ctx context.Context, st *store.Store, p Provider, capsuleID store.ID, v *View, target string, retryAmbiguous bool) (*Receipt, error) {
	dest, err := p.Label(target)
	if err != nil {
		return nil, err
	}
	ok := false
	for _, op := range p.Operations() {
		ok = ok || op == v.Operation
	}
	if !ok {
		return nil, fmt.Errorf("%s takes %v, not %s: RECORD goes to systems of record (github, jira), DISCUSS to conversations (slack)", p.Name(), p.Operations(), v.Operation)
	}
	key := IdempotencyKey(capsuleID.String(), p.Name(), target, v.Operation)
	prior, err := lastReceipt(st, key)
	if err != nil {
		return nil, err
	}
	if prior != nil && prior.Status == Published {
		prior.Replayed = true
		return prior, nil
	}
	claim := Claim{Key: key, Capsule: "capsule:" + capsuleID.String(), Provider: p.Name(), Operation: v.Operation, Destination: dest}
	if p.Name() == "github" && githubTarget.FindStringSubmatch(target)[3] != "" || p.Name() == "jira" && jiraIssue.MatchString(target) ||
		p.Name() == "slack" && slackTarget.FindStringSubmatch(target)[2] != "" {
		claim.Reference = target
	}
	cb, err := json.Marshal(claim)
	if err != nil {
		return nil, err
	}
	existed, err := st.PutLayerRecord(KeysBucket, []byte(key), cb)
	if err != nil {
		return nil, fmt.Errorf("persist the idempotency key before publishing: %w", err)
	}
	unfinished := existed && prior == nil // claimed, no outcome: crashed mid-call, or running now
	if (unfinished || prior != nil && prior.Status == Ambiguous) && !retryAmbiguous {
		what := "ended ambiguous"
		if unfinished {
			what = "has no recorded outcome (interrupted, or still running)"
		}
		return nil, &store.Error{Err: fmt.Errorf("%s to %s: an earlier attempt %s: %w", v.Operation, dest, what, ErrPriorAmbiguous),
			Hint: "look at the destination; if it is not there, rerun with --retry-ambiguous (which may create a duplicate if it is)"}
	}
	ref, perr := p.Publish(ctx, v, target)
	r := Receipt{Capsule: claim.Capsule, Provider: p.Name(), Operation: v.Operation, Destination: dest, ExternalReference: ref,
		Status: Published, IdempotencyKey: key, At: time.Now().UTC().Format(time.RFC3339)}
	if perr != nil {
		r.Status = Failed
		var oe *OutcomeError
		if errors.As(perr, &oe) {
			r.Status = oe.Outcome
		}
		if r.ExternalReference == "" {
			r.ExternalReference = claim.Reference
		}
	}
	seq, err := st.AppendLayerRow(ReceiptsBucket, func(_ []byte, seq uint64) ([]byte, error) {
		r.Seq = seq
		return json.Marshal(r)
	})
	if err != nil {
		return &r, fmt.Errorf("%s (outcome %s, reference %q) but its receipt could not be stored: %w", v.Operation, r.Status, r.ExternalReference, err)
	}
	r.Seq = seq
	return &r, perr
}

// Receipts calls fn for every delivery receipt, oldest first.
func Receipts(st *store.Store, fn func(Receipt) error) error {
	return st.LayerRows(ReceiptsBucket, func(_ uint64, b []byte) error {
		var r Receipt
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("delivery receipt: %v: %w", err, store.ErrCorrupt)
		}
		return fn(r)
	})
}

func lastReceipt(st *store.Store, key string) (*Receipt, error) {
	var last *Receipt
	err := Receipts(st, func(r Receipt) error {
		if r.IdempotencyKey == key {
			last = &r
		}
		return nil
	})
	return last, err
}
