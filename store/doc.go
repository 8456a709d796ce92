// Package store is ctx's local content-addressed store: one bbolt database
// (store.db) under the workspace's .ctx directory, with spool files beside it.
// It owns
//
//   - blobs: any captured bytes, identified by the BLAKE3-256 of their raw
//     content (ID), kept as independent zstd frames with a frame table of raw
//     offsets and first line numbers, so a line range of a huge blob reads one
//     frame (blob.go, frames.go, index.go); large ones live in pack files,
//     a large capture first as a plain pack (its raw spool, linked at
//     commit) until the background compaction writes its zstd frames
//     (run.go, compact.go);
//   - records: runs (the hash of their canonical Manifest is their id),
//     execution records (the volatile facts: time, host, pid), receipts, span
//     tokens, pins, sessions, retrievals and the rows of the layers above
//     (capsules, continuity, ledger) (run.go, records.go, layers*.go);
//   - handles: their grammar, parsing and resolution to a Target, with
//     unique-prefix lookup and ambiguity errors (handle.go, resolve.go);
//   - the capture path's end: spooling while a command runs, Prepare and
//     Commit, recovery of a spool a crash left behind (spool.go, recover.go,
//     inflight.go);
//   - integrity and retention: check and repair, gc with pins and a lease,
//     removal (check.go, gc.go, remove.go, lease.go).
//
// It is one package, though larger than ctx's other packages, because these
// share one transaction boundary: a run becomes visible in the same bbolt
// transaction that stores its blob records, spans and execution, and gc,
// compaction and check must see exactly those buckets. Splitting it would
// export the transaction internals that keep "no listed-but-unreadable run"
// true.
//
// The Backend interface (backend.go) is the small seam beneath: blobs with
// ranged reads, records by kind, prefix lookup. *Store implements it, so does
// the in-memory twin store/mem and the remote tier's bucket
// (remote.Remote.Backend), and all three pass store/storetest.
//
// The store must never: hold a bbolt handle across parsing or digesting (open
// it for short transactions only, so parallel ctx processes all succeed);
// hand out bytes that still belong to a transaction; trust anything under
// .ctx (no symlink is followed, spools are validated, reads verify hashes);
// or delete the last copy of a referenced blob. It imports nothing of ctx's
// but runstatus, the shared vocabulary of how a run ended. The on-disk format
// is specified in docs/store.md, the handle grammar in docs/handles.md.
package store
