package capsule

// The seed's honesty rules, printed by every command that shows a verdict.
const (
	// FidelityLimitNote says what a fidelity verdict does not claim.
	FidelityLimitNote = `Fidelity checks rendering, not comprehension: it reports only what ctx
serialized and rendered for this consumer. It is not evidence that any model
read, understood, remembered or obeyed this context.`

	// ValidityLimitNote says what a validity verdict does not claim.
	ValidityLimitNote = `Validity compares the sender's declared conditions against this machine's
checkout only. It is not a trust, authority or correctness judgement, and it
verifies no system outside this repository.`

	// NegativeKnowledgeNote says what negative knowledge is not.
	NegativeKnowledgeNote = `Negative knowledge is a record of what the sender tried and ruled out, not
policy: ctx never verifies that a rejection was correct and never forbids a
retry. retry_if is the sender's prose, shown as data and never evaluated.`

	// LineageLimitNote says what a lineage report is not.
	LineageLimitNote = `Lineage compares this capsule with ancestors that happen to be in this store;
it is not the full history of the work, and a missing ancestor is reported as
gone, never reconstructed.`
)
