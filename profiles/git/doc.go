// Package git is the profile for git's own output: diff, show, log and
// status.
//
// It reads git diff (also --cached, --stat, --numstat, --name-status,
// --raw, --summary, combined diffs of merges, binary changes, renames and
// mode changes), plain `diff -u` of two files or trees, git log (the default
// form, --oneline, --pretty=oneline|short|medium|full|fuller, --stat, -p,
// --graph), git show of a commit (header, message, stat and diff) and git
// status (the long form and --short, --porcelain, --porcelain=v2, -b, -z).
// Colour (color.ui=always, as under ctx's pty) is removed first.
//
// Items:
//   - file, one per file of a diff or stat, in order; File is the new path,
//     Attrs status (modified, added, deleted, renamed, copied, typechange,
//     binary for a changed binary file, mode for a mode change alone), from
//     (the old path of a rename or copy), binary, similarity, mode, and
//     commit when the file belongs to one (Name is then the commit hash and
//     a part-of relation points at it). Line counts are numbers in Counts:
//     added and removed (exact, from hunks or --numstat), hunks, and changed
//     (the total --stat prints when no diff follows). Span is the file's
//     whole diff block, or its stat line.
//   - commit, one per commit: Name is the hash as printed, Text the subject,
//     Attrs author, date, subject, refs, merge; Counts the commit's --stat
//     totals (files_changed, insertions, deletions); Span its block.
//   - file for status: Name and Attrs section (staged, unstaged, untracked,
//     unmerged, ignored), Attrs status and from; a file both staged and
//     modified again is two items.
//   - summary (Name diff, show, log or status) with the totals, and the
//     tool's own --stat summary numbers when it printed them.
//   - anomaly for each warning or error git wrote to stderr.
//
// The verdict is "error" when git failed with a fatal message and otherwise
// empty: a diff or a log says nothing about pass or fail. The profile never
// reads a custom --format (argv with one is not claimed), never counts a
// line inside a hunk as a header (hunk counts decide where a hunk ends), and
// labels a diff cut inside a hunk as a loss.
package git
