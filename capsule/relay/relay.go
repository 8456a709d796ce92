// Package relay is a small HTTP relay that keeps capsules for a while so a
// session on another machine can fetch them: TTL, optional delete-after-read,
// a size limit per capsule and a memory bound over all of them. It stores
// only what it is sent, validated as a capsule, and never learns lineage,
// verdicts or anything about the sender's checkout. It must never be bound
// beyond loopback unless its operator asks.
package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ctxhq/ctx/capsule"
	"github.com/ctxhq/ctx/store"
)

// Defaults for a relay.
const (
	DefaultTTL        = 24 * time.Hour
	DefaultMaxTTL     = 7 * 24 * time.Hour
	DefaultMaxTotal   = 64 << 20
	DefaultMaxEntries = 4096
)

// Server keeps capsules in memory. Its fields are read-only once it serves.
type Server struct {
	MaxCapsule int64         // bytes per capsule (capsule.MaxSize when 0)
	MaxTotal   int64         // bytes over all kept capsules
	MaxEntries int           // capsules kept at once
	DefaultTTL time.Duration // when a sender names none
	MaxTTL     time.Duration // the longest a sender may ask for
	Now        func() time.Time

	mu      sync.Mutex
	entries map[string]*entry
	total   int64
}

type entry struct {
	data            []byte
	expires         time.Time
	deleteAfterRead bool
}

// Receipt is what a relay answers to a send.
type Receipt struct {
	ID              string `json:"id"`
	ExpiresAt       string `json:"expires_at"`
	DeleteAfterRead bool   `json:"delete_after_read"`
}

// NewServer returns a server with the defaults.
func NewServer() *Server {
	return &Server{MaxCapsule: capsule.MaxSize, MaxTotal: DefaultMaxTotal, MaxEntries: DefaultMaxEntries,
		DefaultTTL: DefaultTTL, MaxTTL: DefaultMaxTTL, Now: time.Now}
}

// ServeHTTP answers POST /v1/capsules and GET /v1/capsules/{id}.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/capsules" && r.Method == http.MethodPost:
		s.put(w, r)
	case strings.HasPrefix(r.URL.Path, "/v1/capsules/") && r.Method == http.MethodGet:
		s.get(w, strings.TrimPrefix(r.URL.Path, "/v1/capsules/"))
	default:
		httpError(w, http.StatusNotFound, "want POST /v1/capsules or GET /v1/capsules/{id}")
	}
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func (s *Server) put(w http.ResponseWriter, r *http.Request) {
	limit := s.MaxCapsule
	if limit <= 0 {
		limit = capsule.MaxSize
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("capsule over this relay's limit of %d bytes", limit))
			return
		}
		httpError(w, http.StatusBadRequest, "read the body: "+err.Error())
		return
	}
	c, err := capsule.Decode(data)
	if err != nil {
		httpError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	ttl := s.DefaultTTL
	if v := r.URL.Query().Get("ttl"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("ttl %q: want a positive duration such as 30m", v))
			return
		}
		ttl = d
	}
	if s.MaxTTL > 0 && ttl > s.MaxTTL {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("ttl %s: over this relay's limit of %s", ttl, s.MaxTTL))
		return
	}
	dar := r.URL.Query().Get("delete_after_read") == "1"
	id := store.Sum(data).String()
	now := s.Now()
	expires := now.Add(ttl)
	if t, ok := capsuleExpiry(c); ok && t.Before(expires) {
		expires = t // the capsule's own expires_at is a hard end no TTL extends
	}
	if !now.Before(expires) {
		httpError(w, http.StatusUnprocessableEntity, "the capsule expired at "+c.ExpiresAt+" (its expires_at); capture a fresh one")
		return
	}
	s.mu.Lock()
	s.sweep(now)
	if old, ok := s.entries[id]; ok {
		s.total -= int64(len(old.data))
		delete(s.entries, id)
	}
	if s.total+int64(len(data)) > s.MaxTotal || len(s.entries) >= s.MaxEntries {
		s.mu.Unlock()
		httpError(w, http.StatusInsufficientStorage, "the relay is full; try again after capsules expire or are read")
		return
	}
	if s.entries == nil {
		s.entries = map[string]*entry{}
	}
	e := &entry{data: data, expires: expires, deleteAfterRead: dar}
	s.entries[id] = e
	s.total += int64(len(data))
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(Receipt{ID: id, ExpiresAt: e.expires.UTC().Format(time.RFC3339), DeleteAfterRead: dar})
}

func (s *Server) get(w http.ResponseWriter, id string) {
	now := s.Now()
	s.mu.Lock()
	s.sweep(now)
	e, ok := s.entries[id]
	if ok && e.deleteAfterRead {
		delete(s.entries, id)
		s.total -= int64(len(e.data))
	}
	s.mu.Unlock()
	if !ok {
		httpError(w, http.StatusNotFound, "no capsule with that id on this relay (expired, already read, or never sent)")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(e.data)
}

// capsuleExpiry is a capsule's expires_at, when it declares one.
func capsuleExpiry(c *capsule.Capsule) (time.Time, bool) {
	if c.ExpiresAt == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, c.ExpiresAt)
	return t, err == nil
}

// sweep drops expired capsules; s.mu is held.
func (s *Server) sweep(now time.Time) {
	for id, e := range s.entries {
		if !now.Before(e.expires) {
			s.total -= int64(len(e.data))
			delete(s.entries, id)
		}
	}
}

// Len reports how many capsules the relay holds and their bytes.
func (s *Server) Len() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries), s.total
}

// CheckBind refuses an address that is not loopback unless allowed.
func CheckBind(addr string, allowNonLoopback bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: want HOST:PORT such as 127.0.0.1:7777", addr)
	}
	if allowNonLoopback {
		return nil
	}
	ip := net.ParseIP(host)
	if host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	return fmt.Errorf("address %q is not loopback: a relay holds handoffs in clear; bind 127.0.0.1, or pass --allow-remote behind your own TLS and access control", addr)
}

// Client talks to a relay.
type Client struct {
	Base string // http://127.0.0.1:7777
	HTTP *http.Client
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// Send posts a capsule's canonical JSON.
func (c *Client) Send(ctx context.Context, data []byte, ttl time.Duration, deleteAfterRead bool) (*Receipt, error) {
	u := strings.TrimRight(c.Base, "/") + "/v1/capsules?"
	if ttl > 0 {
		u += "ttl=" + ttl.String() + "&"
	}
	if deleteAfterRead {
		u += "delete_after_read=1"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("relay %s: %w", c.Base, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, fmt.Errorf("send to relay: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("relay refused the capsule (%s): %s", resp.Status, relayMessage(body))
	}
	var r Receipt
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("relay answer: %w", err)
	}
	return &r, nil
}

// Fetch gets a capsule's bytes by full id.
func (c *Client) Fetch(ctx context.Context, id string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(c.Base, "/")+"/v1/capsules/"+id, nil)
	if err != nil {
		return nil, fmt.Errorf("relay %s: %w", c.Base, err)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch from relay: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, capsule.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("fetch from relay: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("relay (%s): %s", resp.Status, relayMessage(body))
	}
	return body, nil
}

func relayMessage(body []byte) string {
	var m struct{ Error string }
	if json.Unmarshal(body, &m) == nil && m.Error != "" {
		return m.Error
	}
	return strings.TrimSpace(string(body))
}

// ParseID checks a relay id: the full 64 hex digits, with or without capsule:.
func ParseID(s string) (string, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "capsule:")
	if _, err := store.ParseID(s); err != nil {
		return "", fmt.Errorf("relay id %q: want the full 64-digit id ctx capsule send printed", s)
	}
	return strings.ToLower(s), nil
}
