package continuity

import "fmt"

// Checkpoint outcomes, in the order they are decided.
const (
	OutcomeRefused      = "refused_explicitly"         // a stated refusal was logged
	OutcomeNotAttempted = "due_not_attempted"          // nothing was attempted: unknown, never unfaithful
	OutcomeNoReceipt    = "attempted_no_receipt"       // an attempt with no durable receipt: not scored
	OutcomeFaithful     = "receipt_received_faithful"  // scored: every probe restated
	OutcomeDivergent    = "receipt_received_divergent" // scored: see the verdict's divergences
)

// CheckpointEvidence is what is known about one scheduled restatement. The
// three signals are disjoint: none is inferred from another, and none from a
// restatement being absent.
type CheckpointEvidence struct {
	Attempted     bool              // was any restatement activity evidenced at all
	ReceiptStored bool              // was a durable receipt of the attempt recorded
	Restated      map[string]string // the restatement, when one arrived (nil: none)
	Refusal       *string           // the successor's logged reason for declining
	Loose         bool
	Tiers         Tiers
}

// CheckpointReceipt classifies a checkpoint. IsUnresolved is true when no
// fidelity judgment was made and nothing positive is known (not attempted, or
// attempted with no receipt): the missing piece may be the scheduler, the
// delivery path or the receipt store, not the successor.
type CheckpointReceipt struct {
	Snapshot     string   `json:"snapshot"`
	Outcome      string   `json:"outcome"`
	IsUnresolved bool     `json:"is_unresolved"`
	Refusal      *string  `json:"refusal,omitempty"`
	Verdict      *Verdict `json:"verdict,omitempty"`
	Notes        []string `json:"notes"`
}

// Checkpoint classifies a checkpoint. Contradictory evidence is an error
// wrapping ErrContradiction, never a guess.
func Checkpoint(s *Snapshot, ev CheckpointEvidence) (*CheckpointReceipt, error) {
	r := &CheckpointReceipt{Snapshot: s.Digest, Notes: []string{}}
	// The order is the reference's: a logged refusal first, then whether
	// anything was attempted, then what arrived.
	if ev.Refusal != nil {
		if trimPython(*ev.Refusal) == "" {
			return nil, fmt.Errorf("%w: the refusal is empty; pass the reason the successor actually logged, or no refusal", ErrContradiction)
		}
		r.Outcome, r.Refusal = OutcomeRefused, ev.Refusal
		r.Notes = append(r.Notes, "an explicit decline was recorded — positive evidence, not inferred from a missing restatement")
		if ev.Restated != nil {
			r.Notes = append(r.Notes, "a restatement was supplied with the refusal; it was not scored")
		}
		return r, nil
	}
	if !ev.Attempted {
		switch {
		case ev.Restated != nil:
			return nil, fmt.Errorf("%w: not attempted, yet a restatement was supplied; say --attempted yes, or drop the restatement", ErrContradiction)
		case ev.ReceiptStored:
			// ctx's addition to the reference's three contradictions.
			return nil, fmt.Errorf("%w: not attempted, yet a receipt of the attempt was stored; say --attempted yes, or drop --receipt-stored", ErrContradiction)
		}
		r.Outcome, r.IsUnresolved = OutcomeNotAttempted, true
		r.Notes = append(r.Notes, "no restatement attempt was evidenced: UNKNOWN, not unfaithful — the scheduler, the delivery path or the successor may have failed, and this receipt does not guess which")
		return r, nil
	}
	if ev.Restated != nil && len(ev.Restated) == 0 {
		return nil, fmt.Errorf("%w: the restatement is empty, which is evidence of nothing; without a stored receipt this is attempted_no_receipt (drop --restated)", ErrContradiction)
	}
	if !ev.ReceiptStored {
		r.Outcome, r.IsUnresolved = OutcomeNoReceipt, true
		if ev.Restated != nil {
			r.Notes = append(r.Notes, "a restatement was supplied but no durable receipt exists; it was deliberately not scored")
		}
		return r, nil
	}
	if ev.Restated == nil {
		return nil, fmt.Errorf("%w: a receipt was stored but there is nothing to verify; pass the restatement it holds (--restated FILE)", ErrContradiction)
	}
	r.Verdict = Verify(s, ev.Restated, ev.Loose, ev.Tiers)
	r.Outcome = OutcomeDivergent
	if r.Verdict.Faithful {
		r.Outcome = OutcomeFaithful
	}
	if ev.Loose {
		r.Notes = append(r.Notes, "scored in loose mode: "+r.Outcome+" here means the declared values appeared in the restatement, not that they were restated")
	}
	return r, nil
}
