package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An agent works a task through the MCP tools alone: claim, hand back done
// (unverified), run the acceptance command, verdict (done), steward.
func TestMCPTaskTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	work := t.TempDir()
	env := append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "CTX_NO_COMPACT=1")
	bin := ctxBinary(t)
	newTask := exec.Command(bin, "task", "new", "greet", "--accept", "echo hello")
	newTask.Dir, newTask.Env = work, env
	out, err := newTask.Output()
	if err != nil {
		t.Fatalf("task new: %v", err)
	}
	task := strings.TrimSpace(string(out))
	cmd := exec.Command(bin, "mcp")
	cmd.Dir, cmd.Env = work, env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ctx-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any, wantErr bool) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError != wantErr {
			t.Fatalf("%s: error %v, want %v: %s", name, res.IsError, wantErr, text)
		}
		return text
	}
	call("ctx_task_claim", map[string]any{"task": task, "by": "agent-1"}, false)
	call("ctx_task_claim", map[string]any{"task": task, "by": "agent-2"}, true)
	call("ctx_task_handback", map[string]any{"task": task, "kind": "done", "turns": 2, "checkpoint": "git:abc"}, false)
	var show struct {
		State     string `json:"state"`
		Handbacks []any  `json:"handbacks"`
	}
	if err := json.Unmarshal([]byte(call("ctx_task_show", map[string]any{"task": task}, false)), &show); err != nil || show.State != "unverified" || len(show.Handbacks) != 1 {
		t.Fatalf("show after handback: %+v %v", show, err)
	}
	var run struct {
		Run string `json:"run"`
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_run", Arguments: map[string]any{"argv": []string{"echo", "hello"}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &run); err != nil || run.Run == "" {
		t.Fatalf("ctx_run: %s %v", b, err)
	}
	call("ctx_task_verdict", map[string]any{"task": task, "pass": true, "run": run.Run}, false)
	if err := json.Unmarshal([]byte(call("ctx_task_show", map[string]any{"task": task}, false)), &show); err != nil || show.State != "done" {
		t.Fatalf("show after verdict: %+v %v", show, err)
	}
	if got := call("ctx_steward", map[string]any{"task": task}, false); !strings.Contains(got, `"reason":"verdict_passed"`) {
		t.Fatalf("steward: %s", got)
	}
	if got := call("ctx_task_resume", map[string]any{"task": task}, false); !strings.Contains(got, `"checkpoint": "git:abc"`) {
		t.Fatalf("resume: %s", got)
	}
}
