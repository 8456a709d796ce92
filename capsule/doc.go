// Package capsule owns handoff capsules (seed 000): the note one agent
// session leaves for the next — goal, state, next action, evidence handles,
// rejected approaches, constraints, open questions, contact cards — plus up
// to ten critical context units, validity conditions and negative knowledge
// items, and one declared parent.
//
// A capsule is stored content-addressed in the store's "capsule.records"
// layer bucket and named capsule:ID (the BLAKE3 of its canonical JSON). What
// a recipient learns about it — fidelity, validity, negative knowledge
// standing, lineage — is computed fresh on the reading machine by Inspect and
// never written into the capsule.
//
// The package must never claim more than it checks: a preserved verdict is a
// fact about rendering, not comprehension (FidelityLimitNote); validity is a
// fact about this checkout, not trust or authority (ValidityLimitNote);
// negative knowledge is a record, not policy (NegativeKnowledgeNote), and
// retry_if is never parsed. The relay lives in capsule/relay, the publish
// bridge in capsule/publish.
package capsule
