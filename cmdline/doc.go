// Package cmdline is ctx's one model of a command line: which program an argv
// runs once wrappers are looked through (env, timeout, nice, npx, uv run,
// poetry run, pnpm exec, bundle exec …), the program's family (its name and,
// for tools that have them, its subcommand), shell words (split with
// mvdan.cc/sh, the shell parser the hook already uses) and the one way ctx
// quotes an argv for a person or a shell to read.
//
// Profiles' detection, the host hook's flood classifier, `ctx stats`, the
// digest header and `ctx ls` all answer "what does this command run" and "how
// is it typed" here, so they cannot disagree.
//
// It is pure: no I/O, no globals that change, nothing from the rest of ctx. It
// never decides what to do with a command (capture it, rewrite it, parse its
// output); that belongs to its callers.
package cmdline
