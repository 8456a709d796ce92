// Package continuity keeps what an agent declares must survive a context reset
// or compaction (seed 004: identity anchors, open commitments, canon pointers,
// live threads) as sealed snapshots in the ctx store, and checks a later
// restatement against them.
//
// It owns:
//   - json-c14n:v1, the canonical JSON of the reference implementation
//     (arcaeon-continuity): the UTF-8 of Python's json.dumps(v, sort_keys=True,
//     separators=(",", ":"), ensure_ascii=False, allow_nan=False), byte for
//     byte, and the digests "sha256:json-c14n:v1:…" and "sha256:raw-bytes:v1:…";
//   - snapshots: a manifest, one probe per declared item and the registration
//     of that probe set, in the reference's record layout and under its
//     snapshot digest (read from its published source; docs/continuity.md);
//   - verdicts (strict by default, loose only when asked and labelled so),
//     added-since-seal, diffs of seals and checkpoint classification;
//   - drop receipts in the reference's compaction-receipt layout, which name
//     dropped items by digest only;
//   - a chained log of continuity rows (arcaeon-ledger's chain recipe),
//     ready to carry the task ledger's rows too.
//
// It never:
//   - claims more than a verdict proves: a faithful verdict means the declared
//     probes were restated, not that the same self answered them, nor that the
//     commitments were acted on, nor anything about what was never declared;
//   - scores silence (no restatement arrived) as unfaithful;
//   - puts dropped content into a drop receipt;
//   - lets time or anything volatile into a digest;
//   - rewrites or deletes a log row: the log is append-only and re-derivable.
package continuity
