// Package jsonout writes the --json form of ctx's commands and tool results:
// indented, with HTML characters as they are, and redacted as a whole once
// more (every path redacts what it reads; this is where text leaves ctx).
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/ctxhq/ctx/secrets"
)

// Write encodes v to w, indented and redacted.
func Write(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out, _ := secrets.Text(buf.Bytes())
	_, err := w.Write(out)
	return err
}
