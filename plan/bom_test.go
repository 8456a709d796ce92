package plan

import (
	"strings"
	"testing"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
)

// TestUTF16IsNotCalledBinary: a stream the sniffer recognised by its UTF-16
// byte-order mark is labelled with that encoding, in the header and in its
// line, with a way to read it that works (iconv); an executable is still
// binary with a hexdump handle.
func TestUTF16IsNotCalledBinary(t *testing.T) {
	for _, tt := range []struct {
		typ, header, line, hint string
	}{
		{"text/plain; charset=utf-16le", "stdout 96 B UTF-16LE", "stdout: 96 B UTF-16LE (it starts with a UTF-16LE byte-order mark; ctx reads UTF-8 only, so it is not parsed)",
			"ctx get run:0123456789ab#stdout --raw | iconv -f UTF-16 -t UTF-8"},
		{"text/plain; charset=utf-16be", "stdout 96 B UTF-16BE", "stdout: 96 B UTF-16BE (it starts with a UTF-16BE", "iconv -f UTF-16"},
		{"ELF executable", "stdout 96 B binary", "stdout: 96 B binary (ELF executable)", "ctx get run:0123456789ab#stdout --hex"},
	} {
		g := &evidence.Graph{Profile: "text", Version: 1}
		g.Add(evidence.Item{Kind: evidence.KindBinary, Name: "stdout", Count: 96, Attrs: map[string]string{"type": tt.typ}})
		g.Seal("run:0123456789ab")
		streams := []StreamInfo{{Name: "stdout", Size: 96, Binary: true}}
		c, err := contract.Load("text", "pass", "")
		if err != nil {
			t.Fatal(err)
		}
		p := Decide(g, c, Inputs{Status: "exited", Streams: streams})
		d, err := Render(Input{Run: RunInfo{Handle: "run:0123456789ab", Argv: []string{"cat", "x"}, Dir: ".", Status: "exited"},
			Streams: streams, Graph: g, Contract: c, Plan: p})
		if err != nil {
			t.Fatal(err)
		}
		text := string(d.Text)
		for _, w := range []string{" · " + tt.header + "\n", tt.line, tt.hint} {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the digest does not say %q:\n%s", tt.typ, w, text)
			}
		}
		if strings.HasPrefix(tt.typ, "text/") && strings.Contains(text, "binary") {
			t.Errorf("%s is called binary:\n%s", tt.typ, text)
		}
	}
}
