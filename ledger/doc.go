// Package ledger is the task ledger (seed 001): the append-only record that
// harnesses collaborate over. Harnesses never address each other; they read
// the ledger and append to it: tasks, claims with leases, typed handbacks,
// verdicts checked against the store, approvals, inbox messages addressed to
// a task, and the steward's decisions. A killed worker's task resumes from
// the ledger.
//
// It owns:
//   - one versioned schema (Version), checked on every write and every read:
//     a row missing a field a reader filters on is refused when it is
//     written, with the field named;
//   - the rows themselves, in the store bucket "ledger.log", hash-chained by
//     the continuity log (one chained-log mechanism for the whole store);
//   - task state, derived from the rows every time it is read (Derive) and
//     never stored: done only with a passing verdict whose run proves an
//     acceptance command after the task's last change;
//   - the steward (Steward): a deterministic function from the rows (and the
//     one clock it may read, compared against recorded lease expiries) to a
//     classification, a reason code from a closed list and the actions that
//     exist for it; it records its decision before acting.
//
// It never:
//   - repairs, rewrites or deletes a row: a malformed ledger is reported and
//     every read and write stops at it;
//   - counts a handback, an error or an iteration as completion;
//   - lets two live claims hold one task: every check that depends on earlier
//     rows runs inside the store's write transaction;
//   - takes an action that needs an approval without finding the approval row;
//   - tolerates a failed write silently: every append returns its error.
package ledger
