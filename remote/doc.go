// Package remote is ctx's shared tier: a store's runs, blobs and records
// copied to S3-compatible object storage (AWS S3, MinIO, Ceph, SeaweedFS…)
// so that several workspaces — CI runners, agents in containers, a teammate
// picking up a handoff — resolve each other's handles and store identical
// outputs once.
//
// It is a package of its own, beside store rather than inside it, for three
// reasons: the local store stays the one place the agent waits on (ctx run
// commits locally and never touches the network); the S3 client and its
// dependencies are linked only where a remote is used, and pushes run in a
// detached process, off the run path; and remote depends on store only
// through its transfer surface (store/transfer.go: frame tables, stored
// frames, verified puts of blobs, runs, executions and spans), so the local
// store's layout can change without this package noticing.
//
// Layout in the bucket, under the configured prefix (docs/remote.md):
//
//	blobs/<id>/table        the blob's frame table (sealed when encrypted)
//	blobs/<id>/data.<nonce> its frames back to back; the table names it
//	runs/<id>               run record (JSON)
//	execs/<run id>/<key>    execution records of the run, from every workspace
//	receipts/<id>           receipt JSON
//	spans/<token>           span record
//	layers/<bucket>/<key hex>              capsules, snapshots, drop receipts
//	layers/<bucket>/<workspace>/<seq hex>  rows of a workspace's logs (ledger, …)
//	workspaces/<id>         one workspace's index: the runs it pushed
//
// Every object is immutable and written with If-None-Match: * except a
// workspace's own index, which it rebuilds from its local state on every
// push. Nothing read back is trusted: tables carry a checksum, frames their
// zstd checksums, whole blobs their BLAKE3 id, run records the hash of their
// manifest, and indexes are only hints checked against the objects they
// name.
//
// Remote.Backend presents the bucket as a store.Backend, so the store's one
// test suite (store/storetest) runs against it on a real server.
package remote
