package capsulecmd

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctxhq/ctx/capsule/publish"
	"github.com/ctxhq/ctx/internal/cli"
)

// TestPublishPreviewTouchesNothing: --preview composes and prints, and
// returns before a provider is looked up, a credential read or a connection
// opened. Each of those is wired to fail the test.
func TestPublishPreviewTouchesNothing(t *testing.T) {
	ctx := context.Background()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	ios, out, _ := capsuleIO(t, t.TempDir(), relayCapsule)
	if err := runCapsuleCapture(ctx, ios, &capsuleCaptureOptions{path: "-"}); err != nil {
		t.Fatal(err)
	}
	handle := strings.SplitN(out.String(), "\n", 2)[0]
	var envReads []string
	ios.Getenv = func(k string) string {
		envReads = append(envReads, k)
		// Were a credential read, it would point the provider at srv.
		return map[string]string{"CTX_GITHUB_TOKEN": "t", "CTX_GITHUB_API_URL": srv.URL, "CTX_SLACK_BOT_TOKEN": "x",
			"CTX_SLACK_API_URL": srv.URL, "CTX_JIRA_BASE_URL": srv.URL, "CTX_JIRA_EMAIL": "e", "CTX_JIRA_API_TOKEN": "t"}[k]
	}
	saved := newPublishProvider
	defer func() { newPublishProvider = saved }()
	looked := false
	newPublishProvider = func(name string, getenv publish.Getenv, timeout time.Duration) (publish.Provider, error) {
		looked = true
		return saved(name, getenv, timeout)
	}
	for _, tc := range []struct{ to, target, want string }{
		{"github", "o/r", "RECORD to github o/r"},
		{"jira", "ED-1", "### Requested next action"},
		{"slack", "C123", "DISCUSS to slack C123"},
	} {
		out.Reset()
		if err := runCapsulePublish(ctx, ios, &capsulePublishOptions{handle: handle, to: tc.to, target: tc.target, preview: true}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) || !strings.Contains(out.String(), "nothing was sent") {
			t.Errorf("%s preview:\n%s", tc.to, out)
		}
	}
	for _, k := range envReads {
		if strings.HasPrefix(k, "CTX_GITHUB") || strings.HasPrefix(k, "CTX_JIRA") || strings.HasPrefix(k, "CTX_SLACK") {
			t.Errorf("preview read %s", k)
		}
	}
	if looked || hits.Load() != 0 {
		t.Errorf("preview looked up a provider (%v) or reached the network (%d requests)", looked, hits.Load())
	}
	// The control: without --preview the same wiring is reached, so the
	// checks above can fail.
	out.Reset()
	err := runCapsulePublish(ctx, ios, &capsulePublishOptions{handle: handle, to: "github", target: "o/r", timeout: time.Second})
	if !looked || hits.Load() != 1 {
		t.Fatalf("publish did not reach the provider: %v, %d requests", err, hits.Load())
	}
}

// TestPublishCLIOutcomes: published against a GitHub-shaped local server,
// ambiguous (exit 4) when the server reads the request and never answers,
// and no duplicate on a plain retry.
func TestPublishCLIOutcomes(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if calls.Add(1) == 1 && r.URL.Path == "/repos/o/slow/issues" {
			<-hang
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"number":42,"html_url":"https://github.com/o/r/issues/42"}`)
	}))
	defer srv.Close()
	defer close(hang) // runs first: the hanging handler returns, so Close does not wait forever
	ios, out, errb := capsuleIO(t, t.TempDir(), relayCapsule)
	if err := runCapsuleCapture(ctx, ios, &capsuleCaptureOptions{path: "-"}); err != nil {
		t.Fatal(err)
	}
	handle := strings.SplitN(out.String(), "\n", 2)[0]
	ios.Getenv = func(k string) string {
		return map[string]string{"CTX_GITHUB_TOKEN": "ghp_secret", "CTX_GITHUB_API_URL": srv.URL}[k]
	}
	o := &capsulePublishOptions{handle: handle, to: "github", target: "o/slow", timeout: 300 * time.Millisecond}
	out.Reset()
	err := runCapsulePublish(ctx, ios, o)
	if code, _ := cli.ExitOf(err); code != exitAmbiguous || !strings.HasPrefix(out.String(), "ambiguous") || !strings.Contains(errb.String(), "--retry-ambiguous") {
		t.Fatalf("hanging server: %v\n%s%s", err, out, errb)
	}
	if err := runCapsulePublish(ctx, ios, o); err == nil || !strings.Contains(err.Error(), "may already have published") || calls.Load() != 1 {
		t.Fatalf("plain retry after ambiguous: %v, %d calls", err, calls.Load())
	}
	o.target = "o/r"
	out.Reset()
	if err := runCapsulePublish(ctx, ios, o); err != nil || !strings.HasPrefix(out.String(), "published https://github.com/o/r/issues/42") {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	out.Reset()
	if err := runCapsulePublish(ctx, ios, o); err != nil || !strings.Contains(out.String(), "no call made") || calls.Load() != 2 {
		t.Fatalf("retry after published: %v, %d calls\n%s", err, calls.Load(), out)
	}
	out.Reset()
	if err := runCapsuleDeliveries(ios, &capsuleDeliveriesOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || strings.Contains(out.String(), "ghp_secret") || strings.Contains(out.String(), "ship the relay") {
		t.Fatalf("deliveries:\n%s", out)
	}
	var r publish.Receipt
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil || r.Status != "ambiguous" || r.Destination != "github:o/slow" {
		t.Errorf("first receipt %+v (%v)", r, err)
	}
}
