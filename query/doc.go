// Package query is ctx q: a bounded pipeline language over typed fact
// sources (runs, tests, failures, frames, symbols, changes, changed_symbols,
// generations).
//
//	from failures | where outcome == "fail" | join symbols on ... | in-changed | select test, symbol | limit 20
//
// A query is total by construction: it has no loops and no recursion, at
// most MaxStages stages, at most RowCap rows out of any stage, and a static
// cost bound (rows × the expression's cost bound per evaluation) that Plan
// computes and checks before any source is read. A query over the bound is
// refused with the estimate. Each stage records its provenance: which
// sources and handles its rows came from.
//
// # Relations
//
// The evidence graph's cross-plane relations are stages and fields here:
// located-at (failure frame → symbol) is the locate stage, which adds the
// innermost declaration and its anchored repo: handle; run → generation is
// runs.generation (recorded by every capture as the command started; the
// other dynamic sources carry their run's); changed-in is two sources:
// changes (file → generation, one row per file that differed from HEAD)
// and changed_symbols (symbol → generation: the generation's hunks against
// its HEAD inside each declaration, per file only where the generation's
// content is gone from the work tree and HEAD). in-changed narrows rows to
// the lines that differ from HEAD now, in-changed since run:ID to those
// that differ from the work tree that run recorded (so commits since count).
//
// # Expressions: our own, not CEL
//
// where and join take expressions in a small language of this package
// (grammar in expr.go): comparisons, && || !, + and - on ints, in over a
// list literal, field access (file, frames.test after a join), and the
// string functions startsWith, endsWith, contains, matches (RE2, literal
// pattern), lower, upper and size. Each expression is type-checked against
// the fields its stage sees, syntax and type errors carry the column, and
// its cost bound is computed from the tree (strings by length, as CEL's
// estimator charges: one unit per 10 bytes, a field at most 4 KiB).
//
// DESIGN.md §11 names cel-go "unless it measurably breaks start-up
// latency", and it did: cel-go links google.golang.org/protobuf and
// antlr, whose package init (descriptor registrations) ran on every ctx
// command, ctx run included, about 0.8 ms of the 2–3 ms of init the whole
// binary had (GODEBUG=inittrace=1; figures in BENCHMARKS.md, issue 15).
// ctx q uses none of what CEL adds over this language (protobuf messages,
// macros over lists, timestamps), and the language here is total by its
// grammar: there is no comprehension to bound, so the cost bound is exact
// arithmetic over the tree rather than an estimator with size hints.
// Moving ctx q into a second binary was the other way out; it would have
// split the CLI and the MCP server (which exposes q) for one feature.
//
// The package parses, plans and runs; it never opens the store or the
// work tree itself: the Facts a caller passes in do.
package query
