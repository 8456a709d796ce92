package capsulecmd

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ctxhq/ctx/capsule/relay"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/store"

	hostsmcp "github.com/ctxhq/ctx/hosts/mcp"
)

const relayCapsule = `{"goal":"ship the relay","next_action":"receive it","rejected":["polling"],
"critical":[{"id":"cu-goal","field":"goal"}],
"validity":[{"id":"vc-window","kind":"time_window","not_after":"2020-01-01T00:00:00Z"}],
"negative_knowledge":[{"id":"nk-poll","hypothesis":"polling","why_invalid":"too slow","state":"rejected","applies_while":["vc-window"]}]}`

// capsuleIO is an IO over buffers in dir, with the store at dir/.ctx.
func capsuleIO(t *testing.T, dir, stdin string) (*cli.IO, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	t.Setenv("CTX_STORE", filepath.Join(dir, ".ctx"))
	var out, errb bytes.Buffer
	return &cli.IO{In: strings.NewReader(stdin), Out: &out, Err: &errb, Getwd: func() (string, error) { return dir, nil },
		Getenv: func(string) string { return "" }}, &out, &errb
}

// TestCapsuleRelayEndToEnd sends a capsule from one store through a real
// relay on 127.0.0.1 and receives it into another.
func TestCapsuleRelayEndToEnd(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(relay.NewServer())
	defer srv.Close()
	sender, receiver := t.TempDir(), t.TempDir()

	ios, out, _ := capsuleIO(t, sender, relayCapsule)
	if err := runCapsuleCapture(ctx, ios, &capsuleCaptureOptions{path: "-", json: true}); err != nil {
		t.Fatal(err)
	}
	var captured struct{ Capsule, ID string }
	if err := json.Unmarshal(out.Bytes(), &captured); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := runCapsuleSend(ctx, ios, &capsuleSendOptions{handle: captured.Capsule, relay: srv.URL, ttl: time.Hour,
		deleteAfterRead: true, json: true}); err != nil {
		t.Fatal(err)
	}
	var sent struct {
		RelayID string `json:"relay_id"`
	}
	if err := json.Unmarshal(out.Bytes(), &sent); err != nil || sent.RelayID != captured.ID {
		t.Fatalf("send: %s (%v); want relay id %s", out, err, captured.ID)
	}

	ios, out, errb := capsuleIO(t, receiver, "")
	if err := runCapsuleReceive(ctx, ios, &capsuleReceiveOptions{id: sent.RelayID, relay: srv.URL, with: "codex"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Handoff " + captured.Capsule, "ship the relay", "receive it", "polling"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("receive printed no %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"warning: CONTEXT VALIDITY — stale (1 required condition(s) not valid; ids: `vc-window`)",
		"not a trust, authority or correctness judgement", "negative knowledge nk-poll — revalidation_required",
		"fidelity cu-goal: preserved", "not evidence that any model"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("receive stderr lacks %q:\n%s", want, errb)
		}
	}
	// The capsule is now in the receiver's store, under the same id.
	out.Reset()
	if err := runCapsuleInspect(ctx, ios, &capsuleInspectOptions{handle: captured.Capsule, json: true}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Validity struct{ Aggregate string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Validity.Aggregate != "stale" {
		t.Errorf("inspect after receive: %s (%v)", out, err)
	}
	// Delete-after-read: a second receive finds nothing.
	err := runCapsuleReceive(ctx, ios, &capsuleReceiveOptions{id: sent.RelayID, relay: srv.URL, with: "codex"})
	if err == nil || !strings.Contains(err.Error(), "already read") {
		t.Errorf("second receive of a read-once capsule: %v", err)
	}
	out.Reset()
	if err := runCapsuleHistory(ios, &capsuleHistoryOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), `"op":"receive"`); n != 1 || strings.Contains(out.String(), `"op":"send"`) {
		t.Errorf("receiver history:\n%s", out)
	}
}

// TestCapsuleReceiveRefuses: content that is not the asked-for id, or not a
// valid capsule, is refused with the reason and not stored.
func TestCapsuleReceiveRefuses(t *testing.T) {
	ctx := context.Background()
	var body atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(body.Load().([]byte))
	}))
	defer srv.Close()
	ios, _, _ := capsuleIO(t, t.TempDir(), "")
	body.Store([]byte(`{"schema":"ctx.capsule/v1"}`))
	err := runCapsuleReceive(ctx, ios, &capsuleReceiveOptions{id: strings.Repeat("ab", 32), relay: srv.URL, with: "codex"})
	if err == nil || !strings.Contains(err.Error(), "refused: the relay returned content with id") {
		t.Errorf("wrong content: %v", err)
	}
	bad := []byte(`{"schema":"ctx.capsule/v9","goal":"g"}`)
	body.Store(bad)
	id := storeSum(bad)
	err = runCapsuleReceive(ctx, ios, &capsuleReceiveOptions{id: id, relay: srv.URL, with: "codex"})
	if err == nil || !strings.Contains(err.Error(), "refused: invalid capsule: schema \"ctx.capsule/v9\"") {
		t.Errorf("invalid capsule: %v", err)
	}
	if err := runCapsuleInspect(ctx, ios, &capsuleInspectOptions{handle: "capsule:" + id[:12]}); err == nil {
		t.Error("a refused capsule was stored")
	}
}

// TestCapsuleSendPreviewContactsNoRelay: --preview returns before any
// connection is made.
func TestCapsuleSendPreviewContactsNoRelay(t *testing.T) {
	ctx := context.Background()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	ios, out, _ := capsuleIO(t, t.TempDir(), relayCapsule)
	if err := runCapsuleCapture(ctx, ios, &capsuleCaptureOptions{path: "-"}); err != nil {
		t.Fatal(err)
	}
	handle := strings.SplitN(out.String(), "\n", 2)[0]
	out.Reset()
	if err := runCapsuleSend(ctx, ios, &capsuleSendOptions{handle: handle, relay: srv.URL, preview: true}); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 0 || !strings.Contains(out.String(), "preview only: nothing was sent") ||
		!strings.Contains(out.String(), "fidelity cu-goal: unknown") {
		t.Errorf("preview: %d relay hits\n%s", hits.Load(), out)
	}
}

func storeSum(b []byte) string { return store.Sum(b).String() }

// TestCapsuleMCP drives capture, inspect and render over MCP in process.
func TestCapsuleMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ios, _, _ := capsuleIO(t, t.TempDir(), "")
	server := mcp.NewServer(&mcp.Implementation{Name: "ctx", Version: "test"}, nil)
	AddTools(server, ios)
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return hostsmcp.ResultText(res), res.IsError
	}
	out, isErr := call("ctx_capsule_capture", map[string]any{"capsule": relayCapsule})
	if isErr || !strings.HasPrefix(out, "capsule:") {
		t.Fatalf("capture: %s", out)
	}
	handle := strings.SplitN(out, "\n", 2)[0]
	out, isErr = call("ctx_capsule_inspect", map[string]any{"handle": handle, "with": "codex"})
	if isErr || !strings.Contains(out, "cu-goal") || !strings.Contains(out, "preserved") || !strings.Contains(out, "validity: stale") ||
		!strings.Contains(out, "not evidence that any model") {
		t.Errorf("inspect: %s", out)
	}
	out, isErr = call("ctx_capsule_render", map[string]any{"handle": handle})
	if isErr || !strings.Contains(out, "## Next action\n\nreceive it") {
		t.Errorf("render: %s", out)
	}
	out, isErr = call("ctx_capsule_capture", map[string]any{"capsule": `goal = "g"`})
	if !isErr || !strings.Contains(out, "goal and next_action are required") {
		t.Errorf("bad capture: %v %s", isErr, out)
	}
}
