package remote

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

// fakeTrip answers a request with the next of its errors (nil: a 200).
type fakeTrip struct{ errs []error }

func (f *fakeTrip) RoundTrip(*http.Request) (*http.Response, error) {
	err := f.errs[0]
	f.errs = f.errs[1:]
	if err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "timeout awaiting response headers" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// The guard holds requests back only for a while after a silence, and
// never after a refusal or an answer.
func TestSilenceGuard(t *testing.T) {
	refused := &net.OpError{Op: "dial", Err: errors.New("connection refused")}
	next := &fakeTrip{errs: []error{refused, nil, timeoutErr{}, nil}}
	g := &silenceGuard{next: next, wait: time.Second, hold: 100 * time.Millisecond}
	req, _ := http.NewRequest("GET", "http://127.0.0.1:1/", nil)
	step := func(want string) {
		t.Helper()
		_, err := g.RoundTrip(req)
		if got := fmt.Sprint(err); !strings.Contains(got, want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	step("connection refused")
	step("<nil>") // not held back after a refusal
	step("no answer within 1s")
	before := len(next.errs)
	step("no answer within 1s") // held back: the server is not asked
	if len(next.errs) != before {
		t.Error("a request during the hold reached the server")
	}
	time.Sleep(150 * time.Millisecond)
	step("<nil>") // asked again once the hold is over
}

// silentServer is a loopback endpoint that accepts connections and never
// answers (a hung proxy, a server stuck before its first byte) until
// answer is closed; then it answers every request 404. It holds every
// connection until the test ends and counts the requests it was sent.
func silentServer(t *testing.T, answer <-chan struct{}) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	var n atomic.Int64
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		select {
		case <-answer:
			w.WriteHeader(http.StatusNotFound)
		case <-r.Context().Done():
		}
	})}
	conns.Add(1)
	go func() { defer conns.Done(); _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); conns.Wait() })
	return "http://" + ln.Addr().String(), &n
}

// A pull from a server that accepts and never answers fails after about
// the configured timeout, not after the S3 client's ten retries of a minute
// each, with an error that names the remote, the wait and the fix; the
// retries within the silence do not reach the server; CTX_REMOTE_TIMEOUT
// overrides the file.
func TestSilentServerTimesOut(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	for _, tc := range []struct {
		name, file, env string
		want            time.Duration
	}{
		{"config", "2s", "", 2 * time.Second},
		{"environment", "1h", "1500ms", 1500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := make(chan struct{})
			ep, sent := silentServer(t, answer)
			t.Setenv(TimeoutEnv, tc.env)
			r, err := Open(&Config{Endpoint: ep, Bucket: testBucket, Prefix: uniquePrefix(), Region: "us-east-1", Push: "manual", Timeout: tc.file})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			start := time.Now()
			_, _, err = Pull(ctx, newStore(t), r, handle("run", store.ID{1}))
			took := time.Since(start)
			if err == nil {
				t.Fatal("a pull from a silent server succeeded")
			}
			t.Logf("failed after %s (%d requests reached the server): %v", took, sent.Load(), err)
			// The S3 client's back-off between its ten attempts is at most
			// a second each.
			if took < tc.want || took > tc.want+12*time.Second {
				t.Errorf("failed after %s, want about %s", took, tc.want)
			}
			if sent.Load() > 2 {
				t.Errorf("%d requests reached a server that had not answered", sent.Load())
			}
			for _, want := range []string{"at " + ep, "no answer within " + tc.want.String(), "does not answer", TimeoutEnv, "raise timeout"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not say %q: %v", want, err)
				}
			}
			close(answer)
		})
	}
}

// A bad timeout is refused by name, in the file and in the environment.
func TestTimeoutRefused(t *testing.T) {
	if _, err := ParseConfig([]byte("endpoint = \"http://127.0.0.1:1\"\nbucket = \"b-1\"\ntimeout = \"20\"\n")); err == nil || !strings.Contains(err.Error(), `timeout = "20"`) {
		t.Errorf("timeout = \"20\" in the file: %v", err)
	}
	t.Setenv(TimeoutEnv, "soon")
	if _, err := Open(&Config{Endpoint: "http://127.0.0.1:1", Bucket: testBucket}); err == nil || !strings.Contains(err.Error(), "$"+TimeoutEnv) {
		t.Errorf("a bad %s: %v", TimeoutEnv, err)
	}
}
