// Package cargotest is the profile for Rust test runs: `cargo test` (libtest's
// default, quiet and --nocapture/--show-output formats, unit, integration and
// doc-test binaries, workspaces), the rustc and cargo errors that stop a build,
// and `cargo nextest run`.
//
// It recognises:
//   - cargo's `Running unittests src/lib.rs (target/debug/deps/calc-1a2b…)` and
//     `Doc-tests calc` headers, which name the test binary (Package, hash
//     stripped); under a pty they sit on stderr while libtest writes stdout, so
//     headers and `running N tests` blocks are paired in order;
//   - libtest's `test path::name ... ok|FAILED|ignored` lines, quiet
//     `name --- FAILED` lines, `---- name stdout ----` failure blocks with the
//     panic location and message (`thread 'x' (tid) panicked at src/lib.rs:12:5:`
//     and the pre-1.73 `panicked at 'msg', file:line:col` form), should_panic
//     notes, `Error: …` results, doc-test failures, the `failures:` list, and
//     `test result: FAILED. 1 passed; 2 failed; …` (one summary item per binary);
//   - rustc diagnostics (`error[E0308]: …` with ` --> file:line:col`) as
//     diagnostic items, `error: could not compile` as a build failure (a test item
//     with outcome error and class build), crashed test binaries (`signal: 6`);
//   - nextest's `PASS|FAIL [ time ] (i/n) binary-id test::name` lines, its
//     stdout/stderr failure sections and `Summary [ … ] N tests run: …`.
//
// It must never: count tests from text inside captured output (counts come
// only from `test result:` and nextest `Summary` lines, and a `test result:`
// whose numbers do not add up to the binary's `running N tests` is captured
// output, not a summary); turn a passing test that prints "FAILED" or
// "panicked" into a failure (the `failures:` list and the summary are the
// authority); claim a pass when the output ends before every binary reported,
// when a binary crashed, or when the exit status says otherwise; or put thread
// ids, timings or absolute temporary paths into identities.
package cargotest
