package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestSeqAndPy: ctx_seq returns one digest with the failing step's exit
// status and the skipped step listed; ctx_py runs a bounded script; bad
// input (no steps, an unknown job, a syntax error) is an error result.
func TestSeqAndPy(t *testing.T) {
	cs, _ := connect(t, "s")
	res, text := call(t, cs, "ctx_seq", map[string]any{"steps": []map[string]any{
		{"shell": "echo one"}, {"name": "two", "shell": "echo 'x.go:1:1: two broke' >&2; exit 6"}, {"shell": "echo three"}}})
	if res.IsError || !strings.Contains(text, "two broke") || !strings.Contains(text, "skipped") {
		t.Fatalf("ctx_seq: %s", text)
	}
	var out ladderOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.Exit == nil || *out.Exit != 6 || !strings.HasPrefix(text, out.Handle+" ") {
		t.Errorf("structured %s %v", b, err)
	}
	res, text = call(t, cs, "ctx_py", map[string]any{"code": "r = run('echo hi')\nemit('got', r.headline)\n"})
	if res.IsError || !strings.Contains(text, "finding: got hi") {
		t.Errorf("ctx_py: %s", text)
	}
	res, text = call(t, cs, "ctx_py", map[string]any{"code": "while True:\n  pass\n", "max_steps": 1000})
	if !res.IsError || !strings.Contains(text, "step limit reached") {
		t.Errorf("ctx_py endless loop: %v %s", res.IsError, text)
	}
	for name, args := range map[string]map[string]any{
		"ctx_seq":      {"steps": []map[string]any{}},
		"ctx_job_wait": {"job": "job:ffffffffffff"},
		"ctx_job_tail": {"job": "nope"},
		"ctx_py":       {"code": "x = = 1"},
	} {
		// Nothing ran: no handle and no exit status claimed.
		if res, text := call(t, cs, name, args); !res.IsError || res.StructuredContent != nil && fmt.Sprint(res.StructuredContent) != "map[]" {
			t.Errorf("%s %v: error %v, structured %v: %s", name, args, res.IsError, res.StructuredContent, text)
		}
	}
	// An empty sequence says how to give steps, as the command line does.
	if res, text := call(t, cs, "ctx_seq", map[string]any{"steps": []map[string]any{}}); !res.IsError || !strings.Contains(text, `the sequence has no steps: give steps as {"steps": [{"shell"`) {
		t.Errorf("ctx_seq with no steps: %v %s", res.IsError, text)
	}
	// An empty script says so and how to give one.
	if res, text := call(t, cs, "ctx_py", map[string]any{"code": " \n"}); !res.IsError || !strings.Contains(text, `the script is empty: give the script as {"code": `) {
		t.Errorf("ctx_py with no code: %v %s", res.IsError, text)
	}
	// A job tool refuses the arguments it has no use for (they were
	// accepted and ignored: ctx_job_kill took lines, grep and timeout).
	for name, args := range map[string]map[string]any{
		"ctx_job_kill": {"job": "job:ffffffffffff", "timeout": "5s"},
		"ctx_job_wait": {"job": "job:ffffffffffff", "lines": 5},
		"ctx_job_tail": {"job": "job:ffffffffffff", "timeout": "5s"},
	} {
		if res, text := call(t, cs, name, args); !res.IsError || !strings.Contains(text, "unexpected additional properties") {
			t.Errorf("%s %v: %v %s", name, args, res.IsError, text)
		}
	}
	// A zero wait timeout meant no limit at all, past the tool's 10m cap; a
	// bad wall names the wall, not a timeout.
	if res, text := call(t, cs, "ctx_job_wait", map[string]any{"job": "job:ffffffffffff", "timeout": "0"}); !res.IsError || !strings.Contains(text, "want a positive duration, at most 10m") {
		t.Errorf("ctx_job_wait timeout 0: %v %s", res.IsError, text)
	}
	if res, text := call(t, cs, "ctx_py", map[string]any{"code": "x = 1", "wall": "-1s"}); !res.IsError || !strings.Contains(text, `wall "-1s"`) {
		t.Errorf("ctx_py wall -1s: %v %s", res.IsError, text)
	}
}
