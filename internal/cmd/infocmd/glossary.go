package infocmd

import (
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/spf13/cobra"
)

// GlossaryText explains every term a digest prints; docs/glossary.md holds
// the same text (TestGlossaryMatchesDocs).
const GlossaryText = `
Every word a digest, a receipt or ctx's help uses, in the order a digest
shows them.

The header
  $ ARGV            what ran, shell-quoted; "(in DIR/)" when it ran below the
                    workspace root.
  run:ID            the run's handle: 12 hex digits of the hash of what ran and
                    what it printed. The same command with the same output gets
                    the same id (an equivalent rerun).
  exit N (status)   the command's exit status; a status word when it did not
                    simply exit: timeout, interrupted, signaled, recovered.
  PROFILE/V         the profile that read the output (gotest/1, pytest/1, …)
                    and its parser version; text/1 when none recognised it.
  mode              how the findings are laid out (see modes below).
  stdout SIZE/LINES how much each stream printed.

Findings
  finding           one line about something that matters: a failing test, a
                    compiler error, a rare log line, a search hit.
  [L40-63]          lines 40-63 of the run's stdout ([stderr L…] for stderr):
                    ctx get run:ID#stdout:L40-63 prints them.
  @file:line        where the finding points in your source.
  ┆                 an excerpt: lines of a failure's own output, noise removed,
                    "…" marking each gap.
  ··· LA-B          lines A to B were left out here (N lines omitted).
  ! LOSS            a labelled loss of precision: the profile fell back to a
                    more general one, a stream hit its byte cap, an item cap.
  ! CONFLICT        the exit status and the tool's own summary disagree; the
                    failure wins.

Evidence contract classes (ctx contract show PROFILE)
  REQUIRED          items that may never disappear: failing test identities,
                    error diagnostics, the exit status, anomalies. Always in
                    the digest, or in a census blob whose handle it prints.
  ELASTIC           detail that grows or shrinks with the budget: tracebacks,
                    warnings, excerpts.
  RETRIEVABLE       items that may stay out of the digest as long as a handle
                    reaches them: passing tests, ordinary log lines.

Modes
  whole             small output, shown entirely.
  excerpt           generic text: head, tail and error-looking lines.
  pass-summary      success: the tool's counts.
  census            success with REQUIRED findings: one line each.
  failure-census    failure: one line per failure, then excerpts.
  dense             failures grouped by file or package to fit.
  flood             too many to fit even grouped: counts, the first items,
                    and a census blob listing every REQUIRED item.
  census blob       a stored list (blob:ID) of every REQUIRED item with its
                    handle, printed when they do not fit the digest.

The coverage line (the receipt)
  identities        items that name something: tests, diagnostics, log
                    templates, files, hits.
  inline            identities shown in this digest.
  retrievable       identities not shown but reachable through a handle.
  lines S/L         output lines shown of all lines.
  required A inline + B in census
                    REQUIRED items shown, and those only in the census blob.
  unrepresented required
                    REQUIRED items neither shown nor reachable. Always 0; if
                    not, a ! line says why.
  shown B of C      bytes of output shown in the digest, of bytes captured.
  next:             the first handle worth fetching, spelled in full.

Handles (docs/handles.md)
  run:ID#stdout     one stream of a run; #stderr, #merged (arrival order).
  :L40-52 :B0-4096  a line range (1-based, inclusive) or a byte range.
  blob:ID           any stored content (a census list, a stdin).
  span:ID           a range a digest named, by a short token.
  receipt:ID        a digest's coverage receipt (ctx show receipt:ID).
  zoom view         what ctx get prints for a region over 240 lines or
                    64 KiB: head, tail, error-looking lines and handles to its
                    two halves; exit status 3. --full prints it all.

The plan
  budget            the digest's size limit in tokens, from the contract or
                    --budget.
  pressure          how full the agent's context is (--pressure,
                    CTX_PRESSURE): high halves the budget, low grows it.
  reflex            an equivalent rerun in the same agent session: the last
                    digest was not enough, so the next shows more.
  policy epoch      the version of ctx's digest rules; receipts name it.
  reason codes      why the plan chose its mode and budget (docs/reasons.md).

The store
  store             .ctx/ at the top of the git repository, else the per-user
                    store ~/.local/state/ctx/store (or $CTX_STORE):
                    every byte of every run, content-addressed.
  spool             where a capture streams before it is stored; a crash
                    leaves it for the next ctx command to recover.
  execution         one invocation of a run (time, duration, session); ctx ls
                    lists them.
  pin               a run kept by ctx gc whatever its age.
`

// NewGlossaryTopic is a help topic: ctx help glossary.
func NewGlossaryTopic(*cli.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "glossary",
		Short: "What the words in a digest mean: identities, inline, REQUIRED, census, …",
		Long:  GlossaryText[1:],
	}
}
