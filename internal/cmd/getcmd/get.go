// Package getcmd holds ctx get: the exact bytes a handle names, from whichever
// store holds it (this workspace's, another known store, or the remote), and
// repo: addresses. The retrieval engine is package retrieve's.
package getcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/cmd/jobcmd"
	"github.com/ctxhq/ctx/internal/cmd/seqcmd"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/retrieve"
	"github.com/ctxhq/ctx/store"
)

type getOptions struct {
	handle string
	lines  string
	bytes  string
	grep   string
	around int
	full   bool
	hex    bool
	limit  int
	json   bool
	reveal bool
	// JSON selectors.
	pointer string
	records string
	plain   bool
	raw     bool
	// form is what was printed, "plain" or "raw", and note says what plain
	// text changed; both are filled in by runGet for its callers (MCP).
	form string
	note string
}

// LineLimit is ctx get's inline limit in lines.
const LineLimit = retrieve.LineLimit

func NewCmd(ios *cli.IO) *cobra.Command {
	o := &getOptions{}
	c := &cobra.Command{
		Use:   "get HANDLE",
		Short: "Print the exact bytes a handle names",
		Long: `Print the exact bytes of a run's stream, a blob, or a range of either.

Handles: run:ID (the run's output: stdout, stderr, or both merged in arrival
order when both have output), run:ID#stdout, run:ID#stderr, run:ID#merged,
with :L40-52 (lines, 1-based, inclusive), :L40- (to the end) or :B100-200
(bytes, 0-based, end excluded); blob:ID; span:ID (a span a digest named);
receipt:ID; seq:ID#N and py:ID#N (step N's run, with a stream and range
after N as for a run; seq:ID or py:ID alone prints the record as JSON);
job:ID (an ended job's run; a running job's lines so far). IDs may be
shortened to any unique prefix of 6+ hex digits.

Secrets (keys, tokens, passwords: see docs/secrets.md) print as
[REDACTED:rule:hash], on every form of output. --reveal prints them as
stored, and only when stdout is a terminal: an agent's shell is not one.

A region over the inline limit (240 lines or 64 KiB) prints a zoom view
instead: its head and tail, the error-looking lines inside it, and handles to
its two halves, so any line is reachable in a few steps and nothing floods.
--full prints the whole region regardless (for redirecting to a file).

Plain by default when stdout is not a terminal (a file, a pipe, an agent):
terminal escape sequences are removed and carriage-return overwrites folded,
as a pipe would have carried the output; everything else (line endings,
trailing spaces, long lines) is kept byte for byte, so a captured patch
applies. When plain text differs from the stored bytes, stderr says so.
--raw prints the exact stored bytes; at a terminal they are the default.
A region that is not text (an executable, compressed data, UTF-16: judged
on its head as the digest judges a stream's) is refused unless --plain is
given, since printed as text its bytes would change: --hex prints a
hexdump, --raw the exact bytes (to redirect to a file), --json carries them
exactly (base64).

Exit status: 0 printed; 1 the handle is malformed, unknown, ambiguous (the
candidates are listed), the range lies outside the content or the content
is not text (see above), or --grep
matched no line (as grep does); 2 usage error; 3 the region was too large and
a zoom view was printed instead of its bytes (narrow the range, or --full);
125 the store is locked or damaged.`,
		Example: `  ctx get run:ba3d1020ee8f#stdout:L40-52
  ctx get run:ba3d10 --lines 100:160
  ctx get run:ba3d10#stderr --grep 'panic|FAIL' --around 3
  ctx get blob:4f1c0a9e2b77 --bytes 0:4096 --hex
  ctx get run:ba3d10#stdout --full > out.log`,
		Args:              cli.ExactArgs(1, "ctx get HANDLE"),
		ValidArgsFunction: CompleteHandles(ios),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.handle = args[0]
			return runGet(cmd.Context(), ios, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.lines, "lines", "", "lines A:B (1-based, inclusive; A: to the end, :B from the start)")
	f.StringVar(&o.bytes, "bytes", "", "bytes A:B (0-based, B excluded; A: to the end)")
	f.StringVar(&o.grep, "grep", "", "print only lines matching this regular expression (RE2 syntax), numbered")
	f.IntVar(&o.around, "around", 0, "with --grep: lines of context around each match")
	f.BoolVar(&o.full, "full", false, "print the whole region even past the inline limit")
	f.BoolVar(&o.hex, "hex", false, "print a hexdump (for binary output)")
	f.BoolVar(&o.plain, "plain", false, "print text as a pipe would have carried it: escape sequences removed, carriage-return overwrites folded (the default when stdout is not a terminal)")
	f.BoolVar(&o.raw, "raw", false, "print the exact stored bytes (the default at a terminal)")
	f.IntVar(&o.limit, "limit", LineLimit, "inline limit in lines")
	f.BoolVar(&o.json, "json", false, "print JSON: the resolved handle, the range and the text (base64 when not UTF-8)")
	f.BoolVar(&o.reveal, "reveal", false, "print secrets as stored instead of [REDACTED:rule:hash] (only to a terminal: for a person, never an agent)")
	f.StringVar(&o.pointer, "json-pointer", "", "print the JSON value at this RFC 6901 pointer (/items/3/name), exactly as stored")
	f.StringVar(&o.records, "records", "", "print JSON Lines records A:B (1-based, inclusive), exactly as stored")
	return c
}

// Exit statuses of ctx get besides the common ones: a script can tell exact
// bytes (0) from no match (1, as grep) and from a zoom view (3).
const (
	exitNoMatch = 1
	exitZoom    = 3
)

func runGet(ctx context.Context, ios *cli.IO, o *getOptions) error {
	if strings.HasPrefix(o.handle, "repo:") {
		return runGetRepo(ctx, ios, o)
	}
	handle, done, err := GetRecord(ios, o.handle)
	if done {
		return err
	}
	o.handle = handle
	h, err := store.ParseHandle(o.handle)
	if err != nil {
		return err
	}
	ro, err := o.retrieveOptions(ios, h)
	if err != nil {
		return err
	}
	st, t, err := ResolveAnywhere(ios, h, o.handle)
	if err != nil {
		return err
	}
	defer st.Close()
	if t.Kind == "receipt" {
		return cli.WriteJSON(ios.Out, json.RawMessage(t.Receipt))
	}
	if Tier != nil {
		defer Tier.Trace(ios)
	}
	reg, err := retrieve.OpenWith(st, t, ro.RangeOf(t), func(id store.ID) (*store.Blob, error) { return OpenBlob(st, t, id) })
	if err != nil {
		return err
	}
	if reg.Unordered() {
		fmt.Fprintf(ios.Err, "ctx get: no arrival order was recorded for this run (%s): #merged is stdout, then stderr\n", unorderedWhy(t.Run))
	}
	out, err := retrieve.Print(ctx, st, t, reg, ios.Out, ro)
	if out != nil && out.Note != "" {
		o.note = out.Note
		if !ro.JSON {
			fmt.Fprintln(ios.Err, "ctx get: "+o.note)
		}
	}
	var ue *retrieve.UsageError
	var be *retrieve.BinaryError
	switch {
	case errors.As(err, &be):
		handle := o.handle
		if o.lines != "" || o.bytes != "" {
			handle = be.Handle // the range the selector chose, not the whole stream
		}
		return cli.WithCode(cli.ExitBad, &store.Error{Err: err, Hint: binaryHint(be, handle)})
	case errors.Is(err, retrieve.ErrZoomed):
		return &cli.ExitError{Code: exitZoom}
	case errors.Is(err, retrieve.ErrNoMatch):
		return &cli.ExitError{Code: exitNoMatch}
	case errors.As(err, &ue):
		return cli.Usagef("%v", ue.Err)
	}
	return err
}

// retrieveOptions checks the flags and turns them into what retrieve takes.
func (o *getOptions) retrieveOptions(ios *cli.IO, h store.Handle) (retrieve.Options, error) {
	var ro retrieve.Options
	rng, err := retrieve.ParseRange(h, o.lines, o.bytes)
	if err != nil {
		return ro, cli.Usagef("%v", err)
	}
	if o.limit <= 0 {
		return ro, cli.Usagef("--limit %d: want a positive number of lines", o.limit)
	}
	if err := checkAround(o.around, o.grep); err != nil {
		return ro, cli.Usagef("--%v", err)
	}
	if o.plain && o.raw {
		return ro, cli.Usagef("give --plain or --raw, not both")
	}
	if o.reveal && !ios.IsTTY {
		return ro, cli.Usagef("--reveal prints secrets, so only to a terminal, for a person; stdout is not a terminal (agents and pipes get redacted output)")
	}
	o.form = "raw"
	if o.plain || !o.raw && !ios.IsTTY {
		o.form = "plain"
	}
	ro = retrieve.Options{Around: o.around, Limit: o.limit, Full: o.full, Hex: o.hex, JSON: o.json,
		Form: retrieve.Form(o.form), Reveal: o.reveal, Pointer: o.pointer, Records: o.records, Range: rng, RefuseBinary: !o.raw && !o.plain}
	if o.grep != "" {
		if ro.Grep, err = regexp.Compile(o.grep); err != nil {
			return ro, cli.Usagef("--grep: %v", err)
		}
	}
	return ro, nil
}

// binaryHint says how to read content ctx get would not print as text.
func binaryHint(be *retrieve.BinaryError, handle string) string {
	if be.UTF16() {
		return fmt.Sprintf("it starts with a UTF-16 byte-order mark: ctx get %s --raw | iconv -f UTF-16 -t UTF-8 prints it as text; --hex prints a hexdump", handle)
	}
	return fmt.Sprintf("ctx get %s --hex prints a hexdump; --raw prints the exact bytes, to redirect to a file (ctx get %s --raw > out.bin)", handle, handle)
}

// unorderedWhy names why a run's merged view has no arrival order.
func unorderedWhy(run *store.Run) string {
	switch {
	case run.Manifest.Mode == "ingest":
		return "ingested output"
	case run.Manifest.Status == store.StatusRecovered:
		return "recovered after ctx stopped mid-capture"
	}
	return "stored without an interleave index"
}

// Region prints the exact stored bytes of handle, whole (ctx ui's lines).
func Region(ctx context.Context, ios *cli.IO, handle string) error {
	return runGet(ctx, ios, &getOptions{handle: handle, full: true, raw: true, limit: LineLimit})
}

// Repo prints what a repo: address names, within the inline limit (the MCP
// server's ctx_get of repo: addresses).
func Repo(ctx context.Context, ios *cli.IO, handle string) error {
	return runGetRepo(ctx, ios, &getOptions{handle: handle, limit: LineLimit})
}

// GetRecord prints what ctx get prints for a record that is not a run: a
// seq: sequence or py: execution as JSON, a running job's lines from its
// live tail (done). A step (seq:ID#2), or an ended job, stands for a run:
// its handle is returned as run for the caller to read, as is any other
// handle. Shared by ctx get and the MCP server's ctx_get.
func GetRecord(ios *cli.IO, handle string) (run string, done bool, err error) {
	switch {
	case strings.HasPrefix(handle, "seq:"):
		return seqcmd.Sequences.Get(ios, handle)
	case strings.HasPrefix(handle, "py:"):
		if Py == nil {
			return "", true, helper.Need(helper.MCP, "reading a py: handle")
		}
		return Py.Get(ios, handle)
	case strings.HasPrefix(handle, "job:"):
		return jobcmd.Get(ios, handle)
	}
	return handle, false, nil
}

// Grep prints the lines of handle matching expr, at most limit inline
// (ctx ui's search).
func Grep(ctx context.Context, ios *cli.IO, handle, expr string, limit int) error {
	return runGet(ctx, ios, &getOptions{handle: handle, grep: expr, limit: limit})
}

// checkAround refuses a context width that would be ignored or has no
// meaning: around counts lines of context around --grep matches.
func checkAround(around int, grep string) error {
	switch {
	case around < 0:
		return fmt.Errorf("around %d: want 0 or more lines of context", around)
	case around > 0 && grep == "":
		return fmt.Errorf("around %d: it is the context around --grep matches; add --grep RE", around)
	}
	return nil
}
