// Package evidence defines the typed evidence graph that profiles extract from
// captured output and that contracts, plans and queries read.
//
// A graph is a list of items in the order the profile found them. Each item has a
// kind from a closed set, a stable id derived from its identity (never from its
// position, a time or a path outside the workspace), typed fields, a span that
// points back into the captured streams, and relations to other items.
//
// The JSON form of items is an interface that tests, benchmarks and agents read
// (`ctx run --json`); the field names are specified in docs/evidence.md and must
// stay stable.
//
// This package holds types and small helpers only. It must never import another
// package of this module, read the store, or render digests.
package evidence
