package publish

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxhq/ctx/capsule"
	"github.com/ctxhq/ctx/store"
)

func testCapsule(t *testing.T) (*capsule.Capsule, store.ID) {
	t.Helper()
	in, err := capsule.ParseInput([]byte(`goal = "make ctx get stream merged views @octocat"
state = "merged view reads whole stream into memory"
next_action = "replace readAll with a frame iterator"
evidence = ["run:4f1c0a9e2b77#stdout:L40-52", "blob:0123456789ab", "run:111111111111", "run:222222222222"]
rejected = ["mmap the pack file"]
constraints = ["no new dependency"]
open_questions = ["does the pty mode keep arrival order? <!channel>"]
[[critical]]
id = "cu-next"
field = "next_action"
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := in.Capsule("", func(string) (string, error) { return "", errors.New("no git") })
	if err != nil {
		t.Fatal(err)
	}
	id, _ := c.ID()
	return c, id
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestComposeRecordAndDiscussDiffer(t *testing.T) {
	c, id := testCapsule(t)
	rec, err := Compose(c, capsule.Handle(id), Record)
	if err != nil {
		t.Fatal(err)
	}
	dis, err := Compose(c, capsule.Handle(id), Discuss)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Goal", "### Current state", "### Rejected hypotheses", "- mmap the pack file",
		"### Constraints", "### Requested next action", "- run:222222222222"} {
		if !strings.Contains(rec.Body, want) {
			t.Errorf("RECORD lacks %q", want)
		}
	}
	if rec.Title != "Handoff: make ctx get stream merged views @octocat" || rec.Critical[0].Verdict != capsule.Preserved {
		t.Errorf("RECORD title %q, critical %+v", rec.Title, rec.Critical)
	}
	// DISCUSS: shorter, asks for discussion, trims evidence, and represents
	// the critical next action it does not carry as a pointer.
	for _, want := range []string{"Open questions the sender could not settle:", "• does the pty mode keep arrival order?",
		"and 1 more in the capsule", "Requested: reply in this thread", "Critical context not carried here"} {
		if !strings.Contains(dis.Body, want) {
			t.Errorf("DISCUSS lacks %q:\n%s", want, dis.Body)
		}
	}
	if dis.Title != "" || strings.Contains(dis.Body, "run:222222222222") || dis.Critical[0].Verdict != "pointer" {
		t.Errorf("DISCUSS is not the shorter conversational view:\n%s", dis.Body)
	}
	if k := IdempotencyKey("a", "github", "o/r", Record); k == IdempotencyKey("a", "github", "o/r", Discuss) || len(k) != 64 {
		t.Errorf("idempotency key %s", k)
	}
}

// fake is a local provider server: it records each request and answers with
// the provider's real response shape, or as a test asks.
type fake struct {
	mu       sync.Mutex
	requests []recorded
	answer   func(w http.ResponseWriter, r *http.Request, body []byte) bool // true: handled
}

type recorded struct {
	Method, Path, Auth string
	Body               map[string]any
}

func (f *fake) serve(t *testing.T, shape func(w http.ResponseWriter, r *http.Request, n int)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		f.mu.Lock()
		f.requests = append(f.requests, recorded{r.Method, r.URL.Path, r.Header.Get("Authorization"), m})
		n := len(f.requests)
		answer := f.answer
		f.mu.Unlock()
		if answer != nil && answer(w, r, b) {
			return
		}
		shape(w, r, n)
	}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("fake provider at %s, want loopback", srv.URL)
	}
	return srv
}

func (f *fake) count() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.requests) }

// githubShape answers like POST /repos/{o}/{r}/issues (201, an issue) and
// POST /repos/{o}/{r}/issues/{n}/comments (201, a comment).
func githubShape(w http.ResponseWriter, r *http.Request, n int) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusCreated)
	if strings.HasSuffix(r.URL.Path, "/comments") {
		_, _ = io.WriteString(w, `{"id":1,"html_url":"https://github.com/o/r/issues/7#issuecomment-1","body":"…"}`)
		return
	}
	_, _ = io.WriteString(w, `{"id":1,"number":42,"html_url":"https://github.com/o/r/issues/42","title":"…","state":"open"}`)
}

// jiraShape answers like POST /rest/api/3/issue (201 {id,key,self}) and
// POST /rest/api/3/issue/{key}/comment (201 {id,self,body…}).
func jiraShape(w http.ResponseWriter, r *http.Request, n int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	if strings.HasSuffix(r.URL.Path, "/comment") {
		_, _ = io.WriteString(w, `{"id":"10000","self":"https://x.atlassian.net/rest/api/3/issue/10010/comment/10000"}`)
		return
	}
	_, _ = io.WriteString(w, `{"id":"10000","key":"ED-24","self":"https://x.atlassian.net/rest/api/3/issue/10000"}`)
}

// slackShape answers like chat.postMessage: 200 {"ok":true,"channel","ts"}.
func slackShape(w http.ResponseWriter, r *http.Request, n int) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = io.WriteString(w, `{"ok":true,"channel":"C123ABC456","ts":"1503435956.000247","message":{"text":"…"}}`)
}

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestPublishEachProvider(t *testing.T) {
	ctx := context.Background()
	c, id := testCapsule(t)
	for _, tc := range []struct {
		provider, target, op, wantPath, wantRef, wantAuth string
		shape                                             func(http.ResponseWriter, *http.Request, int)
		env                                               func(url string) map[string]string
	}{
		{"github", "o/r", Record, "/repos/o/r/issues", "https://github.com/o/r/issues/42", "Bearer ghp_test", githubShape,
			func(u string) map[string]string {
				return map[string]string{EnvGitHubToken: "ghp_test", EnvGitHubAPI: u}
			}},
		{"github", "o/r#7", Record, "/repos/o/r/issues/7/comments", "https://github.com/o/r/issues/7#issuecomment-1", "Bearer ghp_test", githubShape,
			func(u string) map[string]string {
				return map[string]string{EnvGitHubToken: "ghp_test", EnvGitHubAPI: u}
			}},
		{"jira", "ED", Record, "/rest/api/3/issue", "/browse/ED-24", "Basic ", jiraShape,
			func(u string) map[string]string {
				return map[string]string{EnvJiraBase: u, EnvJiraEmail: "a@example.com", EnvJiraToken: "tok"}
			}},
		{"jira", "ED-9", Record, "/rest/api/3/issue/ED-9/comment", "https://x.atlassian.net/rest/api/3/issue/10010/comment/10000", "Basic ", jiraShape,
			func(u string) map[string]string {
				return map[string]string{EnvJiraBase: u, EnvJiraEmail: "a@example.com", EnvJiraToken: "tok"}
			}},
		{"slack", "C123ABC456", Discuss, "/chat.postMessage", "slack:C123ABC456:1503435956.000247", "Bearer xoxb-test", slackShape,
			func(u string) map[string]string { return map[string]string{EnvSlackToken: "xoxb-test", EnvSlackAPI: u} }},
	} {
		t.Run(tc.provider+"/"+tc.target, func(t *testing.T) {
			st := openStore(t)
			f := &fake{}
			srv := f.serve(t, tc.shape)
			p, err := New(tc.provider, env(tc.env(srv.URL)), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := Compose(c, capsule.Handle(id), tc.op)
			r, err := Publish(ctx, st, p, id, v, tc.target, false)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != Published || !strings.HasSuffix(r.ExternalReference, tc.wantRef) {
				t.Fatalf("receipt %+v, want published with %s", r, tc.wantRef)
			}
			req := f.requests[0]
			if req.Method != http.MethodPost || req.Path != tc.wantPath || !strings.HasPrefix(req.Auth, tc.wantAuth) {
				t.Errorf("request %s %s auth %q", req.Method, req.Path, req.Auth)
			}
			// The request carries the provider's own field names.
			switch tc.provider {
			case "github":
				if req.Body["body"] == nil || strings.Contains(req.Body["body"].(string), "@octocat") {
					t.Errorf("github body missing or mention live: %v", req.Body["body"])
				}
			case "jira":
				if tc.target == "ED" {
					fields := req.Body["fields"].(map[string]any)
					if fields["project"].(map[string]any)["key"] != "ED" || fields["description"].(map[string]any)["type"] != "doc" {
						t.Errorf("jira fields %v", fields)
					}
				}
			case "slack":
				text := req.Body["text"].(string)
				if req.Body["channel"] != "C123ABC456" || strings.Contains(text, "<!channel>") || !strings.Contains(text, "&lt;!channel&gt;") {
					t.Errorf("slack message %v", req.Body)
				}
			}
			// A retry after published makes no call and returns the receipt.
			again, err := Publish(ctx, st, p, id, v, tc.target, false)
			if err != nil || !again.Replayed || again.ExternalReference != r.ExternalReference || f.count() != 1 {
				t.Errorf("retry after published: %+v %v, %d calls", again, err, f.count())
			}
			// The receipt holds no token and no body.
			_ = Receipts(st, func(rc Receipt) error {
				b, _ := json.Marshal(rc)
				for _, secret := range []string{"ghp_test", "xoxb-test", "tok\"", "frame iterator"} {
					if strings.Contains(string(b), secret) {
						t.Errorf("receipt carries %q: %s", secret, b)
					}
				}
				return nil
			})
		})
	}
}

func TestAmbiguousFailedAndIdempotency(t *testing.T) {
	ctx := context.Background()
	c, id := testCapsule(t)
	v, _ := Compose(c, capsule.Handle(id), Record)
	st := openStore(t)
	f := &fake{}
	release := make(chan struct{})
	// The first call: the server reads the whole request, then never answers.
	f.answer = func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if f.count() == 1 {
			<-release
			return true
		}
		return false
	}
	srv := f.serve(t, githubShape)
	defer close(release)
	p, err := New("github", env(map[string]string{EnvGitHubToken: "t", EnvGitHubAPI: srv.URL}), 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Publish(ctx, st, p, id, v, "o/r", false)
	var oe *OutcomeError
	if !errors.As(err, &oe) || oe.Outcome != Ambiguous || r.Status != Ambiguous {
		t.Fatalf("timeout after the request was read: %+v %v", r, err)
	}
	// A plain retry refuses: it would risk a duplicate issue.
	if _, err := Publish(ctx, st, p, id, v, "o/r", false); !errors.Is(err, ErrPriorAmbiguous) || f.count() != 1 {
		t.Fatalf("retry after ambiguous: %v, %d calls", err, f.count())
	}
	// Asked explicitly, it publishes; then every retry is a replay.
	r, err = Publish(ctx, st, p, id, v, "o/r", true)
	if err != nil || r.Status != Published || f.count() != 2 {
		t.Fatalf("retry-ambiguous: %+v %v", r, err)
	}
	if r, err = Publish(ctx, st, p, id, v, "o/r", true); err != nil || !r.Replayed || f.count() != 2 {
		t.Fatalf("after published: %+v %v, %d calls", r, err, f.count())
	}

	// A 4xx is failed, and a failed publication may be retried.
	f.answer = func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = io.WriteString(w, `{"message":"Validation Failed","documentation_url":"https://docs.github.com/rest"}`)
		return true
	}
	r, err = Publish(ctx, st, p, id, v, "o/other", false)
	if !errors.As(err, &oe) || oe.Outcome != Failed || r.Status != Failed {
		t.Fatalf("422: %+v %v", r, err)
	}
	f.answer = nil
	if r, err = Publish(ctx, st, p, id, v, "o/other", false); err != nil || r.Status != Published {
		t.Fatalf("retry after failed: %+v %v", r, err)
	}
	// A 5xx may have committed: ambiguous.
	f.answer = func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	}
	if r, _ = Publish(ctx, st, p, id, v, "o/third", false); r.Status != Ambiguous {
		t.Fatalf("502: %+v", r)
	}
	// Slack's 200 {"ok":false} is a definitive rejection.
	sf := &fake{}
	ssrv := sf.serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		_, _ = io.WriteString(w, `{"ok":false,"error":"channel_not_found"}`)
	})
	sp, _ := New("slack", env(map[string]string{EnvSlackToken: "x", EnvSlackAPI: ssrv.URL}), time.Second)
	dv, _ := Compose(c, capsule.Handle(id), Discuss)
	if r, err = Publish(ctx, st, sp, id, dv, "C0NOPE", false); r.Status != Failed || !strings.Contains(err.Error(), "channel_not_found") {
		t.Fatalf("slack ok:false: %+v %v", r, err)
	}
	// A connection refused before sending is failed, not ambiguous.
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	dp, _ := New("github", env(map[string]string{EnvGitHubToken: "t", EnvGitHubAPI: url}), time.Second)
	if r, _ = Publish(ctx, st, dp, id, v, "o/dead", false); r.Status != Failed {
		t.Fatalf("connection refused: %+v", r)
	}
	// Wrong composition for a destination, and missing credentials.
	if _, err := Publish(ctx, st, sp, id, v, "C1", false); err == nil || !strings.Contains(err.Error(), "DISCUSS to conversations") {
		t.Errorf("record to slack: %v", err)
	}
	if _, err := New("jira", env(map[string]string{EnvJiraBase: "http://127.0.0.1:1"}), time.Second); err == nil || !strings.Contains(err.Error(), EnvJiraEmail) {
		t.Errorf("missing jira email: %v", err)
	}
}
