// Package logs mines log templates: it groups log lines by their template,
// the line's constant tokens with every variable part replaced by "<*>". It
// owns the template miner behind the logs profile and `ctx templates FILE`,
// and nothing else: it does not detect profiles, store runs or render
// digests.
//
// # Algorithm
//
// Each line is templated on its own, then grouped by exact template.
//
//  1. Clean: ANSI escape sequences are dropped and control bytes (CR, tab,
//     NUL) become spaces. Only the first 8 KiB of a line and its first 256
//     tokens are examined; a longer line gets a trailing "<*>".
//  2. Split at spaces and '|'. Each token has a core, without surrounding
//     brackets, quotes and sentence punctuation.
//  3. Header: when a line starts with a timestamp (a clock, a date, a month
//     name before a number or a long digit run, within its first three
//     fields, after at most two short labels or a host or file name), the
//     log framework's header is recognised and made variable. It ends after
//     the first level word (INFO, [error], logcat's D) and the thread,
//     logger and request-context fields after it; or after a syslog
//     "prog[pid]:" tag next to the timestamp; or at a standalone "-" that
//     follows source-like fields ("chrome.exe *64 -"); or, failing those,
//     after the timestamp. So raw lines group as their messages do, whatever
//     their timestamps, levels, hosts, threads and request ids.
//  4. Classify each message token. Variables are numbers, anything with a
//     digit (ids, IPs, hex, UUIDs, versions, "host:port"), paths, URLs,
//     e-mail addresses, host names with a common top-level domain, booleans
//     and null, a unit after a number ("1190 bytes", "<1 sec"), and a month
//     or weekday name next to a variable. "key=value", "key:value",
//     "label.....value", "call(arg)" and "name[arg]" keep the key and make
//     the value variable. Other words without digits stay constant.
//  5. Render: constants verbatim, each run of adjacent variables as one
//     "<*>", so variable-length lists and "1190 bytes (1.16 KB)" versus
//     "0 bytes" share a template. The rendered text is the group key.
//  6. Merge: templates that differ only at one constant word form a family
//     (only templates of at most 32 tokens with at least four constant
//     words take part); when a family reaches 8 distinct words it is merged
//     (union-find) into its oldest group with "<*>" at that position. This
//     catches word variables such as user names; enumerations with fewer
//     values (states, actions, lifecycle events) stay apart, as log parsing
//     ground truth expects.
//
// Group ids are dense and assigned in order of first appearance; a merged
// group keeps its id and Resolve maps it to the group that absorbed it.
//
// # Cost
//
// Add is O(L) in the line's length (capped at 8 KiB) with one map lookup
// and no allocation when the template is known; a new template also costs
// O(T) hashing over its T tokens for the merge families. Memory is bounded
// by Options.MaxTemplates (default 10,000): at most that many groups, at
// most four times as many cached keys, and at most 32 families per group
// (about 20 MB in the worst case at the default cap, a few hundred KB for
// typical logs). Lines whose template would exceed the cap go to the
// overflow group (OverflowID) and are counted by Overflow. WriteTemplates
// additionally keeps 4 bytes per input line.
//
// The grouping does not depend on line order, except near the merge
// threshold and the cap: a family's fate depends on which of its words were
// seen before it merged, and the cap on which templates came first.
//
// # Must never
//
// The miner must never panic on any input (huge lines, invalid UTF-8, binary
// data, escape sequences); never let map iteration order, time or
// randomness reach ids or templates, so the same lines in the same order
// always give the same result; never hold more than the capped prefix of a
// line; never grow without bound; and never carry rules for a particular
// system or data set: every heuristic must be one that holds for logs in
// general.
package logs
