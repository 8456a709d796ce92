package relay

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctxhq/ctx/capsule"
	"github.com/ctxhq/ctx/store"
)

// capsuleJSON is the canonical JSON of a capsule with this goal and any
// further TOML lines.
func capsuleJSON(t *testing.T, goal string, more ...string) []byte {
	t.Helper()
	in, err := capsule.ParseInput([]byte("goal = \"" + goal + "\"\nnext_action = \"n\"\n" + strings.Join(more, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	c, err := in.Capsule("", func(string) (string, error) { return "", errors.New("no git") })
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newRelay serves a relay on 127.0.0.1 (httptest binds loopback).
func newRelay(t *testing.T) (*Server, *Client, *clock) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewServer()
	s.Now = clk.now
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	if !strings.HasPrefix(ts.URL, "http://127.0.0.1:") {
		t.Fatalf("test relay at %s, want loopback", ts.URL)
	}
	return s, &Client{Base: ts.URL}, clk
}

func TestSendFetchTTLAndDeleteAfterRead(t *testing.T) {
	ctx := context.Background()
	s, c, clk := newRelay(t)
	data := capsuleJSON(t, "g")
	r, err := c.Send(ctx, data, time.Hour, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != store.Sum(data).String() {
		t.Fatalf("relay id %s is not the capsule's content id", r.ID)
	}
	for range 2 {
		got, err := c.Fetch(ctx, r.ID)
		if err != nil || string(got) != string(data) {
			t.Fatalf("fetch: %v", err)
		}
	}
	clk.add(time.Hour)
	if _, err := c.Fetch(ctx, r.ID); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("after the TTL: %v", err)
	}
	if n, bytes := s.Len(); n != 0 || bytes != 0 {
		t.Fatalf("expired capsule still held: %d, %d bytes", n, bytes)
	}

	once := capsuleJSON(t, "once")
	r, err = c.Send(ctx, once, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(ctx, r.ID); err == nil {
		t.Fatal("a delete-after-read capsule was read twice")
	}
}

func TestRefusals(t *testing.T) {
	ctx := context.Background()
	s, c, _ := newRelay(t)
	s.MaxCapsule = 200
	big := capsuleJSON(t, strings.Repeat("x", 300))
	if _, err := c.Send(ctx, big, 0, false); err == nil || !strings.Contains(err.Error(), "413") {
		t.Fatalf("oversize: %v", err)
	}
	s.MaxCapsule = capsule.MaxSize
	if _, err := c.Send(ctx, []byte(`{"goal":"not canonical"}`), 0, false); err == nil || !strings.Contains(err.Error(), "422") {
		t.Fatalf("invalid capsule: %v", err)
	}
	if _, err := c.Send(ctx, capsuleJSON(t, "g"), 30*24*time.Hour, false); err == nil || !strings.Contains(err.Error(), "over this relay's limit") {
		t.Fatalf("ttl over the limit: %v", err)
	}
	s.MaxTotal = int64(len(capsuleJSON(t, "a"))) + 10
	if _, err := c.Send(ctx, capsuleJSON(t, "a"), 0, false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Send(ctx, capsuleJSON(t, "b"), 0, false); err == nil || !strings.Contains(err.Error(), "full") {
		t.Fatalf("over the memory bound: %v", err)
	}
}

func TestConcurrentClients(t *testing.T) {
	ctx := context.Background()
	s, c, _ := newRelay(t)
	var wg sync.WaitGroup
	ids := make([]string, 16)
	errs := make(chan error, 64)
	for i := range ids {
		wg.Go(func() {
			r, err := c.Send(ctx, capsuleJSON(t, "g"+strings.Repeat("x", i)), 0, i%2 == 0)
			if err != nil {
				errs <- err
				return
			}
			ids[i] = r.ID
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n, _ := s.Len(); n != len(ids) {
		t.Fatalf("%d kept, want %d", n, len(ids))
	}
	// Four readers race for each delete-after-read capsule: exactly one wins.
	var wins atomic.Int32
	for i := 0; i < len(ids); i += 2 {
		for range 4 {
			wg.Go(func() {
				if _, err := c.Fetch(ctx, ids[i]); err == nil {
					wins.Add(1)
				}
			})
		}
	}
	wg.Wait()
	if got := wins.Load(); got != int32(len(ids)/2) {
		t.Fatalf("%d successful reads of %d read-once capsules", got, len(ids)/2)
	}
}

func TestCheckBind(t *testing.T) {
	for _, tc := range []struct {
		addr  string
		allow bool
		ok    bool
	}{
		{"127.0.0.1:7777", false, true},
		{"[::1]:7777", false, true},
		{"localhost:0", false, true},
		{"0.0.0.0:7777", false, false},
		{"192.168.1.5:7777", false, false},
		{"0.0.0.0:7777", true, true},
		{"nonsense", false, false},
	} {
		if err := CheckBind(tc.addr, tc.allow); (err == nil) != tc.ok {
			t.Errorf("CheckBind(%s, %v) = %v", tc.addr, tc.allow, err)
		}
	}
}

// TestCapsuleExpiresAtIsAHardEnd: a capsule's own expires_at ends its stay
// on the relay even when the sender asked for a longer TTL, and a capsule
// already past it is refused.
func TestCapsuleExpiresAtIsAHardEnd(t *testing.T) {
	ctx := context.Background()
	s, c, clk := newRelay(t) // the clock starts at 2026-01-01T00:00:00Z
	withExpiry := func(at string) []byte { return capsuleJSON(t, "g", `expires_at = "`+at+`"`) }
	r, err := c.Send(ctx, withExpiry("2026-01-01T00:30:00Z"), 2*time.Hour, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.ExpiresAt != "2026-01-01T00:30:00Z" {
		t.Errorf("relay expiry %s, want the capsule's expires_at", r.ExpiresAt)
	}
	clk.add(29 * time.Minute)
	if _, err := c.Fetch(ctx, r.ID); err != nil {
		t.Fatalf("before expires_at: %v", err)
	}
	clk.add(time.Minute)
	if _, err := c.Fetch(ctx, r.ID); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("at expires_at: %v", err)
	}
	if n, _ := s.Len(); n != 0 {
		t.Fatalf("%d capsules held after expires_at", n)
	}
	if _, err := c.Send(ctx, withExpiry("2025-12-31T00:00:00Z"), 0, false); err == nil || !strings.Contains(err.Error(), "expired at 2025-12-31T00:00:00Z") {
		t.Fatalf("an already expired capsule: %v", err)
	}
	// A TTL shorter than expires_at still wins.
	r, err = c.Send(ctx, withExpiry("2027-01-01T00:00:00Z"), time.Minute, false)
	if err != nil || r.ExpiresAt != "2026-01-01T00:31:00Z" {
		t.Fatalf("short ttl: %+v %v", r, err)
	}
}
