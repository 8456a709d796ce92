package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/secrets"
)

// mcpResultLimit bounds any tool result: no call can flood the agent.
const mcpResultLimit = 64 << 10

func newMCPCmd(ios *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve ctx's tools over the Model Context Protocol (stdio)",
		Long: `Serve the Model Context Protocol on stdin/stdout with the tools ctx_run (run a
command, return its digest), ctx_get (exact bytes of a handle, bounded),
ctx_ls (recent runs) and ctx_show (a digest again). Every result is bounded:
a large region comes back as a zoom view with narrower handles.

Register it with ctx init claude --mcp (or codex), or by hand:
  {"mcpServers": {"ctx": {"type": "stdio", "command": "ctx", "args": ["mcp"]}}}`,
		Example: "  ctx mcp",
		Args:    exactArgs(0, "ctx mcp"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return newMCPServer(ios).Run(cmd.Context(), drainTransport{&mcp.StdioTransport{}})
		},
	}
}

type runInput struct {
	Argv    []string `json:"argv,omitempty" jsonschema:"the command and its arguments, run directly (no shell); give argv or shell"`
	Shell   string   `json:"shell,omitempty" jsonschema:"a shell command line run with sh -c (pipelines, redirections); give argv or shell"`
	Cwd     string   `json:"cwd,omitempty" jsonschema:"directory to run in (default: the server's working directory)"`
	Timeout string   `json:"timeout,omitempty" jsonschema:"stop the command after this long, e.g. 90s or 5m (default 10m)"`
	Budget  int      `json:"budget,omitempty" jsonschema:"token budget for the digest (default: chosen by the evidence contract)"`
	Stdin   string   `json:"stdin,omitempty" jsonschema:"a file to feed to the command's stdin (default: none)"`
}

type runOutput struct {
	Run     string `json:"run" jsonschema:"the run's handle: pass it, with #stdout:L40-52 style ranges, to ctx_get"`
	Exit    int    `json:"exit" jsonschema:"the command's exit status (124 timed out, 126 not executable, 127 not found, 128+N killed by signal N)"`
	Receipt string `json:"receipt,omitempty"`
}

type getInput struct {
	Handle string `json:"handle" jsonschema:"a handle from a digest: run:ID, run:ID#stderr, run:ID#stdout:L40-52, blob:ID, span:ID"`
	Lines  string `json:"lines,omitempty" jsonschema:"lines A:B (1-based, inclusive)"`
	Bytes  string `json:"bytes,omitempty" jsonschema:"bytes A:B (0-based, end excluded)"`
	Grep   string `json:"grep,omitempty" jsonschema:"only lines matching this regular expression, numbered like grep -n"`
	Around int    `json:"around,omitempty" jsonschema:"with grep: lines of context around each match"`
	Raw    bool   `json:"raw,omitempty" jsonschema:"the exact stored bytes, terminal escape sequences and carriage-return overwrites included (default: plain text, as a pipe would have carried it)"`
}

type lsInput struct {
	N int `json:"n,omitempty" jsonschema:"how many recent runs (default 20)"`
}

type showInput struct {
	Handle string `json:"handle" jsonschema:"a run or receipt handle"`
}

func newMCPServer(ios *IO) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ctx", Version: Version}, &mcp.ServerOptions{
		Instructions: `ctx runs commands and keeps every byte of their output. A tool result is a
short digest: what ran, the findings that matter, a coverage line saying what
was shown and what was left out, and handles (run:ID#stdout:L40-52) that return
any omitted part exactly. Prefer ctx_run for commands that can print a lot
(tests, builds, linters, logs, searches); read more with ctx_get on a handle
from the digest instead of rerunning the command.`,
	})
	session := mcpSession()
	mcp.AddTool(s, &mcp.Tool{
		Name: "ctx_run",
		Description: `Run a command and return its digest instead of its raw output. The digest names
what ran, the exit status, the findings that matter (failing tests with their
locations, compiler errors, error lines, rare log lines), a coverage line, and
handles: "[L40-63]" next to a finding means lines 40-63 of the run's stdout —
fetch them with ctx_get {"handle": "run:ID#stdout:L40-63"}. Nothing is lost:
every byte stays retrievable.`,
	}, func(ctx context.Context, req *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, runOutput, error) {
		o := &runOptions{argv: in.Argv, cwd: in.Cwd, timeout: 10 * time.Minute, grace: 2 * time.Second, stdin: in.Stdin,
			maxOutput: "1G", json: true}
		o.budget = in.Budget
		switch {
		case in.Shell != "" && len(in.Argv) > 0:
			return nil, runOutput{}, errors.New("give argv or shell, not both")
		case in.Shell != "":
			o.argv, o.shell = []string{in.Shell}, true
		case len(in.Argv) == 0:
			return nil, runOutput{}, errors.New("give the command as argv (a list of words) or shell (a command line)")
		}
		if in.Timeout != "" {
			d, err := parseTimeout(in.Timeout)
			if err != nil {
				return nil, runOutput{}, err
			}
			o.timeout = d
		}
		var out, errb bytes.Buffer
		err := runRun(ctx, mcpIO(ios, &out, &errb, session), o)
		code, failed := exitOf(err)
		if failed {
			return toolError(err, errb.String()), runOutput{}, nil
		}
		if out.Len() == 0 {
			// The command could not start (126/127): ctx said why on stderr.
			return toolError(fmt.Errorf("exit %d", code), errb.String()), runOutput{Exit: code}, nil
		}
		var rec struct {
			Run     string `json:"run"`
			Exit    int    `json:"exit"`
			Receipt string `json:"receipt"`
			Digest  string `json:"digest"`
		}
		if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
			return nil, runOutput{}, err
		}
		return textResult(rec.Digest + errb.String()), runOutput{Run: rec.Run, Exit: rec.Exit, Receipt: rec.Receipt}, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name: "ctx_get",
		Description: `Return exact bytes that a handle names: a run's stream (run:ID#stdout,
run:ID#stderr, run:ID#merged), a line range (run:ID#stdout:L40-52), a byte
range (:B0-4096), a blob (blob:ID) or a span (span:ID). A region over 240 lines
or 64 KiB comes back as a zoom view — its first and last lines, the
error-looking lines inside, and handles to its two halves — so ask again with
a narrower range, or use grep to find lines. Text comes back plain (escape
sequences removed, carriage-return overwrites folded; a second block says
when that changed anything); raw: true returns the exact stored bytes.`,
	}, func(ctx context.Context, req *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, any, error) {
		var out, errb bytes.Buffer
		o := &getOptions{handle: in.Handle, lines: in.Lines, bytes: in.Bytes,
			grep: in.Grep, around: in.Around, limit: defaultLineLimit, raw: in.Raw}
		err := runGet(ctx, mcpIO(ios, &out, &errb, session), o)
		if _, failed := exitOf(err); failed { // a zoom view (exit 3) or no match (1) is an answer
			return toolError(err, errb.String()), nil, nil
		}
		res := textResult(out.String())
		if o.note != "" {
			res.Content = append(res.Content, &mcp.TextContent{Text: "[ctx: " + o.note + "]"})
		}
		return res, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "ctx_ls",
		Description: "List recent runs, newest first: handle, exit status, output size, age and command.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, in lsInput) (*mcp.CallToolResult, any, error) {
		n := in.N
		if n <= 0 || n > 200 {
			n = 20
		}
		var out, errb bytes.Buffer
		if err := runLs(mcpIO(ios, &out, &errb, session), &lsOptions{n: n}); err != nil {
			return toolError(err, errb.String()), nil, nil
		}
		return textResult(out.String()), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "ctx_show",
		Description: "Return a run's digest again (byte for byte what ctx_run returned), by run or receipt handle.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, in showInput) (*mcp.CallToolResult, any, error) {
		var out, errb bytes.Buffer
		if err := runShow(ctx, mcpIO(ios, &out, &errb, session), &showOptions{handle: in.Handle}); err != nil {
			return toolError(err, errb.String()), nil, nil
		}
		return textResult(out.String()), nil, nil
	})
	addContinuityTools(s, ios)
	addLedgerTools(s, ios)
	addQTool(s, ios)
	addCapsuleTools(s, ios)
	return s
}

// mcpIO is the server's IO with buffers for output and this MCP session as the
// agent session (so an equivalent rerun shows more).
func mcpIO(ios *IO, out, errb *bytes.Buffer, session string) *IO {
	return &IO{In: strings.NewReader(""), Out: out, Err: errb, Getwd: ios.Getwd,
		Getenv: func(k string) string {
			if k == "CTX_SESSION" {
				if v := ios.Getenv(k); v != "" {
					return v
				}
				return session
			}
			return ios.Getenv(k)
		}}
}

func mcpSession() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "mcp-" + hex.EncodeToString(b[:])
}

// exitOf reads a command's outcome: its exit code, and whether ctx itself failed.
func exitOf(err error) (int, bool) {
	if err == nil {
		return 0, false
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.err == nil {
		return ee.code, false
	}
	return exitFailed, true
}

// textResult is a tool result: bounded, and redacted once more whatever path
// made it (the paths redact already; a tool result is where text leaves ctx).
func textResult(s string) *mcp.CallToolResult {
	if red, counts := secrets.Text([]byte(s)); counts != nil {
		s = string(red)
	}
	if len(s) > mcpResultLimit {
		s = s[:mcpResultLimit] + "\n… (cut at the result limit; ask for a narrower range)\n"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func toolError(err error, stderr string) *mcp.CallToolResult {
	msg := "ctx: " + err.Error()
	if se := strings.TrimSpace(stderr); se != "" && !strings.Contains(se, err.Error()) {
		msg = se + "\n" + msg
	}
	r := textResult(msg)
	r.IsError = true
	return r
}

func parseTimeout(s string) (time.Duration, error) {
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("timeout %q: want a duration like 90s or 5m", s)
	}
	return d, nil
}
