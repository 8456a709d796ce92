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
	call := mcpSession(ctx, t)
	isErr, out, sc := call("ctx_job_start", map[string]any{"shell": "echo early; sleep 1.5; echo late; exit 4"})
	handle, _ := sc["handle"].(string)
	if _, ok := sc["exit"]; isErr || !strings.HasPrefix(handle, "job:") || ok {
		t.Fatalf("ctx_job_start (a running job has no exit status): %s %v", out, sc)
	}
	if _, out, sc = call("ctx_job_wait", map[string]any{"job": handle, "timeout": "100ms"}); sc["exit"] != nil || !strings.Contains(out, "still running") {
		t.Errorf("ctx_job_wait before the end (no exit status yet): %v\n%s", sc, out)
	}
	time.Sleep(700 * time.Millisecond)
	if _, out, _ = call("ctx_job_tail", map[string]any{"job": handle}); !strings.Contains(out, "stdout:L1  early") || strings.Contains(out, "late") {
		t.Errorf("ctx_job_tail while running:\n%s", out)
	}
	isErr, out, sc = call("ctx_job_wait", map[string]any{"job": handle, "timeout": "30s"})
	if isErr || !strings.Contains(out, "late") || sc["exit"] != float64(4) {
		t.Errorf("ctx_job_wait: %v %v\n%s", isErr, sc, out)
	}
}

// mcpCall calls one tool and returns whether it failed, its text and its
// structured result.
type mcpCall func(name string, args map[string]any) (isErr bool, text string, sc map[string]any)

// mcpSession starts the real `ctx mcp` in a fresh workspace of its own and
// returns a way to call its tools; the session ends with the test.
func mcpSession(ctx context.Context, t *testing.T) mcpCall {
	t.Helper()
	work := t.TempDir()
	cmd := exec.Command(ctxBinary(t), "mcp")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "CTX_STORE="+filepath.Join(work, ".ctx"), "CTX_SESSION=", "XDG_STATE_HOME="+filepath.Join(work, ".state"))
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ctx-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return func(name string, args map[string]any) (bool, string, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sc, _ := res.StructuredContent.(map[string]any)
		return res.IsError, text(res), sc
	}
}

// TestMCPRecordHandles: the handles ctx_seq, ctx_py and ctx_job_start
// return are read back by ctx_get and ctx_show, as ctx get and ctx show
// read them (before, both refused them as malformed or unsupported).
func TestMCPRecordHandles(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	call := mcpSession(ctx, t)
	isErr, digest, sc := call("ctx_seq", map[string]any{"steps": []any{
		map[string]any{"shell": "echo built"}, map[string]any{"shell": "echo tested; echo oops >&2"}}})
	seqH, _ := sc["handle"].(string)
	if isErr || !strings.HasPrefix(seqH, "seq:") {
		t.Fatalf("ctx_seq: %v %v\n%s", isErr, sc, digest)
	}
	for _, c := range []struct{ tool, handle, want string }{
		{"ctx_get", seqH + "#1", "built\n"},
		{"ctx_get", seqH + "#2#stderr", "oops\n"},
		{"ctx_show", seqH, digest},
	} {
		if isErr, got, _ := call(c.tool, map[string]any{"handle": c.handle}); isErr || got != c.want {
			t.Errorf("%s %s: %v %q, want %q", c.tool, c.handle, isErr, got, c.want)
		}
	}
	if _, got, _ := call("ctx_get", map[string]any{"handle": seqH}); !strings.Contains(got, `"record"`) {
		t.Errorf("ctx_get %s (the record) = %q", seqH, got)
	}
	isErr, got, _ := call("ctx_get", map[string]any{"handle": seqH + "#3"})
	if !isErr || !strings.Contains(got, "no step 3") {
		t.Errorf("ctx_get of a step that is not there: %v %q", isErr, got)
	}

	isErr, pyDigest, sc := call("ctx_py", map[string]any{"code": `r = run("echo from-py"); emit(r.headline)`})
	pyH, _ := sc["handle"].(string)
	if isErr || !strings.HasPrefix(pyH, "py:") {
		t.Fatalf("ctx_py: %v %v\n%s", isErr, sc, pyDigest)
	}
	if isErr, got, _ := call("ctx_get", map[string]any{"handle": pyH + "#1"}); isErr || got != "from-py\n" {
		t.Errorf("ctx_get %s#1: %v %q", pyH, isErr, got)
	}
	if isErr, got, _ := call("ctx_show", map[string]any{"handle": pyH}); isErr || got != pyDigest {
		t.Errorf("ctx_show %s: %v %q, want %q", pyH, isErr, got, pyDigest)
	}

	_, _, sc = call("ctx_job_start", map[string]any{"shell": "echo job-out; sleep 30"})
	jobH, _ := sc["handle"].(string)
	isErr, got, _ = call("ctx_show", map[string]any{"handle": jobH})
	if !isErr || !strings.Contains(got, "so it has no digest yet") || !strings.Contains(got, "ctx job tail "+jobH) {
		t.Errorf("ctx_show of a running job: %v %q", isErr, got)
	}
	call("ctx_job_kill", map[string]any{"job": jobH})
	_, _, sc = call("ctx_job_start", map[string]any{"shell": "echo job-done; exit 5"})
	jobH, _ = sc["handle"].(string)
	_, waited, sc := call("ctx_job_wait", map[string]any{"job": jobH, "timeout": "30s"})
	if sc["exit"] != float64(5) {
		t.Fatalf("ctx_job_wait: %v\n%s", sc, waited)
	}
	if isErr, got, _ := call("ctx_get", map[string]any{"handle": jobH + "#stdout"}); isErr || got != "job-done\n" {
		t.Errorf("ctx_get %s#stdout: %v %q", jobH, isErr, got)
	}
	if isErr, got, _ := call("ctx_show", map[string]any{"handle": jobH}); isErr || got != waited {
		t.Errorf("ctx_show %s: %v %q, want %q", jobH, isErr, got, waited)
	}
}
