package publish

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/capsule"
)

// TestClaimPersistedBeforeTheCall: while the provider is handling the
// request, the idempotency claim (key and the known external reference) is
// already in the store, holding no token and no body; a claim with no
// outcome (a crash mid-call) makes a later attempt refuse without a call.
func TestClaimPersistedBeforeTheCall(t *testing.T) {
	ctx := context.Background()
	c, id := testCapsule(t)
	v, _ := Compose(c, capsule.Handle(id), Record)
	st := openStore(t)
	key := IdempotencyKey(id.String(), "github", "o/r#7", Record)
	seen := make(chan []byte, 1)
	f := &fake{}
	f.answer = func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		b, _ := st.LayerRecord(KeysBucket, []byte(key))
		seen <- b
		return false
	}
	srv := f.serve(t, githubShape)
	p, err := New("github", env(map[string]string{EnvGitHubToken: "ghp_claimtest", EnvGitHubAPI: srv.URL}), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(ctx, st, p, id, v, "o/r#7", false); err != nil {
		t.Fatal(err)
	}
	during := <-seen
	var claim Claim
	if err := json.Unmarshal(during, &claim); err != nil {
		t.Fatalf("no claim was stored before the call: %q", during)
	}
	if claim.Key != key || claim.Reference != "o/r#7" || claim.Destination != "github:o/r#7" {
		t.Errorf("claim %+v", claim)
	}
	if strings.Contains(string(during), "ghp_claimtest") || strings.Contains(string(during), "frame iterator") {
		t.Errorf("the claim holds a token or the body: %s", during)
	}

	// A claim without an outcome: the earlier process died mid-call.
	orphan := IdempotencyKey(id.String(), "github", "o/crashed", Record)
	cb, _ := json.Marshal(Claim{Key: orphan, Capsule: "capsule:" + id.String(), Provider: "github", Operation: Record, Destination: "github:o/crashed"})
	if _, err := st.PutLayerRecord(KeysBucket, []byte(orphan), cb); err != nil {
		t.Fatal(err)
	}
	before := f.count()
	if _, err := Publish(ctx, st, p, id, v, "o/crashed", false); !errors.Is(err, ErrPriorAmbiguous) || f.count() != before {
		t.Errorf("after an interrupted attempt: %v, %d new calls", err, f.count()-before)
	}
}

// TestMentionsInertEverywhere: a mention in the title, body or open
// questions reaches no provider in a form that notifies: GitHub gets a word
// joiner after '@' in title and body, Jira's document has text nodes only
// (no mention nodes), Slack's special sequences are escaped.
func TestMentionsInertEverywhere(t *testing.T) {
	ctx := context.Background()
	c, id := testCapsule(t) // goal "… @octocat", an open question "<!channel>"
	c.State = "ask @here and <@U024BE7LH> [~accountid:5b10a2844c20165700ede21g]"
	gh, jr := &fake{}, &fake{}
	gsrv, jsrv := gh.serve(t, githubShape), jr.serve(t, jiraShape)
	rec, _ := Compose(c, capsule.Handle(id), Record)
	g, _ := New("github", env(map[string]string{EnvGitHubToken: "t", EnvGitHubAPI: gsrv.URL}), 5*time.Second)
	j, _ := New("jira", env(map[string]string{EnvJiraBase: jsrv.URL, EnvJiraEmail: "e", EnvJiraToken: "t"}), 5*time.Second)
	if _, err := Publish(ctx, openStore(t), g, id, rec, "o/r", false); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(ctx, openStore(t), j, id, rec, "ED", false); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"title", "body"} {
		s, _ := gh.requests[0].Body[k].(string)
		if s == "" || strings.Contains(s, "@octocat") || strings.Contains(s, "@here") || !strings.Contains(s, "@\u2060octocat") {
			t.Errorf("github %s has a live mention: %q", k, s)
		}
	}
	raw, _ := json.Marshal(jr.requests[0].Body)
	if strings.Contains(string(raw), `"mention"`) || !strings.Contains(string(raw), "accountid") {
		t.Errorf("jira document carries a mention node, or dropped the text: %s", raw)
	}
	var walk func(any)
	walk = func(n any) {
		switch n := n.(type) {
		case map[string]any:
			if ty, ok := n["type"].(string); ok && ty != "doc" && ty != "paragraph" && ty != "text" {
				t.Errorf("jira node type %q", ty)
			}
			for _, v := range n {
				walk(v)
			}
		case []any:
			for _, v := range n {
				walk(v)
			}
		}
	}
	walk(jr.requests[0].Body["fields"].(map[string]any)["description"])
}

// TestSlackReplyInThread: DISCUSS to CHANNEL:TS is a reply in that thread
// (chat.postMessage with thread_ts), its claim names the thread before the
// call, and the reference is the reply's own ts.
func TestSlackReplyInThread(t *testing.T) {
	ctx := context.Background()
	c, id := testCapsule(t)
	v, _ := Compose(c, capsule.Handle(id), Discuss)
	f := &fake{}
	srv := f.serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		_, _ = w.Write([]byte(`{"ok":true,"channel":"C123ABC456","ts":"1503435999.000300","message":{"thread_ts":"1503435956.000247"}}`))
	})
	p, _ := New("slack", env(map[string]string{EnvSlackToken: "xoxb-t", EnvSlackAPI: srv.URL}), 5*time.Second)
	st := openStore(t)
	r, err := Publish(ctx, st, p, id, v, "C123ABC456:1503435956.000247", false)
	if err != nil || r.ExternalReference != "slack:C123ABC456:1503435999.000300" {
		t.Fatalf("reply: %+v %v", r, err)
	}
	req := f.requests[0]
	if req.Path != "/chat.postMessage" || req.Body["channel"] != "C123ABC456" || req.Body["thread_ts"] != "1503435956.000247" {
		t.Errorf("request %s %v", req.Path, req.Body)
	}
	b, _ := st.LayerRecord(KeysBucket, []byte(IdempotencyKey(id.String(), "slack", "C123ABC456:1503435956.000247", Discuss)))
	var claim Claim
	if err := json.Unmarshal(b, &claim); err != nil || claim.Reference != "C123ABC456:1503435956.000247" {
		t.Errorf("claim %s (%v)", b, err)
	}
}

// TestIdempotencyKeyFormula: the key is hex(sha256(capsule_id + provider +
// target + operation)), the concatenation the issue fixes.
func TestIdempotencyKeyFormula(t *testing.T) {
	sum := sha256.Sum256([]byte("abc" + "github" + "o/r" + "record"))
	if got := IdempotencyKey("abc", "github", "o/r", "record"); got != hex.EncodeToString(sum[:]) {
		t.Errorf("key %s", got)
	}
}
