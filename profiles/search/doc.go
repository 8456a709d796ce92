// Package search is the profile for search results: grep (and egrep, fgrep,
// zgrep), ripgrep, the silver searcher, ack and git grep.
//
// It recognises every layout these tools print: path:12:text (grep -n, rg
// --no-heading, git grep -n, ag without a terminal), path:text (no line
// numbers), rg and ag headings (a path line, then 12:text lines, a blank line
// between files: what rg and ag print on a terminal, so under ctx's pty),
// git grep --heading, the text of one file with or without line numbers,
// context lines (path-12-text and "--" separators), -Z/--null paths, --column
// and --vimgrep, -c counts, -l/-L file lists, rg --json, and the notes that a
// binary file matched (on stdout or, for grep 3.5 and later, stderr). Colour
// and CRLF line ends are removed first.
//
// Items: one hit per file in order of first appearance, with File, Count (the
// matching lines; a binary match counts one and has Attrs binary=true),
// Line, Col and Text of the first hit, and a Span over the file's block of
// output including its context lines; one anomaly per stderr error line; one
// summary (Name "search") with Counts hits, files, and when present
// binary_files, context_lines, files_without_match, errors, and rg --json's
// own matches, matched_lines, searches, searches_with_match.
//
// The verdict follows the tools' exit convention when argv names the tool: 0
// and 1 are "pass" (1 means nothing matched, which is a result, not a
// failure), 2 is "error", anything else (a timeout, a signal) gives no
// verdict and a loss because the list may be cut short. Without argv the
// output says nothing about success and the verdict is "".
//
// The profile must never drop a file: every file is named until the cap of
// 100,000, after which files and hits are still counted and the loss is
// labelled. It must never read hit text as a finding: "FAILED" or
// "Traceback" in a matched line is just text.
package search
