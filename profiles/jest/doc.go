// Package jest is the profile for JavaScript test runs by jest (default and
// verbose reporters, jest 29–30, ts-jest) and vitest (default, verbose and
// tree reporters, vitest 1–4), with or without terminal colour, from a pty or
// pipes, run directly or through `npm test`.
//
// It recognises:
//   - jest: `PASS`/`FAIL src/x.test.js` file headers, the verbose tree
//     (`✓`/`✕`/`○ skipped`/`✎ todo` under `describe` nesting, named
//     `describe › test`), `● describe › test` failure blocks with the error line,
//     `Expected:`/`Received:` and the first project stack frame
//     (`at Object.<anonymous> (src/x.test.js:12:5)`), `● Test suite failed to
//     run` (a SyntaxError or TypeScript error: a failure of the file, with a
//     diagnostic for `TS2322`-style errors), and the `Test Suites:`, `Tests:` and
//     `Snapshots:` summary lines;
//   - vitest: `✓`/`❯`/`×` file and test lines (verbose `file > describe > test`
//     or the tree), `FAIL  file > describe > test` blocks with
//     `AssertionError: expected 1 to be 2` and ` ❯ src/a.test.ts:5:13`,
//     `FAIL  file [ file ]` suites that failed to load, unhandled errors, and the
//     `Test Files`, `Tests`, `Snapshots` and `Errors` summary lines;
//   - live progress a pty leaves behind (jest `RUNS`, vitest's redrawn
//     summary, which is erased with cursor-up sequences and never counted).
//
// It must never: count tests from text inside console output (`console.log`
// blocks, vitest `stdout |` blocks) or from a stream that is not the
// reporter's when the reporter's stream holds the summary; read a suite that
// failed to run as "no tests"; claim a pass without the tool's own summary,
// when the summary reports a failure, or when the exit status disagrees; or put
// timings, absolute temporary paths or thread ids into identities.
package jest
