package weedtest

import (
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Proxy is a TCP proxy in front of a server that can be made slow: each
// chunk it forwards in either direction waits Delay first. The bytes are
// the server's own; only their timing changes.
type Proxy struct {
	Endpoint string
	ln       net.Listener
	delay    atomic.Int64
}

// NewProxy starts a proxy to the server's S3 port for the test.
func NewProxy(t testing.TB, s *Server) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, Endpoint: "http://" + ln.Addr().String()}
	target := strings.TrimPrefix(s.Endpoint, "http://")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c, target)
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return p
}

// SetDelay sets the wait before each forwarded chunk.
func (p *Proxy) SetDelay(d time.Duration) { p.delay.Store(int64(d)) }

func (p *Proxy) serve(c net.Conn, target string) {
	defer c.Close()
	s, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer s.Close()
	done := make(chan struct{}, 2)
	go func() { p.copy(s, c); done <- struct{}{} }()
	go func() { p.copy(c, s); done <- struct{}{} }()
	<-done
}

func (p *Proxy) copy(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if d := time.Duration(p.delay.Load()); d > 0 {
				time.Sleep(d)
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				return
			}
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			return
		}
	}
}
