package remote

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
)

// DefaultTimeout bounds how long one request waits to connect and, once
// sent, for the server's answer to begin (its response headers; a large
// body may take longer to arrive). The S3 client's own wait is a minute,
// and it retries a request ten times.
const DefaultTimeout = 20 * time.Second

// TimeoutEnv overrides the configuration's timeout for one command (a Go
// duration: "90s").
const TimeoutEnv = "CTX_REMOTE_TIMEOUT"

// timeout is the request timeout in force: $CTX_REMOTE_TIMEOUT, else the
// configuration's, else DefaultTimeout.
func (c *Config) timeout() (time.Duration, error) {
	s, from := c.Timeout, "timeout in "+c.name()
	if env := os.Getenv(TimeoutEnv); env != "" {
		s, from = env, "$"+TimeoutEnv
	}
	if s == "" {
		return DefaultTimeout, nil
	}
	d, err := parseTimeout(s)
	if err != nil {
		return 0, fmt.Errorf("remote %s: %s = %q: %w", c.Endpoint, from, s, err)
	}
	return d, nil
}

func parseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, errors.New(`want a positive duration such as "30s" or "2m"`)
	}
	return d, nil
}

// name is the file the configuration came from, or its usual name.
func (c *Config) name() string {
	if c.path != "" {
		return c.path
	}
	return ConfigName
}

// newTransport is minio's transport with the connect and response-header
// waits bounded by d, behind a silence guard.
func newTransport(secure bool, d time.Duration) (http.RoundTripper, error) {
	tr, err := minio.DefaultTransport(secure)
	if err != nil {
		return nil, err
	}
	tr.DialContext = (&net.Dialer{Timeout: d, KeepAlive: 15 * time.Second}).DialContext
	tr.ResponseHeaderTimeout = d
	return &silenceGuard{next: tr, wait: d, hold: max(d, minHold)}, nil
}

// minHold outlasts the S3 client's back-off over its ten attempts (at most
// a second each): every retry of a request that met silence fails at once.
const minHold = 10 * time.Second

// silenceGuard fails a request at once while the server has just let one
// go unanswered for the whole timeout: the S3 client retries a request ten
// times, which against a silent server is ten timeouts. Once hold has
// passed since the silence, requests go to the server again, so a server
// that was only slow for a moment (a restart) is asked again by the next
// operation, and a request that ends in any other way (refused, an error
// from the server) is never held back.
type silenceGuard struct {
	next http.RoundTripper
	wait time.Duration // the timeout, for the error
	hold time.Duration // how long requests fail at once after a silence

	mu     sync.Mutex
	silent *TimeoutError // the last unanswered request, nil if none
	until  time.Time     // requests fail at once until then
}

func (g *silenceGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	g.mu.Lock()
	if g.silent != nil && time.Now().Before(g.until) {
		e := g.silent
		g.mu.Unlock()
		return nil, e
	}
	g.mu.Unlock()
	resp, err := g.next.RoundTrip(req)
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() && req.Context().Err() == nil {
		e := &TimeoutError{After: g.wait, err: err}
		g.mu.Lock()
		g.silent, g.until = e, time.Now().Add(g.hold)
		g.mu.Unlock()
		return nil, e
	}
	return resp, err
}

// TimeoutError is a request the server did not accept or begin to answer
// within the timeout.
type TimeoutError struct {
	After time.Duration
	err   error
}

func (e *TimeoutError) Error() string { return fmt.Sprintf("no answer within %s", e.After) }
func (e *TimeoutError) Unwrap() error { return e.err }

// Timeout marks it as a net.Error timeout.
func (e *TimeoutError) Timeout() bool { return true }

// Temporary is false: the next attempt would wait as long.
func (e *TimeoutError) Temporary() bool { return false }

var _ net.Error = (*TimeoutError)(nil)
