package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// TestContinuityCommandsBothForms: the text and --json forms of seal and
// verify say the same thing, with the run function called directly.
func TestContinuityCommandsBothForms(t *testing.T) {
	work := t.TempDir()
	t.Setenv("CTX_STORE", filepath.Join(work, ".ctx"))
	var out, errb bytes.Buffer
	ios := &IO{In: strings.NewReader(`{"a":["x"],"b":["y"]}`), Out: &out, Err: &errb, Getwd: func() (string, error) { return work, nil },
		Getenv: func(string) string { return "" }}
	if err := runContinuitySeal(ios, &continuitySealOptions{path: "-", label: "l", idScheme: "index"}); err != nil {
		t.Fatal(err)
	}
	digest := strings.SplitN(out.String(), "\n", 2)[0]
	ios.In = strings.NewReader(`{"b":["y"],"a":["x"]}`)
	out.Reset()
	if err := runContinuitySeal(ios, &continuitySealOptions{path: "-", label: "l", idScheme: "index", json: true}); err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["digest"] != digest || rec["label"] != "l" || rec["created_at"] == "" {
		t.Fatalf("--json record %v, text digest %s", rec, digest)
	}
	if err := runContinuitySeal(ios, &continuitySealOptions{path: "-", idScheme: "position"}); err == nil || !strings.Contains(err.Error(), "want index or content") {
		t.Errorf("bad --id-scheme: %v", err)
	}
	handle := continuity.HandleOf(continuity.SnapScheme, digest)
	ios.In = strings.NewReader(`{"a:0":"x","b:0":"Y"}`)
	out.Reset()
	err := runContinuityVerify(ios, &continuityVerifyOptions{handle: handle, restated: "-"})
	if code, failed := exitOf(err); failed || code != exitNotFaithful {
		t.Fatalf("divergent verify: %v", err)
	}
	if !strings.Contains(out.String(), `b:0 differs: declared "y", restated "Y"`) {
		t.Errorf("text verdict:\n%s", out.String())
	}
	ios.In = strings.NewReader(`{"a:0":"x","b:0":"Y"}`)
	out.Reset()
	_ = runContinuityVerify(ios, &continuityVerifyOptions{handle: handle, restated: "-", json: true})
	var v continuity.Verdict
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Faithful || v.Divergences[0].ID != "b:0" {
		t.Errorf("json verdict %+v (%v)", v, err)
	}
}

func TestBoundVerdict(t *testing.T) {
	v := continuity.Verdict{Faithful: false, Mode: "strict", BySeverity: map[string][]string{}, Notes: []string{"n"}}
	for i := range 2000 {
		v.Divergences = append(v.Divergences, continuity.Divergence{ID: fmt.Sprintf("f:%d", i), Field: "f", Declared: strings.Repeat("x", 50), Reason: "missing", Severity: "notable"})
	}
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= 64<<10 {
		t.Fatalf("test verdict is only %d bytes", b.Len())
	}
	out := boundVerdict(b.Bytes(), 64<<10)
	var got continuity.Verdict
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(out) > 64<<10 {
		t.Fatalf("bounded verdict: %d bytes, %v", len(out), err)
	}
	if len(got.Divergences) == 0 || len(got.Divergences) >= 2000 || !strings.Contains(got.Notes[len(got.Notes)-1], "of 2000 divergences") {
		t.Fatalf("bounded verdict lists %d divergences, notes %q", len(got.Divergences), got.Notes)
	}
	if small := boundVerdict([]byte(`{"faithful":true}`), 64<<10); small != `{"faithful":true}` {
		t.Errorf("a small verdict changed: %s", small)
	}
}
