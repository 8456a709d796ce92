package publish

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"time"

	"github.com/ctxhq/ctx/internal/lines"
)

// Outcomes: exactly three, never a fourth.
const (
	Published = "published" // the provider confirmed the write
	Ambiguous = "ambiguous" // the call may have committed (timeout or disconnect after sending, or a 5xx)
	Failed    = "failed"    // a definitive rejection, or an error before the request was sent
)

// Provider writes one view to one destination. Implementations never retry
// internally: a retry is the Publisher's decision, guarded by the key.
type Provider interface {
	// Name is github, jira or slack.
	Name() string
	// Operations are the compositions this destination takes.
	Operations() []string
	// Label is a safe destination label: never a token.
	Label(target string) (string, error)
	// Publish writes the view and returns the external reference.
	Publish(ctx context.Context, v *View, target string) (ref string, err error)
}

// Getenv reads a credential or setting: os.Getenv, or a test's map.
type Getenv func(string) string

// Provider credentials and API base URLs, read from the environment only.
const (
	EnvGitHubToken   = "CTX_GITHUB_TOKEN"
	EnvGitHubAPI     = "CTX_GITHUB_API_URL" // default https://api.github.com
	EnvJiraBase      = "CTX_JIRA_BASE_URL"
	EnvJiraEmail     = "CTX_JIRA_EMAIL"
	EnvJiraToken     = "CTX_JIRA_API_TOKEN"
	EnvSlackToken    = "CTX_SLACK_BOT_TOKEN"
	EnvSlackAPI      = "CTX_SLACK_API_URL" // default https://slack.com/api
	defaultGitHubAPI = "https://api.github.com"
	defaultSlackAPI  = "https://slack.com/api"
)

// Providers are the destinations this build can publish to.
var Providers = []string{"github", "jira", "slack"}

// New looks up a provider and reads its credentials from the environment,
// eagerly: a missing one is an error naming the variable.
func New(name string, getenv Getenv, timeout time.Duration) (Provider, error) {
	need := func(k string) (string, error) {
		if v := getenv(k); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("%s publish: set %s in the environment (credentials are never taken from flags)", name, k)
	}
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12},
		Proxy: http.ProxyFromEnvironment}}
	switch name {
	case "github":
		tok, err := need(EnvGitHubToken)
		if err != nil {
			return nil, err
		}
		return &github{base: orDefault(getenv(EnvGitHubAPI), defaultGitHubAPI), token: tok, http: client}, nil
	case "jira":
		base, err := need(EnvJiraBase)
		if err != nil {
			return nil, err
		}
		email, err := need(EnvJiraEmail)
		if err != nil {
			return nil, err
		}
		tok, err := need(EnvJiraToken)
		if err != nil {
			return nil, err
		}
		return &jira{base: strings.TrimRight(base, "/"), email: email, token: tok, http: client}, nil
	case "slack":
		tok, err := need(EnvSlackToken)
		if err != nil {
			return nil, err
		}
		return &slack{base: orDefault(getenv(EnvSlackAPI), defaultSlackAPI), token: tok, http: client}, nil
	}
	return nil, fmt.Errorf("provider %q: want one of %s", name, strings.Join(Providers, ", "))
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return strings.TrimRight(s, "/")
}

// OutcomeError carries a non-published outcome.
type OutcomeError struct {
	Outcome string // Ambiguous or Failed
	Err     error
}

func (e *OutcomeError) Error() string { return e.Outcome + ": " + e.Err.Error() }
func (e *OutcomeError) Unwrap() error { return e.Err }

// do sends a JSON request and decodes a 2xx answer into out. An error before
// the request was written is failed; after it, ambiguous; a 4xx is failed, a
// 5xx ambiguous (the provider may have committed before failing).
func do(ctx context.Context, client *http.Client, req *http.Request, out any) error {
	wrote := false
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		if i.Err == nil {
			wrote = true
		}
	}})
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		if wrote {
			return &OutcomeError{Ambiguous, fmt.Errorf("no answer after the request was sent (it may have been applied): %w", err)}
		}
		return &OutcomeError{Failed, fmt.Errorf("the request was not sent: %w", err)}
	}
	defer resp.Body.Close()
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode >= 500:
		return &OutcomeError{Ambiguous, fmt.Errorf("%s (the provider may have applied it): %s", resp.Status, snippet(body))}
	case resp.StatusCode >= 400:
		return &OutcomeError{Failed, fmt.Errorf("%s: %s", resp.Status, snippet(body))}
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return &OutcomeError{Ambiguous, fmt.Errorf("unexpected %s", resp.Status)}
	case rerr != nil:
		return &OutcomeError{Ambiguous, fmt.Errorf("%s, then the answer was cut: %w", resp.Status, rerr)}
	}
	if err := json.Unmarshal(body, out); err != nil {
		return &OutcomeError{Ambiguous, fmt.Errorf("%s with an answer that is not the expected JSON: %v", resp.Status, err)}
	}
	return nil
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func newJSONRequest(method, url string, body any) (*http.Request, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(b))
	if err != nil {
		return nil, &OutcomeError{Failed, err}
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// ---- GitHub: RECORD as an issue (target owner/repo) or a comment on one
// (target owner/repo#N). REST API v3 shapes.

type github struct {
	base, token string
	http        *http.Client
}

var githubTarget = lines.Lazy(`^([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)(?:#([0-9]+))?$`)

func (g *github) Name() string         { return "github" }
func (g *github) Operations() []string { return []string{Record} }

func (g *github) Label(target string) (string, error) {
	if !githubTarget.MatchString(target) {
		return "", fmt.Errorf("github target %q: want owner/repo (create an issue) or owner/repo#123 (append a comment)", target)
	}
	return "github:" + target, nil
}

func (g *github) Publish(ctx context.Context, v *View, target string) (string, error) {
	m := githubTarget.FindStringSubmatch(target)
	if m == nil {
		_, err := g.Label(target)
		return "", &OutcomeError{Failed, err}
	}
	body := InertGitHub(v.Body)
	var req *http.Request
	var err error
	if m[3] == "" {
		req, err = newJSONRequest(http.MethodPost, fmt.Sprintf("%s/repos/%s/%s/issues", g.base, m[1], m[2]),
			map[string]string{"title": InertGitHub(v.Title), "body": body})
	} else {
		req, err = newJSONRequest(http.MethodPost, fmt.Sprintf("%s/repos/%s/%s/issues/%s/comments", g.base, m[1], m[2], m[3]),
			map[string]string{"body": "## " + InertGitHub(v.Title) + "\n\n" + body})
	}
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("Authorization", "Bearer "+g.token)
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	var out struct {
		HTMLURL string `json:"html_url"`
	}
	if err := do(ctx, g.http, req, &out); err != nil {
		return "", err
	}
	if out.HTMLURL == "" {
		return "", &OutcomeError{Ambiguous, errors.New("created, but the answer has no html_url")}
	}
	return out.HTMLURL, nil
}

// InertGitHub keeps @mentions and #references from notifying anyone: a word
// joiner after '@' breaks GitHub's mention syntax while reading the same.
func InertGitHub(s string) string { return strings.ReplaceAll(s, "@", "@\u2060") }

// ---- Jira Cloud: RECORD as an issue (target PROJECT) or a comment on one
// (target PROJECT-123). REST API v3 with an Atlassian Document Format body.

type jira struct {
	base, email, token string
	http               *http.Client
}

var (
	jiraProject = lines.Lazy(`^[A-Z][A-Z0-9_]+$`)
	jiraIssue   = lines.Lazy(`^[A-Z][A-Z0-9_]+-[0-9]+$`)
)

func (j *jira) Name() string         { return "jira" }
func (j *jira) Operations() []string { return []string{Record} }

func (j *jira) Label(target string) (string, error) {
	if !jiraProject.MatchString(target) && !jiraIssue.MatchString(target) {
		return "", fmt.Errorf("jira target %q: want a project key (PROJ, create an issue) or an issue key (PROJ-123, append a comment)", target)
	}
	return "jira:" + target, nil
}

// adf is plain text as an Atlassian Document: one paragraph per line. Text
// nodes carry no mention marks, so mentions are inert by construction.
func adf(s string) map[string]any {
	var paras []any
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		paras = append(paras, map[string]any{"type": "paragraph", "content": []any{map[string]any{"type": "text", "text": line}}})
	}
	return map[string]any{"type": "doc", "version": 1, "content": paras}
}

func (j *jira) Publish(ctx context.Context, v *View, target string) (string, error) {
	var req *http.Request
	var err error
	switch {
	case jiraIssue.MatchString(target):
		req, err = newJSONRequest(http.MethodPost, j.base+"/rest/api/3/issue/"+target+"/comment",
			map[string]any{"body": adf(v.Title + "\n" + v.Body)})
	case jiraProject.MatchString(target):
		req, err = newJSONRequest(http.MethodPost, j.base+"/rest/api/3/issue", map[string]any{"fields": map[string]any{
			"project": map[string]string{"key": target}, "summary": v.Title, "description": adf(v.Body),
			"issuetype": map[string]string{"name": "Task"}}})
	default:
		_, err := j.Label(target)
		return "", &OutcomeError{Failed, err}
	}
	if err != nil {
		return "", err
	}
	req.SetBasicAuth(j.email, j.token)
	var out struct {
		ID   string `json:"id"`
		Key  string `json:"key"`
		Self string `json:"self"`
	}
	if err := do(ctx, j.http, req, &out); err != nil {
		return "", err
	}
	switch {
	case out.Key != "":
		return j.base + "/browse/" + out.Key, nil
	case out.Self != "":
		return out.Self, nil
	}
	return "", &OutcomeError{Ambiguous, errors.New("created, but the answer names no issue or comment")}
}

// ---- Slack: DISCUSS as a message (target a channel id or #name) or a reply
// in a thread (target CHANNEL:THREAD_TS). Web API chat.postMessage.

type slack struct {
	base, token string
	http        *http.Client
}

var slackTarget = lines.Lazy(`^(#?[A-Za-z0-9_-]+)(?::([0-9]+\.[0-9]+))?$`)

func (s *slack) Name() string         { return "slack" }
func (s *slack) Operations() []string { return []string{Discuss} }

func (s *slack) Label(target string) (string, error) {
	if !slackTarget.MatchString(target) {
		return "", fmt.Errorf("slack target %q: want a channel (C0123ABC or #name) or CHANNEL:THREAD_TS to reply in a thread", target)
	}
	return "slack:" + target, nil
}

// InertSlack escapes &, < and > as Slack requires, so <@U…>, <!channel> and
// <!here> in the text are shown, not acted on.
func InertSlack(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func (s *slack) Publish(ctx context.Context, v *View, target string) (string, error) {
	m := slackTarget.FindStringSubmatch(target)
	if m == nil {
		_, err := s.Label(target)
		return "", &OutcomeError{Failed, err}
	}
	msg := map[string]any{"channel": m[1], "text": InertSlack(v.Body), "unfurl_links": false, "unfurl_media": false,
		"link_names": false}
	if m[2] != "" {
		msg["thread_ts"] = m[2]
	}
	req, err := newJSONRequest(http.MethodPost, s.base+"/chat.postMessage", msg)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	var out struct {
		OK      bool   `json:"ok"`
		Error   string `json:"error"`
		Channel string `json:"channel"`
		TS      string `json:"ts"`
	}
	if err := do(ctx, s.http, req, &out); err != nil {
		return "", err
	}
	if !out.OK {
		// Slack answers 200 with ok:false for a rejected call: nothing posted.
		return "", &OutcomeError{Failed, fmt.Errorf("slack: %s", orDefault(out.Error, "ok:false"))}
	}
	if out.TS == "" {
		return "", &OutcomeError{Ambiguous, errors.New("posted, but the answer has no ts")}
	}
	return "slack:" + out.Channel + ":" + out.TS, nil
}
