package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/store"
)

// connect serves New(deps) in process over the SDK's in-memory transport to a
// real client, with a real store in a temporary workspace.
func connect(t *testing.T, session string) (*sdk.ClientSession, string) {
	t.Helper()
	d, work := testDeps(t, session)
	return connectDeps(t, d), work
}

// connectDeps serves New(d) in process to a real client.
func connectDeps(t *testing.T, d *Deps) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	st, ct := sdk.NewInMemoryTransports()
	if _, err := New(d).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// testDeps is the server's surroundings for a test: a real store in a
// temporary workspace, which it returns too.
func testDeps(t *testing.T, session string) (*Deps, string) {
	t.Helper()
	work := t.TempDir()
	loc := store.Location{Dir: filepath.Join(work, store.DirName), Root: work}
	open := func(create bool) (*store.Store, error) { return store.Open(loc, create) }
	d := &Deps{
		Version: "test", Session: session,
		Getwd:  func() (string, error) { return work, nil },
		Getenv: func(string) string { return "" },
		Open:   open,
		Resolve: func(h store.Handle, _ string) (*store.Store, *store.Target, error) {
			st, err := open(false)
			if err != nil {
				return nil, nil, err
			}
			tg, err := st.Resolve(h)
			if err != nil {
				st.Close()
				return nil, nil, err
			}
			return st, tg, nil
		},
		Env: func(st *store.Store) *runner.Env {
			return &runner.Env{Store: st, Environ: []string{"PATH=" + os.Getenv("PATH")}}
		},
		List: func(w io.Writer, n int) error { _, err := fmt.Fprintf(w, "%d runs\n", n); return err },
	}
	return d, work
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res, ResultText(res)
}

// TestRunGetShow runs a command through ctx_run (the runner, not the CLI),
// reads a line back with ctx_get, and gets the same digest from ctx_show.
func TestRunGetShow(t *testing.T) {
	cs, _ := connect(t, "s1")
	res, digest := call(t, cs, "ctx_run", map[string]any{"shell": "seq 1 5; echo 'error: five' >&2; exit 4"})
	if res.IsError {
		t.Fatalf("ctx_run failed: %s", digest)
	}
	var out runOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.Exit == nil || *out.Exit != 4 || !strings.HasPrefix(digest, out.Run+" ") || out.Receipt == "" {
		t.Fatalf("structured %s (%v), digest:\n%s", b, err, digest)
	}
	_, line := call(t, cs, "ctx_get", map[string]any{"handle": out.Run + "#stdout:L3"})
	if line != "3\n" {
		t.Errorf("ctx_get L3 = %q", line)
	}
	_, none := call(t, cs, "ctx_get", map[string]any{"handle": out.Run + "#stdout", "grep": "nothing"})
	if !strings.Contains(none, "no line of") {
		t.Errorf("ctx_get no match = %q", none)
	}
	_, again := call(t, cs, "ctx_show", map[string]any{"handle": out.Run})
	if again != digest {
		t.Errorf("ctx_show:\n%s\nctx_run:\n%s", again, digest)
	}
	_, ls := call(t, cs, "ctx_ls", map[string]any{})
	if ls != "20 runs\n" {
		t.Errorf("ctx_ls = %q", ls)
	}
}

// TestSessionPassedExplicitly: the server's session (not an environment
// variable) makes an equivalent rerun show more.
func TestSessionPassedExplicitly(t *testing.T) {
	cs, _ := connect(t, "agent-7")
	var plans []string
	for range 2 {
		res, text := call(t, cs, "ctx_run", map[string]any{"argv": []string{"seq", "1", "3000"}})
		if res.IsError {
			t.Fatal(text)
		}
		plans = append(plans, text)
	}
	if plans[0] == plans[1] {
		t.Errorf("the rerun in one session showed the same digest:\n%s", plans[1])
	}
}

// TestBadRequests: errors name the problem.
func TestBadRequests(t *testing.T) {
	cs, _ := connect(t, "s")
	if res, text := call(t, cs, "ctx_run", map[string]any{"argv": []string{"ctx-no-such-cmd-x"}}); !res.IsError || !strings.Contains(text, "hint:") {
		t.Errorf("missing command: error %v %q", res.IsError, text)
	}
	if res, text := call(t, cs, "ctx_run", map[string]any{"argv": []string{"true"}, "cwd": "nowhere"}); !res.IsError || !strings.Contains(text, "not a directory") {
		t.Errorf("bad cwd: error %v %q", res.IsError, text)
	}
	if res, text := call(t, cs, "ctx_show", map[string]any{"handle": "run:abcdef"}); !res.IsError {
		t.Errorf("unknown run: %q", text)
	}
	// The errors and hints name the tool's arguments, never the command
	// line's flags, which a tool call cannot give.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"ctx_run", map[string]any{"argv": []string{"ctx-no-such-cmd-x"}}, "or use shell (a command line) instead of argv for shell builtins"},
		{"ctx_run", map[string]any{"argv": []string{"true"}, "cwd": "nowhere"}, `cwd "nowhere" is not a directory: give an existing one`},
		{"ctx_job_start", map[string]any{"argv": []string{"true"}, "cwd": "nowhere"}, `cwd "nowhere" is not a directory`},
		{"ctx_run", map[string]any{"argv": []string{"true"}, "budget": -5}, "budget -5: want a positive number of tokens, or leave budget out"},
		{"ctx_seq", map[string]any{"steps": []map[string]any{{"shell": "true"}}, "budget": -5}, "budget -5: want a positive number"},
	} {
		res, text := call(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(text, c.want) || strings.Contains(text, "--") {
			t.Errorf("%s %v: error %v %q, want %q", c.tool, c.args, res.IsError, text, c.want)
		}
	}
}

// TestFailedRunClaimsNoExit: a ctx_run call that ran nothing has no run
// handle and no exit status in its structured result (it said "exit": 0),
// except a command that could not start, whose 127 ctx run exits with too.
func TestFailedRunClaimsNoExit(t *testing.T) {
	cs, _ := connect(t, "s")
	for _, c := range []struct {
		args map[string]any
		want string // the structured result, as JSON
	}{
		{map[string]any{"argv": []string{"true"}, "cwd": "nowhere"}, `{}`},
		{map[string]any{"argv": []string{"true"}, "stdin": "no-such-file"}, `{}`},
		{map[string]any{"argv": []string{"true"}, "budget": -5}, `{}`},
		{map[string]any{"argv": []string{"ctx-no-such-cmd-x"}}, `{"exit":127}`},
	} {
		res, text := call(t, cs, "ctx_run", c.args)
		b, _ := json.Marshal(res.StructuredContent)
		if !res.IsError || string(b) != c.want {
			t.Errorf("ctx_run %v: error %v, structured %s, want %s (%s)", c.args, res.IsError, b, c.want, text)
		}
	}
}

// TestBadPressureEnv: a junk $CTX_PRESSURE in the server's environment (set
// by the host's configuration, invisible to the agent) is named in the error,
// with the fix, and the command is not run.
func TestBadPressureEnv(t *testing.T) {
	d, work := testDeps(t, "s")
	d.Getenv = func(k string) string {
		if k == "CTX_PRESSURE" {
			return "junk"
		}
		return ""
	}
	cs := connectDeps(t, d)
	res, text := call(t, cs, "ctx_run", map[string]any{"shell": "echo ran > marker"})
	if !res.IsError || !strings.Contains(text, "$CTX_PRESSURE") || !strings.Contains(text, "unset CTX_PRESSURE") {
		t.Errorf("junk CTX_PRESSURE: error %v %q", res.IsError, text)
	}
	if _, err := os.Stat(filepath.Join(work, "marker")); err == nil {
		t.Errorf("the command ran although its digest options were bad")
	}
}
