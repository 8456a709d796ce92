package mcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTransport wraps an MCP transport so that the end of the client's input
// does not cut off replies: a client may write its requests and close stdin
// at once (a script, `printf … | ctx mcp`), and every request read before the
// end must still be answered. The connection reports the end of input only
// once each call it read has had its response written (or ctx is stopped).
type DrainTransport struct{ sdk.Transport }

func (t DrainTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	d := &drainConn{Connection: c, pending: map[jsonrpc.ID]int{}}
	d.idle = sync.NewCond(&d.mu)
	return d, nil
}

type drainConn struct {
	sdk.Connection
	mu      sync.Mutex
	idle    *sync.Cond
	pending map[jsonrpc.ID]int // calls read and not yet answered
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.waitIdle(ctx)
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID]++
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.pending[resp.ID]--; c.pending[resp.ID] <= 0 {
			delete(c.pending, resp.ID)
		}
		c.idle.Broadcast()
		c.mu.Unlock()
	}
	return err
}

// waitIdle blocks until every call read has been answered, or ctx ends.
func (c *drainConn) waitIdle(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		c.idle.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.pending) > 0 && ctx.Err() == nil {
		c.idle.Wait()
	}
}
