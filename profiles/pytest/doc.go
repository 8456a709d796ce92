// Package pytest is the profile for pytest runs: `pytest`, `py.test`,
// `python -m pytest` and runners such as `uv run pytest` by argv, and pytest
// output reached through `make test`, `tox`, `sh -c …` or `ctx ingest` by
// content.
//
// It reads pytest 7 and 8 terminal output in every reporting mode: plain, -q,
// -qq, -v, -vv, -r with any characters (-ra, -rA), --tb=long, short, line,
// native and no, -x, -s, xdist result lines, and colour (--color=yes, or a
// pty). From it, it extracts:
//
//   - a test item for every node id the output names, with its outcome (pass,
//     fail, error, skip, xfail, xpass): from -v result lines, short-summary
//     lines (FAILED, ERROR, PASSED, XFAIL, XPASS) and report blocks. Under -q
//     passing tests are not named; the counts line covers them.
//   - for each failure or error: the exception class, the assertion or error
//     line (Message), the crash location (File and Line as printed, made
//     relative to the rootdir when pytest printed them absolute), the identity
//     line as Span and the whole report block, captured output included, as
//     Detail. A strict xpass is a failure of class "XPASS(strict)"; collection
//     errors, conftest import errors and fixture errors at setup or teardown
//     are error items with a "phase" attribute (collect, conftest, setup,
//     teardown). A node id rebuilt from a block title because pytest printed
//     none carries the attribute name_from=header.
//   - a summary item per pytest session from its counts line, counts keyed by
//     pytest's words (passed, failed, errors, skipped, xfailed, xpassed,
//     warnings, deselected, and any a plugin adds), its text without the
//     duration, and how the session stopped (Interrupted, KeyboardInterrupt,
//     stopping after N failures, pytest.exit) in the "stopped" attribute.
//   - a region item (why "warnings") for each warnings summary, and diagnostic
//     items for usage errors (code usage-error) and INTERNALERROR tracebacks
//     (code internal-error).
//
// The verdict is "error" when pytest could not run the tests (usage error,
// internal error, conftest import error, collection interrupted, or only
// collection errors), "fail" when a test failed or errored, "pass" when tests
// ran and none failed, and "" when the output says nothing conclusive: no tests
// ran, the session was interrupted, or the counts line is missing.
//
// It must never:
//
//   - take an outcome or a count from text inside a traceback or captured
//     output: a test that prints "FAILED" or a whole nested pytest session
//     stays what pytest reported. Counts come only from pytest's final counts
//     line; the first of two passes finds that line, the short summary before
//     it and the terminal width, and the second reads sections only where
//     pytest put them.
//   - claim a pass that pytest did not print: a run cut short (no counts line
//     of pytest's own) has verdict "" (or "fail" when failures were already
//     reported) and a labelled loss; a collection error is never "no tests";
//     an exit status that disagrees with the output is labelled.
//   - store durations or other run-to-run noise in items: the JSON of a rerun
//     that differs only in timings is identical.
//   - hold unbounded memory: at most 100,000 tests and 64 MiB of report titles
//     and summary lines, messages clipped to 300 bytes; what is cut is counted
//     as a loss and stays reachable by span.
package pytest
