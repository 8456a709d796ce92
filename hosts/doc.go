// Package hosts is the pure part of ctx's integration with agent hosts
// (Claude Code, OpenAI Codex CLI): it decides which shell commands an agent
// is about to run should go through `ctx run`, answers the hosts' PreToolUse
// hook protocol, and installs or removes ctx's entries in the hosts'
// configuration and instruction files.
//
// # Why a package of its own
//
// DESIGN.md §2 adds a package only when a responsibility fits none of the
// others. This one does not: capture runs processes, store keeps bytes,
// profiles and plan read and render output — none of them knows what a
// host's settings file, hook payload or shell command line looks like, and
// cmd/ctx must stay a thin layer over packages. Everything here is about the
// boundary between an agent host and ctx (DESIGN.md §10, the Birth gate),
// and all of it is testable without a host: strings in, strings out, plus
// careful edits of a few small files.
//
// # What it must never do
//
//   - Change what a command means. [Rewrite] only inserts "ctx run -- "
//     before the command word of a simple command that is known to flood the
//     transcript and whose output reaches the transcript directly; every other
//     byte is kept, and anything doubtful is left alone (see [Reason]).
//   - Block the agent. The hook handlers write nothing unless everything
//     succeeded, recover from panics, and never grant a permission the user
//     did not configure (see [ClaudePreToolUse]).
//   - Run commands, open the store, or pull in heavy dependencies: the hook
//     runs before every shell command, so `ctx hook` must start fast.
//     It imports only the standard library, mvdan.cc/sh/v3/syntax and
//     hosts/flood.
//   - Clobber a user's configuration. The installers merge, keep key order
//     and unrelated entries, are idempotent, keep a backup of what they
//     replace, refuse invalid or read-only files with an error naming the
//     file, and edit instruction files only between ctx's own markers.
//
// The table of flood-prone programs is its own package, hosts/flood, so that
// each package holds one idea: flood knows programs and their flags; hosts
// knows shells, hosts and files.
//
// The protocol facts this package relies on, with their sources, are in
// docs/hosts.md.
package hosts
