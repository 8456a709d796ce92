package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPJob drives the real `ctx mcp`: ctx_job_start returns a job: handle
// at once, ctx_job_tail shows output while it runs, ctx_job_wait returns
// the run's digest with the command's exit status.
func TestMCPJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	work := t.TempDir()
	cmd := exec.Command(ctxBinary(t), "mcp")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "XDG_STATE_HOME="+filepath.Join(work, ".state"))
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ctx-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	text := func(name string, args map[string]any) (bool, string, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		sc, _ := res.StructuredContent.(map[string]any)
		return res.IsError, b.String(), sc
	}
	isErr, out, sc := text("ctx_job_start", map[string]any{"shell": "echo early; sleep 1.5; echo late; exit 4"})
	handle, _ := sc["handle"].(string)
	if isErr || !strings.HasPrefix(handle, "job:") {
		t.Fatalf("ctx_job_start: %s %v", out, sc)
	}
	time.Sleep(700 * time.Millisecond)
	if _, out, _ = text("ctx_job_tail", map[string]any{"job": handle}); !strings.Contains(out, "stdout:L1  early") || strings.Contains(out, "late") {
		t.Errorf("ctx_job_tail while running:\n%s", out)
	}
	isErr, out, sc = text("ctx_job_wait", map[string]any{"job": handle, "timeout": "30s"})
	if isErr || !strings.Contains(out, "late") || sc["exit"] != float64(4) {
		t.Errorf("ctx_job_wait: %v %v\n%s", isErr, sc, out)
	}
}
