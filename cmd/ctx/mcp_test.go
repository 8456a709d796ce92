package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
)

// ctxBinary returns a path that runs this test binary as ctx (testscript.Main
// dispatches on the program name).
func ctxBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "ctx")
	if err := os.Symlink(self, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// TestMCPEndToEnd drives the real `ctx mcp` over stdio with the SDK's client:
// initialise, list the tools, run a failing command, fetch a span by handle.
func TestMCPEndToEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	work := t.TempDir()
	cmd := exec.Command(ctxBinary(t), "mcp")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "XDG_STATE_HOME="+filepath.Join(work, ".state"))
	client := mcp.NewClient(&mcp.Implementation{Name: "ctx-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if !strings.Contains(tl.Description, "handle") {
			t.Errorf("tool %s: the description does not teach handles", tl.Name)
		}
	}
	if got := strings.Join(names, ","); got != "ctx_capsule_capture,ctx_capsule_inspect,ctx_capsule_render,ctx_continuity_seal,ctx_continuity_verify,ctx_get,ctx_job_kill,ctx_job_start,ctx_job_tail,ctx_job_wait,ctx_ls,ctx_py,ctx_q,ctx_run,ctx_seq,ctx_show,ctx_steward,ctx_task_claim,ctx_task_handback,ctx_task_resume,ctx_task_show,ctx_task_verdict" {
		t.Errorf("tools %s", got)
	}

	script := `for i in $(seq 1 400); do echo "line $i ok"; done; echo "error: widget 7 exploded" >&2; exit 3`
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_run", Arguments: map[string]any{"shell": script}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("ctx_run failed: %v", text(res))
	}
	digest := text(res)
	if !strings.Contains(digest, "exit 3") || !strings.Contains(digest, "widget 7 exploded") {
		t.Fatalf("digest lacks the exit status or the error line:\n%s", digest)
	}
	if strings.Count(digest, "\n") > 80 {
		t.Errorf("digest of 400 lines is %d lines long", strings.Count(digest, "\n"))
	}
	out, _ := res.StructuredContent.(map[string]any)
	run, _ := out["run"].(string)
	if !regexp.MustCompile(`^run:[0-9a-f]{12}$`).MatchString(run) || out["exit"] != float64(3) {
		t.Fatalf("structured result %v", res.StructuredContent)
	}

	got, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": run + "#stdout:L200-202"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "line 200 ok\nline 201 ok\nline 202 ok\n"; text(got) != want {
		t.Errorf("ctx_get = %q, want %q", text(got), want)
	}
	// A whole stream over the inline limit comes back bounded, as a zoom view.
	zoom, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": run + "#stdout"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text(zoom), "zoom view") {
		t.Errorf("ctx_get of 400 lines is not a zoom view:\n%s", text(zoom))
	}
	if zoom.IsError {
		t.Errorf("a zoom view (ctx get exit 3) is an error to the agent")
	}
	none, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": run, "grep": "no such line"}})
	if err != nil {
		t.Fatal(err)
	}
	if none.IsError || !strings.Contains(text(none), "matches") {
		t.Errorf("grep without a match (ctx get exit 1): %v %q", none.IsError, text(none))
	}
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": "run:nothex"}})
	if err != nil {
		t.Fatal(err)
	}
	if !bad.IsError || !strings.Contains(text(bad), "not hex") {
		t.Errorf("bad handle: %v %q", bad.IsError, text(bad))
	}
	// ctx_get returns plain text by default and says so in a second block;
	// raw: true returns the stored bytes with their escape sequences.
	col, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_run", Arguments: map[string]any{"shell": `printf '\033[31mred\033[0m\n 10%%\r100%%\n'`}})
	if err != nil || col.IsError {
		t.Fatalf("ctx_run: %v %v", err, text(col))
	}
	colRun, _ := col.StructuredContent.(map[string]any)["run"].(string)
	plain, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": colRun + "#stdout"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Content) != 2 || text(&mcp.CallToolResult{Content: plain.Content[:1]}) != "red\n100%\n" ||
		!strings.Contains(text(plain), "1 escape sequence") && !strings.Contains(text(plain), "2 escape sequences") {
		t.Errorf("plain ctx_get = %q", text(plain))
	}
	raw, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": colRun + "#stdout", "raw": true}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[31mred\x1b[0m\n 10%\r100%\n"; len(raw.Content) != 1 || text(raw) != want {
		t.Errorf("raw ctx_get = %q, want %q", text(raw), want)
	}
	// Binary output is refused as text, with the way to read it (the hint
	// travels in the tool result as on the command line).
	bin, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_run", Arguments: map[string]any{"shell": `printf '\177ELF\002\001\000\000\r\033[2J\000\000'`}})
	if err != nil || bin.IsError {
		t.Fatalf("ctx_run: %v %v", err, text(bin))
	}
	binRun, _ := bin.StructuredContent.(map[string]any)["run"].(string)
	for _, raw := range []bool{false, true} {
		got, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_get", Arguments: map[string]any{"handle": binRun + "#stdout", "raw": raw}})
		if err != nil {
			t.Fatal(err)
		}
		if !got.IsError || !strings.Contains(text(got), "is not text (ELF executable)") || !strings.Contains(text(got), "hint: a tool result carries text only: read it in a shell with ctx get "+binRun+"#stdout --hex") {
			t.Errorf("ctx_get of an executable (raw %v): %v %q", raw, got.IsError, text(got))
		}
	}
	ls, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_ls", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text(ls), run) {
		t.Errorf("ctx_ls does not list %s:\n%s", run, text(ls))
	}
	shown, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_show", Arguments: map[string]any{"handle": run}})
	if err != nil {
		t.Fatal(err)
	}
	if text(shown) != digest {
		t.Errorf("ctx_show differs from the ctx_run digest")
	}
}

var text = hostsmcp.ResultText

// TestMCPAnswersEverythingReadBeforeEOF: a client that writes its requests
// and closes stdin at once still gets a reply to each of them (before, only
// initialize was answered and tools/list was lost).
func TestMCPAnswersEverythingReadBeforeEOF(t *testing.T) {
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ctx_run","arguments":{"argv":["echo","drained"]}}}`,
	}, "\n") + "\n"
	bin := ctxBinary(t)
	for try := range 3 {
		work := t.TempDir()
		cmd := exec.Command(bin, "mcp")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "XDG_STATE_HOME="+filepath.Join(work, ".state"))
		cmd.Stdin = strings.NewReader(requests) // EOF right after the last request
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("try %d: ctx mcp: %v\n%s", try, err, out)
		}
		replies := map[float64]map[string]any{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("try %d: reply %q: %v", try, line, err)
			}
			id, _ := m["id"].(float64)
			replies[id] = m
		}
		for _, id := range []float64{1, 2, 3} {
			if replies[id]["result"] == nil {
				t.Errorf("try %d: request %v has no result (replies: %s)", try, id, out)
			}
		}
		if !strings.Contains(string(out), `drained`) {
			t.Errorf("try %d: the tool call's output is missing:\n%s", try, out)
		}
	}
}
