// Package gotest is the profile for `go test`: it reads the text output (with
// or without -v) and the -json event stream, and extracts test identities,
// compiler and vet diagnostics, and per-package summaries into an evidence
// graph.
//
// What it recognises:
//
//   - `=== RUN/PAUSE/CONT/NAME` headers and `--- PASS/FAIL/SKIP` result lines,
//     indented for subtests (`TestX/sub`), in the -v order (logs before the
//     result) and the plain and legacy orders (logs indented after the result);
//   - package lines: `ok pkg 0.01s`, `ok pkg (cached)`, coverage, `[no tests to
//     run]`, `FAIL pkg 0.01s`, `FAIL pkg [build failed]` / `[setup failed]`,
//     `? pkg [no test files]`, and the bare `PASS`/`FAIL` of a test binary run
//     directly;
//   - panics with their goroutine traces, test timeouts (`panic: test timed out
//     after …` with its list of running tests), race reports (`WARNING: DATA
//     RACE` … `race detected during execution of test`), tests killed by the
//     binary exiting, examples (got/want blocks), fuzz seeds, benchmarks
//     (`BenchmarkX-8  1000  123 ns/op`, kept as passing tests with their
//     metrics in attrs);
//   - build, setup and vet failures: `# pkg` headers followed by
//     `file.go:L:C: msg` lines (usually on stderr), or -json `build-output` /
//     `build-fail` events and `FailedBuild`; and `go: …` command errors.
//
// A failing test carries its package, the first `file.go:N: message` log line
// of its output (its message and location), a class (`fail`, `panic`,
// `timeout`, `race`, `exit`), and a detail span over its output block. Parents
// of failing subtests fail too: both are kept, the subtest related to its
// parent as "part-of". A package that fails to build is a failing package
// summary of class build carrying its compiler errors as diagnostics related
// to it ("part-of"); it is never read as a package without tests.
//
// The verdict is "fail" when a test or a package run failed, "error" when
// the only failures are builds, setup, vet or the go command itself (no test
// could run there), "pass" when every package line says ok and the exit
// status is zero, and "" otherwise (with a labelled loss).
//
// Output without any package line is the verdict of a test binary run
// directly (`pkg.test -test.v` ends with its own PASS or FAIL) unless argv
// is `go test`, where it means the run was cut short.
//
// Known limits: without -v, `-count=N` repeats of one test are merged into
// one item; a "--- FAIL" line printed by a test of a failing package cannot
// be told from a real one without -v (in a passing package it is dropped and
// the loss labelled); relations name items by key, so under -count a
// subtest's "part-of" points at the first run of its parent.
//
// What it must never do: claim a pass the output does not state (a truncated
// run has verdict "" and a labelled loss; a run whose exit status is non-zero
// never passes); count anything from text inside captured output or
// tracebacks (counts come from result lines and -json actions only; a
// `--- FAIL` or `panic:` printed by a passing test stays output); hold
// unbounded memory (test items and diagnostics are capped and the rest
// counted, messages are cut at a few hundred bytes — the full text stays
// reachable through spans); or depend on map order, times or absolute paths
// for ids.
package gotest
