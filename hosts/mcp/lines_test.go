package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestLineTransportSurvivesBadLines serves the real server over
// LineTransport (as `ctx mcp` does) to a client that sends, between good
// requests, a line that is not JSON, JSON that is not a JSON-RPC message, an
// empty batch and a line over the size limit. Each bad line gets its own
// error reply and the session goes on: the requests after them are answered.
func TestLineTransportSurvivesBadLines(t *testing.T) {
	d, _ := testDeps(t, "s")
	in := strings.Join([]string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"id":7,"foo":1}`,
		``,
		`[1,2]`,
		`[]`,
		`{"jsonrpc":"2.0","id":9,"method":"x","params":"` + strings.Repeat("a", 300) + `"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr := DrainTransport{Transport: LineTransport{In: strings.NewReader(in), Out: &out, Max: 256}}
	if err := New(d).Run(ctx, tr); err != nil && ctx.Err() != nil {
		t.Fatalf("run: %v", err)
	}
	type reply struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("reply %q is not JSON: %v", l, err)
		}
		s := string(r.ID)
		if r.Error != nil {
			s += fmt.Sprintf(" error %d", r.Error.Code)
			if r.Error.Message == "" {
				t.Errorf("reply %s: error without a message", l)
			}
		} else {
			s += " result"
		}
		got = append(got, s)
	}
	// Replies come in the order the server finishes them.
	sort.Strings(got)
	want := []string{"1 result", "2 result", "7 error -32600", "null error -32600", "null error -32600", "null error -32700", "null error -32700"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("replies:\n got %q\nwant %q\nout:\n%s", got, want, out.String())
	}
}
