// Package diag is the diagnostics profile: it reads the findings compilers,
// vet and linters print and turns each into a diagnostic item (tool, file,
// line, column, severity, code, message, span), plus one summary item per
// closing line the tool prints ("✖ 7 problems (5 errors, 2 warnings)",
// "Found 3 errors in 1 file", "error: could not compile `x`").
//
// It recognises, by argv (see ToolOf) or by content (see Content):
//
//   - gcc, clang, g++: "file:3:5: error: …" with "In file included from" chains,
//     "In function" context, "   12 | code" excerpts and "     |  ^~~" carets in
//     the diagnostic's span; notes attach to the diagnostic before them (a
//     part-of relation, and the parent's Detail covers them); linker and driver
//     lines ("collect2: error: …", "file.c:(.text+0x9): undefined reference").
//   - go build and go vet ("# pkg" headers, "vet: " type errors), staticcheck,
//     golangci-lint (with source and caret lines), golint, revive.
//   - rustc, cargo build/check/clippy: the multi-line block from
//     "error[E0308]: …" through " --> src/main.rs:3:5", gutters and "= note:"
//     lines is the span; the short format too.
//   - tsc (plain "a.ts(3,5): error TS2322: …" and --pretty), eslint stylish and
//     compact, stylelint, tslint, msbuild and dotnet ("file(3,5): warning CS0618"),
//     mypy, pylint, flake8, pycodestyle, ruff (concise, full and the "-->" style),
//     black, rubocop, standardrb, reek, sorbet, hlint, yamllint, luacheck,
//     protolint, puppet-lint, scalastyle, sbt and maven ("[error] file:3: …"),
//     kotlinc, javac, and the common "file:line[:col]: [severity:] message" shapes.
//
// Severity is normalised to error, warning, info or note. Where a tool prints
// none, the tool decides: compilers print errors (go build, tsc, rustc, javac:
// error); linters print findings (warning). flake8/ruff/pycodestyle codes map
// E9, F63, F7, F82 (syntax errors, undefined names) to error and everything else
// to warning; pylint and rubocop letters map E and F to error, W to warning, C,
// R and I to info. A severity that nothing printed and no tool rule decides is
// "warning" with the attribute severity=default.
//
// The verdict is "fail" when any error diagnostic exists or a tool summary says
// so, "pass" when the tool says it is clean ("Success: no issues found",
// "All checks passed!", "Found 0 errors", cargo's "Finished", or no output at
// all from a tool that is silent on success) and the exit status agrees, else "".
//
// The profile must never claim a pass the output contradicts, never read a
// count from anything but the tool's own summary line, never hold unbounded
// memory (MaxItems items, MaxMessage bytes of message each; the rest is
// counted as a loss and stays in the streams), and never change stored bytes.
package diag
