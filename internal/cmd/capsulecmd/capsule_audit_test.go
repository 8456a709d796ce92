package capsulecmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/capsule"
	"github.com/ctxhq/ctx/internal/cli"
)

// captureJSON captures src into the store capsuleIO points at and returns
// the handle and full id.
func captureJSON(t *testing.T, ios *cli.IO, out *bytes.Buffer, src string) (handle, id string) {
	t.Helper()
	ios.In = strings.NewReader(src)
	out.Reset()
	if err := runCapsuleCapture(context.Background(), ios, &capsuleCaptureOptions{path: "-", json: true}); err != nil {
		t.Fatalf("capture: %v\n%s", err, src)
	}
	var r struct{ Capsule, ID string }
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return r.Capsule, r.ID
}

// jsonPath walks a decoded JSON value by keys; an integer key indexes a list.
func jsonPath(v any, keys ...any) (any, bool) {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil, false
			}
			v = l[k]
		}
	}
	return v, true
}

// TestCapsuleInspectJSONContract: the --json field names the issue fixes,
// read from a real store, with a parent so lineage.delta is present; then a
// four-capsule chain whose middle ancestor this store lacks reports it gone
// while the delta against the present parent stands.
func TestCapsuleInspectJSONContract(t *testing.T) {
	ctx := context.Background()
	ios, out, _ := capsuleIO(t, t.TempDir(), "")
	src := func(parent, extra string) string {
		p := ""
		if parent != "" {
			p = `"parent":"capsule:` + parent + `",`
		}
		return `{` + p + `"goal":"g","next_action":"n","critical":[{"id":"cu-goal","field":"goal"}],
"validity":[{"id":"vc-window","kind":"time_window","not_after":"2020-01-01T00:00:00Z"},{"id":"vc-scope","kind":"declared_scope","scope":"s"}],
"negative_knowledge":[{"id":"nk-1","hypothesis":"h","why_invalid":"w","state":"rejected","applies_while":["vc-window"]}]` + extra + `}`
	}
	_, a := captureJSON(t, ios, out, src("", ""))
	_, b := captureJSON(t, ios, out, src(a, `,"rejected":["r"]`))
	_, c := captureJSON(t, ios, out, src(b, `,"rejected":["r","r2"]`))
	inspect := func(handle string) map[string]any {
		t.Helper()
		out.Reset()
		if err := runCapsuleInspect(ctx, ios, &capsuleInspectOptions{handle: handle, with: "codex", json: true}); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := inspect("capsule:" + c[:12])
	for _, tc := range []struct {
		path []any
		want any
	}{
		{[]any{"fidelity", 0, "verdict"}, "preserved"},
		{[]any{"validity", "aggregate"}, "partially_stale"}, // stale + unverifiable
		{[]any{"validity", "conditions", 0, "verdict"}, "stale"},
		{[]any{"validity", "conditions", 1, "verdict"}, "unverifiable"},
		{[]any{"negative_knowledge", 0, "standing"}, "revalidation_required"},
		{[]any{"lineage", "ancestors", 0, "status"}, "present"},
		{[]any{"lineage", "ancestors", 1, "status"}, "present"},
		{[]any{"lineage", "bounded"}, false},
		{[]any{"lineage", "delta", "critical", "inherited", 0}, "cu-goal"},
		{[]any{"lineage", "delta", "text", "rejected", "carried_over"}, 1.0},
		{[]any{"lineage", "delta", "text", "rejected", "added"}, 1.0},
	} {
		if got, ok := jsonPath(m, tc.path...); !ok || got != tc.want {
			t.Errorf("%v = %v (present %v), want %v", tc.path, got, ok, tc.want)
		}
	}
	for _, note := range []string{"fidelity_note", "negative_knowledge_note"} {
		if s, _ := m[note].(string); s == "" {
			t.Errorf("--json lacks %s", note)
		}
	}

	// A second store holds a, c and a child d, but not b: walking from d,
	// c is present (so the delta stands) and b, the middle, is gone.
	ios2, out2, _ := capsuleIO(t, t.TempDir(), "")
	captureJSON(t, ios2, out2, src("", ""))
	captureJSON(t, ios2, out2, src(b, `,"rejected":["r","r2"]`))
	dh, _ := captureJSON(t, ios2, out2, src(c, ""))
	ios, out = ios2, out2
	m = inspect(dh)
	for _, tc := range []struct {
		path []any
		want any
	}{
		{[]any{"lineage", "ancestors", 0, "status"}, "present"},
		{[]any{"lineage", "ancestors", 1, "status"}, "gone"},
		{[]any{"lineage", "ancestors", 1, "capsule"}, "capsule:" + b[:12]},
		{[]any{"lineage", "delta", "text", "rejected", "absent_here"}, 2.0},
	} {
		if got, ok := jsonPath(m, tc.path...); !ok || got != tc.want {
			t.Errorf("middle gone: %v = %v (present %v), want %v", tc.path, got, ok, tc.want)
		}
	}
	if l, _ := jsonPath(m, "lineage", "ancestors"); len(l.([]any)) != 2 {
		t.Errorf("the walk went past a gone ancestor: %v", l)
	}
	out.Reset()
	if err := runCapsuleInspect(ctx, ios, &capsuleInspectOptions{handle: dh}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hop 2  capsule:" + b[:12] + "  gone", "gone, never reconstructed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("inspect text lacks %q:\n%s", want, out)
		}
	}
}

// TestCapsuleElevenHopsBounded: a chain of twelve capsules in a real store;
// the last one's walk stops at ten hops and says so, in JSON and in text.
func TestCapsuleElevenHopsBounded(t *testing.T) {
	ios, out, _ := capsuleIO(t, t.TempDir(), "")
	parent, last := "", ""
	for i := range 12 {
		p := ""
		if parent != "" {
			p = `"parent":"capsule:` + parent + `",`
		}
		last, parent = captureJSON(t, ios, out, fmt.Sprintf(`{%s"goal":"g%d","next_action":"n"}`, p, i))
	}
	out.Reset()
	if err := runCapsuleInspect(context.Background(), ios, &capsuleInspectOptions{handle: last, json: true}); err != nil {
		t.Fatal(err)
	}
	var r capsule.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Lineage == nil || len(r.Lineage.Ancestors) != capsule.MaxLineageHops || !r.Lineage.Bounded {
		t.Fatalf("lineage %+v", r.Lineage)
	}
	out.Reset()
	if err := runCapsuleInspect(context.Background(), ios, &capsuleInspectOptions{handle: last}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "bounded: more ancestors beyond 10 hops were not walked") {
		t.Errorf("text report does not say bounded:\n%s", out)
	}
}

// TestCapsuleCaptureRefusals: errors that must not store anything.
func TestCapsuleCaptureRefusals(t *testing.T) {
	ios, _, _ := capsuleIO(t, t.TempDir(), "")
	for _, tc := range []struct{ src, want string }{
		{`{"goal":"g","next_action":"n","colour":"red"}`, `unknown field "colour"`},
		{`{"goal":"g","next_action":"n","validity":[{"id":"v","kind":"time_window","deadline":"x"}]}`, `unknown field "deadline"`},
		{"goal = \"g\"\nnext_action = \"n\"\n[[validity]]\nid = \"v\"\nkind = \"git_paths\"\npath = [\"a\"]\n", "unknown key"},
		{"goal = \"g\"\nnext_action = \"n\"\nevidence = [\"run:0123456789ab\"]\n", "is not in this store"},
		{"goal = \"g\"\nnext_action = \"" + strings.Repeat("x", capsule.MaxSize) + "\"\n", "over the 256 KiB limit"},
	} {
		ios.In = strings.NewReader(tc.src)
		err := runCapsuleCapture(context.Background(), ios, &capsuleCaptureOptions{path: "-"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.80q: %v, want an error naming %q", tc.src, err, tc.want)
		}
	}
}

// TestRelayServeCommand runs ctx relay serve on a real loopback socket:
// send with a three-second TTL, receive before it, find it gone after it
// (real clock), the sender's history lists the send, and a non-loopback
// bind is refused unless allowed.
func TestRelayServeCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	served := make(chan error, 1)
	go func() {
		sios := &cli.IO{In: strings.NewReader(""), Out: pw, Err: io.Discard}
		served <- runRelayServe(ctx, sios, &relayServeOptions{addr: "127.0.0.1:0", ttl: time.Hour, maxTTL: time.Hour,
			maxBytes: capsule.MaxSize, maxTotal: 1 << 20, json: true})
		pw.Close()
	}()
	var addr struct{ URL string }
	dec := json.NewDecoder(pr)
	if err := dec.Decode(&addr); err != nil || !strings.HasPrefix(addr.URL, "http://127.0.0.1:") {
		t.Fatalf("relay serve printed %+v (%v)", addr, err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	ios, out, _ := capsuleIO(t, t.TempDir(), "")
	handle, id := captureJSON(t, ios, out, relayCapsule)
	out.Reset()
	if err := runCapsuleSend(ctx, ios, &capsuleSendOptions{handle: handle, relay: addr.URL, ttl: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	sentAt := time.Now()
	out.Reset()
	if err := runCapsuleHistory(ios, &capsuleHistoryOptions{json: true}); err != nil || !strings.Contains(out.String(), `"op":"send"`) ||
		!strings.Contains(out.String(), `"relay_id":"`+id+`"`) {
		t.Errorf("sender history: %v\n%s", err, out)
	}
	rios, _, _ := capsuleIO(t, t.TempDir(), "")
	if err := runCapsuleReceive(ctx, rios, &capsuleReceiveOptions{id: id, relay: addr.URL, with: "codex"}); err != nil {
		t.Fatalf("receive %v after sending, within the 3s TTL: %v", time.Since(sentAt), err)
	}
	time.Sleep(time.Until(sentAt.Add(3100 * time.Millisecond)))
	err := runCapsuleReceive(ctx, rios, &capsuleReceiveOptions{id: id, relay: addr.URL, with: "codex"})
	if err == nil || !strings.Contains(err.Error(), "expired, already read, or never sent") {
		t.Errorf("receive after the TTL: %v", err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("relay serve: %v", err)
	}
	err = runRelayServe(context.Background(), &cli.IO{Out: io.Discard, Err: io.Discard}, &relayServeOptions{addr: "0.0.0.0:0"})
	if err == nil || !strings.Contains(err.Error(), "is not loopback") {
		t.Errorf("non-loopback bind: %v", err)
	}
}

// TestCapsuleReceiveRefusesExpired: a relay (not ctx's) that still serves a
// capsule past its expires_at does not get it stored.
func TestCapsuleReceiveRefusesExpired(t *testing.T) {
	in, err := capsule.ParseInput([]byte("goal = \"g\"\nnext_action = \"n\"\nexpires_at = \"2020-01-01T00:00:00Z\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := in.Capsule("", func(string) (string, error) { return "", fmt.Errorf("no git") })
	if err != nil {
		t.Fatal(err)
	}
	body, _ := c.Canonical()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	ios, _, _ := capsuleIO(t, t.TempDir(), "")
	id := storeSum(body)
	err = runCapsuleReceive(context.Background(), ios, &capsuleReceiveOptions{id: id, relay: srv.URL, with: "codex"})
	if err == nil || !strings.Contains(err.Error(), "refused: the capsule expired at 2020-01-01T00:00:00Z") {
		t.Fatalf("expired capsule: %v", err)
	}
	if err := runCapsuleInspect(context.Background(), ios, &capsuleInspectOptions{handle: "capsule:" + id[:12]}); err == nil {
		t.Error("an expired capsule was stored")
	}
}

// TestPublishTakesNoCredentialFlags: credentials come from the environment
// only; no flag of ctx capsule publish (or send) could carry one.
func TestPublishTakesNoCredentialFlags(t *testing.T) {
	for _, c := range []*cobra.Command{newCapsulePublishCmd(&cli.IO{}), newCapsuleSendCmd(&cli.IO{})} {
		flags := regexp.MustCompile(`--([a-z-]+)`).FindAllStringSubmatch(c.Flags().FlagUsages(), -1)
		if !strings.Contains(c.Flags().FlagUsages(), "--preview") {
			t.Fatalf("%s: flags not read: %v", c.Name(), flags)
		}
		for _, m := range flags {
			for _, bad := range []string{"token", "secret", "password", "email", "auth", "key", "credential"} {
				if strings.Contains(m[1], bad) {
					t.Errorf("%s has a flag --%s", c.Name(), m[1])
				}
			}
		}
	}
}

// TestCapsuleExpiry: capture refuses an expires_at already past (it
// stored a handoff every receiver refuses); a stored capsule past its
// expires_at is reported expired by inspect (it said validity: valid and
// nothing more) and is not sent.
func TestCapsuleExpiry(t *testing.T) {
	ctx := context.Background()
	const past = "goal = \"g\"\nnext_action = \"n\"\nexpires_at = \"2020-01-01T00:00:00Z\"\n"
	dir := t.TempDir()
	ios, out, _ := capsuleIO(t, dir, past)
	err := runCapsuleCapture(ctx, ios, &capsuleCaptureOptions{path: "-"})
	if err == nil || !strings.Contains(err.Error(), "expires_at 2020-01-01T00:00:00Z has passed") {
		t.Fatalf("capture of an expired capsule: %v", err)
	}
	// One stored by an older ctx, or captured just before it expired.
	in, err := capsule.ParseInput([]byte(past))
	if err != nil {
		t.Fatal(err)
	}
	c, err := in.Capsule("", func(string) (string, error) { return "", fmt.Errorf("no git") })
	if err != nil {
		t.Fatal(err)
	}
	st, err := cli.OpenStore(ios, true)
	if err != nil {
		t.Fatal(err)
	}
	id, err := capsule.Put(st, c)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	handle := capsule.Handle(id)
	if err := runCapsuleInspect(ctx, ios, &capsuleInspectOptions{handle: handle}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\nexpired at 2020-01-01T00:00:00Z (its expires_at): the whole handoff is obsolete") {
		t.Errorf("inspect of an expired capsule:\n%s", out)
	}
	out.Reset()
	if err := runCapsuleInspect(ctx, ios, &capsuleInspectOptions{handle: handle, json: true}); err != nil {
		t.Fatal(err)
	}
	var rep any
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if v, _ := jsonPath(rep, "expiry", "expired"); v != true {
		t.Errorf("inspect --json expiry: %s", out)
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	err = runCapsuleSend(ctx, ios, &capsuleSendOptions{handle: handle, relay: srv.URL})
	if err == nil || !strings.Contains(err.Error(), "expired at 2020-01-01T00:00:00Z") || hits.Load() != 0 {
		t.Errorf("send of an expired capsule: %v (%d relay requests)", err, hits.Load())
	}
}
