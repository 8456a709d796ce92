package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage is the longest message LineTransport accepts (the SDK's own
// default frame limit).
const MaxMessage = sdk.DefaultMaxLineLength

// LineTransport is newline-delimited JSON-RPC over In and Out (stdin and
// stdout) that survives bad input. The SDK's own stdio transport ends the
// connection at the first line that is not a JSON-RPC message, so one stray
// line from a client (a log line, a truncated write, `echo hi | ctx mcp`)
// would end the session; here that line gets a JSON-RPC error reply (-32700
// parse error, -32600 invalid request) naming what was wrong, and the next
// line is read as usual.
type LineTransport struct {
	In  io.Reader
	Out io.Writer
	Max int // the longest line accepted; 0 means MaxMessage
}

// Connect starts the filter that passes well-formed lines on to the SDK's
// connection and answers the others itself.
func (t LineTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	limit := t.Max
	if limit <= 0 {
		limit = MaxMessage
	}
	out := &lockedWriter{w: t.Out}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(filterLines(t.In, pw, out, limit)) }()
	return (&sdk.IOTransport{Reader: pr, Writer: out, MaxLineLength: -1}).Connect(ctx)
}

// lockedWriter serialises the SDK's replies and the filter's error replies,
// so that no two lines interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filterLines copies each well-formed message line of in to pass and writes
// an error reply to out for every other non-blank line. It returns nil at the
// end of in.
func filterLines(in io.Reader, pass io.Writer, out io.Writer, limit int) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, long, err := readLine(br, limit)
		if len(bytes.TrimSpace(line)) > 0 || long {
			if reply := check(line, long, limit); reply != nil {
				if _, werr := out.Write(reply); werr != nil {
					return werr
				}
			} else if _, werr := pass.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline; a line over limit bytes is
// read to its end and dropped, reported as long.
func readLine(br *bufio.Reader, limit int) (line []byte, long bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if !long {
			if len(line)+len(frag) > limit+1 {
				line, long = nil, true
			} else {
				line = append(line, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), long, err
	}
}

// check returns the error reply for a line that is not a JSON-RPC message, or
// nil for one the SDK can take.
func check(line []byte, long bool, limit int) []byte {
	if long {
		return errorReply(nil, jsonrpc.CodeParseError,
			fmt.Sprintf("message over %d bytes, dropped: send smaller arguments", limit))
	}
	if !json.Valid(line) {
		return errorReply(nil, jsonrpc.CodeParseError,
			"not JSON: send one JSON-RPC 2.0 message per line")
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		for _, m := range batch {
			if reply := checkMessage(m); reply != nil {
				return reply
			}
		}
		if len(batch) == 0 {
			return errorReply(nil, jsonrpc.CodeInvalidRequest, "empty batch: send at least one message")
		}
		return nil
	}
	return checkMessage(line)
}

// checkMessage is check for one message of a line.
func checkMessage(m []byte) []byte {
	if _, err := jsonrpc.DecodeMessage(m); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(m, &probe)
		return errorReply(probe.ID, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("not a JSON-RPC 2.0 message (%v): want {\"jsonrpc\":\"2.0\",\"id\":N,\"method\":…}", err))
	}
	return nil
}

// errorReply is a JSON-RPC error response line; id is the request's id when
// it could be read, else null.
func errorReply(id json.RawMessage, code int, msg string) []byte {
	var probe any
	if len(id) == 0 || json.Unmarshal(id, &probe) != nil {
		id = json.RawMessage("null")
	} else if _, ok := probe.(string); !ok {
		if _, ok := probe.(float64); !ok {
			id = json.RawMessage("null")
		}
	}
	b, _ := json.Marshal(errorLine{JSONRPC: "2.0", ID: id, Error: wireError{Code: code, Message: msg}})
	return append(b, '\n')
}

// errorLine is a JSON-RPC 2.0 error response.
type errorLine struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   wireError       `json:"error"`
}

type wireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}
