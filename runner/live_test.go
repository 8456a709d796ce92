package runner

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/ctxhq/ctx/digest"
)

// TestCaptureParsedLive captures outputs past digest.LiveStart, in pipe and
// pty mode, through real commands: the digest comes from the parse that ran
// alongside the capture, and it is the digest rendered from the stored run
// after the end, byte for byte. A run whose stream passes its cap is not
// parsed live (the spool's ring rewrote what was read).
func TestCaptureParsedLive(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv []string
		pipe bool
		cap  int64
		live bool
	}{
		{"seq pipe", []string{"seq", "1", "400000"}, true, 0, true},
		{"seq pty", []string{"seq", "1", "400000"}, false, 0, true},
		{"errors on both streams", []string{"sh", "-c", `seq 1 300000; echo "error: disk full" >&2; seq 1 1000 >&2; exit 2`}, true, 0, true},
		{"past the cap", []string{"seq", "1", "400000"}, true, 1 << 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, dir := newEnv(t)
			var phases []string
			env.Trace = func(p string) { phases = append(phases, p) }
			res, err := Capture(context.Background(), env, &Request{Argv: tc.argv, Dir: dir, Pipe: tc.pipe, Cap: tc.cap})
			if err != nil {
				t.Fatal(err)
			}
			if res.DigestErr != nil {
				t.Fatal(res.DigestErr)
			}
			parsedLive := slices.Contains(phases, "digest (parsed live)")
			if parsedLive != tc.live {
				t.Errorf("parsed live %v, want %v (phases %v)", parsedLive, tc.live, phases)
			}
			after, err := digest.Make(context.Background(), env.Store, res.Run, digest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(res.Text(), after.Digest.Text) || res.Digest.ReceiptID != after.ReceiptID {
				t.Errorf("live digest differs from the stored run's:\n%s\n---\n%s", res.Text(), after.Digest.Text)
			}
		})
	}
}
