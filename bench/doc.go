// Package bench measures ctx: log template mining against loghub (beside
// the classic Drain parser, drain.go, as a baseline), profile
// recall against external corpora, digest size in real tokens against the raw
// output, capture throughput and start-up overhead against bare baselines, and
// determinism by replaying stored receipts. Every run writes a benchmark
// receipt (machine facts, version, corpus digests, parameters, results) into
// the store.
//
// Timings are always ratios measured in one run, alternating the two sides
// and reporting medians and spread — never a single sample, never a figure
// carried over from elsewhere. Token counts use the o200k_base vocabulary,
// loaded only when a suite needs it.
package bench
