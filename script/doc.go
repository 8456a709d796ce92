// Package script runs computed work in Starlark (ctx py): a script calls
// run, get, items, emit and fail, and everything it runs is captured as its
// own run through the runner. The script is bounded by construction: a
// step limit (Starlark's execution steps), a cap on runs, a wall-clock
// limit, and no file or network access at all except through the builtins
// (no load, no os). When a limit is hit, the script stops with an error that
// says which, and the execution's digest still lists what ran.
//
// The script text is stored as a blob; the execution is a content-addressed
// record with a py: handle and one digest. Like seq, it never prints.
package script
