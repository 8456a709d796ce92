// Package query is ctx q: a bounded pipeline language over typed fact
// sources (runs, tests, failures, frames, symbols, changes, generations).
//
//	from failures | where outcome == "fail" | join symbols on ... | in-changed | select test, symbol | limit 20
//
// A query is total by construction: it has no loops and no recursion, at
// most MaxStages stages, at most RowCap rows out of any stage, and a static
// cost bound (rows × per-row expression cost, CEL's own estimate) that Plan
// computes and checks before any source is read. A query over the bound is
// refused with the estimate. Each stage records its provenance: which
// sources and handles its rows came from.
//
// The package parses, plans and runs; it never opens the store or the
// work tree itself: the Facts a caller passes in do.
package query
