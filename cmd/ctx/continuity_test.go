package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxhq/ctx/continuity"
)

// TestContinuityMCP drives the seal and verify tools in process: the digest
// of a manifest sent over MCP is the digest of its text (numbers are not
// routed through float64), and verify returns a bounded verdict.
func TestContinuityMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	work := t.TempDir()
	t.Setenv("CTX_STORE", filepath.Join(work, ".ctx"))
	var sink bytes.Buffer
	ios := &IO{In: strings.NewReader(""), Out: &sink, Err: &sink, Getwd: func() (string, error) { return work, nil },
		Getenv: func(string) string { return "" }}
	server := newMCPServer(ios)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	// 1.0 must stay a float and the integer must stay exact: through float64
	// they would become 1 and 9007199254740992, and the digest would move.
	manifest := `{"identity_anchors":["I am the one who keeps the build green"],"open_commitments":["fix #12"],"weights":[1.0,9007199254740993]}`
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_continuity_seal", Arguments: json.RawMessage(`{"manifest":` + manifest + `}`)})
	if err != nil {
		t.Fatal(err)
	}
	out := text(res)
	if res.IsError {
		t.Fatalf("seal: %s", out)
	}
	want, err := continuity.Seal([]byte(manifest), "continuity", continuity.SchemeIndex, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, want.Digest+"\n") {
		t.Fatalf("seal over MCP printed\n%s\nwant the digest %s first", out, want.Digest)
	}
	if !strings.Contains(out, "probe ids: identity_anchors:0, open_commitments:0, weights:0, weights:1") {
		t.Errorf("seal result lacks the probe ids:\n%s", out)
	}
	handle := continuity.HandleOf(continuity.SnapScheme, want.Digest)

	restated := map[string]any{"identity_anchors:0": "I am the one who keeps the build green", "open_commitments:0": "fix #12",
		"weights:0": "1.0", "weights:1": "9007199254740993"}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_continuity_verify", Arguments: map[string]any{"snapshot": handle, "restated": restated}})
	if err != nil {
		t.Fatal(err)
	}
	var v continuity.Verdict
	if err := json.Unmarshal([]byte(text(res)), &v); err != nil || res.IsError {
		t.Fatalf("verify: %v\n%s", err, text(res))
	}
	if !v.Faithful || v.Mode != "strict" || v.Probes != 4 {
		t.Fatalf("verdict %+v", v)
	}

	restated["open_commitments:0"] = "fix #12 — no, dropped it"
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_continuity_verify", Arguments: map[string]any{"snapshot": handle,
		"restated": restated, "tiers": map[string]any{"critical": []string{"open_commitments"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(text(res)), &v); err != nil || res.IsError {
		t.Fatalf("verify: %v\n%s", err, text(res))
	}
	if v.Faithful || len(v.Divergences) != 1 || v.Divergences[0].Severity != "critical" || v.Divergences[0].Reason != continuity.ReasonContains {
		t.Fatalf("divergent verdict %+v", v)
	}

	// Bad input comes back as a tool error, not a crash.
	for _, args := range []any{
		map[string]any{"manifest": []string{"not", "an", "object"}},
		map[string]any{},
	} {
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_continuity_seal", Arguments: args})
		if err != nil || !res.IsError {
			t.Errorf("seal %v: want a tool error, got %v %s", args, err, text(res))
		}
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ctx_continuity_verify", Arguments: map[string]any{"snapshot": "snap:000000", "restated": restated}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "no such record") {
		t.Errorf("unknown snapshot: %v %s", err, text(res))
	}
}
