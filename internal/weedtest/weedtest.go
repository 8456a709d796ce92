// Package weedtest starts a real SeaweedFS server (weed server -s3) on free
// loopback ports for the remote tier's integration tests, and stops it when
// the test ends. The server is a real S3 implementation: the tests talk to
// it through the same client ctx uses.
//
// weed must be on PATH (.ci/run builds it; docs/remote.md says how). Without
// it a test is skipped, or fails in CI (internal/testenv).
//
// It is imported only by tests.
package weedtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ctxhq/ctx/internal/testenv"
)

// InstallHint says how to get weed.
const InstallHint = "build SeaweedFS as .ci/run does: go mod download github.com/seaweedfs/seaweedfs@v0.0.0-20261109003541-7506e5f91cd6, then go build -o /usr/local/bin/weed ./weed in its module directory"

// Server is a running SeaweedFS with its S3 gateway.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT
	S3Port   int
	dir      string
	args     []string
	weed     string
	cmd      *exec.Cmd
	done     chan struct{}
	log      *os.File
}

// Options change how the server starts.
type Options struct {
	// S3Config is the text of an S3 identities file (JSON, SeaweedFS's
	// -s3.config); empty: no identities, every request allowed.
	S3Config string
}

// Start starts a server for the test, with its data in a temporary
// directory, and stops it at the end of the test.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	dir := t.TempDir()
	s := New(t, dir, opts)
	t.Cleanup(s.Stop)
	return s
}

// New starts a server with its data in dir; the caller stops it (for a
// server shared by a package's tests, stopped in TestMain).
func New(t testing.TB, dir string, opts Options) *Server {
	t.Helper()
	weed := testenv.Tool(t, InstallHint, "weed")
	ports := freePorts(t, 8)
	s := &Server{weed: weed, dir: dir, S3Port: ports[6], Endpoint: fmt.Sprintf("http://127.0.0.1:%d", ports[6])}
	p := func(i int) string { return strconv.Itoa(ports[i]) }
	s.args = []string{"server", "-dir=" + filepath.Join(dir, "data"), "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-master.port=" + p(0), "-master.port.grpc=" + p(1), "-volume.port=" + p(2), "-volume.port.grpc=" + p(3),
		"-filer.port=" + p(4), "-filer.port.grpc=" + p(5), "-s3", "-s3.port=" + p(6), "-s3.port.grpc=" + p(7),
		"-s3.port.iceberg=0", "-s3.port.lance=0", "-master.telemetry=false", "-master.volumeSizeLimitMB=64",
		"-volume.max=64"}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if opts.S3Config != "" {
		p := filepath.Join(dir, "s3.json")
		if err := os.WriteFile(p, []byte(opts.S3Config), 0o600); err != nil {
			t.Fatal(err)
		}
		s.args = append(s.args, "-s3.config="+p)
	}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitReady(90 * time.Second); err != nil {
		t.Fatalf("%v\n%s", err, s.Log())
	}
	return s
}

func (s *Server) start() error {
	log, err := os.OpenFile(filepath.Join(s.dir, "weed.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	s.log = log
	s.cmd = exec.Command(s.weed, s.args...)
	s.cmd.Dir = s.dir
	s.cmd.Stdout, s.cmd.Stderr = log, log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start weed: %w", err)
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { _ = cmd.Wait(); close(done) }(s.cmd, s.done)
	return nil
}

// WaitReady waits until the S3 gateway answers an S3 request (a bucket
// listing, anonymous: the server runs without identities).
func (s *Server) WaitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("weed exited before it was ready")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		ok := s.answers(ctx)
		cancel()
		if ok {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("weed's S3 gateway did not answer within %s", limit)
}

// answers reports whether the S3 port answers an HTTP request with an S3
// reply (any status but a gateway error).
func (s *Server) answers(ctx context.Context) bool {
	return probe(ctx, s.Endpoint+"/")
}

// Stop stops the server (SIGTERM, then SIGKILL after 10 s) and waits for it.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	s.log.Close()
}

// Kill stops the server at once (SIGKILL), as a crash or a lost machine would.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
	s.log.Close()
}

// Restart starts the stopped server again on the same ports and data.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitReady(90 * time.Second); err != nil {
		t.Fatalf("%v\n%s", err, s.Log())
	}
}

// Log returns the end of the server's log, for a failing test's message.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "weed.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// freePorts returns n distinct free loopback ports.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}
